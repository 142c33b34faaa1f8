"""A hero's sheet: level, race and class, Life, Moves, gold, what it carries and its strength."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.combat import POWER_TERM, ROOM_TERM, fight_tags, fighter_terms, fighters, room_rules
from mqtui.engine.heroes import describe, usable
from mqtui.engine.state import ACT, Hero, State
from mqtui.store import Snapshot
from mqtui.ui.describe import SLOT_NAMES, SLOT_ORDER, card_kind, card_name, fit_lines_counted
from mqtui.ui.widgets.kept import Kept
from mqtui.ui.widgets.nolinks import NoLinks
from mqtui.ui.widgets.steady import SteadySize


def strength(cards: CardTable, hero: Hero, view: State | None = None) -> tuple[int, int, int, int]:
    """(level, items, powers, room): the hero's strength as the engine adds it up, in the fight of
    ``view`` if the hero fights in it (against its monsters' kinds, in its room), else outside one."""
    c = view.combat if view is not None else None
    if c is not None and view is not None and hero in fighters(view, c):
        terms = fighter_terms(cards, hero, fight_tags(cards, view, c), room_rules(cards, view, c))
    else:
        terms = fighter_terms(cards, hero)
    powers = sum(v for label, v in terms if label.endswith(POWER_TERM))
    room = sum(v for label, v in terms if label == ROOM_TERM)
    return hero.level, sum(v for _, v in terms[1:]) - powers - room, powers, room


def hero_text(
    cards: CardTable,
    hero: Hero,
    mine: bool,
    compact: bool = False,
    moving: bool = True,
    view: State | None = None,
) -> Text:
    """The sheet; ``compact`` (small screens) puts the gear on one line and leaves out the tallies;
    without ``moving`` (not in the hero's action phase) the Moves show as "—": none can be used. In a
    fight of ``view``'s that the hero fights, the strength is the hero's part of the heroes' sum there
    (the cards played into the fight are the fight pane's)."""
    level, items, powers, room = strength(cards, hero, view)
    t = Text()
    t.append(hero.name, "bold")
    t.append(f" [{hero.colour}]", "dim")
    t.append(f" Level {hero.level}", "bold")
    t.append(f"\n{describe(cards, hero)}")
    if hero.dead:
        t.append(" · dead: back at the Entrance next turn", "italic")
    t.append(f"\nLife {hero.life}/{hero.max_life}  Moves {hero.moves if moving else '—'}  Gold {hero.gold}")
    total = level + items + powers + room
    parts = [f"Level {level}"]
    parts += [f"items {items:+d}"] if items else []
    parts += [f"powers {powers:+d}"] if powers else []
    parts += [f"room {room:+d}"] if room else []
    t.append("\nStrength ", "bold")
    t.append(f"{total}", "bold")
    t.append(f" ({', '.join(parts)})")

    def item(u: int) -> Text:
        it = cards.treasure[u]
        out = Text(f"{card_name(cards, u)} {it.bonus:+d}")
        if not usable(cards, hero, it):
            out.append(" (unusable: no bonus)" if not compact else " (no bonus)", "italic")
        return out

    by_slot: dict[str, list[int]] = {}
    for uid in hero.equipped:
        by_slot.setdefault(cards.treasure[uid].slot, []).append(uid)
    if compact:
        if hero.equipped:
            t.append("\nGear: ", "bold")
            t.append(Text(", ").join(item(u) for slot in SLOT_ORDER for u in by_slot.get(slot, [])))
    else:
        for slot in SLOT_ORDER:
            uids = by_slot.get(slot, [])
            if not uids and slot in ("two_hands", "trinket"):
                continue
            t.append(f"\n{SLOT_NAMES[slot]}: ", "bold")
            t.append(Text(", ").join(item(u) for u in uids) if uids else Text("—"))
    if hero.belt or not compact:
        t.append("\nBelt: ", "bold")
        belt = [card_name(cards, u) + ("" if compact else f" ({card_kind(cards, u)})") for u in hero.belt]
        t.append(", ".join(belt) or "—")
    if hero.backpack or not compact:
        t.append("\nBackpack: ", "bold")
        t.append(", ".join(card_name(cards, u) for u in hero.backpack) or "—")
    if compact and mine:
        return t  # the hand pane counts the cards; the tallies wait for a bigger screen
    t.append(f"\nCards in hand {len(hero.hand)}")
    if not mine:
        t.append(" (hidden)", "dim")
    t.append(f" · Kills {hero.kills} · Deaths {hero.deaths}", "dim")
    return t


class HeroSheet(Kept, NoLinks, SteadySize, Static):
    """The viewer's hero, or (``o``) another hero's public facts."""

    DEFAULT_CSS = """
    HeroSheet { height: auto; padding: 0 1; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    shown: reactive[int] = reactive(-1)
    """The seat shown; -1: the viewer's own hero."""

    compact: reactive[bool] = reactive(True)

    def __init__(self, cards: CardTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self._key: object = None
        self._full = Text()
        self._lines = -1
        self._title = ""

    def seat(self) -> int:
        snap = self.snapshot
        if snap is None:
            return 0
        if self.shown >= 0:
            return self.shown
        return snap.seat if snap.seat >= 0 else snap.view.active

    def watch_shown(self) -> None:
        self._redraw()

    def watch_compact(self) -> None:
        self._redraw()

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        self._redraw()

    def _redraw(self) -> None:
        snap = self.snapshot
        if snap is None:
            return
        seat = self.seat()
        hero = snap.view.heroes[seat]
        moving = any(f.kind == ACT and f.seat == seat for f in snap.view.frames)
        key = (hero, seat == snap.seat, self.compact, moving)
        if key == self._key:
            return
        self._key = key
        mine = seat == snap.seat
        title = "Your hero" if mine else f"{hero.name} (o: next hero)"
        if title != self._title:  # (setting a title draws the whole pane again, even the same title)
            self._title = self.border_title = title
        self._full = hero_text(self.cards, hero, mine, self.compact, moving, snap.view)
        self.fit()

    def fit(self) -> None:
        """What fits; a clipped sheet ends in "…" rather than hiding its last lines silently. The pane
        grows with its text up to its max-height; a layout only when the number of lines changes."""
        height = self.content_size.height
        limit = self.styles.max_height
        if limit is not None and limit.is_cells:
            height = int(limit.value) - self.styles.gutter.height
        fitted, lines = fit_lines_counted(self._full, self.content_size.width, height)
        if lines is None:  # (cut to fit, or no room known yet)
            lines = len(fitted.wrap(self.app.console, max(1, self.content_size.width)))
        self.update(fitted, layout=lines != self._lines)
        self._lines = lines

    def on_resize(self) -> None:
        self.fit()

    def cycle(self) -> None:
        snap = self.snapshot
        if snap is None:
            return
        n = len(snap.view.heroes)
        nxt = (self.seat() + 1) % n
        self.shown = -1 if nxt == snap.seat else nxt
