"""The hard bot: the normal bot's judgement, checked by looking ahead on the big decisions.

For a big decision (walk into a fight or explore or not, interfere or not, help or not, whom to invite
on what terms, a dice trick after the roll) it takes a few candidate actions (the normal bot's choice
among them), samples full states consistent with its view (:func:`mqtui.bots.knowledge.sample_state`:
hidden hands and decks dealt from the unseen cards, with the odds ``HAND_ODDS`` of each sort of card
being held rather than drawn next), plays each candidate on each sample with every seat following the
normal policy until the fight is over and the acting hero has its next free decision, and scores the
result with :func:`mqtui.bots.eval.position_score`, its own fight cards counted double (``hoard``).
Every candidate sees the same samples (common random numbers); the best mean wins. Small decisions go
to the normal policy.

The work is measured in rollout steps, not seconds, so a decision depends only on the view and the
seed. The wall-clock deadline (``deadline_ms``, 30 s) is only a safety cap, far above what the step
budget takes (its slowest decision in 100 games on a two-core machine under a load of 12-22 took 8.9 s
of wall clock, its 99th percentile 1.1 s), so it does not change a game; the advisor sets a short one
(a person is waiting) and says when it cut the look-ahead.
"""

from __future__ import annotations

import random
import time
import zlib
from dataclasses import dataclass

from mqtui.bots import Choice
from mqtui.bots.eval import position_score
from mqtui.bots.knowledge import HAND_ODDS, sample_state
from mqtui.bots.normal import (
    Ctx,
    Params,
    build,
    decide,
    hope,
    hostile_at,
    move_options,
    quick_plays,
)
from mqtui.bots.normal.moves import final_dash, go_home
from mqtui.engine.actions import Action
from mqtui.engine.cards import DXM, TREASURE, CardTable
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import ACT, DX, DY, INVITE, SETUP, STAGE_OVER, WINDOW, State, cell_key

STEP_COST = {ACT: 6}  # rollout steps an ACT decision costs (the normal bot plans there); others cost 1
ROLLOUT_CAP = 250  # decisions in one rollout before it is cut short


@dataclass(frozen=True)
class Search:
    """What a look-ahead found: each candidate's score on each sample (the same samples for all), and
    on how many of them the fight in hand (or one the move starts) was won by its hero."""

    candidates: tuple[Choice, ...]  # the normal bot's choice first
    scores: tuple[tuple[float, ...], ...]
    wins: tuple[int, ...]
    samples: int
    cut: bool  # the deadline ended it before its step budget

    def gap(self, a: int, b: int) -> tuple[float, float]:
        """Candidate ``a``'s mean gain over ``b`` on the same samples, and its standard error."""
        diffs = [x - y for x, y in zip(self.scores[a], self.scores[b], strict=True)]
        n = max(1, len(diffs))
        gain = sum(diffs) / n
        var = sum((d - gain) ** 2 for d in diffs) / max(1, n - 1)
        return gain, (var / n) ** 0.5


class HardBot:
    kind = "hard"
    needs_view = True

    def __init__(
        self,
        seed: int = 0,
        steps: int = 900,
        samples: int = 24,
        deadline_ms: float = 30_000.0,
        params: Params | None = None,
        kinds: tuple[str, ...] = (ACT, WINDOW, INVITE),
    ) -> None:
        self.seed = seed
        self.kinds = kinds  # the decision frames it looks ahead on
        self.steps = steps  # rollout budget per decision, in steps (see STEP_COST)
        self.samples = samples  # most samples per decision
        self.deadline = deadline_ms / 1000
        self.params = params or Params(interfere=0.3, dash=True)  # its own small decisions: a thrifty normal
        self.model = Params()  # what it expects of everyone else: the normal bot
        self.margin = 0.05  # least mean gain (level units) for overriding the normal choice
        self.z = 1.0  # ... and at least this many standard errors
        self.z_act = 1.5  # (stricter in the action phase, where the look-ahead is shortest-sighted)
        self.hoard = 2.0  # worth of plus/minus and dice cards in its own hand: they win fights to come
        self.shared = 0.0  # worth of a shared win: neither a win nor a loss (it plays to win alone)
        self.boss_floor = 0.0  # at Level 10, walk into the boss fight only at these odds (0: as normal)
        self.curse_aware = False  # ... times the chance that no rival holds a curse that costs a Level
        self.last_samples = 0  # how many samples the last decision used (for the benchmarks)
        self.last_search: Search | None = None  # the last decision's look-ahead (None: it had none)
        self.last_boss: tuple[int, int] | None = None  # the last boss check: (won, fought) samples

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        assert view is not None, "the hard bot needs the seat's view"
        self.last_samples = 0
        self.last_search = None
        self.last_boss = None
        base = decide(engine.cards, view, seat, legal, self.params)
        if len(legal) == 1:
            return base
        if self.boss_floor > 0:
            wait = self.boss_timing(engine, view, seat, legal, base)
            if wait is not None:
                return wait
        candidates = self.candidates(engine, view, seat, legal, base)
        if len(candidates) < 2:
            return base
        return self.search(engine, view, seat, candidates, base)

    # -- which decisions are big, and what to compare ----------------------------------------------

    def candidates(
        self, engine: Engine, view: State, seat: int, legal: list[Action], base: Choice
    ) -> list[Choice]:
        f = view.frames[-1]
        out: list[Choice] = [base]
        if f.kind not in self.kinds:
            return out
        ctx = Ctx(engine.cards, view, seat, legal, self.params)

        def add(a: Action, why: str = "") -> None:
            if a in legal and all(c.action != a for c in out):
                out.append(Choice(a, why))

        if f.kind == ACT:
            # only "fight or not": walking into a fight, exploring, challenging. The normal bot's
            # sequencing of safe actions (search, Deals, walking) is kept: a short look-ahead cannot
            # see what a Move saved for later is worth.
            if ctx.me.level >= MAX_LEVEL or build(ctx) is not None or quick_plays(ctx) is not None:
                return out
            if not _risky(ctx, base.action):
                return out
            local, remotes = move_options(ctx)
            risky = [o for o in [*local, *remotes] if _risky(ctx, o[1])]
            for o in sorted(risky, key=lambda o: -o[0])[:2]:
                add(o[1], o[2])
            safe = [o for o in [*local, *remotes] if not _risky(ctx, o[1]) and o[0] > 0]
            if safe:
                best_safe = max(safe, key=lambda o: o[0])
                add(best_safe[1], best_safe[2])
            for a in ctx.has("end"):
                add(a, "ends the turn: the fight is not worth it")
            return out
        if f.kind == WINDOW and f.stage == "pre":
            c = view.combat
            assert c is not None
            if seat not in (c.active, c.helper) and hope(ctx, seat) <= 0.0:
                return out  # no fight left for it: stopping a rival only drags the game on (normal passes)
            cards = [a for a in legal if a.kind in ("enhance", "use", "wander")]
            invites = [a for a in legal if a.kind == "invite"]
            if not cards and not invites:
                return out
            for a in legal:
                if a.kind == "pass":
                    add(a)
            seen: set[int] = set()
            for a in cards:
                if a.a in seen:
                    continue
                side_ok = a.kind != "use" or a.b == (0 if seat in (c.active, c.helper) else 1)
                enh_ok = a.kind != "enhance" or _enhance_helps(engine, view, seat, a)
                if side_ok and enh_ok:
                    seen.add(a.a)
                    add(a)
            for a in _invite_menu(invites):
                add(a)
            return out[:9]
        if f.kind == WINDOW and f.stage == "post":
            # after the roll: each dice trick, played out on the dice as they lie
            if any(a.kind == "dice" for a in legal):
                for a in legal:
                    if a.kind in ("pass", "dice"):
                        add(a)
            return out
        if f.kind == INVITE:
            for a in legal:
                add(a)
            return out
        return out

    # -- when to walk into the boss fight -------------------------------------------------------------

    def boss_timing(
        self, engine: Engine, view: State, seat: int, legal: list[Action], base: Choice
    ) -> Choice | None:
        """At Level 10, on the way to the Entrance this turn: play the walk and the boss fight out on
        samples; below ``boss_floor`` odds, wait outside (gather strength, or end the turn) and let the
        others spend their cards on each other's boss fights. None: go on as the normal policy says."""
        f = view.frames[-1]
        me = view.heroes[seat]
        if f.kind != ACT or view.combat is not None or me.level < MAX_LEVEL or (me.x, me.y) == (0, 0):
            return None
        if view.round > 40:
            return None
        ctx = Ctx(engine.cards, view, seat, legal, self.params)
        home = [c.action for c in (go_home(ctx), final_dash(ctx)) if c is not None]
        if base.action not in home and (base.action.kind, base.action.b, base.action.c) != ("teleport", 0, 0):
            return None
        won, fought = self._boss_odds(engine, view, seat, base.action)
        self.last_boss = (won, fought)
        floor = self.boss_floor * (1.0 - demotion_risk(ctx)) if self.curse_aware else self.boss_floor
        if fought * 2 < self.samples or won >= floor * fought:
            return None  # not a walk into the boss fight this turn, or good enough odds
        odds = f"{won / fought:.0%} against the boss looking ahead"
        local, remotes = move_options(ctx)
        gather = [o for o in [*local, *remotes] if o[0] > 0 and _safe_wait(ctx, o[1])]
        if gather:
            _, a, why = max(gather, key=lambda o: o[0])
            return Choice(a, f"{why}: waits for better odds ({odds})")
        for a in ctx.has("end"):
            return Choice(a, f"Level 10 waits outside the Entrance: {odds}")
        return None

    def _boss_odds(self, engine: Engine, view: State, seat: int, action: Action) -> tuple[int, int]:
        """On how many samples the hero, taking ``action`` and then the normal policy's way home this
        turn, wins the boss fight, and on how many it fights it."""
        t = engine.cards
        key = f"boss:{self.seed}:{seat}:{view.n}:{view.actions}:{view.round}".encode()
        rnd = random.Random(zlib.crc32(key))
        turn = (view.round, view.active)
        won = fought = spent = n = 0
        while n < self.samples and spent < self.steps:
            s = sample_state(t, view, seat, rnd, HAND_ODDS)
            engine.apply(s, action)
            boss = False
            moves = 0
            while s.stage != STAGE_OVER and moves < ROLLOUT_CAP and (s.round, s.active) == turn:
                if s.combat is not None and s.combat.boss:
                    boss = True
                elif boss or not s.frames:
                    break
                top = s.frames[-1]
                legal = engine.legal(s, top.seat)
                choice = decide(t, s, top.seat, legal, self.params if top.seat == seat else self.model)
                engine.apply(s, choice.action)
                spent += STEP_COST.get(top.kind, 1)
                moves += 1
            fought += boss
            won += boss and seat in s.winners
            n += 1
        self.last_samples = n
        return won, fought

    # -- the look-ahead --------------------------------------------------------------------------------

    def search(
        self, engine: Engine, view: State, seat: int, candidates: list[Choice], base: Choice
    ) -> Choice:
        started = time.perf_counter()
        t = engine.cards
        key = f"{self.seed}:{seat}:{view.n}:{view.actions}:{view.round}".encode()
        rnd = random.Random(zlib.crc32(key))
        scores: list[list[float]] = [[] for _ in candidates]
        wins = [0] * len(candidates)
        fighter = view.combat.active if view.combat is not None else seat  # whose fight the odds are of
        kills = view.heroes[fighter].kills
        turn = (view.round, view.active)
        spent = 0
        n = 0
        cut = False
        while n < self.samples and spent < self.steps:
            sample = sample_state(t, view, seat, rnd, HAND_ODDS)
            for i, choice in enumerate(candidates):
                s = copy_state(sample)
                engine.apply(s, choice.action)  # (the seat's blind engine: it sees only these worlds)
                spent += 1 + self._rollout(engine, s, seat, turn)
                scores[i].append(position_score(t, s, seat, self.hoard, self.shared))
                wins[i] += s.heroes[fighter].kills > kills or fighter in s.winners
            n += 1
            if time.perf_counter() - started > self.deadline:
                cut = n < self.samples and spent < self.steps
                break
        self.last_samples = n
        self.last_search = Search(tuple(candidates), tuple(tuple(x) for x in scores), tuple(wins), n, cut)
        # a candidate replaces the normal bot's choice (index 0) only if it is clearly better on the
        # same samples: its mean paired gain must beat the noise
        best, best_gain = 0, 0.0
        z = self.z_act if view.frames[-1].kind == ACT else self.z
        for i in range(1, len(candidates)):
            gain, err = self.last_search.gap(i, 0)
            if gain > max(self.margin, z * err) and gain > best_gain:
                best, best_gain = i, gain
        if best == 0:
            return base
        chosen = candidates[best]
        why = chosen.why or describe(t, view, chosen.action)
        over = describe(t, view, base.action)
        return Choice(chosen.action, f"{why} (looking ahead: {best_gain:+.2f} levels better than {over})")

    def _rollout(self, sim: Engine, s: State, seat: int, turn: tuple[int, int]) -> int:
        """Play on with the normal policy until the fight in hand is over and the turn's player has a
        free decision again, or the turn is over. Returns the steps spent."""
        t = sim.cards
        steps = 0
        moves = 0
        while s.stage != STAGE_OVER and moves < ROLLOUT_CAP and (s.round, s.active) == turn:
            top = s.frames[-1] if s.frames else None
            if top is None or (s.combat is None and top.kind in (ACT, SETUP)):
                break
            who = top.seat
            legal = sim.legal(s, who)
            choice = decide(t, s, who, legal, self.params if who == seat else self.model)
            sim.apply(s, choice.action)
            steps += STEP_COST.get(top.kind, 1)
            moves += 1
        return steps


def describe(t: CardTable, s: State, a: Action) -> str:
    """An action in words, for the log."""
    k = a.kind
    name = (
        t.names[a.a] if k in ("enhance", "use", "wander", "play", "dice") and 0 <= a.a < len(t.names) else ""
    )
    if k == "pass":
        return "passes"
    if k == "end":
        return "ends the turn"
    if k == "accept":
        return "agrees to help"
    if k == "decline":
        return "declines to help"
    if k == "move":
        me = s.heroes[a.seat]
        there = cell_key(me.x + DX[a.a], me.y + DY[a.a]) in s.grid
        return f"{'goes' if there else 'explores'} {'NESW'[a.a]}"
    if k == "search":
        return "searches the room"
    if k == "challenge":
        m = next((m for m in s.monsters if m.id == a.a), None)
        return f"challenges {t.monster[m.card].name}" if m else "challenges a monster"
    if k == "enhance":
        return f"plays {name} on the monster"
    if k == "use":
        return f"uses {name} for the {'heroes' if a.b == 0 else 'monsters'}"
    if k == "wander":
        return f"plays {name}: a wandering monster joins the fight (unless it ignores the hero)"
    if k == "invite":
        n, gold = a.b % 10, a.c
        terms = " and ".join(
            x
            for x in (f"{n} Treasure{'s' if n != 1 else ''}" if n else "", f"{gold} gold" if gold else "")
            if x
        )
        return f"asks {s.heroes[a.a].name} to help for {terms or 'nothing'}"
    return str(a).split(" ", 1)[1]


def _risky(ctx: Ctx, a: Action) -> bool:
    """Actions that start a fight (or may): walking into monsters, exploring, challenging."""
    if a.kind == "challenge":
        return True
    if a.kind != "move":
        return False
    me = ctx.me
    cell = (me.x + DX[a.a], me.y + DY[a.a])
    if cell_key(*cell) not in ctx.s.grid:
        return True
    return bool(hostile_at(ctx, cell))


def demotion_risk(ctx: Ctx) -> float:
    """The chance that some rival holds (or draws before the hero's next turn) a curse that costs a
    Level, from public facts: the unseen such curses, the unseen DxM cards, the rivals' hand sizes."""
    t = ctx.t
    dxm = ctx.unseen[DXM]
    if not dxm:
        return 0.0
    bad = sum(
        1 for u in dxm if t.dxm[u].kind == "curse" and any(e.kind == "lose_levels" for e in t.dxm[u].effects)
    )
    hidden = len(dxm) + len(ctx.unseen[TREASURE])
    held = sum(len(h.hand) for h in ctx.s.heroes if h.seat != ctx.seat) * len(dxm) / max(1, hidden)
    held += len(ctx.s.heroes) - 1  # about one DxM draw each before the hero's next turn
    return float(1.0 - (1.0 - bad / len(dxm)) ** held)


def _safe_wait(ctx: Ctx, a: Action) -> bool:
    """Gathering that neither starts a fight nor steps into the Entrance (and so the boss fight)."""
    if a.kind in ("search", "pickup", "deal"):
        return True
    if a.kind != "move" or _risky(ctx, a):
        return False
    me = ctx.me
    return (me.x + DX[a.a], me.y + DY[a.a]) != (0, 0)


def _enhance_helps(engine: Engine, view: State, seat: int, a: Action) -> bool:
    """Enhancers worth a look: plus cards against others, minus cards for our own side."""
    c = view.combat
    assert c is not None
    amount = engine.cards.dxm[a.a].amount if engine.cards.deck_of[a.a] == DXM else 0
    ours = seat in (c.active, c.helper)
    return (amount < 0) == ours


def _invite_menu(invites: list[Action]) -> list[Action]:
    """A few terms per invitee: nothing, a little gold, one Treasure, one Treasure and gold."""
    wanted = {(0, 0), (0, 100), (1, 0), (1, 100), (0, 200)}
    return [a for a in invites if (a.b, a.c) in wanted]


__all__ = ["HardBot", "Search"]
