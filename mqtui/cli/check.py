"""``mqtui check FILE...``: validate saves, one line per file (exit 0 if all are good, 2 if any is not)."""

from __future__ import annotations

import argparse

HELP = "validate save files: a one-line summary for each good one, a one-line reason for each bad one"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="save files (.mqsave)")
    parser.add_argument(
        "--verify", action="store_true", help="also replay each log and compare it with the saved state"
    )
    parser.add_argument(
        "--content",
        nargs="+",
        metavar="DIR",
        help="content folders to check against (default: the base content plus the save's packs)",
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mqtui import saves
    from mqtui.engine.game import Engine

    content = [Path(d) for d in args.content] if args.content else None
    engines: dict[tuple[str, ...], Engine] = {}
    bad = 0
    for name in args.files:
        try:
            data = saves.read(name)
            key = tuple(data.header.packs)
            if key not in engines:
                engines[key] = saves.engine_for(data.header, content)
            engine = engines[key]
            saves.validate(data, engine)
            if args.verify:
                saves.verify(data, engine)
        except saves.SaveError as exc:
            bad += 1
            hint = " (check against it with --content DIR...)" if "made with content" in str(exc) else ""
            print(f"{name}: bad: {exc}{hint if not content else ''}", flush=True)
            continue
        summary = saves.summarise(data.state, data.seats, len(data.actions))
        extra = ", log verified" if args.verify else ""
        old = f", format {data.format} (will be upgraded)" if data.format != saves.FORMAT else ""
        print(f"{name}: ok: {saves.describe(summary)}{extra}{old}", flush=True)
    return 2 if bad else 0
