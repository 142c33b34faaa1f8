"""What bots count with: fight odds, hero strength, the best loadout, card values and a position score.

Values are in *level units*: one Level is worth 1.0, a Treasure card about 0.5, 1000 gold 1.0. All of it
reads only public parts of a view (and the deciding seat's own hand), so it is fair on a view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from mqtui.engine.board import ENTRANCE, room_at, room_def
from mqtui.engine.cards import DXM, CardTable
from mqtui.engine.defs import MonsterDef, RoomRule, TreasureDef
from mqtui.engine.heroes import MAX_LEVEL, backpack_size, identity, power_total, powers, usable
from mqtui.engine.state import Hero, State

TREASURE_VALUE = 0.5  # one unknown Treasure card
DXM_VALUE = 0.3  # one unknown DxM card
GOLD_VALUE = 1 / 1000  # per gold piece
GEAR_VALUE = 0.3  # per point of combat strength from equipment in use
LIFE_VALUE = (-2.0, 0.0, 0.7, 1.1, 1.35, 1.5, 1.6, 1.7)  # by Life left
LOADOUTS_KEPT = 20_000  # best loadouts remembered per card table (then forgotten all at once)


# -- dice ------------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _diff_dist(monster_dice: int) -> tuple[tuple[int, float], ...]:
    """The distribution of (hero d6) - (sum of the monster dice)."""
    dist: dict[int, float] = {h: 1 / 6 for h in range(1, 7)}
    m: dict[int, float] = {0: 1.0}
    for _ in range(max(1, monster_dice)):
        nxt: dict[int, float] = {}
        for total, p in m.items():
            for d in range(1, 7):
                nxt[total + d] = nxt.get(total + d, 0.0) + p / 6
        m = nxt
    out: dict[int, float] = {}
    for h, ph in dist.items():
        for total, pm in m.items():
            out[h - total] = out.get(h - total, 0.0) + ph * pm
    return tuple(sorted(out.items()))


@lru_cache(maxsize=512)
def p_win(margin: int, monster_dice: int = 1, ties: bool = False) -> float:
    """P(the heroes win) when their strength exceeds the monsters' by ``margin`` before the dice."""
    return sum(p for d, p in _diff_dist(monster_dice) if margin + d > 0 or (ties and margin + d == 0))


# -- strength --------------------------------------------------------------------------------------


def tag_bonus(item: TreasureDef, tags: Iterable[str]) -> int:
    if not item.bonuses:
        return 0
    tagset = tags if isinstance(tags, set | frozenset) else set(tags)
    return sum(b.amount for b in item.bonuses if b.vs in tagset)


def hero_strength(
    t: CardTable,
    hero: Hero,
    tags: Iterable[str] = (),
    rules: Sequence[RoomRule] = (),
    equipped: Iterable[int] | None = None,
) -> int:
    """The hero's combat strength without dice or cards played in the fight (as ``hero_terms``)."""
    tagset = set(tags)
    total = hero.level
    for uid in hero.equipped if equipped is None else equipped:
        item = t.treasure[uid]
        if usable(t, hero, item):
            total += item.bonus + tag_bonus(item, tagset)
    for p in powers(t, hero):
        if p.kind == "combat_bonus" or (p.kind == "bonus_vs_tag" and p.tag in tagset):
            total += p.amount
    if rules:
        ids = identity(t, hero)
        total += sum(r.amount for r in rules if r.kind == "hero_bonus" and (not r.who or r.who in ids))
    return total


def monster_strength(
    t: CardTable, monsters: Sequence[MonsterDef], heroes: Sequence[Hero], rules: Sequence[RoomRule] = ()
) -> int:
    if len(heroes) == 1:  # (most calls: no union to make)
        ids = identity(t, heroes[0])
    else:
        ids = frozenset()
        for h in heroes:
            ids |= identity(t, h)
    return strength_against(monsters, ids, rules)


def strength_against(
    monsters: Sequence[MonsterDef], ids: frozenset[str], rules: Sequence[RoomRule] = ()
) -> int:
    """The monsters' strength against heroes whose races and classes are ``ids`` (as ``monster_strength``)."""
    total = 0
    for d in monsters:
        total += d.level
        if d.bonuses:
            total += sum(b.amount for b in d.bonuses if b.vs in ids)
    if rules:
        total += sum(r.amount for r in rules if r.kind == "monster_bonus")
    return total


def monster_dice(rules: Sequence[RoomRule]) -> int:
    return max([1, *(r.amount for r in rules if r.kind == "monster_dice")])


def wins_ties(t: CardTable, heroes: Iterable[Hero]) -> bool:
    return any(p.kind == "win_ties" for h in heroes for p in powers(t, h))


def room_rules_at(t: CardTable, s: State, x: int, y: int) -> tuple[RoomRule, ...]:
    room = room_at(s, x, y)
    return () if room is None else room_def(t, room).rules


# -- equipment -------------------------------------------------------------------------------------


def item_score(item: TreasureDef) -> float:
    """How much an item in use is worth in a typical fight: its bonus, plus a share of tag bonuses."""
    if not item.bonuses:  # (most items: the same sum, without a generator)
        return item.bonus + 0.0
    return item.bonus + 0.35 * sum(b.amount for b in item.bonuses)


def best_loadout(t: CardTable, hero: Hero, pool: Iterable[int] | None = None) -> tuple[frozenset[int], float]:
    """The best set of items to have in use from ``pool`` (default: everything the hero holds), and
    its score. Respects slots, hands and the Big-item limit (counting Big items left in the backpack)."""
    if pool is None:
        pool = [*hero.equipped, *hero.backpack, *(u for u in hero.hand if u >= 0 and t.deck_of[u] != DXM)]
    # the answer depends only on these (usable items and the Big-item limit come from races and classes)
    key = (tuple(pool), tuple(hero.backpack), tuple(hero.races), tuple(hero.classes))
    found = t.loadout_cache.get(key)
    if found is None:
        if len(t.loadout_cache) >= LOADOUTS_KEPT:
            t.loadout_cache.clear()
        found = t.loadout_cache[key] = _best_loadout(t, hero, key[0])
    return found


def _best_loadout(t: CardTable, hero: Hero, pool: tuple[int, ...]) -> tuple[frozenset[int], float]:
    items = [u for u in pool if t.treasure[u].kind == "equipment" and usable(t, hero, t.treasure[u])]
    items = [u for u in items if item_score(t.treasure[u]) > 0]
    bigs = [u for u in items if t.treasure[u].big]
    limit = 1 + power_total(t, hero, "carry_big")
    stuck_big = sum(1 for u in hero.backpack if t.treasure[u].big and u not in items)
    allowed = max(0, limit - stuck_big)
    best: tuple[frozenset[int], float] = (frozenset(), 0.0)
    small = [u for u in items if not t.treasure[u].big]
    for k in range(min(len(bigs), allowed) + 1):
        for chosen in combinations(bigs, k):
            sel, score = _fill_slots(t, [*small, *chosen])
            if score > best[1] + 1e-9:
                best = (sel, score)
    return best


def _fill_slots(t: CardTable, items: list[int]) -> tuple[frozenset[int], float]:
    by_slot: dict[str, list[int]] = {}
    for u in items:
        by_slot.setdefault(t.treasure[u].slot, []).append(u)
    for us in by_slot.values():
        us.sort(key=lambda u: (-item_score(t.treasure[u]), u))
    chosen: list[int] = []
    for slot in ("head", "armor", "feet"):
        if by_slot.get(slot):
            chosen.append(by_slot[slot][0])
    chosen.extend(by_slot.get("trinket", []))
    ones = by_slot.get("hand", [])[:2]
    two = by_slot.get("two_hands", [])[:1]
    ones_score = sum(item_score(t.treasure[u]) for u in ones)
    two_score = sum(item_score(t.treasure[u]) for u in two)
    chosen.extend(two if two_score > ones_score else ones)
    return frozenset(chosen), sum(item_score(t.treasure[u]) for u in chosen)


def gear_score(t: CardTable, hero: Hero) -> float:
    return sum(item_score(t.treasure[u]) for u in hero.equipped if usable(t, hero, t.treasure[u]))


# -- card values -----------------------------------------------------------------------------------


def card_value(t: CardTable, hero: Hero, uid: int, loadout: frozenset[int] | None = None) -> float:
    """What one card is worth to ``hero`` (to keep, to lose, to give away)."""
    if t.deck_of[uid] == DXM:
        d = t.dxm[uid]
        k = d.kind
        if k == "level":
            return 1.0 if hero.level < MAX_LEVEL - 1 else 0.1
        if k == "enhancer":
            return 0.35 + 0.04 * abs(d.amount)
        if k in ("race", "class"):
            return 0.35
        if k in ("half_breed", "super_munchkin"):
            return 0.15
        if k == "dice":
            return 0.4
        if k == "curse":
            return 0.35
        if k == "wandering":
            return 0.3
        if k == "moves":
            return 0.2
        if d.action == "teleport":
            return 0.45
        return 0.15
    item = t.treasure[uid]
    if item.kind == "level":
        return 1.0 if hero.level < MAX_LEVEL - 1 else 0.05 + item.gold * GOLD_VALUE
    if item.kind == "oneshot":
        if item.use == "bonus":
            return 0.15 + 0.1 * item.bonus + 0.03 * sum(b.amount for b in item.bonuses)
        if item.use == "heal":
            return 0.25 + 0.2 * item.amount
        return 0.1 + 0.05 * item.amount
    if loadout is None:
        loadout = best_loadout(t, hero)[0]
    base = item.gold * GOLD_VALUE * 0.5
    if uid in loadout:
        return 0.3 + GEAR_VALUE * item_score(item) + base
    if not usable(t, hero, item):
        return 0.05 + base
    return 0.1 + 0.05 * item_score(item) + base


def life_value(life: int) -> float:
    return LIFE_VALUE[min(max(life, 0), len(LIFE_VALUE) - 1)]


def hero_value(t: CardTable, s: State, hero: Hero, own: bool = True, hoard: float = 1.0) -> float:
    """A hero's position in level units. ``own``: the hand is visible (else each card counts as average);
    ``hoard`` weighs the plus/minus and dice cards in it."""
    loadout, lscore = best_loadout(t, hero, [*hero.equipped, *hero.backpack])
    v = float(hero.level) + GEAR_VALUE * gear_score(t, hero) + 0.1 * max(0.0, lscore - gear_score(t, hero))
    if hero.level >= MAX_LEVEL:
        v += 1.0 - 0.08 * abs(hero.x) - 0.08 * abs(hero.y)
    v += life_value(hero.life) if not hero.dead else life_value(hero.max_life) - 0.4
    v += min(hero.gold, 3000) * GOLD_VALUE
    for uid in hero.belt:
        v += card_value(t, hero, uid, loadout)
    for uid in hero.backpack:
        if uid not in loadout:
            v += card_value(t, hero, uid, loadout) * 0.5
    if own:
        for uid in hero.hand:
            if uid >= 0:
                keep = hoard if t.deck_of[uid] == DXM and t.dxm[uid].kind in ("enhancer", "dice") else 1.0
                v += card_value(t, hero, uid, loadout) * keep
            else:
                v += 0.35
    else:
        v += 0.35 * len(hero.hand)
    v += 0.15 * len(hero.races) + 0.15 * len(hero.classes)
    return v


def position_score(t: CardTable, s: State, seat: int, hoard: float = 1.0, shared: float = 1.0) -> float:
    """How good the position is for ``seat``: its value against its strongest opponents, in level units.

    A won game is worth a lot (``shared`` of it when the win is shared with others); otherwise
    opponents near Level 10 count heavily against the seat. ``hoard`` weighs the seat's own fight
    cards (see :func:`hero_value`)."""
    if s.winners:
        if seat not in s.winners:
            return -50.0
        return 50.0 if len(s.winners) == 1 else 50.0 * shared
    me = hero_value(t, s, s.heroes[seat], own=True, hoard=hoard)
    others = sorted((hero_value(t, s, h, own=False) for h in s.heroes if h.seat != seat), reverse=True)
    if not others:
        return me
    return me - 0.55 * others[0] - 0.25 * sum(others[1:]) / max(1, len(others) - 1)


def backpack_free(t: CardTable, hero: Hero) -> int:
    return backpack_size(t, hero) - len(hero.backpack)


def is_entrance(s: State, x: int, y: int) -> bool:
    room = room_at(s, x, y)
    return room is not None and room.room == ENTRANCE
