"""``mqtui check FILE...``: validate saves, one line per file (exit 0 if all are good, 2 if any is not)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqtui import saves
    from mqtui.engine.game import Engine

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
        help="content folders for old saves that do not carry their content (default: the base content "
        "plus the save's packs); a save that carries its content is checked against that",
    )


def run(args: argparse.Namespace) -> int:
    from mqtui import saves

    content = [Path(d) for d in args.content] if args.content else None
    installed: dict[tuple[str, ...], Engine | None] = {}
    bad = 0
    for name in args.files:
        try:
            data = saves.read(name)
            key = tuple(data.header.packs)
            if key not in installed:
                installed[key] = _installed(data.header, content)
            here = installed[key]
            engine = saves.engine_of(data, here, content)
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
        note = saves.describe_content(data, here.content.version if here is not None else None)
        print(f"{name}: ok: {saves.describe(summary)}{extra}{old}; {note}", flush=True)
    return 2 if bad else 0


def _installed(header: saves.Header, content: list[Path] | None) -> Engine | None:
    """The installed content for a save's packs (None if it cannot be loaded: a save that carries its
    content does not need it)."""
    from mqtui import saves

    try:
        return saves.engine_for(header, content)
    except saves.SaveError:
        return None
