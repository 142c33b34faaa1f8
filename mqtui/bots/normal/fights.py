"""Fights: what winning and losing are worth, and the expected value of a fight."""

from __future__ import annotations

from mqtui.bots.eval import (
    DXM_VALUE,
    GEAR_VALUE,
    GOLD_VALUE,
    TREASURE_VALUE,
    best_loadout,
    card_value,
    gear_score,
    hero_strength,
    item_score,
    monster_dice,
    p_win,
    strength_against,
    wins_ties,
)
from mqtui.bots.normal.core import LIFE_COST, TENTH_LEVEL, Ctx
from mqtui.bots.normal.rivals import hope, threat
from mqtui.engine.cards import DXM, TREASURE, CardTable
from mqtui.engine.combat import ESCAPE_ON
from mqtui.engine.defs import Effect, MonsterDef
from mqtui.engine.heroes import MAX_LEVEL, carried, has_power, identity, power_total, powers
from mqtui.engine.state import Hero


def treasure_worth(ctx: Ctx) -> float:
    """An unknown Treasure card: worth more while the hero's gear is thin."""
    if ctx._treasure is None:
        ctx._treasure = TREASURE_VALUE + max(0.0, 0.35 - 0.03 * gear_score(ctx.t, ctx.me))
    return ctx._treasure


def expected_interference(ctx: Ctx, boss: bool = False) -> float:
    """Monster strength the hero expects opponents to add to its fight."""
    return ctx.cached(("interference", boss), lambda: _expected_interference(ctx, boss))


def _expected_interference(ctx: Ctx, boss: bool) -> float:
    s, seat = ctx.s, ctx.seat
    unseen = ctx.unseen
    pos = [
        ctx.t.dxm[u].amount
        for u in unseen[DXM]
        if ctx.t.dxm[u].kind == "enhancer" and ctx.t.dxm[u].amount > 0
    ]
    hidden = len(unseen[DXM]) + len(unseen[TREASURE]) or 1
    share = len(pos) / hidden
    avg = sum(pos) / len(pos) if pos else 0.0
    e = 0.0
    for h in s.heroes:
        if h.seat == seat:
            continue
        cards = len(h.hand) * share
        want = 1.0 if boss else min(1.0, 1.6 * threat(s, h.seat, seat) - 0.3)
        want *= hope(ctx, h.seat)
        e += cards * avg * max(0.0, want)
    return e * ctx.p.leader_fear


def win_value(ctx: Ctx, foes: list[MonsterDef], hero: Hero | None = None) -> float:
    hero = hero or ctx.me
    levels = treasures = 0
    for d in foes:
        levels += d.levels
        treasures += d.treasures
    v = 0.0
    for i in range(levels):
        lvl = hero.level + i
        if lvl >= MAX_LEVEL:
            break
        v += TENTH_LEVEL if lvl + 1 == MAX_LEVEL else 1.0
    return v + treasures * treasure_worth(ctx)


def loss_cost(
    ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...] = (), hero: Hero | None = None
) -> float:
    hero = hero or ctx.me
    key = ("loss", hero.seat, tuple([d.id for d in foes]), tuple(rules))
    # (memoised for the decision as ctx.cached does, written out: this and fight_ev are the bot's
    # hottest lines; a cost is never None)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _loss_cost(ctx, foes, rules, hero)
    return found  # type: ignore[return-value]


def _loss_cost(ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...], hero: Hero) -> float:
    t = ctx.t
    memo = ctx.memo  # (the costs of death and of each effect memoised for the decision: this is hot)
    if hero.life <= 1:
        death_key = ("death", hero.seat)
        death: float | None = memo.get(death_key)  # type: ignore[assignment]
        if death is None:
            death = memo[death_key] = death_cost(ctx, hero)
        return death
    cost = LIFE_COST.get(hero.life, 0.25)
    fail_key = ("p_fail", hero.seat, rules)
    p_fail: float | None = memo.get(fail_key)  # type: ignore[assignment]
    if p_fail is None:
        p_fail = memo[fail_key] = _p_fail(t, hero, rules)
    for d in foes:
        bad = 0.0
        for e in d.bad_stuff:
            key = ("effect", hero.seat, e)
            found = memo.get(key)
            if found is None:
                found = memo[key] = effect_cost(t, hero, e, own=True, life=hero.life - 1)
            bad += found  # type: ignore[operator]
        cost += p_fail * bad
    return cost


def _p_fail(t: CardTable, hero: Hero, rules: tuple[object, ...]) -> float:
    """The chance that ``hero`` fails to escape after losing a fight in a room with ``rules``."""
    escape = power_total(t, hero, "escape_bonus") + sum(
        getattr(r, "amount", 0) for r in rules if getattr(r, "kind", "") == "escape_bonus"
    )
    p_fail = min(1.0, max(0.0, (ESCAPE_ON - 1 - escape) / 6))
    if has_power(t, hero, "d10_escape"):
        p_fail *= 1 - min(hero.level, 10) / 10
    return p_fail


def death_cost(ctx: Ctx, hero: Hero) -> float:
    t = ctx.t
    loadout = ctx.loadout if hero is ctx.me else None
    gear = sum(card_value(t, hero, u, loadout) for u in carried(hero))
    return 0.7 * gear + (1.0 if hero.level > 1 else 0.0) + 0.4 - 2 * DXM_VALUE - 2 * TREASURE_VALUE + 1.2


def effect_cost(t: CardTable, hero: Hero, e: Effect, own: bool, life: int | None = None) -> float:
    """What one Bad Stuff or curse effect costs ``hero``, in level units."""
    k = e.kind
    if k == "lose_levels":
        return min(e.amount, hero.level - 1) * 1.0
    if k == "lose_slot":
        if e.slot == "hand":
            items = [u for u in hero.equipped if t.treasure[u].slot in ("hand", "two_hands")]
        elif e.slot == "big":
            items = [u for u in hero.equipped if t.treasure[u].big]
        else:
            items = [u for u in hero.equipped if t.treasure[u].slot == e.slot]
        return 0.3 + GEAR_VALUE * item_score(t.treasure[items[0]]) if items else 0.0
    if k == "lose_item":
        things = carried(hero)
        if not things:
            return 0.0
        loadout = best_loadout(t, hero)[0]
        values = sorted(card_value(t, hero, u, loadout) for u in things)
        return sum(values[: e.amount])
    if k == "lose_gold":
        return min(hero.gold, e.amount) * GOLD_VALUE
    if k == "lose_race":
        return 0.3 if hero.races else 0.0
    if k == "lose_class":
        return 0.4 if hero.classes else 0.0
    if k == "lose_moves":
        return 0.08 * e.amount
    if k == "discard_cards":
        return 0.3 * min(e.amount, len(hero.hand))
    if k == "lose_life":
        left = hero.life if life is None else life
        if left - e.amount <= 0:
            return 2.0 + 0.5 * gear_score(t, hero) * GEAR_VALUE
        return 0.4 * e.amount
    if k == "to_entrance":
        return -0.5 if hero.level >= MAX_LEVEL else 0.3
    if k == "death":
        return 2.0 + GEAR_VALUE * gear_score(t, hero)
    return 0.0


def fight_ev(ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...]) -> tuple[float, float]:
    """(expected value, chance to win) of fighting ``foes`` in a room with ``rules`` now."""
    ids = tuple([d.id for d in foes])
    key = ("fight", ids, tuple(rules))
    found = ctx.memo.get(key)  # (as ctx.cached, written out: see loss_cost)
    if found is None:
        found = ctx.memo[key] = _fight_ev(ctx, foes, rules, ids)
    return found  # type: ignore[return-value]


_NO_TAGS: frozenset[str] = frozenset()


def _fight_ev(
    ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...], ids: tuple[str, ...]
) -> tuple[float, float]:
    """``fight_ev`` worked out (``ids``: the foes' ids). Asked for every kind of monster the hero might
    meet exploring, in each decision of its action phase (``explore_ev``): what depends only on the
    hero is read from the decision's memo, and so is the loss cost (by ``loss_cost``'s key)."""
    t, me, memo = ctx.t, ctx.me, ctx.memo
    # the hero's side depends only on the room and on the monsters' tags its items or powers name:
    # many fights share it
    named: frozenset[str] | None = memo.get("tags")  # type: ignore[assignment]
    if named is None:
        named = memo["tags"] = _named_tags(t, me)
    tags = frozenset([tag for d in foes for tag in d.tags]) & named if named else _NO_TAGS
    rr = tuple([r for r in rules if hasattr(r, "kind")]) if rules else ()
    side: tuple[int, int, bool, float, int, float] | None = memo.get(("side", tags, rr))  # type: ignore[assignment]
    if side is None:
        side = memo["side", tags, rr] = _hero_side(ctx, tags, rr)
    h, dice, ties, e, boost, cost = side
    who: frozenset[str] | None = memo.get("identity")  # type: ignore[assignment]
    if who is None:
        who = memo["identity"] = identity(t, me)
    m = strength_against(foes, who, rr)  # type: ignore[arg-type]
    p0 = p_win(round(h - m - e), dice, ties)
    p1 = p_win(round(h + boost - m - e), dice, ties) if boost else p0
    w = win_value(ctx, foes)
    loss_key = ("loss", me.seat, ids, rr)  # (loss_cost written out)
    lc: float | None = memo.get(loss_key)  # type: ignore[assignment]
    if lc is None:
        lc = memo[loss_key] = _loss_cost(ctx, foes, rr, me)
    ev0 = p0 * w - (1 - p0) * lc
    ev1 = p1 * w - (1 - p1) * lc - cost * 0.6
    return (ev1, p1) if ev1 > ev0 else (ev0, p0)


def _named_tags(t: CardTable, hero: Hero) -> frozenset[str]:
    """The monster tags that the hero's items in use and its powers give a bonus against."""
    named = {b.vs for u in hero.equipped for b in t.treasure[u].bonuses}
    named.update(p.tag for p in powers(t, hero) if p.kind == "bonus_vs_tag")
    return frozenset(named)


def _hero_side(
    ctx: Ctx, tags: frozenset[str], rr: tuple[object, ...]
) -> tuple[int, int, bool, float, int, float]:
    """The hero's side of a fight against monsters with ``tags`` in a room with rules ``rr``: its
    strength, the monsters' dice, whether it wins ties, the interference it expects, and the bonus and
    the cost of its one-shots."""
    t, me = ctx.t, ctx.me
    h = hero_strength(t, me, tags, rr)  # type: ignore[arg-type]
    dice = monster_dice(rr)  # type: ignore[arg-type]
    ties = ctx.cached("ties", lambda: wins_ties(t, [me]))
    e = expected_interference(ctx)
    boost, cost = ctx.cached("boost", lambda: oneshot_boost(ctx))
    return h, dice, ties, e, boost, cost


def oneshot_boost(ctx: Ctx) -> tuple[int, float]:
    t, me = ctx.t, ctx.me
    bonus, cost = 0, 0.0
    for u in [*me.belt, *me.hand]:
        if t.deck_of[u] == TREASURE and t.treasure[u].kind == "oneshot" and t.treasure[u].use == "bonus":
            bonus += t.treasure[u].bonus
            cost += ctx.value(u)
    return bonus, cost
