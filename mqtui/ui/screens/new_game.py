"""Setting up a new game: 2 to 6 seats, each human or computer, with names, colours and a seed.

Just pressing Enter starts the default: you against three computer players of the remembered level
(``Settings.opponents``: easy until the player starts a game with another level here)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from mqtui.engine.defs import COLOURS
from mqtui.seat_kinds import HUMAN, SeatKind
from mqtui.ui.appref import mq_app
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.session import DEFAULT_NAMES, SeatSpec
from mqtui.ui.widgets.footer import QuietFooter

MAX_SEATS = 6
DEFAULT_SEATS = 4


OFF = "off"


def kind_options(optional: bool) -> list[tuple[str, str]]:
    out = [("— empty seat —", OFF)] if optional else []
    out.append(("Human", HUMAN))
    for kind in (SeatKind.EASY, SeatKind.NORMAL, SeatKind.HARD, SeatKind.RANDOM):
        out.append((f"Computer: {kind}", kind))
    return out


def pack_label(packs: list[str]) -> str:
    from mqtui.packs import describe

    return f"Packs: {describe(packs) or 'none (the base game)'} ▸"


class NewGameScreen(StyledAtMount, Screen[None]):
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="new.start"),
        Binding("escape", "back", "Back", id="new.back"),
    ]
    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical { width: 78; height: auto; border: round $primary; padding: 0 1; }
    NewGameScreen .seat { height: 1; margin-bottom: 1; }
    NewGameScreen .seat .seat-no { width: 8; }
    NewGameScreen .seat Input { width: 22; }
    NewGameScreen .seat .kind { width: 28; }
    NewGameScreen .seat .colour { width: 14; }
    NewGameScreen #seed-row { height: 1; margin-top: 0; }
    NewGameScreen #seed-row Label { width: 10; }
    NewGameScreen #seed { width: 22; }
    NewGameScreen #packs { margin-left: 4; width: 1fr; }
    NewGameScreen #buttons { height: 3; align: right middle; }
    NewGameScreen #error { color: $error; height: auto; }
    NewGameScreen Button { margin-left: 1; }
    NewGameScreen #intro { color: $foreground 70%; margin-bottom: 1; }
    """

    def _opponents(self) -> str:
        kind = mq_app(self).settings.opponents
        return kind if kind in {k for _, k in kind_options(False)} else SeatKind.EASY

    def compose(self) -> ComposeResult:
        opponents = self._opponents()
        with Vertical() as box:
            box.border_title = "New game"
            yield Static(
                f"Enter starts: you against three {opponents} computer players.\n"
                "Tab to change the seats (2 to 6 players); Enter on a list opens it.",
                id="intro",
            )
            for i in range(MAX_SEATS):
                with Horizontal(classes="seat", id=f"seat-{i}"):
                    yield Label(f"Seat {i + 1}", classes="seat-no")
                    yield Input(DEFAULT_NAMES[i], id=f"name-{i}", compact=True, max_length=16)
                    yield Select(
                        kind_options(optional=i >= 2),
                        value=HUMAN if i == 0 else (opponents if i < DEFAULT_SEATS else OFF),
                        allow_blank=False,
                        id=f"kind-{i}",
                        classes="kind",
                        compact=True,
                    )
                    yield Select(
                        [(c, c) for c in COLOURS],
                        value=COLOURS[i],
                        allow_blank=False,
                        id=f"colour-{i}",
                        classes="colour",
                        compact=True,
                    )
            with Horizontal(id="seed-row"):
                yield Label("Seed")
                yield Input(placeholder="random", id="seed", compact=True, restrict=r"[0-9]*")
                yield Button(pack_label(self.packs), id="packs", compact=True)
            yield Static(id="error")
            with Horizontal(id="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Back", id="back")
        yield QuietFooter()

    def __init__(self) -> None:
        super().__init__()
        self.packs: list[str] = []  # content packs (names) for the game, in order

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    def choose_packs(self) -> None:
        from mqtui.packs import scan
        from mqtui.ui.screens.packs import PackChooser

        def chosen(names: list[str] | None) -> None:
            if names is not None:
                self.packs = names
                self.query_one("#packs", Button).label = pack_label(names)

        self.app.push_screen(PackChooser(scan(), self.packs), chosen)

    def specs(self) -> list[SeatSpec]:
        out = []
        for i in range(MAX_SEATS):
            kind = str(self.query_one(f"#kind-{i}", Select).value)
            if kind == OFF:
                continue
            name = self.query_one(f"#name-{i}", Input).value
            colour = str(self.query_one(f"#colour-{i}", Select).value)
            out.append(SeatSpec(name, kind, colour))
        return out

    def seed(self) -> int | None:
        text = self.query_one("#seed", Input).value.strip()
        return int(text) if text else None

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "packs":
            self.choose_packs()
        else:
            self.action_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        error = self.query_one("#error", Static)
        specs = self.specs()
        try:
            mq_app(self).start_new_game(specs, self.seed(), packs=self.packs)
        except ValueError as exc:
            error.update(f"Cannot start: {exc}")
            return
        self._remember_opponents(specs)

    def _remember_opponents(self, specs: list[SeatSpec]) -> None:
        """The computer level the player picked becomes the default of the next new game."""
        app = mq_app(self)
        kinds = [s.kind for s in specs if s.kind not in (HUMAN, OFF)]
        if not kinds or kinds[0] == app.settings.opponents:
            return
        app.settings.opponents = kinds[0]
        app.remember_settings()

    def action_back(self) -> None:
        self.app.pop_screen()
