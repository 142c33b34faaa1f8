"""The replay view: a saved or finished game, step by step, with the game's own panes.

The map, fight, hero sheet, hand and log are the game screen's widgets, fed the
:class:`~mqtui.store.Snapshot` a seat saw at that moment (:meth:`mqtui.timeline.Timeline.snapshot`).
A game in progress is shown through one seat's eyes only (no other hand, no private log line); a
finished game opens with every hand open, and ``v`` switches between that and each seat's own view.

Keys: ←/→ one action, [ and ] (or PgUp/PgDn) one turn, Home/End the start and the end, g a round,
f the deciding fight, v whose eyes, o the next hero, c fight or map, Esc back.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import ContentSwitcher, Input, Label, Static

from mqtui.engine.actions import SPECS
from mqtui.store import HUMAN, Snapshot
from mqtui.timeline import Timeline
from mqtui.ui.describe import action_label
from mqtui.ui.screens.handoff import HandoffScreen
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.widgets.combat import CombatPane
from mqtui.ui.widgets.footer import QuietFooter
from mqtui.ui.widgets.hand import CardList
from mqtui.ui.widgets.hero_sheet import HeroSheet
from mqtui.ui.widgets.log import GameLog
from mqtui.ui.widgets.map import MapView
from mqtui.ui.widgets.status import StatusBar

OPEN = -1  # the "every hand open" view of a finished game


class RoundDialog(StyledAtMount, ModalScreen[int | None]):
    """Asks for a round number."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="round.cancel")]
    DEFAULT_CSS = """
    RoundDialog { align: center middle; }
    RoundDialog > Vertical { width: 40; height: auto; border: thick $accent; background: $panel; padding: 0 1; }
    """

    def __init__(self, rounds: int) -> None:
        super().__init__()
        self.rounds = rounds

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Go to a round"
            yield Label(f"Round (1 to {self.rounds}):")
            yield Input(type="integer", id="round")
            yield Label("Enter: go · Esc: cancel", id="round-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            r = int(event.value)
        except ValueError:
            return
        if 1 <= r <= self.rounds:
            self.dismiss(r)
        else:
            self.query_one("#round-hint", Label).update(f"There are rounds 1 to {self.rounds}.")

    def action_cancel(self) -> None:
        self.dismiss(None)


def default_seat(timeline: Timeline) -> int:
    """Whose eyes a game in progress is seen through: the person deciding at its end, else the first
    person at the table, else seat 0."""
    seats = timeline.seats
    last = timeline.state(timeline.last)
    who = timeline.engine.deciding(last)
    if 0 <= who < len(seats) and seats[who].kind == HUMAN:
        return who
    return next((i for i, s in enumerate(seats) if s.kind == HUMAN), 0)


class ReplayScreen(StyledAtMount, Screen[None]):
    """One game's timeline; the panes show the position ``at``."""

    BINDINGS = [
        Binding("right", "step(1)", "Next", id="replay.next", key_display="→", priority=True),
        Binding("left", "step(-1)", "Back", id="replay.back", key_display="←", priority=True),
        Binding("right_square_bracket,pagedown", "turn(1)", "Turn", id="replay.turn", key_display="]"),
        Binding("left_square_bracket,pageup", "turn(-1)", "Turn back", id="replay.turnback", show=False),
        Binding("g", "round", "Round", id="replay.round"),
        Binding("f", "fight", "Last fight", id="replay.fight"),
        Binding("v", "eyes", "Eyes", id="replay.eyes"),
        Binding("o", "hero", "Hero", id="replay.hero"),
        Binding("c", "toggle_fight", "Fight/Map", id="replay.combat", show=False),
        Binding("home", "jump(0)", "Start", id="replay.start", show=False, priority=True),
        Binding("end", "jump(-1)", "End", id="replay.end", show=False, priority=True),
        Binding("escape,q", "leave", "Back", id="replay.leave"),
    ]
    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #where { height: 1; background: $accent 30%; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    ReplayScreen #body { height: 1fr; }
    ReplayScreen #left { width: 1fr; }
    ReplayScreen #right { width: 34; }
    ReplayScreen.-wide #right { width: 44; }
    ReplayScreen #main { height: 1fr; }
    ReplayScreen #map, ReplayScreen #rlog, ReplayScreen #hero, ReplayScreen #hand, ReplayScreen #combat {
        border: round $primary 60%; }
    ReplayScreen #rlog { height: 8; }
    ReplayScreen.-tall #rlog { height: 12; }
    ReplayScreen #hero { height: auto; max-height: 12; }
    ReplayScreen #hand { height: 1fr; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    """What the panes show: the position ``at`` through the chosen eyes."""

    def __init__(self, timeline: Timeline, seat: int | None = None, at: int | None = None) -> None:
        """``seat``: whose eyes (OPEN: every hand, finished games only; None: the default, which is
        every hand open for a finished game and the deciding person's eyes for a game in progress);
        ``at``: the position it opens at (None: the last)."""
        super().__init__()
        self.timeline = timeline
        if seat is None:
            seat = OPEN if timeline.over else default_seat(timeline)
        if seat == OPEN and not timeline.over:
            seat = default_seat(timeline)
        self.eyes = seat if seat == OPEN or 0 <= seat < len(timeline.seats) else default_seat(timeline)
        self.hero = 0 if self.eyes == OPEN else self.eyes  # the hero whose hand shows with every hand open
        self.at = timeline.last if at is None else max(0, min(timeline.last, at))

    def compose(self) -> ComposeResult:
        cards, seats = self.timeline.engine.cards, self.timeline.seats
        yield StatusBar(seats, id="status").data_bind(ReplayScreen.snapshot)
        yield Static(id="where")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                with ContentSwitcher(initial="map", id="main"):
                    yield MapView(cards, id="map").data_bind(ReplayScreen.snapshot)
                    yield CombatPane(cards, seats, id="combat").data_bind(ReplayScreen.snapshot)
                yield GameLog(id="rlog").data_bind(ReplayScreen.snapshot)
            with Vertical(id="right"):
                yield HeroSheet(cards, id="hero").data_bind(ReplayScreen.snapshot)
                yield CardList(cards, id="hand").data_bind(ReplayScreen.snapshot)
        yield QuietFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        for wid in ("#map", "#hand"):
            self.query_one(wid).can_focus = False  # the arrow keys step through the game
        packs = self.timeline.packs
        self.query_one("#map").border_title = "Map" + (f" · packs: {', '.join(packs)}" if packs else "")
        self.query_one("#rlog").border_title = "Log"
        self.query_one("#combat").border_title = "Combat"
        self.query_one("#rlog").focus()
        self._show()
        humans = sum(1 for s in self.timeline.seats if s.kind == HUMAN)
        if self.eyes != OPEN and humans > 1:  # hot seat: only that person should look
            hero = self.timeline.state(self.at).heroes[self.eyes]
            why = f"The replay shows the game through {hero.name}'s eyes, with {hero.name}'s cards."
            self.app.push_screen(HandoffScreen(hero.name, hero.colour, why))

    # -- showing a position ---------------------------------------------------------------------------

    def _show(self) -> None:
        t = self.timeline
        open_hands = self.eyes == OPEN
        seat = self.hero if open_hands else self.eyes
        snap = t.snapshot(self.at, seat, open_hands)
        self.snapshot = snap
        fighting = snap.view.combat is not None
        self.query_one(ContentSwitcher).current = "combat" if fighting else "map"
        self.query_one("#where", Static).update(self._where(snap))
        name = snap.view.heroes[seat].name
        self.query_one("#hand").border_title = f"{name}'s cards" + (" (open)" if open_hands else "")
        sheet = self.query_one(HeroSheet)
        if sheet.shown < 0:
            sheet.border_title = f"{name} (o: next hero)"
        self.refresh_bindings()

    def _where(self, snap: Snapshot) -> Text:
        t = self.timeline
        view = snap.view
        eyes = "every hand open" if self.eyes == OPEN else f"{view.heroes[self.eyes].name}'s eyes"
        action = t.action(self.at)
        if action is None:
            did = "the start"
        elif self.eyes in (OPEN, action.seat) or not any(a.startswith("card") for a in SPECS[action.kind]):
            open_hands = self.eyes == OPEN
            before = t.snapshot(self.at - 1, action.seat if open_hands else self.eyes, open_hands)
            did = action_label(action, before, t.engine.cards, short=True)
            did = f"{view.heroes[action.seat].name}: {did}"
        else:  # another seat's card: the kind only (the log says what this seat saw of it)
            did = f"{view.heroes[action.seat].name}: {action.kind}"
        return Text.assemble(("Replay ", "bold"), f"{self.at}/{t.last} · ", (eyes, "italic"), f" · {did}")

    # -- keys -----------------------------------------------------------------------------------------

    def _go(self, at: int) -> None:
        at = max(0, min(self.timeline.last, at))
        if at != self.at:
            self.at = at
            self._show()

    def action_step(self, n: int) -> None:
        self._go(self.at + n)

    def action_turn(self, n: int) -> None:
        t = self.timeline
        self._go(t.next_turn(self.at) if n > 0 else t.previous_turn(self.at))

    def action_jump(self, at: int) -> None:
        self._go(self.timeline.last if at < 0 else at)

    def action_round(self) -> None:
        def chosen(r: int | None) -> None:
            if r is not None:
                self._go(self.timeline.round_start(r))

        self.app.push_screen(RoundDialog(self.timeline.rounds), chosen)

    def action_fight(self) -> None:
        at = self.timeline.deciding_fight()
        if at is not None:
            self._go(at)

    def action_eyes(self) -> None:
        n = len(self.timeline.seats)
        self.eyes = 0 if self.eyes == OPEN else (OPEN if self.eyes + 1 >= n else self.eyes + 1)
        if self.eyes != OPEN:
            self.hero = self.eyes
        self.query_one(HeroSheet).shown = -1
        self._show()

    def action_hero(self) -> None:
        if self.eyes == OPEN:  # every hand open: the next hero's sheet and cards
            self.hero = (self.hero + 1) % len(self.timeline.seats)
            self._show()
        else:
            self.query_one(HeroSheet).cycle()

    def action_toggle_fight(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "combat" if switcher.current == "map" else "map"

    def action_leave(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        t = self.timeline
        if action == "step":
            n = int(str(parameters[0]))
            return (self.at < t.last if n > 0 else self.at > 0) or None
        if action == "eyes":  # a game in progress: one seat's eyes only (no other hand may show)
            return t.over
        if action == "fight":
            return t.deciding_fight() is not None
        return True
