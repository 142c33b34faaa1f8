"""The action phase: one step of the hero's turn (build, quick plays, a plan, a tidy hand, the end)."""

from __future__ import annotations

from mqtui.bots import Choice
from mqtui.bots.normal.core import Ctx
from mqtui.bots.normal.fights import effect_cost
from mqtui.bots.normal.hero import build
from mqtui.bots.normal.moves import distance_home, plan
from mqtui.bots.normal.rivals import hope, threat
from mqtui.engine.actions import Action
from mqtui.engine.cards import DXM, TREASURE
from mqtui.engine.heroes import HAND_LIMIT, MAX_LEVEL, power_total


def act(ctx: Ctx) -> Choice | None:
    me = ctx.me
    step = ctx.first(build, quick_plays, plan, tidy_hand)
    if step is not None:
        return step
    end = ctx.has("end")
    if end:
        # worth a line only when Moves are left unused
        why = f"ends the turn with {me.moves} Move{'s' if me.moves != 1 else ''} left: nothing worth it"
        return Choice(end[0], why if me.moves > 0 and not me.explored else "")
    return None


def quick_plays(ctx: Ctx) -> Choice | None:
    """Cards worth playing at once on the hero's turn: heals, curses on the leader, teleports home."""
    t, s, me = ctx.t, ctx.s, ctx.me
    for a in ctx.has("play"):
        if t.deck_of[a.a] == TREASURE:
            item = t.treasure[a.a]
            if item.use == "heal" and me.life <= me.max_life - max(1, item.amount) + (
                1 if me.life <= 2 else 0
            ):
                return Choice(a, f"drinks {item.name} ({me.life}/{me.max_life} Life)")
    if me.level >= MAX_LEVEL and (me.x, me.y) != (0, 0):
        for a in ctx.has("teleport"):
            if (a.b, a.c) == (0, 0) and distance_home(ctx) > max(me.moves, 1):
                return Choice(a, "teleports to the Entrance for the final fight")
    curses = ctx.has("curse")
    if curses:
        best = max(curses, key=lambda a: curse_value(ctx, a))
        if curse_value(ctx, best) > ctx.p.curse_floor:
            d = t.dxm[best.a]
            return Choice(
                best, f"curses {s.heroes[best.b].name}, who {_leads_words(ctx, best.b)}, with {d.name}"
            )
    return None


def _leads_words(ctx: Ctx, seat: int) -> str:
    h = ctx.s.heroes[seat]
    top = max(o.level for o in ctx.s.heroes)
    return f"leads at Level {h.level}" if h.level == top else f"is Level {h.level}"


def curse_value(ctx: Ctx, a: Action) -> float:
    t, s = ctx.t, ctx.s
    victim = s.heroes[a.b]
    hurt = sum(effect_cost(t, victim, e, own=False) for e in t.dxm[a.a].effects)
    return hurt * (0.3 + threat(s, ctx.seat, a.b) * hope(ctx, ctx.seat)) - 0.3


def tidy_hand(ctx: Ctx) -> Choice | None:
    """Before ending the turn over the hand limit: stow spare gear, use spare Move cards."""
    t, me = ctx.t, ctx.me
    if len(me.hand) <= HAND_LIMIT:
        return None
    free = len(ctx.has("stow")) and (len(me.backpack) + 1 < 2 + power_total(t, me, "backpack"))
    if free:
        spare = [a for a in ctx.has("stow") if a.a in me.hand]
        if spare:
            best = max(spare, key=lambda a: ctx.value(a.a))
            return Choice(best, f"stows {t.names[best.a]} in the backpack")
    for a in ctx.has("play"):
        if t.deck_of[a.a] == DXM and t.dxm[a.a].kind == "moves":
            return Choice(a)
    return None
