"""The ``--pack NAME`` option (repeatable) of the commands that play or show games with content packs."""

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


def pack_engine(args: argparse.Namespace, command: str) -> Engine | None:
    """The engine for the base content plus ``args.packs``; None after printing why it cannot be had."""
    from mqtui.packs import PackError, engine_for

    try:
        return engine_for(args.packs)
    except PackError as exc:
        print(f"mqtui {command}: {exc}", file=sys.stderr)
        return None
