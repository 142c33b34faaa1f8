"""``mqtui sim``: headless games between bots."""

from __future__ import annotations

import argparse
import json
import sys

from mqtui.cli.packopt import add_pack_option, pack_engine

HELP = "play whole games headless between bots and report the figures"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--players", type=int, default=4, help="players per game, 2-6 (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game; game g uses seed+g")
    parser.add_argument(
        "--bots",
        default="random",
        help="bot kind for every seat, or one per seat comma-separated (random, easy, normal, hard; "
        "advisor: a seat that always takes the advisor's suggestion)",
    )
    parser.add_argument("--round-cap", type=int, default=200, help="stop a game after this many rounds")
    parser.add_argument("--json", action="store_true", help="print one JSON object and no progress bar")
    parser.add_argument("--times", action="store_true", help="measure each bot decision (median, p99)")
    parser.add_argument(
        "--rotate",
        action="store_true",
        help="shift the seats by one place every game, so each bot kind plays every seat equally often",
    )
    add_pack_option(parser)


def run(args: argparse.Namespace) -> int:
    from mqtui.bots import ADVISOR, BOT_KINDS
    from mqtui.sim import run as run_sim
    from mqtui.sim import summarise

    if not 2 <= args.players <= 6:
        print("mqtui sim: --players must be 2 to 6", file=sys.stderr)
        return 2
    kinds = [k.strip() for k in args.bots.split(",")]
    if len(kinds) == 1:
        kinds *= args.players
    if len(kinds) != args.players or any(k not in (*BOT_KINDS, ADVISOR) for k in kinds):
        print(
            f"mqtui sim: --bots needs 1 or {args.players} kinds from {', '.join((*BOT_KINDS, ADVISOR))}",
            file=sys.stderr,
        )
        return 2
    engine = pack_engine(args, "sim")
    if engine is None:
        return 2
    show_progress = not args.json and sys.stdout.isatty()
    if show_progress:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("games", total=args.games)
            results, seconds = run_sim(
                engine,
                args.games,
                kinds,
                args.seed,
                args.round_cap,
                args.times,
                on_game=lambda _: progress.advance(task),
                rotate=args.rotate,
            )
    else:
        results, seconds = run_sim(
            engine, args.games, kinds, args.seed, args.round_cap, args.times, rotate=args.rotate
        )
    report = summarise(results, seconds)
    if args.json:
        print(json.dumps(report))
    else:
        _print_report(report, kinds)
    return 1 if report["errors"] else 0


def _print_report(report: dict[str, object], kinds: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"mqtui sim: {', '.join(kinds)}", show_header=False)
    for key, value in report.items():
        if key == "failures":
            continue
        table.add_row(key, str(value))
    console.print(table)
    failures = report.get("failures") or []
    assert isinstance(failures, list)
    for f in failures:
        console.print(f"[red]error[/] seed {f['seed']} action {f['action']}: {f['error']}")
