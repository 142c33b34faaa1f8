"""Combat windows: the bot's own fight, helping, interfering and dice tricks."""

from __future__ import annotations

from dataclasses import dataclass

from mqtui.bots import Choice
from mqtui.bots.eval import (
    GOLD_VALUE,
    TREASURE_VALUE,
    hero_strength,
    monster_dice,
    monster_strength,
    p_win,
    wins_ties,
)
from mqtui.bots.normal.core import TENTH_LEVEL, Ctx
from mqtui.bots.normal.fights import expected_interference, loss_cost, win_value
from mqtui.bots.normal.rivals import hope, threat
from mqtui.engine.cards import MONSTER
from mqtui.engine.combat import die_total, fight_monsters, fighters, hero_terms, monster_terms, room_rules
from mqtui.engine.defs import MonsterDef
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import Combat, Hero


@dataclass
class FightView:
    c: Combat
    h: int  # hero side strength before dice
    m: int  # monster side
    dice: int
    ties: bool
    foes: list[MonsterDef]
    tags: set[str]


def fight_view(ctx: Ctx) -> FightView:
    t, s = ctx.t, ctx.s
    c = s.combat
    assert c is not None
    h = sum(v for _, v in hero_terms(t, s, c))
    m = sum(v for _, v in monster_terms(t, s, c))
    rules = room_rules(t, s, c)
    foes = [t.monster[x.card] for x in fight_monsters(s, c)]
    tags = {tag for d in foes for tag in d.tags}
    return FightView(c, h, m, monster_dice(rules), wins_ties(t, fighters(s, c)), foes, tags)


def stake(ctx: Ctx, fv: FightView, seat: int) -> float:
    """What winning rather than losing this fight is worth to ``seat`` (on the hero side)."""
    s = ctx.s
    hero = s.heroes[seat]
    if fv.c.boss:
        return 30.0 + 1.0
    if seat == fv.c.active:
        return win_value(ctx, fv.foes, hero) + loss_cost(ctx, fv.foes, room_rules(ctx.t, s, fv.c), hero)
    # the helper: its reward and its own loss
    reward = (fv.c.terms_treasures if fv.c.helper == seat else 0) * TREASURE_VALUE
    return reward + loss_cost(ctx, fv.foes, room_rules(ctx.t, s, fv.c), hero)


def window(ctx: Ctx) -> Choice | None:
    s = ctx.s
    f = s.frames[-1]
    fv = fight_view(ctx)
    side = ctx.seat in (fv.c.active, fv.c.helper)
    if f.stage == "post":
        return dice_window(ctx, fv, side)
    if side:
        return own_fight(ctx, fv)
    return interfere(ctx, fv)


def own_fight(ctx: Ctx, fv: FightView) -> Choice | None:
    """Our side of the fight, before the dice: cards and a helper only where they pay."""
    t = ctx.t
    c = fv.c
    margin = fv.h - fv.m
    st = stake(ctx, fv, ctx.seat)
    # what the table may still throw at us: only the part we could not answer any more
    fear = 0.5 * expected_interference(ctx, c.boss) if ctx.seat == c.active else 0.0
    pf = p_win(round(margin - fear), fv.dice, fv.ties)
    best: tuple[float, Choice] | None = None
    for a in ctx.has("use"):
        if a.b != 0:
            continue
        bonus = t.treasure[a.a].bonus
        p1 = p_win(round(margin + bonus - fear), fv.dice, fv.ties)
        gain = (p1 - pf) * st - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"uses {t.names[a.a]} (+{bonus}): win odds {pf:.0%} -> {p1:.0%}"))
    for a in ctx.has("enhance"):
        amount = t.dxm[a.a].amount
        if amount >= 0:
            continue
        gain = (p_win(round(margin - amount - fear), fv.dice, fv.ties) - pf) * st - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"plays {t.names[a.a]} on the monster ({amount:+d})"))
    if ctx.seat == c.active and not c.boss:
        for a in ctx.has("wander"):
            gain = own_wander_gain(ctx, fv, margin - fear) - ctx.value(a.a)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, Choice(a, f"calls {t.names[a.a]} into its own fight for more levels"))
        inv = best_invite(ctx, fv, margin - fear, st)
        if inv is not None and (best is None or inv[0] > best[0]):
            best = inv
    if best is not None:
        return best[1]
    passes = ctx.has("pass")
    return Choice(passes[0], "") if passes else None


def own_wander_gain(ctx: Ctx, fv: FightView, margin: float) -> float:
    """The expected gain of adding a random unseen monster to our own fight."""
    t = ctx.t
    pool = ctx.unseen[MONSTER]
    if not pool:
        return -1.0
    rules = room_rules(t, ctx.s, fv.c)
    base_p = p_win(round(margin), fv.dice, fv.ties)
    w = win_value(ctx, fv.foes)
    lc = loss_cost(ctx, fv.foes, rules)
    now = base_p * w - (1 - base_p) * lc
    total = 0.0
    for uid in pool:
        d = t.monster[uid]
        foes = [*fv.foes, d]
        p = p_win(round(margin - d.level), fv.dice, fv.ties)
        total += p * win_value(ctx, foes) - (1 - p) * loss_cost(ctx, foes, rules)
    return total / len(pool) - now


def helper_strength(ctx: Ctx, fv: FightView, other: Hero) -> int:
    rules = room_rules(ctx.t, ctx.s, fv.c)
    extra = monster_strength(ctx.t, fv.foes, [ctx.me, other], ()) - monster_strength(
        ctx.t, fv.foes, [ctx.me], ()
    )
    return hero_strength(ctx.t, other, fv.tags, rules) - extra


def best_invite(ctx: Ctx, fv: FightView, margin: float, st: float) -> tuple[float, Choice] | None:
    """The invitation most worth making, if any: the helper who adds most, at terms it would take."""
    s = ctx.s
    invites = ctx.has("invite")
    if not invites:
        return None
    p0 = p_win(round(margin), fv.dice, fv.ties)
    if p0 > 0.9:
        return None
    total_tr = sum(d.treasures for d in fv.foes)
    best: tuple[float, Choice] | None = None
    for a in invites:
        other = s.heroes[a.a]
        n, gold = a.b % 10, a.c
        if a.b >= 10:
            continue  # first pick costs the best card: never offered
        add = helper_strength(ctx, fv, other)
        p1 = p_win(round(margin + add), fv.dice, fv.ties)
        if not would_accept(ctx, fv, other, n, gold, p1):
            continue
        # the helper takes the cards we like least; the active keeps the level
        price = n * TREASURE_VALUE * 0.8 + gold * GOLD_VALUE + 0.25 * threat(s, ctx.seat, other.seat) * n
        if fv.c.boss:
            price += 20.0 * threat(s, ctx.seat, other.seat)  # a shared win is still a win
        gain = (p1 - p0) * st - price
        if n > total_tr:
            continue
        if gain > 0.05 and (best is None or gain > best[0]):
            terms = f"{n} Treasure{'s' if n != 1 else ''}" if n else ""
            if gold:
                terms += (" and " if terms else "") + f"{gold} gold"
            best = (
                gain,
                Choice(a, f"asks {other.name} to help for {terms or 'nothing'}: {p0:.0%} -> {p1:.0%}"),
            )
    return best


def would_accept(ctx: Ctx, fv: FightView, other: Hero, n: int, gold: int, p1: float) -> bool:
    """Our guess of the invited hero's answer (the normal bot's own rule, from public facts)."""
    active = ctx.s.heroes[fv.c.active]
    if fv.c.boss:
        return p1 > 0.3
    if active.level + sum(d.levels for d in fv.foes) >= MAX_LEVEL:
        return False
    rules = room_rules(ctx.t, ctx.s, fv.c)
    gain = gold * GOLD_VALUE + p1 * n * TREASURE_VALUE
    loss = (1 - p1) * loss_cost(ctx, fv.foes, rules, other)
    levels = sum(d.levels for d in fv.foes)
    rival = p1 * levels * threat(ctx.s, other.seat, active.seat) * ctx.p.interfere
    return gain - loss - rival > 0.05


def interfere(ctx: Ctx, fv: FightView) -> Choice | None:
    """Someone else's fight: make it harder only for a threat, and only when the card matters."""
    t, s = ctx.t, ctx.s
    c = fv.c
    if c.boss:
        weight = 30.0
    else:
        active = s.heroes[c.active]
        levels = sum(d.levels for d in fv.foes)
        weight = threat(s, ctx.seat, c.active) * (levels + 0.3 * sum(d.treasures for d in fv.foes))
        if active.level + levels >= MAX_LEVEL:
            weight += TENTH_LEVEL - 1.0
        weight *= ctx.p.interfere
    weight *= hope(ctx, ctx.seat)
    passes = ctx.has("pass")
    idle = Choice(passes[0], "") if passes else None
    if weight <= 0.05:
        return idle
    margin = fv.h - fv.m
    p = p_win(margin, fv.dice, fv.ties)
    if p < 0.1:
        return idle
    best: tuple[float, Choice] | None = None
    who = s.heroes[c.active].name
    for a in ctx.has("enhance"):
        amount = t.dxm[a.a].amount
        if amount <= 0:
            continue
        drop = p - p_win(margin - amount, fv.dice, fv.ties)
        gain = drop * weight - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (
                gain,
                Choice(a, f"plays {t.names[a.a]} (+{amount}) against {who}: {p:.0%} -> {p - drop:.0%}"),
            )
    for a in ctx.has("use"):
        if a.b != 1:
            continue
        bonus = t.treasure[a.a].bonus
        drop = p - p_win(margin - bonus, fv.dice, fv.ties)
        gain = drop * weight - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"throws {t.names[a.a]} for the monsters against {who}"))
    for a in ctx.has("wander"):
        # a random monster joins: about the average unseen monster level
        pool = ctx.unseen[MONSTER]
        avg = sum(t.monster[u].level for u in pool) / len(pool) if pool else 5.0
        drop = p - p_win(round(margin - avg), fv.dice, fv.ties)
        gain = drop * weight - ctx.value(a.a) - 0.5 * TREASURE_VALUE * p
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"sends a wandering monster into {who}'s fight"))
    if best is not None:
        return best[1]
    return idle


def dice_window(ctx: Ctx, fv: FightView, our_side: bool) -> Choice | None:
    """After the roll: dice cards that flip the result, for us or against a threat."""
    t, s = ctx.t, ctx.s
    c = fv.c
    passes = ctx.has("pass")
    idle = Choice(passes[0], "") if passes else None
    dice_cards = ctx.has("dice")
    if not dice_cards:
        return idle
    h = fv.h + die_total(c, 0)
    m = fv.m + die_total(c, 1)
    won = h > m or (fv.ties and h == m)
    if our_side:
        if won:
            return idle
        weight = stake(ctx, fv, ctx.seat)
        sign = 1.0
    else:
        if not won:
            return idle
        if c.boss:
            weight = 30.0
        else:
            levels = sum(d.levels for d in fv.foes)
            weight = threat(s, ctx.seat, c.active) * (levels + 0.3 * sum(d.treasures for d in fv.foes))
            weight *= ctx.p.interfere
        weight *= hope(ctx, ctx.seat)
        sign = -1.0
    best: tuple[float, Choice] | None = None
    for a in dice_cards:
        d = t.dxm[a.a]
        p_after = _p_after_dice(c, fv, d.action, d.amount, a.b)
        p_now = 1.0 if won else 0.0
        gain = sign * (p_after - p_now) * weight - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"plays {d.name} on the {'heroes' if a.b == 0 else 'monsters'}' die"))
    return best[1] if best else idle


def _p_after_dice(c: Combat, fv: FightView, action: str, amount: int, side: int) -> float:
    h_base = fv.h
    m_base = fv.m
    hd = die_total(c, 0)
    md = die_total(c, 1)
    mods0 = sum(x.amount for x in c.die_mods if x.side == 0)
    mods1 = sum(x.amount for x in c.die_mods if x.side == 1)

    def won(hdie: int, mdie: int) -> bool:
        h, m = h_base + hdie, m_base + mdie
        return h > m or (fv.ties and h == m)

    if action == "reroll":
        if side == 0:
            return sum(won(max(0, r + mods0), md) for r in range(1, 7)) / 6
        n = len(c.monster_dice) or 1
        outcomes = _sums(n)
        return sum(p * won(hd, max(0, total + mods1)) for total, p in outcomes)
    if side == 0:
        return float(won(max(0, c.hero_die + mods0 + amount), md))
    return float(won(hd, max(0, sum(c.monster_dice) + mods1 + amount)))


def _sums(n: int) -> list[tuple[int, float]]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for tot, p in dist.items():
            for d in range(1, 7):
                nxt[tot + d] = nxt.get(tot + d, 0.0) + p / 6
        dist = nxt
    return list(dist.items())
