"""The dungeon map: the explored rooms on a grid, with a cursor to inspect any room."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.defs import COLOURS
from mqtui.engine.state import DX, DY, cell_key
from mqtui.store import Snapshot
from mqtui.ui.describe import hero_letters
from mqtui.ui.messages import ActionChosen, RoomSelected
from mqtui.ui.widgets.map_canvas import BIG_PITCH, PITCH_X, PITCH_Y, Canvas, draw

_FIXED: tuple[str, ...] = (
    "border",
    "cursor",
    "name",
    "door",
    "locked",
    "hidden",
    "wall",
    "unexplored",
    "treasure",
)
_FIXED += ("searched", "monster", "passage")


class MapView(Widget, can_focus=True):
    """The map pane. Arrow keys move the cursor; Enter goes to the cursor room if that is a legal move."""

    BINDINGS = [
        Binding("up", "cursor(0)", "Look", id="map.up", show=False),
        Binding("right", "cursor(1)", "Look", id="map.right", show=False),
        Binding("down", "cursor(2)", "Look", id="map.down", show=False),
        Binding("left", "cursor(3)", "Look", id="map.left", show=False),
        Binding("enter", "go", "Go there", id="map.go"),
        Binding("full_stop", "home", "Back to hero", id="map.home"),
    ]
    COMPONENT_CLASSES = {f"map--{name}" for name in _FIXED} | {f"map--{c}" for c in COLOURS}
    DEFAULT_CSS = """
    MapView { background: $surface; height: 1fr; width: 1fr; }
    MapView > .map--border { color: $foreground 45%; }
    MapView > .map--cursor { color: $accent; text-style: bold; }
    MapView > .map--name { color: $foreground; }
    MapView > .map--door { color: $mq-door; text-style: bold; }
    MapView > .map--locked { color: $mq-bad; text-style: bold; }
    MapView > .map--hidden { color: $foreground 60%; text-style: bold italic; }
    MapView > .map--wall { color: $mq-wall; }
    MapView > .map--passage { color: $foreground 45%; }
    MapView > .map--unexplored { color: $accent 80%; text-style: bold; }
    MapView > .map--treasure { color: $mq-treasure; text-style: bold; }
    MapView > .map--searched { color: $foreground 60%; }
    MapView > .map--monster { color: $mq-monster; text-style: bold; }
    MapView > .map--red { color: $mq-red; }
    MapView > .map--blue { color: $mq-blue; }
    MapView > .map--green { color: $mq-green; }
    MapView > .map--yellow { color: $mq-yellow; }
    MapView > .map--orange { color: $mq-orange; }
    MapView > .map--purple { color: $mq-purple; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    """The game as the viewer sees it (bound to the game screen's snapshot)."""

    def __init__(self, cards: CardTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self.cursor: tuple[int, int] = (0, 0)
        self._key: object = None
        self._follow: tuple[int, int, int] | None = None  # (active seat, x, y) the cursor followed
        self._canvas: Canvas | None = None
        self._strips: list[Strip] = []
        self._styles: dict[str, Style] = {}
        self._offset = (0, 0)

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._on_theme)

    def _on_theme(self, _theme: object) -> None:
        self._styles = {}
        self.call_after_refresh(self._restyle)

    def _restyle(self) -> None:
        self._styles = {}
        self._strips = []
        self.refresh()

    # -- state ----------------------------------------------------------------------------------------

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        view = snap.view
        key = (view.rooms, view.edges, view.monsters, [(h.x, h.y, h.dead) for h in view.heroes], view.active)
        if key == self._key:
            return
        self._key = key
        hero = view.heroes[view.active]
        follow = (view.active, hero.x, hero.y)
        if follow != self._follow:
            self._follow = follow
            self.cursor = (hero.x, hero.y)
            self.post_message(RoomSelected(*self.cursor))
        self._rebuild()

    def _rebuild(self) -> None:
        snap = self.snapshot
        if snap is None:
            return
        view = snap.view
        self._canvas = draw(
            self.cards, view, hero_letters(view.heroes), self.cursor, view.active, self._pitch()
        )
        self._strips = []
        self.refresh()

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is not None:
            return style
        if name.startswith(("hero-", "monster-", "arrow-")):
            parts = name.split("-")
            base = self.get_component_rich_style(f"map--{parts[1]}")
            style = base + Style(bold=True)
            if name.endswith("-active"):
                style += Style(reverse=True)
        elif name == "cursor_name":
            style = self.get_component_rich_style("map--name") + Style(bold=True, underline=True)
        elif name:
            style = self.get_component_rich_style(f"map--{name}")
        else:
            style = self.rich_style
        self._styles[name] = style
        return style

    def _make_strips(self) -> list[Strip]:
        if self._strips or self._canvas is None:
            return self._strips
        strips = []
        for row in self._canvas.rows:
            segments: list[Segment] = []
            text, current = "", None
            for ch, name in row:
                if name != current and text:
                    segments.append(Segment(text, self._style(current or "")))
                    text = ""
                current = name
                text += ch
            if text:
                segments.append(Segment(text, self._style(current or "")))
            strips.append(Strip(segments))
        self._strips = strips
        return strips

    # -- drawing --------------------------------------------------------------------------------------

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._canvas.width if self._canvas else 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._canvas.height if self._canvas else 1

    def _view_offset(self) -> tuple[int, int]:
        canvas = self._canvas
        if canvas is None:
            return 0, 0
        w, h = self.size
        px, py = canvas.cell_box(*self.cursor)
        cx, cy = px + canvas.pitch[0] // 2, py + canvas.pitch[1] // 2

        def axis(centre: int, span: int, total: int) -> int:
            if total <= span:
                return -((span - total) // 2)
            return max(0, min(centre - span // 2, total - span))

        return axis(cx, w, canvas.width), axis(cy, h, canvas.height)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self._style("")  # the pane's own style, cached (rich_style walks up the DOM each time)
        if self._canvas is None:
            return Strip.blank(width, base)
        strips = self._make_strips()
        self._offset = ox, oy = self._view_offset()
        row = y + oy
        if not 0 <= row < len(strips):
            return Strip.blank(width, base)
        strip = strips[row]
        if ox < 0:
            strip = Strip.join([Strip.blank(-ox, base), strip])
            return strip.crop_extend(0, width, base)
        return strip.crop_extend(ox, ox + width, base)

    def _pitch(self) -> tuple[int, int]:
        """Bigger rooms when the pane has room for at least 4 by 3 of them."""
        w, h = self.size
        return BIG_PITCH if w >= 4 * BIG_PITCH[0] and h >= 3 * BIG_PITCH[1] else (PITCH_X, PITCH_Y)

    def on_resize(self, event: events.Resize) -> None:
        if self._canvas is not None and self._canvas.pitch != self._pitch():
            self._rebuild()
        self.refresh()

    # -- keys and mouse -------------------------------------------------------------------------------

    def _set_cursor(self, x: int, y: int) -> None:
        snap = self.snapshot
        if snap is None:
            return
        xs = [r.x for r in snap.view.rooms]
        ys = [r.y for r in snap.view.rooms]
        x = max(min(xs) - 1, min(max(xs) + 1, x))
        y = max(min(ys) - 1, min(max(ys) + 1, y))
        if (x, y) != self.cursor:
            self.cursor = (x, y)
            self._rebuild()
            self.post_message(RoomSelected(x, y))

    def action_cursor(self, d: int) -> None:
        self._set_cursor(self.cursor[0] + DX[d], self.cursor[1] + DY[d])

    def action_home(self) -> None:
        snap = self.snapshot
        if snap is not None:
            hero = snap.view.heroes[snap.seat if snap.seat >= 0 else snap.view.active]
            self._set_cursor(hero.x, hero.y)

    def move_to_cursor(self) -> Action | None:
        """The legal move (or flight) that takes the viewer's hero into the cursor room, if any."""
        snap = self.snapshot
        if snap is None or snap.seat < 0:
            return None
        hero = snap.view.heroes[snap.seat]
        for d in range(4):
            if (hero.x + DX[d], hero.y + DY[d]) == self.cursor:
                for kind in ("move", "flee"):
                    action = Action(snap.seat, kind, d)
                    if action in snap.legal:
                        return action
        return None

    async def action_go(self) -> None:
        action = self.move_to_cursor()
        if action is not None:
            self.post_message(ActionChosen(action))
        else:
            await self.app.run_action("screen.inspect")

    def on_click(self, event: events.Click) -> None:
        if self._canvas is None:
            return
        ox, oy = self._offset
        x, y = self._canvas.cell_at(event.x + ox, event.y + oy)
        self.focus()
        self._set_cursor(x, y)

    def room_here(self) -> bool:
        snap = self.snapshot
        return snap is not None and cell_key(*self.cursor) in snap.view.grid
