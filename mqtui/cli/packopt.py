"""The content options: ``--pack NAME`` of the commands that play or show games with content packs, and
``--dir DIR`` of those that read content folders (both repeatable)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqtui.engine.game import Engine


def add_pack_option(parser: argparse.ArgumentParser, what: str = "play with") -> None:
    parser.add_argument(
        "--pack",
        action="append",
        dest="packs",
        default=[],
        metavar="NAME",
        help=f"content pack to {what} (repeat for more; 'mqtui content check' lists the installed ones)",
    )


def add_dir_option(
    parser: argparse.ArgumentParser,
    help: str = "content folder (repeat for base + packs; default: the base content)",
) -> None:
    """``--dir DIR`` (repeatable, into ``args.dirs``): content folders instead of the installed content."""
    parser.add_argument("--dir", action="append", dest="dirs", metavar="DIR", help=help)


def pack_engine(args: argparse.Namespace, command: str) -> Engine | None:
    """The engine for the base content plus ``args.packs``; None after printing why it cannot be had."""
    from mqtui.packs import PackError, engine_for

    try:
        return engine_for(args.packs)
    except PackError as exc:
        print(f"mqtui {command}: {exc}", file=sys.stderr)
        return None
