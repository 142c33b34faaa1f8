"""How well the bots play, measured: the figures behind the targets of docs/bots.md, and its ladder.

    .venv/bin/python bench/bots.py [--games 200] [--seed 1] [--jobs 1] [--only NAME ...] [--json]
    .venv/bin/python bench/bots.py --ladder [--games 200] [--hard-games 100] [--json]

Matchups (seats rotate game by game, so every kind plays every seat equally often):

- ``normal-vs-random``: one normal bot against three random bots (target: normal wins >= 90%).
- ``hard-vs-normal``: one hard bot against three normal bots (target: hard wins alone >= 40%).
- ``normal-x4``: four normal bots (target: >= 99% finish before the round cap; game length in rounds).
- ``normal-vs-easy``: one normal bot against three easy bots (target: normal wins clearly more than its
  fair share, 25%: the interval's low end above it).
- ``easy-vs-random``: one easy bot against three random bots (target: easy wins clearly more than 25%).
- the ladder's other rows: each level against the one below at six players (``-x6``) and with the
  content pack ``standing-room-only`` (``-pack``), and ``hard-vs-easy``.
- ``pace`` (with ``--pace``): where the levels of four normal bots come from, when the room stack runs
  out, and how unfinished games end up (why games are as long as they are).

``--ladder`` runs the ladder of docs/bots.md (easy, normal and hard, each against the level below, at
four and six players and with the pack) on its own seed block, ``LADDER_SEED`` (no test uses those
seeds), and prints one table: all wins (a shared boss win counts for each winner), sole wins and
shared wins apart, each rate with its 95% Wilson interval, against the fair share. ``--hard-games``
sets the games of the rows with a hard bot (a hard game costs about thirty normal ones).

Decision times come from the same games (target: hard median < 5 ms, p99 < 1 s). Time them with
``--jobs 1`` on a quiet machine: parallel jobs share the cores. Nothing here is asserted; the tests
stay fast.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.packs import engine_for
from mqtui.sim import DEFAULT_ROUND_CAP, GameResult, play_game, seat_kinds

PACK = "standing-room-only"  # the pack of the ladder's "-pack" rows


def _vs(subject: str, other: str, players: int = 4) -> tuple[str, ...]:
    return (subject, *[other] * (players - 1))


# name: (the bot kinds, the subject first; the content packs)
MATCHUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "normal-vs-random": (_vs("normal", "random"), ()),
    "hard-vs-normal": (_vs("hard", "normal"), ()),
    "normal-x4": (_vs("normal", "normal"), ()),
    "normal-vs-easy": (_vs("normal", "easy"), ()),
    "easy-vs-random": (_vs("easy", "random"), ()),
    "easy-vs-random-x6": (_vs("easy", "random", 6), ()),
    "easy-vs-random-pack": (_vs("easy", "random"), (PACK,)),
    "normal-vs-easy-x6": (_vs("normal", "easy", 6), ()),
    "normal-vs-easy-pack": (_vs("normal", "easy"), (PACK,)),
    "hard-vs-easy": (_vs("hard", "easy"), ()),
    "hard-vs-normal-x6": (_vs("hard", "normal", 6), ()),
    "hard-vs-normal-pack": (_vs("hard", "normal"), (PACK,)),
}
LADDER = [
    "easy-vs-random",
    "easy-vs-random-x6",
    "easy-vs-random-pack",
    "normal-vs-easy",
    "normal-vs-easy-x6",
    "normal-vs-easy-pack",
    "hard-vs-normal",
    "hard-vs-normal-x6",
    "hard-vs-normal-pack",
    "hard-vs-easy",
]
DEFAULT = ["normal-vs-random", "hard-vs-normal", "normal-x4", "normal-vs-easy", "easy-vs-random"]
LADDER_SEED = 600_001  # the ladder's seed block: no test uses these seeds, no tuning run chose by them
TARGETS = {  # name: (which rate, the target)
    "normal-vs-random": ("all", ">= 0.90"),
    "hard-vs-normal": ("alone", ">= 0.40"),
    "normal-x4": ("finished", ">= 0.99"),
    "normal-vs-easy": ("all", ">= 0.34"),
    "easy-vs-random": ("all", "1.00"),
}


def _play(job: tuple[tuple[str, ...], tuple[str, ...], int, int, int]) -> GameResult:
    bots, packs, game, seed, cap = job
    engine = engine_for(packs)  # one engine per content, made once per process
    return play_game(engine, seat_kinds(bots, game, rotate=True), seed + game, cap, time_decisions=True)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def games(
    bots: tuple[str, ...], packs: tuple[str, ...], n: int, seed: int, jobs: int, cap: int
) -> Iterator[GameResult]:
    work = [(bots, packs, g, seed, cap) for g in range(n)]
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
        sole_lo, sole_hi = wilson(sole, n)
        out |= {
            "subject": subject,
            "subject_wins": wins,
            "subject_win_rate": round(wins / n, 4) if n else 0.0,
            "subject_win_ci95": [round(lo, 3), round(hi, 3)],
            "subject_sole_wins": sole,
            "subject_shared_wins": wins - sole,
            "subject_sole_rate": round(sole / n, 4) if n else 0.0,
            "subject_sole_ci95": [round(sole_lo, 3), round(sole_hi, 3)],
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
    parser.add_argument(
        "--seed", type=int, help=f"seed of the first game (default 1; with --ladder {LADDER_SEED})"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: honest timings)")
    parser.add_argument("--round-cap", type=int, default=DEFAULT_ROUND_CAP)
    parser.add_argument("--only", nargs="*", choices=sorted(MATCHUPS), help="run only these matchups")
    parser.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    parser.add_argument("--pace", action="store_true", help="also measure the pace of four-normal games")
    parser.add_argument("--ladder", action="store_true", help="run the ladder of docs/bots.md, one table")
    parser.add_argument("--markdown", action="store_true", help="with --ladder: a Markdown table")
    parser.add_argument(
        "--hard-games", type=int, help="games of the matchups with a hard bot (default: --games)"
    )
    args = parser.parse_args()
    names = args.only or (LADDER if args.ladder else DEFAULT)
    seed = args.seed if args.seed is not None else (LADDER_SEED if args.ladder else 1)
    report: dict[str, Any] = {"games_per_matchup": args.games, "seed": seed, "jobs": args.jobs}
    progress = None
    if sys.stderr.isatty():  # the bar goes to stderr, so --json's stdout stays one JSON object
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
        )
        progress.start()
    try:
        for name in names:
            bots, packs = MATCHUPS[name]
            n = args.hard_games if args.hard_games is not None and "hard" in bots else args.games
            task = progress.add_task(name, total=n) if progress else None
            started = time.perf_counter()
            results = []
            for r in games(bots, packs, n, seed, args.jobs, args.round_cap):
                results.append(r)
                if progress is not None and task is not None:
                    progress.advance(task)
            report[name] = figures(name, bots, results, time.perf_counter() - started)
            report[name]["packs"] = list(packs)
        if args.pace:
            task = progress.add_task("pace", total=args.games) if progress else None
            report["pace"] = pace(args.games, seed, args.round_cap, progress, task)
    finally:
        if progress is not None:
            progress.stop()
    if args.json:
        print(json.dumps(report))
    elif args.ladder and args.markdown:
        print(ladder_markdown(report, names))
    elif args.ladder:
        show_ladder(report, names)
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

    engine = engine_for(())
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


def _rate(wins: int, rate: float, ci: list[float]) -> str:
    return f"{wins} = {rate:.1%} ({ci[0]:.1%}-{ci[1]:.1%})"


def ladder_rows(report: dict[str, Any], names: list[str]) -> list[list[str]]:
    """The ladder's rows: match, games, all wins, sole wins, shared, fair share, the subject's times."""
    rows = []
    for name in names:
        fig = report[name]
        bots = fig["bots"]
        match = f"{bots[0]} vs {len(bots) - 1} {bots[1]}" + (f", with {PACK}" if fig["packs"] else "")
        t = fig["decision_ms"].get(bots[0], {})
        rows.append(
            [
                match,
                str(fig["games"] - fig["errors"]),
                _rate(fig["subject_wins"], fig["subject_win_rate"], fig["subject_win_ci95"]),
                _rate(fig["subject_sole_wins"], fig["subject_sole_rate"], fig["subject_sole_ci95"]),
                str(fig["subject_shared_wins"]),
                f"{fig['fair_share']:.1%}",
                f"{t.get('median', 0)} / {t.get('p99', 0)}",
            ]
        )
    return rows


LADDER_COLUMNS = ("match", "games", "all wins", "sole wins", "shared", "fair share", "its ms median / p99")


def ladder_markdown(report: dict[str, Any], names: list[str]) -> str:
    """The ladder as the Markdown table of docs/bots.md."""
    lines = ["| " + " | ".join(LADDER_COLUMNS) + " |", "|" + "---|" * len(LADDER_COLUMNS)]
    lines += ["| " + " | ".join(row) + " |" for row in ladder_rows(report, names)]
    return "\n".join(lines)


def show_ladder(report: dict[str, Any], names: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"the ladder (seeds from {report['seed']}, seats rotated; 95% Wilson intervals)")
    for col in LADDER_COLUMNS:
        table.add_column(col, justify="left" if col == "match" else "right")
    for row in ladder_rows(report, names):
        table.add_row(*row)
    Console().print(table)
    for name in names:
        for failure in report[name]["failures"]:
            Console().print(f"[red]error[/] {name}: {failure}")


def _aim(name: str) -> Callable[[str], str]:
    """The target's words for the row of the rate ``TARGETS`` names for ``name`` (else nothing)."""
    which, target = TARGETS.get(name, ("", ""))
    return lambda rate: f" (target {target})" if which == rate else ""


def show(report: dict[str, Any], names: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for name in names:
        fig = report[name]
        table = Table(title=f"{name}: {', '.join(fig['bots'])} ({fig['games']} games, seats rotated)")
        table.add_column("figure")
        table.add_column("value", justify="right")
        aim = _aim(name)

        if "subject_win_rate" in fig:
            lo, hi = fig["subject_win_ci95"]
            table.add_row(
                f"wins of {fig['subject']}, a shared one counted{aim('all')}",
                f"{fig['subject_win_rate']:.1%}  [95%: {lo:.1%}-{hi:.1%}]",
            )
            slo, shi = fig["subject_sole_ci95"]
            table.add_row(
                f"won alone{aim('alone')}", f"{fig['subject_sole_rate']:.1%}  [95%: {slo:.1%}-{shi:.1%}]"
            )
            table.add_row("fair share", f"{fig['fair_share']:.0%}")
        table.add_row(
            f"finished before the round cap{aim('finished')}",
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
