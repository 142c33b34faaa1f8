"""The pace of a game, measured by playing: rounds to the win, the Level of each hero by round, and how
often a low hero meets a monster it could beat (issue 16 item 4; the figures of docs/balance.md).

    .venv/bin/python bench/pace.py [--games 200] [--players 4 6] [--bots normal] [--seed 1]
                                   [--jobs 1] [--content DIR ...] [--json]

For each table size it plays ``--games`` games (game ``g`` on seed ``seed + g``, each seat's bot the
one ``mqtui sim`` and the app put there, :func:`mqtui.bots.seat_bot`, asked as they ask it) and prints:

- **rounds to the win** of the finished games: median and quartiles (and how many hit the cap);
- **Level by round**: the mean Level of the leader, the second hero, ... at the end of each round,
  over the games still running (the heroes are ranked by Level in each game);
- **the first seat** (where the app seats the person, against the computer players of the others): how
  often it wins, with its 95% interval, and the **minutes** of a game by the model below;
- **per bot kind**: Levels gained in its own fights (killing or helping), from anything else (cards,
  gold), lost; curses and cards played into another hero's fight against them; boss fights and wins;
- **fair fights**: of the fights a Level 1-3 hero walks into (a monster met by walking in, exploring,
  starting the turn with it or challenging it; not the boss), the share it could win by the dice
  (P(win) >= 50% with the strength on the table as the fight starts, before any card) alone, and alone
  or with one helper: the strongest other living hero standing where they could be invited (same or
  next room), and the strongest other living hero anywhere (one who could have walked over).
  The target of issue 16 counts "alone or with one helper anywhere".

Minutes (a model, docs/balance.md): the app waits ``BOT_DELAY`` seconds before each computer action
(a quarter of it for a pass, a done or building a hero before the first turn: ``LocalStore._pause_before``
at the default speed), and the person in the first seat takes ``THINK`` seconds for a decision of
their own (two or more actions), ``KEY`` for a forced one (one action), nothing for a window in another
hero's fight where passing is all they can do (it passes at once), and the countdown (``COUNTDOWN``) for
one where they could play a card but pass; playing a card there counts as a decision.

The games are watched from outside (the state before and after each action); nothing in the engine
knows it is being measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import wilson
from mqtui.bots import seat_bot
from mqtui.bots.eval import p_win
from mqtui.engine.actions import Action
from mqtui.engine.board import adjacent
from mqtui.engine.cards import CardTable
from mqtui.engine.combat import hero_terms, monster_terms, room_rules
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.heroes import has_power
from mqtui.engine.state import SETUP, STAGE_OVER, WINDOW, Combat, Monster, State
from mqtui.hosting import Host
from mqtui.sim import DEFAULT_ROUND_CAP, NAMES
from mqtui.ui.settings import BOT_SPEEDS, Settings

LOW = 3  # a "low" hero: Level 1 to LOW
BOT_DELAY = BOT_SPEEDS["normal"]  # the app's default pause before a computer action (a quarter: routine)
THINK = 6.0  # seconds a person takes for a decision of their own
KEY = 1.0  # ... for a forced step (one legal action: a key to go on)
COUNTDOWN = float(Settings().pass_countdown)  # a window they could play in but let pass


@dataclass
class Pace:
    rounds: int = 0
    finished: bool = False
    levels: list[list[int]] = field(default_factory=list)  # per round: the heroes' Levels, ranked
    low_fights: int = 0
    alone: int = 0
    in_reach: int = 0  # alone or with a helper who could be invited now
    anywhere: int = 0  # alone or with the strongest other living hero
    monster_levels: list[int] = field(default_factory=list)  # monster Level sums in low fights
    drawn: int = 0  # monsters a low hero drew itself (exploring, searching) that do not ignore it
    drawn_ignoring: int = 0  # ... that ignore it
    drawn_alone: int = 0
    drawn_in_reach: int = 0
    drawn_anywhere: int = 0
    winners: list[int] = field(default_factory=list)
    seconds: float = 0.0  # the minutes model: the person in the first seat and the app's pauses
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)  # bot kind -> counts (KIND_COUNTS)


KIND_COUNTS = ("seats", "fight_levels", "other_levels", "lost_levels", "curses", "against", "boss", "wins")


def _p(t: CardTable, s: State, c: Combat) -> float:
    rules = room_rules(t, s, c)
    margin = sum(a for _, a in hero_terms(t, s, c)) - sum(a for _, a in monster_terms(t, s, c))
    dice = max([1, *(r.amount for r in rules if r.kind == "monster_dice")])
    heroes = [s.heroes[c.active]] + ([s.heroes[c.helper]] if c.helper >= 0 else [])
    return p_win(margin, dice, any(has_power(t, h, "win_ties") for h in heroes))


def _chances(t: CardTable, s: State, c: Combat) -> tuple[bool, bool, bool]:
    """Could the fight ``c`` be won (P >= 50%) alone, with a helper in reach, with one anywhere?"""
    hero = s.heroes[c.active]
    alone = _p(t, s, c) >= 0.5
    best_near = best_any = 0.0
    no_help = any(r.kind == "no_help" for r in room_rules(t, s, c))
    for other in s.heroes:
        if other.seat == hero.seat or other.dead:
            continue
        trial = Combat(x=c.x, y=c.y, active=c.active, monsters=c.monsters, helper=other.seat)
        chance = _p(t, s, trial)
        best_any = max(best_any, chance)
        if not no_help and adjacent(s, other.x, other.y, c.x, c.y):
            best_near = max(best_near, chance)
    return alone, alone or best_near >= 0.5, alone or best_any >= 0.5


def _judge(t: CardTable, s: State, c: Combat, p: Pace) -> None:
    """A fight a low hero just walked into."""
    p.low_fights += 1
    p.monster_levels.append(sum(t.monster[m.card].level for m in s.monsters if m.id in c.monsters))
    alone, near, anywhere = _chances(t, s, c)
    p.alone += alone
    p.in_reach += near
    p.anywhere += anywhere


def _drawn(t: CardTable, s: State, seat: int, m: Monster, p: Pace) -> None:
    """A monster a low hero drew itself (by exploring or searching): the dungeon's luck, not a choice."""
    hero = s.heroes[seat]
    if hero.level <= t.monster[m.card].ignores:
        p.drawn_ignoring += 1
        return
    p.drawn += 1
    alone, near, anywhere = _chances(t, s, Combat(x=m.x, y=m.y, active=seat, monsters=[m.id]))
    p.drawn_alone += alone
    p.drawn_in_reach += near
    p.drawn_anywhere += anywhere


def _seconds(state: State, seat: int, legal: list[Action], action: Action) -> float:
    """What one decision adds to the minutes of a game (the model of the module's docstring)."""
    frame = state.frames[-1]
    if seat:
        routine = frame.kind == SETUP or action.kind in ("pass", "done")
        return BOT_DELAY / 4 if routine else BOT_DELAY
    c = state.combat
    theirs = frame.kind == WINDOW and c is not None and seat not in (c.active, c.helper)
    if theirs and all(a.kind == "pass" for a in legal):
        return 0.0
    if theirs and action.kind == "pass":
        return COUNTDOWN
    return KEY if len(legal) == 1 else THINK


def _count(p: Pace, kind: str, key: str, n: int = 1) -> None:
    row = p.by_kind.setdefault(kind, dict.fromkeys(KIND_COUNTS, 0))
    row[key] += n


def _watch(
    p: Pace,
    bots: list[str],
    before: tuple[Combat | None, str, list[int]],
    seat: int,
    action: Action,
    after: State,
) -> None:
    """The per-kind counts of one action: Levels won and lost and where from, cards against a hero
    (``before``: the fight, the frame kind and the heroes' Levels before the action)."""
    c, frame, levels = before
    fighters = (c.active, c.helper) if c is not None else ()
    ended = c is not None and after.combat is not c
    for hero, old in zip(after.heroes, levels, strict=True):
        delta = hero.level - old
        if delta > 0:
            _count(
                p,
                bots[hero.seat],
                "fight_levels" if ended and hero.seat in fighters else "other_levels",
                delta,
            )
        elif delta < 0:
            _count(p, bots[hero.seat], "lost_levels", -delta)
    if action.kind == "curse":
        _count(p, bots[seat], "curses")
    elif c is not None and frame == WINDOW and seat not in fighters and action.kind != "pass":
        _count(p, bots[seat], "against")
    if c is not None and c.boss and ended:
        _count(p, bots[c.active], "boss")


def play(engine: Engine, bots: list[str], seed: int, cap: int) -> Pace:
    t = engine.cards
    seats = [seat_bot(kind, seed, i) for i, kind in enumerate(bots)]
    state, _ = engine.new_game([(NAMES[i], COLOURS[i]) for i in range(len(bots))], seed)
    host = Host(engine, state, rollback=False)
    p = Pace()
    for kind in bots:
        _count(p, kind, "seats")
    while state.stage != STAGE_OVER and state.round <= cap:
        seat = engine.deciding(state)
        legal = list(engine.legal(state, seat))
        action = host.decide(seats[seat], seat, legal).action
        p.seconds += _seconds(state, seat, legal, action)
        before = (state.combat, state.frames[-1].kind, [h.level for h in state.heroes])
        before_round, before_fight, before_monster = state.round, state.combat, state.next_monster
        low = state.heroes[seat].level <= LOW and action.kind in ("move", "search")
        engine.apply(state, action)
        _watch(p, bots, before, seat, action, state)
        if low and state.next_monster > before_monster:
            hero = state.heroes[seat]
            for m in state.monsters:
                if m.id >= before_monster and (m.x, m.y) == (hero.x, hero.y):
                    _drawn(t, state, seat, m, p)
        c = state.combat
        if c is not None and c is not before_fight and not c.boss and state.heroes[c.active].level <= LOW:
            _judge(t, state, c, p)
        if state.round != before_round or state.stage == STAGE_OVER:
            p.levels.append(sorted((h.level for h in state.heroes), reverse=True))
    p.rounds = state.round
    p.finished = state.stage == STAGE_OVER
    p.winners = list(state.winners)
    for w in p.winners:
        _count(p, bots[w], "wins")
    return p


_engine: Engine | None = None
_dirs: list[str] = []


def _job(job: tuple[tuple[str, ...], int, int]) -> Pace:
    global _engine
    if _engine is None:
        _engine = Engine(load_content(_dirs or None))
    bots, seed, cap = job
    return play(_engine, list(bots), seed, cap)


def _init(dirs: list[str]) -> None:
    global _dirs
    _dirs = dirs


def measure(
    players: int, bots: str, games: int, seed: int, cap: int, jobs: int, dirs: list[str]
) -> dict[str, Any]:
    kinds = tuple(bots.split(",")) if "," in bots else (bots,) * players
    work = [(kinds, seed + g, cap) for g in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs, initializer=_init, initargs=(dirs,)) as pool:
            results = list(pool.map(_job, work, chunksize=4))
    else:
        _init(dirs)
        results = [_job(w) for w in work]
    return summarise(players, kinds, results)


def summarise(players: int, kinds: tuple[str, ...], results: list[Pace]) -> dict[str, Any]:
    done = sorted(r.rounds for r in results if r.finished)
    q = statistics.quantiles(done, n=4, method="inclusive") if len(done) > 1 else [0.0, 0.0, 0.0]
    by_round: list[dict[str, Any]] = []
    for r in range(max((len(p.levels) for p in results), default=0)):
        rows = [p.levels[r] for p in results if len(p.levels) > r]
        if len(rows) < max(5, len(results) // 20):
            break
        by_round.append(
            {
                "round": r + 1,
                "games": len(rows),
                "ranked": [round(statistics.fmean(row[i] for row in rows), 2) for i in range(players)],
            }
        )
    low = sum(p.low_fights for p in results)
    first_wins = sum(0 in p.winners for p in results)
    minutes = sorted(p.seconds / 60 for p in results if p.finished)
    mq = statistics.quantiles(minutes, n=4, method="inclusive") if len(minutes) > 1 else [0.0, 0.0, 0.0]
    by_kind: dict[str, dict[str, int]] = {}
    for p in results:
        for kind, row in p.by_kind.items():
            into = by_kind.setdefault(kind, dict.fromkeys(KIND_COUNTS, 0))
            for key, n in row.items():
                into[key] += n
    monster_levels = [lv for p in results for lv in p.monster_levels]
    drawn = sum(p.drawn for p in results)
    return {
        "players": players,
        "bots": list(kinds),
        "games": len(results),
        "finished": len(done),
        "rounds": {
            "q1": q[0],
            "median": q[1],
            "q3": q[2],
            "mean": round(statistics.fmean(done), 2) if done else 0,
        },
        "first_seat_wins": first_wins,
        "first_seat_win_rate": round(first_wins / len(results), 3) if results else 0.0,
        "first_seat_interval": [round(x, 3) for x in wilson(first_wins, len(results))],
        "minutes": {"q1": round(mq[0], 1), "median": round(mq[1], 1), "q3": round(mq[2], 1)},
        "per_seat_game": {
            kind: {k: round(v / row["seats"], 2) for k, v in row.items() if k != "seats"}
            | {"seats": row["seats"]}
            for kind, row in sorted(by_kind.items())
        },
        "levels_by_round": by_round,
        "low_fights": low,
        "low_fights_per_game": round(low / len(results), 2) if results else 0,
        "beatable_alone": round(sum(p.alone for p in results) / low, 3) if low else 0.0,
        "beatable_in_reach": round(sum(p.in_reach for p in results) / low, 3) if low else 0.0,
        "beatable_anywhere": round(sum(p.anywhere for p in results) / low, 3) if low else 0.0,
        "low_monster_level_median": statistics.median(monster_levels) if monster_levels else 0,
        "drawn": drawn,
        "drawn_ignoring": sum(p.drawn_ignoring for p in results),
        "drawn_alone": round(sum(p.drawn_alone for p in results) / drawn, 3) if drawn else 0.0,
        "drawn_in_reach": round(sum(p.drawn_in_reach for p in results) / drawn, 3) if drawn else 0.0,
        "drawn_anywhere": round(sum(p.drawn_anywhere for p in results) / drawn, 3) if drawn else 0.0,
    }


def show(report: dict[str, Any]) -> None:
    n = report["players"]
    r = report["rounds"]
    print(
        f"\n{n} players ({','.join(report['bots'])}), {report['games']} games, {report['finished']} finished"
    )
    print(f"  rounds to the win: median {r['median']}, quartiles {r['q1']}-{r['q3']}, mean {r['mean']}")
    lo, hi = report["first_seat_interval"]
    m = report["minutes"]
    print(
        f"  the first seat ({report['bots'][0]}) wins {report['first_seat_win_rate']:.1%} "
        f"(95% {lo:.1%}-{hi:.1%}); minutes (model) median {m['median']}, quartiles {m['q1']}-{m['q3']}"
    )
    for kind, row in report["per_seat_game"].items():
        print(
            f"  per {kind} seat and game ({row['seats']} seats): "
            + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in row.items() if k != "seats")
        )
    print(
        f"  Level 1-{LOW} heroes' fights: {report['low_fights']} ({report['low_fights_per_game']} a game); "
        f"beatable alone {report['beatable_alone']:.1%}, with a helper in reach "
        f"{report['beatable_in_reach']:.1%}, with one helper anywhere {report['beatable_anywhere']:.1%}; "
        f"median monster Level {report['low_monster_level_median']}"
    )
    print(
        f"  monsters Level 1-{LOW} heroes drew (exploring, searching): {report['drawn']} that fight, "
        f"{report['drawn_ignoring']} that ignore them; of those that fight, beatable alone "
        f"{report['drawn_alone']:.1%}, with a helper in reach {report['drawn_in_reach']:.1%}, "
        f"with one helper anywhere {report['drawn_anywhere']:.1%}"
    )
    heads = ["leader", "2nd", "3rd", "4th", "5th", "6th"][:n]
    print("  round  games  " + "  ".join(f"{h:>6}" for h in heads))
    for row in report["levels_by_round"]:
        print(f"  {row['round']:>5}  {row['games']:>5}  " + "  ".join(f"{v:>6.2f}" for v in row["ranked"]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--bots", default="normal", help="one kind for every seat, or a comma list")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--round-cap", type=int, default=DEFAULT_ROUND_CAP)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--content", nargs="+", default=[], help="content folders (default: the base)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    reports = [
        measure(n, args.bots, args.games, args.seed, args.round_cap, args.jobs, args.content)
        for n in args.players
    ]
    if args.json:
        print(json.dumps(reports))
        return
    for report in reports:
        show(report)


if __name__ == "__main__":
    main()
