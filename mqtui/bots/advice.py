"""The advisor: what the hard computer player would do in this seat, and why, in one short line.

``advise(engine, view, seat, legal)`` reads only the seat's view (as the bots do, on the seat's blind
engine, :meth:`~mqtui.engine.game.Engine.blind`): the recommended action is the hard bot's choice
there (its look-ahead on the big decisions, within ``ADVICE_MS``), and the line gives the numbers a
newcomer needs for the decision in front of them: the chance of winning the fight as it stands and as
the look-ahead sees it (with what the others may play), the helper or the card that would turn it, the
odds of escaping if the fight is lost, whether an invitation is worth taking. When the look-ahead
cannot tell its two best choices apart, or ran out of time, the line ends by saying so.
``label`` turns an action into the player's words (the UI's and ``mqtui hint``'s action labels).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mqtui.bots import Choice
from mqtui.bots.easy import with_helper
from mqtui.bots.eval import p_win
from mqtui.bots.hard import HardBot, Search
from mqtui.bots.normal import (
    Ctx,
    FightView,
    Params,
    fight_view,
    hostile_at,
    would_accept,
)
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.combat import ESCAPE_ON, die_total, room_rules
from mqtui.engine.game import Engine
from mqtui.engine.heroes import has_power, power_total
from mqtui.engine.state import ACT, DX, DY, FLEE, INVITE, WINDOW, State

Label = Callable[[Action], str]


MAX_CHARS = 140  # one short line (two in a narrow fight pane), with room for "(a close call)"
ADVICE_MS = 300.0  # the look-ahead's time limit: a person does not notice the wait
CLOSE = 0.05  # the two best choices are a close call when they differ by less (in levels) or the noise


@dataclass(frozen=True)
class Advice:
    action: Action  # what the computer would do
    text: str  # one line: the recommendation and the numbers behind it

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", _fit(self.text, MAX_CHARS))


def _fit(text: str, chars: int) -> str:
    """``text`` cut at a word to at most ``chars`` characters (with "…" where it was cut)."""
    if len(text) <= chars:
        return text
    return text[: chars - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def advisor_bot() -> HardBot:
    """The computer player behind the advice: the hard bot, its look-ahead cut at ``ADVICE_MS``."""
    return HardBot(0, deadline_ms=ADVICE_MS)


def advise(
    engine: Engine,
    view: State,
    seat: int,
    legal: list[Action],
    label: Label | None = None,
    bot: HardBot | None = None,
) -> Advice | None:
    """The advice for ``seat``'s decision, from its view; None when it has nothing to decide.

    ``engine`` must be the seat's blind engine (never the game's own); ``bot`` the hard bot to ask
    (default :func:`advisor_bot`)."""
    if not legal:
        return None
    hard = bot or advisor_bot()
    choice = hard.choose(engine, view, seat, list(legal))
    advice = _line(engine.cards, view, seat, legal, choice, hard.last_search, label or str)
    doubt = _doubt(hard.last_search, choice.action)
    if not doubt:
        return advice
    return Advice(advice.action, f"{_fit(advice.text, MAX_CHARS - len(doubt) - 3)} ({doubt})")


class AdvisorBot:
    """A seat that always takes the advisor's suggestion: ``mqtui sim --bots advisor,normal,...``
    measures what the advice is worth (not a kind of opponent: it is not in ``BOT_KINDS``)."""

    kind = "advisor"
    needs_view = True

    def __init__(self, seed: int = 0) -> None:
        self.hard = advisor_bot()  # (the advice does not depend on a seed: the same in the app)

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        assert view is not None, "the advisor needs the seat's view"
        advice = advise(engine, view, seat, legal, bot=self.hard)
        assert advice is not None
        return Choice(advice.action, advice.text)


def _doubt(search: Search | None, action: Action) -> str:
    """Why the look-ahead is unsure of its choice ("" when it is sure, or had nothing to weigh)."""
    if search is None:
        return ""
    if search.cut:
        return "unsure: out of time"
    i = next((i for i, c in enumerate(search.candidates) if c.action == action), 0)
    for j in range(len(search.candidates)):
        if j != i:
            gain, err = search.gap(i, j)
            if gain == err == 0.0:
                continue  # the same on every deal (say, two helpers who would both win it): no doubt
            if gain < max(CLOSE, err):
                return "a close call"
    return ""


def _odds(search: Search | None, action: Action) -> str:
    """The look-ahead's chance that the fight is won if ``action`` is taken, as " (N% looking ahead)"."""
    if search is None or not search.samples:
        return ""
    for c, won in zip(search.candidates, search.wins, strict=True):
        if c.action == action:
            return f" ({won / search.samples:.0%} looking ahead)"
    return ""


def _line(
    t: CardTable,
    view: State,
    seat: int,
    legal: list[Action],
    choice: Choice,
    search: Search | None,
    words: Label,
) -> Advice:
    ctx = Ctx(t, view, seat, list(legal), Params())
    f = view.frames[-1]
    pick = words(choice.action)
    if f.kind == WINDOW and view.combat is not None:
        fv = fight_view(ctx)
        if f.stage == "post":
            return Advice(choice.action, f"{pick}: {_after_dice(ctx, fv)}")
        odds = _odds(search, choice.action)
        if seat in (fv.c.active, fv.c.helper):
            return Advice(choice.action, _own_fight(ctx, fv, choice.action, words, odds))
        return Advice(choice.action, f"{pick}: {_their_fight(ctx, fv, choice.why, odds)}")
    if f.kind == INVITE and view.combat is not None:
        fv = fight_view(ctx)
        p1 = with_helper(ctx, fv, view.heroes[seat])
        verdict = "Accept" if choice.action.kind == "accept" else "Decline"
        accept = next((a for a in legal if a.kind == "accept"), choice.action)
        reason = f"{p1:.0%} to win with your help{_odds(search, accept)}, for {_terms(f.n, f.target)}"
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


def _own_fight(ctx: Ctx, fv: FightView, a: Action, words: Label, odds: str) -> str:
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
    parts = [f"{p0:.0%} to win now", rec + odds]
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


def _their_fight(ctx: Ctx, fv: FightView, why: str, odds: str) -> str:
    s = ctx.s
    name = s.heroes[fv.c.active].name
    p = p_win(fv.h - fv.m, fv.dice, fv.ties)
    if why:
        return f"{name} has {p:.0%}{odds}; {you(why)}"
    return f"{name} has {p:.0%}{odds} to win; not worth one of your cards"


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


__all__ = ["ADVICE_MS", "Advice", "AdvisorBot", "advise", "advisor_bot", "escape_odds", "you"]
