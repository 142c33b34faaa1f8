"""The end of a game: who won, how everyone did, and the fight that decided it.

Laid out for 80×24: one line per hero (the race and class column only when it fits whole), the
deciding fight in a few lines (both sums with their dice, and the cards played into it), where the
finished game is kept, and the keys. ``r`` opens the replay over this screen; leaving it comes back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.combat import die_total, fight_monsters, hero_terms, monster_terms
from mqtui.engine.heroes import describe
from mqtui.engine.state import State
from mqtui.seat_kinds import HUMAN, PEOPLE_KINDS
from mqtui.store import Seat, Snapshot
from mqtui.ui.appref import mq_app
from mqtui.ui.describe import last_result, room_name
from mqtui.ui.screens.steady import StyledAtMount

COLUMNS = (("Level", 5), ("Kills", 5), ("Deaths", 6), ("Gold", 5))


def _who(seats: tuple[Seat, ...], seat: int, name: str) -> str:
    kind = seats[seat].kind if seat < len(seats) else HUMAN
    return name if kind in PEOPLE_KINDS else f"{name} (computer)"


def summary(cards: CardTable, seats: tuple[Seat, ...], snap: Snapshot, width: int = 72) -> Table:
    """One row per hero, winners first; the race/class column only if it fits in ``width`` whole."""
    view = snap.view
    heroes = sorted(view.heroes, key=lambda h: (h.seat not in view.winners, -h.level, h.seat))
    names = [_who(seats, h.seat, h.name) for h in heroes]
    races = [describe(cards, h) for h in heroes]
    name_w = max(len("Hero"), *map(len, names))
    race_w = max(len("Race / class"), *map(len, races))
    fixed = 1 + name_w + sum(w for _, w in COLUMNS) + len(COLUMNS) + 2  # one space after each column
    with_race = fixed + race_w + 1 <= width
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), expand=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("Hero", no_wrap=True, min_width=min(name_w, max(8, width - fixed + name_w)))
    if with_race:
        table.add_column("Race / class", no_wrap=True)
    for title, w in COLUMNS:
        table.add_column(title, justify="right", no_wrap=True, min_width=w)
    for hero, who, race in zip(heroes, names, races, strict=True):
        won = hero.seat in view.winners
        cells: list[Any] = ["★" if won else "", Text(who, "bold" if won else "")]
        if with_race:
            cells.append(race)
        cells += [str(hero.level), str(hero.kills), str(hero.deaths), str(hero.gold)]
        table.add_row(*cells)
    return table


def _sides(cards: CardTable, s: State) -> tuple[str, str]:
    c = s.combat
    assert c is not None
    heroes = s.heroes[c.active].name + (f" and {s.heroes[c.helper].name}" if c.helper >= 0 else "")
    foes = [f"the boss, {cards.monster[c.boss_card].name}"] if c.boss and c.boss_card >= 0 else []
    foes += [cards.monster[m.card].name for m in fight_monsters(s, c)]
    return heroes, " and ".join(foes) or "the monsters"


def fight_text(cards: CardTable, s: State) -> Text:
    """The deciding fight from the state just before it was decided: both sums with their dice (and
    what changed the dice), and every card played into it."""
    c = s.combat
    assert c is not None
    h_sum = sum(v for _, v in hero_terms(cards, s, c))
    m_sum = sum(v for _, v in monster_terms(cards, s, c))
    h_die, m_die = die_total(c, 0), die_total(c, 1)
    h_total, m_total = h_sum + h_die, m_sum + m_die
    heroes, foes = _sides(cards, s)
    t = Text()
    t.append("The deciding fight", "bold")
    t.append(f" (round {s.round}, {room_name(cards, s, c.x, c.y)}):")
    h_mod, m_mod = h_die - c.hero_die, m_die - sum(c.monster_dice)
    dice = "+".join(map(str, c.monster_dice)) or "0"
    t.append(f"\n  {heroes}: ", "bold")
    t.append(f"{h_total} ({h_sum} + die {c.hero_die}{f' {h_mod:+d}' if h_mod else ''})")
    t.append(f"\n  {foes}: ", "bold")
    t.append(f"{m_total} ({m_sum} + die {dice}{f' {m_mod:+d}' if m_mod else ''})")
    if h_total == m_total:
        t.append(" (a tie)")
    played = [f"{m.label} {m.amount:+d}" + ("" if m.side == 0 else " (monsters)") for m in c.mods]
    played += [
        f"{m.label} {m.amount:+d} on the {'heroes' if m.side == 0 else 'monsters'}' die" for m in c.die_mods
    ]
    t.append("\nCards played: ", "bold")
    t.append(", ".join(played) if played else "none")
    return t


class GameOverScreen(StyledAtMount, ModalScreen[str]):
    """Returns "new", "title" or "quit"; ``r`` shows the replay on top of it."""

    BINDINGS = [
        Binding("r", "replay", "Replay", id="over.replay"),
        Binding("n", "choose('new')", "New game", id="over.new"),
        Binding("t", "choose('title')", "Title screen", id="over.title"),
        Binding("escape", "choose('title')", "Title screen", show=False, id="over.title2"),
        Binding("q", "choose('quit')", "Quit", id="over.quit"),
    ]
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical { width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: double $accent; background: $panel; padding: 0 1; }
    GameOverScreen #banner { text-style: bold; width: 1fr; content-align: center middle; margin: 0 0 1 0; }
    GameOverScreen #table { margin: 0 0 1 0; }
    GameOverScreen #fight { margin: 0 0 1 0; }
    GameOverScreen #advice-tally { margin: 0 0 1 0; }
    GameOverScreen #keys { color: $foreground 70%; }
    """

    def __init__(
        self,
        cards: CardTable,
        seats: tuple[Seat, ...],
        snap: Snapshot,
        *,
        fight: State | None = None,
        kept: Path | None = None,
        packs: tuple[str, ...] = (),
        can_replay: bool = False,
        advice: str = "",
    ) -> None:
        """``fight``: the whole state just before the deciding fight was decided (None: unknown);
        ``kept``: where the finished game is kept; ``packs``: content packs it was played with;
        ``advice``: how often the player followed the advisor (empty: never shown)."""
        super().__init__()
        self.advice = advice  # how often the player followed the advisor (empty: never shown)
        self.cards = cards
        self.seats = seats
        self.snap = snap
        self.fight = fight
        self.kept = kept
        self.packs = packs
        self.can_replay = can_replay

    def compose(self) -> ComposeResult:
        view = self.snap.view
        names = [view.heroes[s].name for s in view.winners]
        winners = " and ".join(names) or "Nobody"
        verb = "wins" if len(names) == 1 else "win"
        width = min(90, self.app.size.width) - 4
        with Vertical() as box:
            box.border_title = "Game over"
            yield Static(f"★ {winners} {verb} after {view.round} rounds! ★", id="banner")
            yield Static(summary(self.cards, self.seats, self.snap, width), id="table")
            parts: list[Any] = []
            if self.fight is not None and self.fight.combat is not None:
                parts.append(fight_text(self.cards, self.fight))
            else:
                parts.append(
                    Text.assemble(("The deciding fight: ", "bold"), last_result(self.snap.log) or "—")
                )
            if self.packs:
                parts.append(Text.assemble(("Packs: ", "bold"), ", ".join(self.packs)))
            if self.kept is not None:
                listed = " (mqtui saves lists it)" if self.kept.parent.name == "finished" else ""
                parts.append(Text.assemble(("Kept as ", "bold"), self.kept.name, listed))
            yield Static(Group(*parts), id="fight")
            if self.advice:
                yield Static(self.advice, id="advice-tally")
            keys = "r: replay · " if self.can_replay else ""
            yield Static(f"{keys}n: new game · t: title screen · q: quit", id="keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return self.can_replay
        return True

    def action_replay(self) -> None:
        mq_app(self).replay_finished_game()

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
