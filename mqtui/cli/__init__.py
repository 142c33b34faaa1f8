"""The ``mqtui`` command line. Each sub-command lives in its own module of this package with
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``; heavy imports stay inside
``run`` so that ``mqtui --help`` and the quick commands start fast."""

from __future__ import annotations

import argparse
import importlib
import re
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
    "admin": "admin",
    "hint": "hint",
}


SUMMARY_WIDTH = 66  # a command's line in ``mqtui --help`` fits 80 columns


def summary(text: str) -> str:
    """A command's one line for ``mqtui --help``: its help up to the first ':', ';', '(' or ','."""
    line = re.split(r": |; | \(|, ", text, maxsplit=1)[0]
    return line if len(line) <= SUMMARY_WIDTH else line[: SUMMARY_WIDTH - 1].rstrip() + "…"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mqtui",
        description="Munchkin Quest-style dungeon crawling in the terminal.\nWith no command: the title screen.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"mqtui {__version__}")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="folder for saves, settings, packs and themes (default: $MQTUI_DATA or the user data dir)",
    )
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        help="one of the commands below ('mqtui COMMAND --help': its options)",
    )
    lines = []
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"mqtui.cli.{module_name}")
        p = sub.add_parser(name, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
        lines.append(f"  {name:<9} {summary(module.HELP)}")
    parser.epilog = "commands:\n" + "\n".join(lines)
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
    try:
        result: int = args.run(args)
    except BrokenPipeError:  # piped into head, less, ...: stop quietly, as command-line tools do
        import os

        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
        return 0
    return result
