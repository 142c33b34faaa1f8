"""The race strip under the status line: every hero's Level, Life and room, always in sight.

Public facts only (never a hand or a card count). The hero whose turn it is is marked with "▶" (not by
colour alone); the heroes close to winning get a warning line ("⚠ …", from :func:`mqtui.ui.race.race_warnings`).
The heroes share one line when each gets room enough for its name and room, else they take two; a
``compact`` strip (in a fight, where the hand needs the lines) keeps them on one line, names and rooms cut.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.state import Hero, State
from mqtui.store import Snapshot
from mqtui.ui.describe import room_def_at
from mqtui.ui.race import race_warnings
from mqtui.ui.widgets.kept import Kept
from mqtui.ui.widgets.nolinks import NoLinks
from mqtui.ui.widgets.room_info import player_styles
from mqtui.ui.widgets.steady import SteadySize

SEPARATOR = " │"  # (each cell starts with its mark or a space)
MIN_CELL = 20  # narrower than this, the heroes take two lines
ROOM_GIVERS = "#hero, #card-box"  # the panes that give a line back for each line the strip takes past one


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _parts(cards: CardTable, view: State, hero: Hero) -> tuple[str, str, str, str]:
    """(mark, stats, the room's name, its short name); ▶: whose turn it is."""
    mark = "▶" if hero.seat == view.active else " "
    found = None if hero.dead else room_def_at(cards, view, hero.x, hero.y)
    full, short = ("dead", "dead") if found is None else (found[1].name, found[1].short)
    return mark, f" L{hero.level} ♥{hero.life} ", full, short


def hero_cell(
    cards: CardTable, view: State, hero: Hero, width: int, name_style: Style | str = "", full: bool = True
) -> Text:
    """One hero in at most ``width`` cells: "▶Ann L3 ♥4 Ye Olde Pawn Shoppe"; with ``full`` false the
    room's short name (the map's). Cut to fit: the room first (to 3 letters), then the hero's name."""
    mark, stats, room, short = _parts(cards, view, hero)
    where = room if full else short
    left = width - len(mark) - len(stats)  # for the name and the room
    name = _cut(hero.name, max(3, left - min(len(where), 3)))
    where = _cut(where, left - len(name))
    t = Text(mark, "bold")
    t.append(name, name_style)
    t.append(stats.rstrip(), "bold")
    if where:
        t.append(" " + where)
    t.truncate(width, overflow="ellipsis")
    return t


def race_lines(
    cards: CardTable,
    view: State,
    viewer: int,
    width: int,
    styles: Mapping[str, Style] | None = None,
    compact: bool = False,
) -> list[Text]:
    """The strip's lines at ``width`` columns: the heroes (one or two lines; one if ``compact``), then
    any warnings."""
    heroes = list(view.heroes)
    fits = (width - len(SEPARATOR) * (len(heroes) - 1)) // max(1, len(heroes)) >= MIN_CELL
    rows = 1 if compact or fits else 2
    per_row = -(-len(heroes) // rows)
    cell = (width - len(SEPARATOR) * (per_row - 1)) // per_row  # (columns line up over two lines)
    full = all(sum(map(len, _parts(cards, view, h)[:3])) + len(h.name) <= cell for h in heroes)
    lines = []
    for r in range(rows):
        line = Text(no_wrap=True, overflow="ellipsis")
        for i, hero in enumerate(heroes[r * per_row : (r + 1) * per_row]):
            if i:
                line.append(SEPARATOR, "dim")
            t = hero_cell(cards, view, hero, cell, (styles or {}).get(hero.colour, "bold"), full)
            t.pad_right(cell - len(t))
            line.append_text(t)
        line.rstrip()
        lines.append(line)
    warnings = race_warnings(view, viewer)
    if warnings:  # (one line at most: the closest to winning first)
        line = Text("⚠ " + "; ".join(warnings), "bold", no_wrap=True, overflow="ellipsis")
        line.truncate(width, overflow="ellipsis")
        lines.append(line)
    return lines


class RaceStrip(Kept, NoLinks, SteadySize, Static):
    """Every hero at a glance; bound to the game screen's snapshot (redrawn only when what it shows
    changed)."""

    DEFAULT_CSS = """
    RaceStrip { height: auto; padding: 0 1; background: $panel; text-wrap: nowrap; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    compact: reactive[bool] = reactive(False, repaint=False)  # one line whatever the width

    def __init__(self, cards: CardTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self._key: object = None
        self._lines = 0

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        self._redraw()

    def watch_compact(self) -> None:
        self._redraw()

    def on_resize(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        snap = self.snapshot
        width = self.content_size.width
        if snap is None or width <= 0:
            return
        view = snap.view
        key = (
            width,
            self.compact,
            self.app.theme,  # (the heroes' names are in the theme's colours)
            snap.seat,
            view.active,
            tuple((h.level, h.life, h.x, h.y, h.dead) for h in view.heroes),
            len(view.rooms),  # (a new room may open a shorter way to the Entrance)
        )
        if key == self._key:
            return
        self._key = key
        lines = race_lines(self.cards, view, snap.seat, width, player_styles(self.app), self.compact)
        self.update(Text("\n").join(lines), layout=len(lines) != self._lines)
        if len(lines) != self._lines:  # (app.tcss: a short screen's hero sheet gives the lines back)
            self._mark_room(len(lines))
        self._lines = len(lines)

    def _mark_room(self, lines: int) -> None:
        """Tell the panes that give the strip's extra lines back (app.tcss: ``-race-2``, ``-race-3`` on
        the hero sheet and the card's text), and no other: a class on the screen restyled every widget
        of it (some 20 of them, about 25 ms at 80x24, for each fight begun or ended)."""
        for pane in self.screen.query(ROOM_GIVERS):
            pane.set_class(lines >= 2, "-race-2")
            pane.set_class(lines >= 3, "-race-3")
