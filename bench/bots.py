"""How well the bots play, measured: the figures behind the targets of docs/bots.md.

    .venv/bin/python bench/bots.py [--games 200] [--seed 1] [--jobs 1] [--only NAME ...] [--json]

Matchups (seats rotate game by game, so every kind plays every seat equally often):

- ``normal-vs-random``: one normal bot against three random bots (target: normal wins >= 90%).
- ``hard-vs-normal``: one hard bot against three normal bots (target: hard wins >= 40%).
- ``normal-x4``: four normal bots (target: >= 99% finish before the round cap; game length in rounds).
- ``normal-vs-easy``: one normal bot against three easy bots (target: normal wins clearly more than its
  fair share, 25%: the interval's low end above it).
- ``easy-vs-random``: one easy bot against three random bots (target: easy wins clearly more than 25%).
- ``pace`` (with ``--pace``): where the levels of four normal bots come from, when the room stack runs
  out, and how unfinished games end up (why games are as long as they are).

Decision times come from the same games (target: normal median < 5 ms; hard median < 200 ms, never
over 1 s). Time them with ``--jobs 1`` on a quiet machine: parallel jobs share the cores. Every figure
is printed with its 95% interval where it is a rate. Nothing here is asserted; the tests stay fast.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.sim import DEFAULT_ROUND_CAP, GameResult, play_game, seat_kinds

MATCHUPS: dict[str, tuple[str, ...]] = {
    "normal-vs-random": ("normal", "random", "random", "random"),
    "hard-vs-normal": ("hard", "normal", "normal", "normal"),
    "normal-x4": ("normal", "normal", "normal", "normal"),
    "normal-vs-easy": ("normal", "easy", "easy", "easy"),
    "easy-vs-random": ("easy", "random", "random", "random"),
}
TARGETS = {
    "normal-vs-random": ("win rate of normal", ">= 0.90"),
    "hard-vs-normal": ("win rate of hard", ">= 0.40"),
    "normal-x4": ("games finished", ">= 0.99"),
    "normal-vs-easy": ("win rate of normal", "interval above 0.25"),
    "easy-vs-random": ("win rate of easy", "interval above 0.25"),
}

_engine: Engine | None = None


def _play(job: tuple[tuple[str, ...], int, int, int]) -> GameResult:
    global _engine
    if _engine is None:
        _engine = Engine(load_content())
    bots, game, seed, cap = job
    return play_game(_engine, seat_kinds(bots, game, rotate=True), seed + game, cap, time_decisions=True)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def games(bots: tuple[str, ...], n: int, seed: int, jobs: int, cap: int) -> Iterator[GameResult]:
    work = [(bots, g, seed, cap) for g in range(n)]
    if jobs <= 1:
        yield from map(_play, work)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_play, work, chunksize=1)


def figures(name: str, bots: tuple[str, ...], results: list[GameResult], seconds: float) -> dict[str, Any]:
    ok = [r for r in results if not r.error]
    n = len(ok)
    subject = bots[0]
    wins = sum(1 for r in ok for seat in r.winners if r.bots[seat] == subject)
    sole = sum(1 for r in ok if any(r.bots[s] == subject for s in r.winners) and len(r.winners) == 1)
    per_game = wins / max(1, sum(r.bots.count(subject) for r in ok))
    finished = sum(r.finished for r in ok)
    rounds = [r.rounds for r in ok if r.finished]
    times: dict[str, list[int]] = {}
    for r in ok:
        for kind, ns in r.decision_ns.items():
            times.setdefault(kind, []).extend(ns)
    out: dict[str, Any] = {
        "matchup": name,
        "bots": list(bots),
        "games": len(results),
        "errors": len(results) - n,
        "finished": finished,
        "finish_rate": round(finished / n, 4) if n else 0.0,
        "capped": sum(r.capped for r in ok),
        "mean_rounds": round(statistics.fmean(rounds), 2) if rounds else 0.0,
        "median_rounds": statistics.median(rounds) if rounds else 0,
        "p90_rounds": sorted(rounds)[int(0.9 * (len(rounds) - 1))] if rounds else 0,
        "boss_fights": sum(r.boss_fights for r in ok),
        "boss_wins": sum(r.boss_wins for r in ok),
        "deaths_per_game": round(sum(sum(r.deaths) for r in ok) / n, 2) if n else 0.0,
        "seconds": round(seconds, 1),
    }
    if bots.count(subject) == 1:
        lo, hi = wilson(wins, n)
        out |= {
            "subject": subject,
            "subject_win_rate": round(wins / n, 4) if n else 0.0,
            "subject_win_ci95": [round(lo, 3), round(hi, 3)],
            "subject_sole_wins": sole,
            "fair_share": round(1 / len(bots), 3),
        }
    else:
        out["win_rate_per_seat_game"] = round(per_game, 4)
    out["decision_ms"] = {
        kind: {
            "decisions": len(v),
            "median": round(statistics.median(v) / 1e6, 3),
            "p99": round(sorted(v)[min(len(v) - 1, int(0.99 * len(v)))] / 1e6, 3),
            "max": round(max(v) / 1e6, 3),
        }
        for kind, v in sorted(times.items())
    }
    out["failures"] = [f"seed {r.seed}: {r.error.splitlines()[0]}" for r in results if r.error][:5]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per matchup (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: honest timings)")
    parser.add_argument("--round-cap", type=int, default=DEFAULT_ROUND_CAP)
    parser.add_argument("--only", nargs="*", choices=sorted(MATCHUPS), help="run only these matchups")
    parser.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    parser.add_argument("--pace", action="store_true", help="also measure the pace of four-normal games")
    args = parser.parse_args()
    names = args.only or list(MATCHUPS)
    report: dict[str, Any] = {"games_per_matchup": args.games, "seed": args.seed, "jobs": args.jobs}
    progress = None
    if not args.json and sys.stdout.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
        )
        progress.start()
    try:
        for name in names:
            bots = MATCHUPS[name]
            task = progress.add_task(name, total=args.games) if progress else None
            started = time.perf_counter()
            results = []
            for r in games(bots, args.games, args.seed, args.jobs, args.round_cap):
                results.append(r)
                if progress is not None and task is not None:
                    progress.advance(task)
            report[name] = figures(name, bots, results, time.perf_counter() - started)
        if args.pace:
            task = progress.add_task("pace", total=args.games) if progress else None
            report["pace"] = pace(args.games, args.seed, args.round_cap, progress, task)
    finally:
        if progress is not None:
            progress.stop()
    if args.json:
        print(json.dumps(report))
    else:
        show(report, names)
        if args.pace:
            show_pace(report["pace"])
    return 0


def pace(n: int, seed: int, cap: int, progress: Any, task: Any) -> dict[str, Any]:
    """Four normal bots, watched event by event: level sources, fights, the room stack, stalls."""
    from mqtui.bots import make_bot
    from mqtui.engine.defs import COLOURS
    from mqtui.engine.state import STAGE_OVER
    from mqtui.engine.view import view_for
    from mqtui.sim import NAMES

    engine = Engine(load_content())
    totals: dict[str, float] = {}
    stack_out: list[int] = []
    stalls = {"capped": 0, "no_monsters_no_rooms_all_looted": 0}

    def count(key: str, k: float = 1.0) -> None:
        totals[key] = totals.get(key, 0.0) + k

    for g in range(n):
        s, _ = engine.new_game([(NAMES[i], COLOURS[i]) for i in range(4)], seed + g)
        bots = [make_bot("normal", (seed + g) * 1000 + i) for i in range(4)]
        out_at = 0
        while s.stage != STAGE_OVER and s.round <= cap:
            seat = engine.deciding(s)
            action = bots[seat].choose(engine, view_for(s, seat), seat, list(engine.legal(s, seat))).action
            for e in engine.apply(s, action):
                if e.kind == "level" and " rises " in e.text:
                    why = e.text.rsplit("(", 1)[-1].rstrip(").")
                    count("levels_from_" + {"a kill": "kills", "bought": "gold"}.get(why, "cards"))
                elif e.kind == "level":
                    count("levels_lost")
                elif e.kind == "result":
                    count("fights")
                    count("fights_won", 1.0 if " beat" in e.text else 0.0)
                elif e.kind in ("explore", "search", "boss", "death", "curse"):
                    count(e.kind + "s" if not e.kind.endswith("s") else e.kind)
            if not out_at and not s.tiles:
                out_at = s.round
        count("rounds", s.round)
        if out_at:
            stack_out.append(out_at)
        if s.stage != STAGE_OVER:
            stalls["capped"] += 1
            if not s.monsters and not s.tiles and all(r.searched >= 2 or r.room < 0 for r in s.rooms):
                stalls["no_monsters_no_rooms_all_looted"] += 1
        if progress is not None:
            progress.advance(task)
    per_game = {k: round(v / n, 2) for k, v in sorted(totals.items())}
    return {
        "games": n,
        "per_game": per_game,
        "room_stack_empty_by_round": {
            "games": len(stack_out),
            "median": statistics.median(stack_out) if stack_out else None,
        },
        "stalls": stalls,
    }


def show_pace(p: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"pace of four normal bots ({p['games']} games)")
    table.add_column("per game")
    table.add_column("value", justify="right")
    for k, v in p["per_game"].items():
        table.add_row(k.replace("_", " "), str(v))
    r = p["room_stack_empty_by_round"]
    table.add_row("room stack empty (games / median round)", f"{r['games']} / {r['median']}")
    for k, v in p["stalls"].items():
        table.add_row(k.replace("_", " "), str(v))
    Console().print(table)


def show(report: dict[str, Any], names: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for name in names:
        fig = report[name]
        table = Table(title=f"{name}: {', '.join(fig['bots'])} ({fig['games']} games, seats rotated)")
        table.add_column("figure")
        table.add_column("value", justify="right")
        what, target = TARGETS[name]
        if "subject_win_rate" in fig:
            lo, hi = fig["subject_win_ci95"]
            table.add_row(
                f"{what} (target {target})", f"{fig['subject_win_rate']:.1%}  [95%: {lo:.1%}-{hi:.1%}]"
            )
            table.add_row("fair share", f"{fig['fair_share']:.0%}")
        table.add_row(
            "finished before the round cap" + (f" (target {target})" if name == "normal-x4" else ""),
            f"{fig['finished']}/{fig['games']} ({fig['finish_rate']:.1%})",
        )
        table.add_row(
            "rounds: mean / median / p90",
            f"{fig['mean_rounds']} / {fig['median_rounds']} / {fig['p90_rounds']}",
        )
        table.add_row("boss fights (won)", f"{fig['boss_fights']} ({fig['boss_wins']})")
        table.add_row("deaths per game", str(fig["deaths_per_game"]))
        for kind, t in fig["decision_ms"].items():
            table.add_row(
                f"{kind} decision ms: median / p99 / max", f"{t['median']} / {t['p99']} / {t['max']}"
            )
        table.add_row("seconds", str(fig["seconds"]))
        console.print(table)
        for failure in fig["failures"]:
            console.print(f"[red]error[/] {failure}")


if __name__ == "__main__":
    sys.exit(main())
