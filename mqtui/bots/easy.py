"""The easy bot: the normal bot's judgement, played the way a friendly casual player plays.

It reads only its seat's view and uses the normal bot's pieces (the fight odds, the planner, the hero
building), with these differences:

- **No play for the kill.** In someone else's fight it passes; only when that fight would give the
  game away (the boss fight, or a kill that takes a hero to Level 10) does it sometimes play the card
  the normal bot would. It plays the curses it holds, one at the end of each turn, on an opponent
  picked at random: never aimed at the leader or at the weakest hero (they slow every hero alike, so a
  first game lasts; docs/balance.md).
- **Fair help.** It asks for help when a fight looks doubtful, offering half the Treasure (rounded
  up, no first pick; 100 gold when there is no Treasure), and it accepts fair offers on the fight's
  odds alone, without weighing whether the helped player is a rival (it still won't carry a hero to
  Level 10).
- **Casual slips.** More often than not it wanders toward the second-best goal (or ends its turn a
  little early); it forgets a one-shot it meant to use, and walks only into fights clearly worth it.
  At Level 10 it goes for the boss at once.

Randomness comes from the bot's seed and the view's state number, so a decision depends only on what
the seat sees and replays exactly.
"""

from __future__ import annotations

import random

from mqtui.bots import Choice
from mqtui.bots.eval import p_win, wins_ties
from mqtui.bots.normal import (
    Ctx,
    FightView,
    Params,
    decide,
    fight_view,
    helper_strength,
    move_options,
)
from mqtui.bots.normal import invite as normal_invite
from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import ACT, INVITE, WINDOW, Hero, State

# the normal policy, less cut-throat: no interference weight, no curses by calculation, less fear of
# the table, only fights clearly worth it, and straight to the boss at Level 10
EASY_PARAMS = Params(
    interfere=0.0, curse_floor=99.0, leader_fear=0.5, boss_ready=0.0, help_margin=0.0, fight_floor=0.4
)
SLIP = 0.6  # chance of a small mistake where one is possible
FORGET = 0.5  # chance of forgetting a one-shot it meant to use
SPOILER = 0.25  # chance of playing the normal bot's card against a hero about to win
CURSE = 1.0  # chance of playing a curse it holds (on a random opponent) when ending the turn
HELP_BELOW = 0.55  # asks for help when its own odds are under this


def fair_terms(total_treasures: int, gold: int) -> tuple[int, int]:
    """What a fair player offers a helper: half the Treasure rounded up, or 100 gold if there is none."""
    if total_treasures:
        return (total_treasures + 1) // 2, 0
    return 0, 100 if gold >= 100 else 0


class EasyBot:
    kind = "easy"
    needs_view = True

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        self.seed = seed
        self.params = params or EASY_PARAMS

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        assert view is not None, "the easy bot needs the seat's view"
        if len(legal) == 1:
            return Choice(legal[0])
        rnd = random.Random(f"easy:{self.seed}:{view.n}:{view.actions}:{seat}")
        choice = self._choose(Ctx(engine.cards, view, seat, legal, self.params), rnd)
        if choice is None or choice.action not in legal:
            return decide(engine.cards, view, seat, legal, self.params)
        return choice

    def _choose(self, ctx: Ctx, rnd: random.Random) -> Choice | None:
        kind = ctx.s.frames[-1].kind
        if kind == ACT:
            return act(ctx, rnd)
        if kind == WINDOW:
            return window(ctx, rnd)
        if kind == INVITE:
            return answer_invite(ctx)
        return decide(ctx.t, ctx.s, ctx.seat, ctx.legal, ctx.p)


def act(ctx: Ctx, rnd: random.Random) -> Choice | None:
    choice = decide(ctx.t, ctx.s, ctx.seat, ctx.legal, ctx.p)
    a = choice.action
    if a.kind == "end":
        curses = ctx.has("curse")
        if curses and rnd.random() < CURSE:
            pick = rnd.choice(curses)
            victim = ctx.s.heroes[pick.b].name
            return Choice(pick, f"plays {ctx.t.names[pick.a]} on {victim}, for fun")
        return choice
    if a.kind == "move" and ctx.me.level < MAX_LEVEL and rnd.random() < SLIP:
        _, remotes = move_options(ctx)
        others = [o for o in remotes if o[1] != a and o[0] > 0]
        if others:
            _, action, why = others[0]
            return Choice(action, f"{why} (on a whim)")
        if ctx.me.moves <= 2 and ctx.has("end"):
            return Choice(ctx.has("end")[0], "ends the turn a little early")
    return choice


def window(ctx: Ctx, rnd: random.Random) -> Choice | None:
    c = ctx.s.combat
    assert c is not None
    f = ctx.s.frames[-1]
    ours = ctx.seat in (c.active, c.helper)
    passes = ctx.has("pass")
    idle = Choice(passes[0]) if passes else None
    if not ours:
        fv = fight_view(ctx)
        active = ctx.s.heroes[c.active]
        decisive = c.boss or active.level + sum(d.levels for d in fv.foes) >= MAX_LEVEL
        if not decisive or rnd.random() >= SPOILER:
            return idle
        # the normal bot's card against a hero about to win
        return decide(ctx.t, ctx.s, ctx.seat, ctx.legal, Params(boss_ready=0.0))
    choice = decide(ctx.t, ctx.s, ctx.seat, ctx.legal, ctx.p)
    if f.stage == "post":
        return choice
    a = choice.action
    if a.kind == "use" and rnd.random() < FORGET:
        return idle
    if ctx.seat == c.active and a.kind in ("invite", "pass"):
        asked = ask_for_help(ctx, prefer=a.a if a.kind == "invite" else -1)
        if asked is not None:
            return asked
        if a.kind == "invite":
            return idle
    return choice


def ask_for_help(ctx: Ctx, prefer: int = -1) -> Choice | None:
    """A doubtful fight: invite the hero who adds most, on fair terms (``prefer``: the helper the
    normal bot would ask, all else equal)."""
    invites = ctx.has("invite")
    c = ctx.s.combat
    if not invites or c is None:
        return None
    fv = fight_view(ctx)
    p0 = p_win(fv.h - fv.m, fv.dice, fv.ties)
    if p0 >= HELP_BELOW and prefer < 0:
        return None
    total = sum(d.treasures for d in fv.foes)
    n, gold = fair_terms(min(total, 3), ctx.me.gold)
    best: tuple[float, float, Action] | None = None  # (preference, odds with the helper, invitation)
    for a in invites:
        if a.b != n or a.c != gold:
            continue
        p1 = with_helper(ctx, fv, ctx.s.heroes[a.a])
        bonus = 0.05 if a.a == prefer else 0.0
        if p1 - p0 + bonus >= 0.15 and (best is None or p1 + bonus > best[0]):
            best = (p1 + bonus, p1, a)
    if best is None:
        return None
    _, p1, a = best
    terms = f"{n} Treasure{'s' if n != 1 else ''}" if n else (f"{gold} gold" if gold else "nothing")
    return Choice(a, f"asks {ctx.s.heroes[a.a].name} to help for {terms}: {p0:.0%} -> {p1:.0%}")


def with_helper(ctx: Ctx, fv: FightView, hero: Hero) -> float:
    """The heroes' chance in this fight with ``hero`` at the active hero's side."""
    return p_win(fv.h + helper_strength(ctx, fv, hero) - fv.m, fv.dice, fv.ties or wins_ties(ctx.t, [hero]))


def answer_invite(ctx: Ctx) -> Choice | None:
    """Help on fair terms: the normal bot's rule with no rivalry counted (``interfere=0``), but only
    into fights it is likelier than not to win (a boss fight too: a shared win)."""
    choice = normal_invite(ctx)
    c = ctx.s.combat
    decline = ctx.has("decline")
    if choice is None or c is None or choice.action.kind != "accept" or not decline:
        return choice
    p1 = with_helper(ctx, fight_view(ctx), ctx.me)
    if p1 < 0.5:
        return Choice(decline[0], f"won't help {ctx.s.heroes[c.active].name}: too risky ({p1:.0%} to win)")
    return choice


__all__ = ["EASY_PARAMS", "EasyBot", "fair_terms", "with_helper"]
