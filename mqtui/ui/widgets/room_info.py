"""What is in one room: its rule, Deal, search state, who and what is there, its monster arrows."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.reactive import reactive
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.defs import COLOURS
from mqtui.engine.rules_text import words
from mqtui.engine.state import State
from mqtui.store import Snapshot
from mqtui.ui.colours import theme_style
from mqtui.ui.describe import SEARCH_STATES, card_name, fit_lines, room_def_at
from mqtui.ui.widgets.kept import Kept
from mqtui.ui.widgets.nolinks import NoLinks

ARROW_OF = {"N": "↑N", "E": "→E", "S": "↓S", "W": "←W"}


def room_details(
    cards: CardTable, view: State, x: int, y: int, full: bool = False, colours: dict[str, Style] | None = None
) -> Text:
    """The inspector's text for cell (x, y); ``colours`` styles the player colours (default: plain)."""

    def _colour(colour: str) -> Style:
        return (colours or {}).get(colour, Style())

    found = room_def_at(cards, view, x, y)
    if found is None:
        return Text.assemble(("Unexplored space", "bold"), " — go through a connection to explore it.")
    room, rdef = found
    text = Text()
    text.append(rdef.name, "bold")
    if room.room >= 0:
        text.append(f" · {SEARCH_STATES[min(room.searched, 2)]}", "dim" if not room.searched else "italic")
    if full and rdef.flavour:
        text.append(f"\n{rdef.flavour}", "italic dim")
    text.append("\n")
    rules = words(cards.content)
    text.append(rules.text(rdef))
    heroes = [h for h in view.heroes if (h.x, h.y) == (x, y) and not h.dead]
    monsters = [m for m in view.monsters if (m.x, m.y) == (x, y)]
    if heroes:
        text.append("\nHeroes: ", "bold")
        for i, h in enumerate(heroes):
            if i:
                text.append(", ")
            text.append(f"{h.name}", _colour(h.colour) + Style(bold=True))
            text.append(f" ({h.colour}, L{h.level})")
    if monsters:
        text.append("\nMonsters: ", "bold")
        for i, m in enumerate(monsters):
            d = cards.monster[m.card]
            target = next((h.name for h in view.heroes if h.colour == m.colour), "nobody")
            if i:  # (the full view ends each monster with its text: the next starts a new line)
                text.append("\n" if full else "; ")
            text.append(f"{d.name} L{d.level}", "bold")
            extra = f", {d.move}" if d.move != "normal" else ""
            if d.ignores:
                extra += f", ignores Level ≤{d.ignores}"
            text.append(f" (hunts {target} [{m.colour}]{extra})")
            if full:
                text.append(f"\n  {rules.text(d)}", "dim")
    if room.piles:
        piles = "; ".join(", ".join(card_name(cards, u) for u in pile) for pile in room.piles)
        text.append("\nOn the floor: ", "bold")
        text.append(piles)
    arrows = [(h.colour, rdef.arrows.get(h.colour)) for h in view.heroes]
    shown = [(c, side) for c, side in arrows if side]
    if shown:
        text.append("\nArrows: ", "bold")
        for colour, side in shown:
            text.append(f"{colour} {ARROW_OF[side or 'N']}  ", _colour(colour))
    return text


def player_styles(app: App[object]) -> dict[str, Style]:
    return {c: theme_style(app, c, bold=True) for c in COLOURS}


class RoomInfo(Kept, NoLinks, Static):
    """The inspector lines under the map for the cursor room (``i`` shows all of it)."""

    DEFAULT_CSS = """
    RoomInfo { height: 3; padding: 0 1; background: $panel; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, cards: CardTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self.cell = (0, 0)
        self._key: object = None
        self._full = Text()

    def show_cell(self, x: int, y: int) -> None:
        if (x, y) != self.cell:
            self.cell = (x, y)
            self._key = None
        self.watch_snapshot(self.snapshot)

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        view = snap.view
        key = (self.cell, view.rooms, view.monsters, [(h.x, h.y, h.level, h.dead) for h in view.heroes])
        if key == self._key:
            return
        self._key = key
        self._full = room_details(self.cards, view, *self.cell, colours=player_styles(self.app))
        self._fit()

    def _fit(self) -> None:
        """Show what fits; a room with more to say ends in a pointer to the inspector."""
        size = self.content_size
        if not size:  # hidden (a fight at 80 columns): fitted when it is shown again
            return
        self.update(fit_lines(self._full, size.width, size.height, " … i: all"), layout=False)

    def on_resize(self) -> None:
        self._fit()

    def on_mount(self) -> None:
        def retheme(_theme: object) -> None:
            self._key = None
            self.watch_snapshot(self.snapshot)

        self.app.theme_changed_signal.subscribe(self, retheme)
