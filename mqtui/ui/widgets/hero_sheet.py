"""A hero's sheet: level, race and class, Life, Moves, gold, what it carries and its strength."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from mqtui.engine.cards import CardTable
from mqtui.engine.heroes import describe, power_total, usable
from mqtui.engine.state import Hero
from mqtui.store import Snapshot
from mqtui.ui.describe import SLOT_NAMES, SLOT_ORDER, card_kind, card_name


def strength(cards: CardTable, hero: Hero) -> tuple[int, int, int]:
    """(level, items, powers): what the hero's combat strength adds up to outside a fight."""
    items = sum(cards.treasure[u].bonus for u in hero.equipped if usable(cards, hero, cards.treasure[u]))
    return hero.level, items, power_total(cards, hero, "combat_bonus")


def hero_text(cards: CardTable, hero: Hero, mine: bool, compact: bool = False) -> Text:
    level, items, powers = strength(cards, hero)
    t = Text()
    t.append(hero.name, "bold")
    t.append(f" [{hero.colour}]", "dim")
    t.append(f" Level {hero.level}", "bold")
    t.append(f"\n{describe(cards, hero)}")
    if hero.dead:
        t.append(" · dead: back at the Entrance next turn", "italic")
    t.append(f"\nLife {hero.life}/{hero.max_life}  Moves {hero.moves}  Gold {hero.gold}")
    total = level + items + powers
    parts = [f"Level {level}"]
    parts += [f"items {items:+d}"] if items else []
    parts += [f"powers {powers:+d}"] if powers else []
    t.append("\nStrength ", "bold")
    t.append(f"{total}", "bold")
    t.append(f" ({', '.join(parts)})")
    by_slot: dict[str, list[int]] = {}
    for uid in hero.equipped:
        by_slot.setdefault(cards.treasure[uid].slot, []).append(uid)
    for slot in SLOT_ORDER:
        uids = by_slot.get(slot, [])
        if not uids and (compact or slot in ("two_hands", "trinket")):
            continue
        t.append(f"\n{SLOT_NAMES[slot]}: ", "bold")
        if not uids:
            t.append("—")
        for i, u in enumerate(uids):
            item = cards.treasure[u]
            t.append(("" if i == 0 else ", ") + f"{card_name(cards, u)} {item.bonus:+d}")
            if not usable(cards, hero, item):
                t.append(" (unusable: no bonus)", "italic")
    if hero.belt or not compact:
        t.append("\nBelt: ", "bold")
        belt = [card_name(cards, u) + ("" if compact else f" ({card_kind(cards, u)})") for u in hero.belt]
        t.append(", ".join(belt) or "—")
    if hero.backpack or not compact:
        t.append("\nBackpack: ", "bold")
        t.append(", ".join(card_name(cards, u) for u in hero.backpack) or "—")
    t.append(f"\nCards in hand {len(hero.hand)}")
    if not mine:
        t.append(" (hidden)", "dim")
    t.append(f" · Kills {hero.kills} · Deaths {hero.deaths}", "dim")
    return t


class HeroSheet(Static):
    """The viewer's hero, or (``o``) another hero's public facts."""

    DEFAULT_CSS = """
    HeroSheet { height: auto; padding: 0 1; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True)
    shown: reactive[int] = reactive(-1)
    """The seat shown; -1: the viewer's own hero."""

    compact: reactive[bool] = reactive(True)

    def __init__(self, cards: CardTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self._key: object = None

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
        key = (hero, seat == snap.seat, self.compact)
        if key == self._key:
            return
        self._key = key
        mine = seat == snap.seat
        self.border_title = "Your hero" if mine else f"{hero.name} (o: next hero)"
        self.update(hero_text(self.cards, hero, mine, self.compact))

    def cycle(self) -> None:
        snap = self.snapshot
        if snap is None:
            return
        n = len(snap.view.heroes)
        nxt = (self.seat() + 1) % n
        self.shown = -1 if nxt == snap.seat else nxt
