"""The advisor: what the normal computer player would do in this seat, and why, in one short line.

``advise(cards, view, seat, legal)`` reads only the seat's view (as the bots do): the recommended
action is the normal bot's choice there, and the line gives the numbers a newcomer needs for the
decision in front of them: the chance of winning the fight as it stands, the helper or the card that
would turn it, the odds of escaping if the fight is lost, whether an invitation is worth taking.
``label`` turns an action into the player's words (the UI's and ``mqtui hint``'s action labels).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mqtui.bots.easy import with_helper
from mqtui.bots.eval import p_win
from mqtui.bots.normal import (
    Ctx,
    FightView,
    Params,
    decide,
    fight_view,
    hostile_at,
    would_accept,
)
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.combat import ESCAPE_ON, die_total, room_rules
from mqtui.engine.heroes import has_power, power_total
from mqtui.engine.state import ACT, DX, DY, FLEE, INVITE, WINDOW, State

Label = Callable[[Action], str]


MAX_CHARS = 120  # one short line


@dataclass(frozen=True)
class Advice:
    action: Action  # what the computer would do
    text: str  # one line: the recommendation and the numbers behind it

    def __post_init__(self) -> None:
        if len(self.text) > MAX_CHARS:
            cut = self.text[: MAX_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:")
            object.__setattr__(self, "text", cut + "…")


def advise(
    t: CardTable, view: State, seat: int, legal: list[Action], label: Label | None = None
) -> Advice | None:
    """The advice for ``seat``'s decision, from its view; None when it has nothing to decide."""
    if not legal:
        return None
    words = label or str
    choice = decide(t, view, seat, list(legal), Params())
    ctx = Ctx(t, view, seat, list(legal), Params())
    f = view.frames[-1]
    pick = words(choice.action)
    if f.kind == WINDOW and view.combat is not None:
        fv = fight_view(ctx)
        if f.stage == "post":
            return Advice(choice.action, f"{pick}: {_after_dice(ctx, fv)}")
        if seat in (fv.c.active, fv.c.helper):
            return Advice(choice.action, _own_fight(ctx, fv, choice.action, words))
        return Advice(choice.action, f"{pick}: {_their_fight(ctx, fv, choice.why)}")
    if f.kind == INVITE and view.combat is not None:
        fv = fight_view(ctx)
        p1 = with_helper(ctx, fv, view.heroes[seat])
        verdict = "Accept" if choice.action.kind == "accept" else "Decline"
        reason = f"{p1:.0%} to win with your help, for {_terms(f.n, f.target)}"
        if verdict == "Decline" and "winning" in choice.why:
            reason += f"; {view.heroes[fv.c.active].name} is one kill from Level 10"
        return Advice(choice.action, f"{verdict}: {reason}")
    if f.kind == FLEE:
        me = view.heroes[seat]
        a = choice.action
        foes = hostile_at(ctx, (me.x + DX[a.a], me.y + DY[a.a])) if a.kind == "flee" else []
        return Advice(a, f"{pick}: {'monsters there!' if foes else 'no monster waits there'}")
    why = you(choice.why) if choice.why else ("nothing here is worth a Move" if f.kind == ACT else "")
    if why and why.split(" ", 1)[0].lower() == pick.split(" ", 1)[0].lower():
        return Advice(choice.action, why[0].upper() + why[1:])  # the reason already names the action
    return Advice(choice.action, f"{pick}: {why}" if why else pick)


def escape_odds(t: CardTable, view: State, seat: int) -> tuple[int, float]:
    """If the fight is lost: the d6 roll each monster needs to escape it, and the chance to escape all
    of them (counting a d10 escape power)."""
    c = view.combat
    assert c is not None
    hero = view.heroes[seat]
    bonus = power_total(t, hero, "escape_bonus") + sum(
        r.amount for r in room_rules(t, view, c) if r.kind == "escape_bonus"
    )
    need = max(1, ESCAPE_ON - bonus)
    each = max(0.0, min(1.0, (7 - need) / 6))
    p = each ** max(1, len(c.monsters) if not c.boss else 0)
    if has_power(t, hero, "d10_escape"):
        vanish = min(hero.level, 10) / 10
        p = vanish + (1 - vanish) * p
    return need, p


def _own_fight(ctx: Ctx, fv: FightView, a: Action, words: Label) -> str:
    p0 = p_win(fv.h - fv.m, fv.dice, fv.ties)
    options = _turns(ctx, fv)
    if a.kind == "pass":
        rec = "pass"
        best = max(options.values(), default=None)
        if best is not None and best[0] > p0 + 0.01:
            rec += f" ({best[1]} would make it {best[0]:.0%})"
    else:
        label = words(a)
        rec = label[:1].lower() + label[1:]
        if a in options:
            rec += f": {options[a][0]:.0%}"
    parts = [f"{p0:.0%} to win now", rec]
    if fv.c.boss:
        parts.append("losing costs a Life and a Level")
    else:
        need, p = escape_odds(ctx.t, ctx.s, ctx.seat)
        parts.append(f"if you lose, escape on {need}+ ({p:.0%})")
    return "; ".join(parts)


def _turns(ctx: Ctx, fv: FightView) -> dict[Action, tuple[float, str]]:
    """What each helper (at the cheapest terms each would likely take) or card would make the odds."""
    t, s = ctx.t, ctx.s
    margin = fv.h - fv.m
    out: dict[Action, tuple[float, str]] = {}
    for a in ctx.has("use"):
        if a.b == 0:
            out[a] = (p_win(margin + t.treasure[a.a].bonus, fv.dice, fv.ties), t.names[a.a])
    for a in ctx.has("enhance"):
        amount = t.dxm[a.a].amount
        if amount < 0:
            out[a] = (p_win(margin - amount, fv.dice, fv.ties), t.names[a.a])
    asked: set[int] = set()
    for a in sorted(ctx.has("invite"), key=lambda a: (a.b % 10 * 500 + a.c, a.b >= 10)):
        other = s.heroes[a.a]
        p1 = with_helper(ctx, fv, other)
        if a.a in asked:
            out[a] = (p1, f"{other.name}'s help")
            continue
        if a.b < 10 and would_accept(ctx, fv, other, a.b % 10, a.c, p1):
            asked.add(a.a)
            out[a] = (p1 + 1e-6, f"{other.name}'s help for {_terms(a.b % 10, a.c)}")  # the cheapest first
    return out


def _their_fight(ctx: Ctx, fv: FightView, why: str) -> str:
    s = ctx.s
    name = s.heroes[fv.c.active].name
    p = p_win(fv.h - fv.m, fv.dice, fv.ties)
    if why:
        return f"{name} has {p:.0%}; {you(why)}"
    return f"{name} has {p:.0%} to win; not worth one of your cards"


def _after_dice(ctx: Ctx, fv: FightView) -> str:
    c = fv.c
    h, m = fv.h + die_total(c, 0), fv.m + die_total(c, 1)
    won = h > m or (fv.ties and h == m)
    ours = ctx.seat in (c.active, c.helper)
    side = "you" if ours else s_name(ctx)
    verdict = "win" if won else "lose"
    if side != "you":
        verdict += "s"
    return f"as the dice lie, {side} {verdict} ({h} vs {m})"


def s_name(ctx: Ctx) -> str:
    c = ctx.s.combat
    assert c is not None
    return ctx.s.heroes[c.active].name


def _terms(n: int, gold: int) -> str:
    parts = []
    if n:
        parts.append(f"{n} Treasure{'s' if n != 1 else ''}")
    if gold:
        parts.append(f"{gold} gold")
    return " and ".join(parts) or "nothing"


def you(why: str) -> str:
    """A bot's log reason ("goes after X (wins 60%)") as advice to the player ("go after X ...")."""
    first, _, rest = why.partition(" ")
    if first.endswith(("ches", "shes", "sses", "xes", "oes")):
        first = first[:-2]
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    text = f"{first} {rest}" if rest else first
    text = re.sub(r"\(expects ([+-][\d.]+)\)", r"(worth \1 Level on average)", text)
    return text.replace(" its ", " your ").replace(" it ", " you ")


__all__ = ["Advice", "advise", "escape_odds", "you"]
