"""The fight: both sides with every term of their sums, the dice, who may still act, and the result."""

from __future__ import annotations

import io

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.geometry import Region
from textual.reactive import reactive
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.combat import (
    die_total,
    fight_monsters,
    fight_text,
    hero_terms,
    heroes_win,
    monster_terms,
    tie_winner,
)
from mqtui.engine.state import INVITE, WINDOW, Combat, State
from mqtui.store import LogLine, Seat, Snapshot
from mqtui.ui.colours import theme_style
from mqtui.ui.describe import last_result_line, room_name, seat_name, window_order
from mqtui.ui.widgets.nolinks import NoLinks
from mqtui.ui.widgets.parts import Part, PartCache, Parts, changed_rows
from mqtui.ui.widgets.steady import SteadySize


def fit_terms(terms: list[tuple[str, int]], rows: int | None) -> list[tuple[str, int]]:
    """At most ``rows`` terms: the first ones, then one "… N more" line with the sum of the rest."""
    if rows is None or len(terms) <= rows:
        return terms
    keep = max(rows - 1, 1)  # the first term (a level) stays on its own line
    rest = terms[keep:]
    return [*terms[:keep], (f"… {len(rest)} more", sum(v for _, v in rest))]


SHARE_WIDTH: int | None = 1
"""The set width of a column that takes a share of the room (``ratio``): for such a column Rich takes a
set width as its least share, the least it gives one anyway (1), and then measures none of its cells.
Rich measures every cell of a table before it works out its columns' widths, and for a share-of-the-room
column then uses none of it: measuring the fight's sides (a table each, and each of their cells) was
about a quarter of what drawing the combat pane cost. (None: Rich measures them.)"""


def fight_lead(hero_total: int, monster_total: int, tie_winner: str | None) -> str:
    """Who the sums favour now, by the engine's rule (``heroes_win``): a tie is the heroes' when one
    of them wins ties (``tie_winner``, a Warrior's power), else the monsters'."""
    if hero_total != monster_total:
        return "heroes lead" if hero_total > monster_total else "monsters lead"
    if heroes_win(hero_total, monster_total, tie_winner is not None):
        return f"tied: {tie_winner} wins ties"
    return "tied: ties go to the monsters"


def side(title: str, terms: list[tuple[str, int]], die: str, total: int | None, style: Style | str) -> Table:
    table = Table.grid(padding=(0, 1), expand=True)
    # one line per term, so each number stays beside its name (the header and the log give names whole)
    table.add_column(ratio=1, width=SHARE_WIDTH, no_wrap=True, overflow="ellipsis")
    table.add_column(justify="right", no_wrap=True)
    table.add_row(
        Text(title, Style.parse("bold") + (Style.parse(style) if isinstance(style, str) else style)), ""
    )
    for label, value in terms:
        table.add_row(label, f"{value:+d}" if table.row_count > 1 else str(value))
    table.add_row(Text("die" if die != "–" else "die (not rolled)", "italic"), die)
    table.add_row(Text("total", "bold"), Text("?" if total is None else str(total), "bold"))
    return table


Side = tuple[list[tuple[str, int]], str, "int | None"]
"""One side of a fight as shown: its terms, its die and its total (``None``: not rolled)."""


def combat_sides(cards: CardTable, view: State, c: Combat, rows: int | None = None) -> tuple[Side, Side]:
    """Both sides; with ``rows``, each side lists at most that many terms (the rest summed on one line)."""
    h_terms, m_terms = hero_terms(cards, view, c), monster_terms(cards, view, c)
    rolled = c.hero_die > 0
    h_die = die_total(c, 0) if rolled else None
    m_die = die_total(c, 1) if rolled else None
    h_sum = sum(v for _, v in h_terms)
    m_sum = sum(v for _, v in m_terms)

    def die_text(side: int, value: int | None) -> str:
        if value is None:
            return "–"
        base = c.hero_die if side == 0 else "+".join(map(str, c.monster_dice))
        mods = sum(m.amount for m in c.die_mods if m.side == side)
        floored = "" if value == (c.hero_die if side == 0 else sum(c.monster_dice)) + mods else f" = {value}"
        return f"{base}{f' {mods:+d}' if mods else ''}{floored}"  # (a die never counts below 0)

    return (
        (fit_terms(h_terms, rows), die_text(0, h_die), h_sum + h_die if h_die is not None else None),
        (fit_terms(m_terms, rows), die_text(1, m_die), m_sum + m_die if m_die is not None else None),
    )


def combat_table(sides: tuple[Side, Side], good: Style | str = "green", bad: Style | str = "red") -> Table:
    """Both sides next to each other."""
    return side_by_side(side("Heroes", *sides[0], good), side("Monsters", *sides[1], bad))


def side_by_side(heroes: RenderableType, monsters: RenderableType) -> Table:
    outer = Table.grid(padding=(0, 2), expand=True)
    outer.add_column(ratio=1, width=SHARE_WIDTH)
    outer.add_column(ratio=1, width=SHARE_WIDTH)
    outer.add_row(heroes, monsters)
    return outer


def combat_status(view: State, seats: tuple[Seat, ...], c: Combat) -> Text:
    t = Text()
    if view.frames:
        f = view.frames[-1]
        if f.kind == WINDOW:
            order = window_order(view)
            stage = "before the dice" if f.stage == "pre" else "after the dice (dice cards only)"
            t.append(f"Open window {stage}. ", "bold")
            t.append("Still to decide: ")
            t.append(", ".join(seat_name(view, seats, s) for s in order), "italic")
        elif f.kind == INVITE:
            t.append(f"{seat_name(view, seats, f.seat)} is deciding whether to help.", "italic")
    return t


def strengths(cards: CardTable, view: State, c: Combat) -> tuple[int, int]:
    return sum(v for _, v in hero_terms(cards, view, c)), sum(v for _, v in monster_terms(cards, view, c))


class Drawn:
    """A renderable drawn once for the room it is given: a table of the fight's two sides is redrawn
    only when the sides change, not for each new line under it (measuring a table is not cheap)."""

    def __init__(self, key: object, renderable: RenderableType) -> None:
        self.key = key
        self.renderable = renderable
        self._drawn: tuple[object, list[Segment]] | None = None
        self._measured: tuple[object, Measurement] | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = (options.size, options.min_width, options.justify, options.overflow, options.no_wrap)
        if self._drawn is None or self._drawn[0] != room:
            self._drawn = (room, list(console.render(self.renderable, options)))
        yield from self._drawn[1]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        room = (options.size, options.min_width, options.max_height)
        if self._measured is None or self._measured[0] != room:
            self._measured = (room, Measurement.get(console, options, self.renderable))
        return self._measured[1]


class CombatPane(NoLinks, SteadySize, Static):
    """Shows the current fight, or the last fight's result when there is none."""

    DEFAULT_CSS = """
    CombatPane { height: auto; padding: 0 1; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)

    def __init__(
        self, cards: CardTable, seats: tuple[Seat, ...], *, id: str | None = None, lazy: bool = False
    ) -> None:
        super().__init__(id=id)
        self.cards = cards
        self.seats = seats
        # lazy: a pane shown and hidden by the stylesheet alone is not brought up to date while hidden,
        # but when the stylesheet shows it again (before that frame is drawn)
        self._lazy = lazy
        self._behind = False  # (lazy) a snapshot came while hidden
        self._key: object = None
        self._shown: RenderableType = ""
        self._what: object = None  # what the shown content is made of (to compare)
        self._titled = ""
        self._table: Drawn | None = None
        self._sides: dict[object, Drawn] = {}  # each side's table (see _side_drawn)
        self._parts = PartCache()  # the lines of the header, the table and each note, as last drawn
        self._wrapped: dict[tuple[str, int], int] = {}  # lines of a text at a width
        self._log: tuple[LogLine, ...] = ()
        self._result: LogLine | None = None
        self.advice = ""  # the advisor's line for the decision in this fight (set by the game screen)
        self._fitted: tuple[int, int] = (0, 0)  # the content size the shown text was fitted to

    @property
    def fitted_to(self) -> tuple[int, int]:
        """The content size (width, height) the text on show was fitted to (it is fitted again, on a
        resize, once the pane's new size is known)."""
        return self._fitted

    def _room(self) -> tuple[int, int | None]:
        """Width and lines of text the pane has (``None``: no limit known yet)."""
        width = self.content_size.width
        top = self.styles.max_height if self.styles.height is None or self.styles.height.is_auto else None
        if top is not None and top.is_cells:
            return width, int(top.value) - self.styles.gutter.height
        height = self.content_size.height
        return width, (height if height > 0 else None)

    def _lines(self, text: Text, width: int) -> int:
        """How many lines ``text`` takes at ``width`` (as drawn: wrapped at the same places)."""
        key = (text.plain, width)
        lines = self._wrapped.get(key)
        if lines is None:
            if len(self._wrapped) > 256:
                self._wrapped.clear()
            lines = self._wrapped[key] = len(text.wrap(self.app.console, max(width, 1)))
        return lines

    def on_resize(self) -> None:
        size = (self.content_size.width, self.content_size.height)
        if size != self._fitted and self.snapshot is not None:
            self._key = None  # fit the text again to the new size
            self.watch_snapshot(self.snapshot)

    def _last_result(self, log: tuple[LogLine, ...]) -> LogLine | None:
        """The last fight's result line, looking only at the lines added since the last call."""
        old = self._log
        if len(log) >= len(old) and (not old or log[len(old) - 1] == old[-1]):
            found = last_result_line(log[len(old) :])
            if found:
                self._result = found
        else:  # the log was rewound (undo) or replaced
            self._result = last_result_line(log)
        self._log = log
        return self._result

    def render(self) -> RenderableType:
        return self._shown  # (what ``update`` or ``_show`` gave last)

    def update(self, content: RenderableType = "", *, layout: bool = True) -> None:  # type: ignore[override]
        self._shown = content
        super().update(content, layout=layout)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self._behind and self.display:
            self._catch_up()

    def plain_text(self) -> str:
        """What the pane shows, as plain text (for tests and screen readers)."""
        self._catch_up()
        out = io.StringIO()
        console = Console(width=max(100, self.content_size.width), no_color=True, file=out)
        console.print(self._shown)
        return out.getvalue()

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        self._behind = self._lazy and not self.display
        if not self._behind:
            self._fit(snap)

    def show_advice(self, text: str) -> None:
        """The advisor's line for the decision on show (worked out after the screen was drawn)."""
        if text == self.advice:
            return
        self.advice = text
        if self.snapshot is not None and not self._behind:
            self._fit(self.snapshot)

    def _catch_up(self) -> None:
        if self._behind and self.snapshot is not None:
            self._behind = False
            self._fit(self.snapshot)

    def _fit(self, snap: Snapshot) -> None:
        """Show the fight (or the last result) in ``snap``, fitted to the pane's size."""
        view = snap.view
        c = view.combat
        if c is None:
            result = self._last_result(snap.log)
            key: object = result
        else:
            key = (c, view.frames[-1] if view.frames else None, self.advice)
        if key == self._key:
            return
        self._key = key
        self._fitted = (self.content_size.width, self.content_size.height)
        width, lines = self._room()
        if c is None:
            self._title("Combat")

            def summary(line: str) -> Text:
                return Text.assemble(
                    ("No fight now.", "italic"), "\n", ("Last fight: ", "bold"), line or "none yet"
                )

            shown = summary(result.text if result else "")
            if lines is not None and self._lines(shown, width) > lines and result and result.fight:
                shown = summary(fight_text(result.fight, terms=False))  # each side's sum alone
            if lines is not None and self._lines(shown, width) > lines:
                shown.truncate(max(lines, 2) * max(width, 1) - 1, overflow="ellipsis")
            self._show(shown, shown)
            return
        active = view.heroes[c.active]
        helper = f" + {view.heroes[c.helper].name}" if c.helper >= 0 else ""
        boss = " — BOSS FIGHT" if c.boss else ""
        self._title(f"Combat in {room_name(self.cards, view, c.x, c.y)}{boss}")
        h, m = strengths(self.cards, view, c)
        when = "before dice"
        if c.hero_die > 0:  # rolled: the sums with the dice (the fight's result, when it is decided)
            h, m, when = h + die_total(c, 0), m + die_total(c, 1), "with the dice"
        ties = tie_winner(self.cards, view, c)
        lead = fight_lead(h, m, ties.name if ties else None)
        names = [f"{self.cards.monster[c.boss_card].name} (the boss)"] if c.boss else []
        names += [self.cards.monster[mon.card].name for mon in fight_monsters(view, c)]
        foes = " and ".join(names) or "nobody"
        header = Text.assemble(
            (f"{active.name}{helper}", "bold"),
            " vs ",
            (foes, "bold"),
            "\n",
            (f"{h} vs {m} {when}, {lead}", "italic"),
        )
        good, bad = theme_style(self.app, "good"), theme_style(self.app, "bad")
        notes = [combat_status(view, self.seats, c)]
        if self.advice:
            notes.append(Text.assemble(("Advisor (w): ", "bold"), self.advice))
        notes = [n for n in notes if n]
        rows = None
        if lines is not None:  # the terms get what the rest leaves (each side: title, die, total)
            free = lines - self._lines(header, width) - 3
            wanted = max(len(hero_terms(self.cards, view, c)), len(monster_terms(self.cards, view, c)))
            rows = min(wanted, max(free - sum(self._lines(n, width) for n in notes), free - len(notes)))
            rows = max(rows, 2)  # the terms come first (notes keep a line each), then a level and a sum
            notes = self._clip(notes, width, free - rows)
        sides = combat_sides(self.cards, view, c, rows)
        if self._table is None or self._table.key != (sides, good, bad):  # (new notes keep the table)
            heroes = self._side_drawn("Heroes", sides[0], good)
            self._table = Drawn(
                (sides, good, bad), side_by_side(heroes, self._side_drawn("Monsters", sides[1], bad))
            )
        parts: list[Part] = [
            (header.markup, header),
            (self._table, self._table),
            *((n.markup, n) for n in notes),
        ]
        self._show(Parts(self, self._parts, parts), (header, sides, notes, good, bad))

    def _side_drawn(self, title: str, drawn_side: Side, style: Style | str) -> Drawn:
        """One side's table, drawn again only when that side changes (a card played for the heroes
        leaves the monsters' side as it was)."""
        terms, die, total = drawn_side
        key = (title, tuple(terms), die, total, style)
        drawn = self._sides.get(key)
        if drawn is None:
            if len(self._sides) > 16:
                self._sides.clear()
            drawn = self._sides[key] = Drawn(key, side(title, *drawn_side, style))
        return drawn

    def _title(self, title: str) -> None:
        if title != self._titled:  # (setting a title draws the whole pane again)
            self._titled = self.border_title = title

    def _show(self, content: RenderableType, what: object) -> None:
        """Show ``content`` unless what it is made of (``what``) is on show already; the screen is laid
        out again only if the pane's height follows its text."""
        what = (what, self.content_size.width, self.content_size.height)
        if what == self._what:
            return
        self._what = what
        rows = (
            changed_rows(self, self._shown, content) if isinstance(content, Parts) and self.display else None
        )
        if rows is None:
            self.update(content, layout=self.styles.auto_dimensions and self.display)
            return
        self._shown = content  # only the rows that changed are drawn again
        width = self.size.width
        self.refresh(*(Region(0, y, width, 1) for y in rows))

    def _clip(self, texts: list[Text], width: int, lines: int) -> list[Text]:
        """The texts, cut to ``lines`` lines in all (a cut line ends in "…")."""
        out: list[Text] = []
        for i, text in enumerate(texts):
            wrapped = list(text.wrap(self.app.console, max(width, 1)))
            room = lines - (len(texts) - 1 - i)  # each later text keeps a line
            if len(wrapped) > room:
                wrapped = wrapped[: max(room, 0)]
                if wrapped:
                    last = wrapped[-1]
                    last.rstrip()
                    last.truncate(max(width - 1, 0))
                    last.append("…")
                out.append(Text("\n").join(wrapped))
            else:
                out.append(text)
            lines -= len(wrapped)
        return [t for t in out if t]
