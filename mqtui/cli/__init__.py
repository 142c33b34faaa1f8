"""The ``mqtui`` command line. Each sub-command lives in its own module of this package with
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``; heavy imports stay inside
``run`` so that ``mqtui --help`` and the quick commands start fast."""

from __future__ import annotations

import argparse
import importlib
import sys

from mqtui import __version__

# name -> module under mqtui.cli
COMMANDS: dict[str, str] = {
    "play": "play",
    "new": "new",
    "load": "load",
    "sim": "sim",
    "scenario": "scenario",
    "content": "content",
    "cards": "cards",
    "check": "check",
    "replay": "replay",
    "saves": "saves",
    "serve": "serve",
    "hint": "hint",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mqtui",
        description="Munchkin Quest-style dungeon crawling in the terminal. With no command: the title screen.",
    )
    parser.add_argument("--version", action="version", version=f"mqtui {__version__}")
    parser.add_argument(
        "--data-dir", help="folder for saves and settings (default: $MQTUI_DATA or the user data dir)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(f"mqtui.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"mqtui.cli.{module_name}":
                raise
            continue  # not built yet
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.data_dir:
        import os

        os.environ["MQTUI_DATA"] = args.data_dir
    if args.command is None:
        try:
            args = parser.parse_args(["play"])
        except SystemExit:
            parser.print_help()
            return 0
    result: int = args.run(args)
    return result
