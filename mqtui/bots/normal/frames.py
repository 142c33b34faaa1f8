"""Small frames: invitations, rewards, losing an item, fleeing, charity and setup."""

from __future__ import annotations

from mqtui.bots import Choice
from mqtui.bots.eval import GOLD_VALUE, TREASURE_VALUE, card_value, p_win, room_rules_at, wins_ties
from mqtui.bots.normal.core import Ctx
from mqtui.bots.normal.fights import fight_ev, loss_cost
from mqtui.bots.normal.hero import build
from mqtui.bots.normal.moves import hostile_at
from mqtui.bots.normal.rivals import threat
from mqtui.bots.normal.windows import fight_view, helper_strength
from mqtui.engine.actions import Action
from mqtui.engine.board import room_at, room_def
from mqtui.engine.combat import room_rules
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import DX, DY


def invite(ctx: Ctx) -> Choice | None:
    s, me = ctx.s, ctx.me
    f = s.frames[-1]
    c = s.combat
    assert c is not None
    active = s.heroes[c.active]
    accept, decline = ctx.has("accept"), ctx.has("decline")
    if not accept or not decline:
        return None
    fv = fight_view(ctx)
    add = helper_strength(ctx, fv, me)
    p1 = p_win(fv.h + add - fv.m, fv.dice, fv.ties or wins_ties(ctx.t, [me]))
    if c.boss:
        if p1 >= 0.3:
            return Choice(accept[0], f"joins {active.name} against the boss: a shared win ({p1:.0%})")
        return Choice(decline[0], f"won't face the boss with {active.name}: only {p1:.0%}")
    levels = sum(d.levels for d in fv.foes)
    if active.level + levels >= MAX_LEVEL:
        return Choice(decline[0], f"won't help: {active.name} is one level from winning")
    rules = room_rules(ctx.t, s, c)
    gain = f.target * GOLD_VALUE + p1 * f.n * TREASURE_VALUE
    loss = (1 - p1) * loss_cost(ctx, fv.foes, rules)
    rival = p1 * levels * threat(s, ctx.seat, active.seat) * ctx.p.interfere
    net = gain - loss - rival - ctx.p.help_margin
    if net > 0:
        return Choice(
            accept[0], f"helps {active.name} ({p1:.0%} to win, for {f.n} Treasure and {f.target} gold)"
        )
    return Choice(decline[0], f"won't help {active.name}: not worth it ({p1:.0%} to win)")


def reward(ctx: Ctx) -> Choice | None:
    f = ctx.s.frames[-1]
    takes = ctx.has("take")
    if not takes:
        return None
    if ctx.seat == f.target:  # our first pick
        best = max(takes, key=lambda a: ctx.value(a.a))
        return Choice(best, f"takes {ctx.t.names[best.a]} as agreed")
    worst = min(takes, key=lambda a: ctx.value(a.a))
    return Choice(worst, f"hands over {ctx.t.names[worst.a]}")


def lose_item(ctx: Ctx) -> Choice | None:
    loses = ctx.has("lose")
    if not loses:
        return None
    worst = min(loses, key=lambda a: ctx.value(a.a))
    return Choice(worst, f"gives up {ctx.t.names[worst.a]}, the least useful item")


def flee(ctx: Ctx) -> Choice | None:
    t, s, me = ctx.t, ctx.s, ctx.me
    flees = ctx.has("flee")
    if not flees:
        return None

    def score(a: Action) -> float:
        x, y = me.x + DX[a.a], me.y + DY[a.a]
        v = 0.0
        foes = hostile_at(ctx, (x, y))
        if foes:
            ev, _ = fight_ev(ctx, foes, room_rules_at(t, s, x, y))
            v += min(ev, 0.0) - 1.0
        if (x, y) == (0, 0):
            v += 0.4
        room = room_at(s, x, y)
        if room is not None and room.room >= 0:
            rules = room_def(t, room).rules
            if any(r.kind == "heal_on_enter" for r in rules):
                v += 0.3
        v -= 0.02 * (abs(x) + abs(y))
        return v

    best = max(flees, key=score)
    return Choice(best, "")


def charity(ctx: Ctx) -> Choice | None:
    s = ctx.s
    f = s.frames[-1]
    options = ctx.has("charity")
    if not options:
        return None
    if f.target >= 0:
        # junk for us, and as little use as possible to the player who gets it
        other = s.heroes[f.target]
        gift = min(options, key=lambda a: ctx.value(a.a) + 0.5 * card_value(ctx.t, other, a.a))
        return Choice(gift, f"gives {ctx.t.names[gift.a]} to {other.name} (charity)")
    worst = min(options, key=lambda a: ctx.value(a.a))
    return Choice(worst, f"discards {ctx.t.names[worst.a]} (charity)")


def setup(ctx: Ctx) -> Choice | None:
    built = build(ctx)
    if built is not None:
        return built
    done = ctx.has("done")
    return Choice(done[0], "") if done else None
