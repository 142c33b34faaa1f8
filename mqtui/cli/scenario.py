"""``mqtui scenario FILE...``: run rule scenarios (TOML files, see docs/scenarios.md) and report."""

from __future__ import annotations

import argparse
import sys

from mqtui.cli.packopt import add_dir_option

HELP = "run rule scenarios (TOML files or folders of them); exit 1 with a diff when one fails"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="FILE",
        help="scenario files or folders of them (default: the shipped ones)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show what happened in every scenario")
    parser.add_argument("-q", "--quiet", action="store_true", help="only report failures and the summary")
    add_dir_option(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mqtui.engine.content import ContentError, load_content
    from mqtui.engine.game import Engine
    from mqtui.engine.scenario import ScenarioError, load, scenario_files
    from mqtui.engine.scenario import run as run_scenario

    try:
        engine = Engine(load_content([Path(d) for d in args.dirs] if args.dirs else None))
    except ContentError as exc:
        for line in exc.errors:
            print(f"error: {line}", file=sys.stderr)
        return 1
    from mqtui.paths import SEEDS_DIR

    files = scenario_files(args.paths or [SEEDS_DIR / "scenarios"])
    if not files:
        print("no scenario files found", file=sys.stderr)
        return 1
    failed = 0
    for path in files:
        try:
            result = run_scenario(engine, load(path))
        except ScenarioError as exc:  # a file that does not load: the message names it
            print(f"FAIL {exc}")
            failed += 1
            continue
        if not result.ok:
            failed += 1
        if not result.ok or not args.quiet:
            print(result.report(args.verbose))
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0
