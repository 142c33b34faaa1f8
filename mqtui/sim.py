"""Headless games between bots: the simulator behind ``mqtui sim`` and the benchmarks.

Each game is reproducible from its seed: the game seed drives the engine, and the bot of each seat is
the one the app and a server would put there (:func:`mqtui.bots.seat_bot`), so a seeded game plays
here as it does in the app. An exception inside a game is caught and reported with the seed and
action number that reproduce it. With ``rotate``, game ``g`` shifts the seat list by ``g`` places, so
that every bot kind plays every seat equally often (the first seat moves first).
"""

from __future__ import annotations

import statistics
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mqtui.bots import seat_bot
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.hosting import Host

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")
DEFAULT_ROUND_CAP = 200


@dataclass
class GameResult:
    seed: int
    bots: tuple[str, ...]
    finished: bool = False
    capped: bool = False
    error: str = ""
    error_action: int = -1
    rounds: int = 0
    decisions: int = 0
    winners: list[int] = field(default_factory=list)
    deaths: list[int] = field(default_factory=list)
    boss_fights: int = 0
    boss_wins: int = 0
    levels: list[int] = field(default_factory=list)
    decision_ns: dict[str, list[int]] = field(default_factory=dict)  # bot kind -> decision times


def play_game(
    engine: Engine,
    bots: Sequence[str],
    seed: int,
    round_cap: int = DEFAULT_ROUND_CAP,
    time_decisions: bool = False,
) -> GameResult:
    players = [(NAMES[i], COLOURS[i]) for i in range(len(bots))]
    result = GameResult(seed=seed, bots=tuple(bots))
    seats = [seat_bot(kind, seed, i) for i, kind in enumerate(bots)]
    try:
        game = Host(engine, engine.new_game(players, seed)[0], rollback=False)  # a failed game is reported
        state = game.state
        while state.stage != STAGE_OVER:
            if state.round > round_cap:
                result.capped = True
                break
            seat = game.deciding()
            legal = engine.legal(state, seat)
            started = time.perf_counter_ns() if time_decisions else 0
            choice = game.decide(seats[seat], seat, legal)
            if time_decisions:
                result.decision_ns.setdefault(bots[seat], []).append(time.perf_counter_ns() - started)
            events = game.apply(choice.action).events
            result.decisions += 1
            result.boss_fights += sum(1 for e in events if e.kind == "boss")
            result.boss_wins += sum(1 for e in events if e.kind == "win")
        result.finished = state.stage == STAGE_OVER
        result.winners = list(state.winners)
        result.rounds = state.round
        result.deaths = [h.deaths for h in state.heroes]
        result.levels = [h.level for h in state.heroes]
    except Exception as exc:  # reported, not raised: one bad game must not end a long run
        result.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}"
        result.error_action = result.decisions
    return result


def summarise(results: list[GameResult], seconds: float) -> dict[str, Any]:
    """The figures ``mqtui sim --json`` prints."""
    players = len(results[0].bots) if results else 0
    decisions = sum(r.decisions for r in results)
    done = [r for r in results if not r.error]
    wins = [0] * players
    wins_by_kind: dict[str, float] = {}
    sole_by_kind: dict[str, int] = {}
    seats_by_kind: dict[str, int] = {}
    for r in done:
        for kind in r.bots:
            seats_by_kind[kind] = seats_by_kind.get(kind, 0) + 1
        for seat in r.winners:
            wins[seat] += 1
            kind = r.bots[seat]
            wins_by_kind[kind] = wins_by_kind.get(kind, 0) + 1
            if len(r.winners) == 1:
                sole_by_kind[kind] = sole_by_kind.get(kind, 0) + 1
    rounds = [r.rounds for r in done]
    finished_rounds = [r.rounds for r in done if r.finished]
    times: dict[str, list[int]] = {}
    for r in done:
        for kind, ns in r.decision_ns.items():
            times.setdefault(kind, []).extend(ns)
    return {
        "games": len(results),
        "finished": sum(r.finished for r in results),
        "capped": sum(r.capped for r in results),
        "errors": sum(bool(r.error) for r in results),
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "decisions_per_s": round(decisions / seconds, 1) if seconds else 0.0,
        "games_per_s": round(len(results) / seconds, 3) if seconds else 0.0,
        "mean_rounds": round(statistics.fmean(rounds), 2) if rounds else 0.0,
        "median_rounds": statistics.median(rounds) if rounds else 0,
        "wins": wins,  # a boss won together is a win for every hero on the winning side
        "shared_wins": sum(len(r.winners) > 1 for r in done),  # games won by more than one hero
        "win_rate_by_seat": [round(w / len(done), 3) if done else 0.0 for w in wins],
        "win_rate_by_kind": {
            k: round(wins_by_kind.get(k, 0) / n, 3) for k, n in sorted(seats_by_kind.items())
        },  # wins per seat-game of that kind
        "sole_win_rate_by_kind": {
            k: round(sole_by_kind.get(k, 0) / n, 3) for k, n in sorted(seats_by_kind.items())
        },  # ... counting only games won alone
        "rounds_finished": {
            "mean": round(statistics.fmean(finished_rounds), 2) if finished_rounds else 0.0,
            "median": statistics.median(finished_rounds) if finished_rounds else 0,
            "p90": _pct(finished_rounds, 0.9),
            "max": max(finished_rounds) if finished_rounds else 0,
        },
        "seats_by_kind": dict(sorted(seats_by_kind.items())),
        "deaths": sum(sum(r.deaths) for r in done),
        "boss_fights": sum(r.boss_fights for r in done),
        "boss_wins": sum(r.boss_wins for r in done),
        "decision_ms": {
            k: {
                "median": round(statistics.median(v) / 1e6, 4),
                "p99": round(_pct(v, 0.99) / 1e6, 4),
                "max": round(max(v) / 1e6, 4),
            }
            for k, v in sorted(times.items())
            if v
        },
        "failures": [
            {"seed": r.seed, "action": r.error_action, "error": r.error.splitlines()[0]}
            for r in results
            if r.error
        ][:20],
    }


def _pct(values: Sequence[int], q: float) -> int:
    """The q-quantile (nearest rank) of ``values``; 0 when empty."""
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * q + 0.999999) - 1))]


def seat_kinds(bots: Sequence[str], game: int, rotate: bool) -> list[str]:
    """The bot kind of each seat in game number ``game`` (0-based) of a run."""
    if not rotate:
        return list(bots)
    k = game % len(bots)
    return [*bots[-k:], *bots[:-k]] if k else list(bots)


def run(
    engine: Engine,
    games: int,
    bots: Sequence[str],
    seed: int,
    round_cap: int = DEFAULT_ROUND_CAP,
    time_decisions: bool = False,
    on_game: Callable[[GameResult], None] | None = None,
    rotate: bool = False,
) -> tuple[list[GameResult], float]:
    started = time.perf_counter()
    results = []
    for g in range(games):
        result = play_game(engine, seat_kinds(bots, g, rotate), seed + g, round_cap, time_decisions)
        results.append(result)
        if on_game:
            on_game(result)
    return results, time.perf_counter() - started
