"""``mqtui load FILE``: open a saved game."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mqtui.cli.play import add_common, make_app, run_app

HELP = "open a saved game (see the saves folder in the data directory)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the save file (.mqsave), or the name of a save in the saves folder")
    add_common(parser)


def find_save(text: str) -> Path:
    """The file to load: a path, or a save's name (letters, digits, spaces and _.+-) in the saves
    folder. Raises ValueError with one line saying what is wrong."""
    if not text.strip():
        raise ValueError("no file given")
    if not text.isprintable():
        raise ValueError(f"{text!r}: a file name cannot hold control characters")
    path = Path(text)
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a save file")
    if path.is_file():
        return path
    if os.sep in text or (os.altsep and os.altsep in text) or path.suffix == ".mqsave":
        raise ValueError(f"no such file: {path}")
    from mqtui import saves

    try:
        slot = saves.slot_path(text)
    except saves.SaveError as exc:
        raise ValueError(str(exc)) from None
    if not slot.is_file():
        raise ValueError(f"no such file, and no save called {text!r} in {slot.parent}")
    return slot


def run(args: argparse.Namespace) -> int:
    try:
        path = find_save(args.file)
    except ValueError as exc:
        print(f"mqtui load: {exc}", file=sys.stderr)
        return 2
    from mqtui.ui.saving import SaveFailed, load_game

    try:
        load_game(path)  # fail here, in the terminal, rather than inside the app
    except SaveFailed as exc:
        print(f"mqtui load: {exc}", file=sys.stderr)
        return 2
    return run_app(make_app(args, load=path))
