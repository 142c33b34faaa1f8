"""``mqtui load FILE``: open a saved game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mqtui.cli.play import add_common, make_app

HELP = "open a saved game (see the saves folder in the data directory)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the save file (.mqsave)")
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    path: Path = args.file
    if not path.is_file():
        print(f"mqtui load: no such file: {path}", file=sys.stderr)
        return 2
    from mqtui.ui.saving import SaveFailed, load_game

    try:
        load_game(path)  # fail here, in the terminal, rather than inside the app
    except SaveFailed as exc:
        print(f"mqtui load: {exc}", file=sys.stderr)
        return 2
    app = make_app(args, load=path)
    app.run()
    return 0
