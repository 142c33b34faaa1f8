"""The end of a game: who won and how everyone did."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.heroes import describe
from mqtui.store import Seat, Snapshot


def summary(cards: CardTable, seats: tuple[Seat, ...], snap: Snapshot) -> Table:
    view = snap.view
    table = Table(expand=True, show_edge=False)
    for col in ("", "Hero", "Level", "Kills", "Deaths", "Gold", "Race / class"):
        table.add_column(col, no_wrap=col != "Race / class")
    for hero in sorted(view.heroes, key=lambda h: (h.seat not in view.winners, -h.level)):
        won = hero.seat in view.winners
        kind = seats[hero.seat].kind if hero.seat < len(seats) else "human"
        who = hero.name + ("" if kind == "human" else f" ({kind} computer)")
        table.add_row(
            "★" if won else "",
            Text(who, "bold" if won else ""),
            str(hero.level),
            str(hero.kills),
            str(hero.deaths),
            str(hero.gold),
            describe(cards, hero),
        )
    return table


class GameOverScreen(ModalScreen[str]):
    """Returns "new", "title" or "quit"."""

    BINDINGS = [
        Binding("n", "choose('new')", "New game", id="over.new"),
        Binding("t", "choose('title')", "Title screen", id="over.title"),
        Binding("escape", "choose('title')", "Title screen", show=False, id="over.title2"),
        Binding("q", "choose('quit')", "Quit", id="over.quit"),
    ]
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical { width: 90; max-width: 96%; height: auto; border: double $accent;
        background: $panel; padding: 0 1; }
    GameOverScreen #banner { text-style: bold; width: 1fr; content-align: center middle; margin: 1 0; }
    """

    def __init__(self, cards: CardTable, seats: tuple[Seat, ...], snap: Snapshot, advice: str = "") -> None:
        super().__init__()
        self.advice = advice  # how often the player followed the advisor (empty: never shown)
        self.cards = cards
        self.seats = seats
        self.snap = snap

    def compose(self) -> ComposeResult:
        view = self.snap.view
        winners = " and ".join(view.heroes[s].name for s in view.winners) or "Nobody"
        with Vertical() as box:
            box.border_title = "Game over"
            yield Static(f"★ {winners} won after {view.round} rounds! ★", id="banner")
            yield Static(summary(self.cards, self.seats, self.snap))
            if self.advice:
                yield Static(self.advice, id="advice-tally")
            yield Static(Text("n: new game · t: title screen · q: quit", "dim"))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
