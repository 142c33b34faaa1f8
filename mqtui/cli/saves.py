"""``mqtui saves``: list the saved games in the data folder with their summaries."""

from __future__ import annotations

import argparse

HELP = "list the saved games (in the data folder's saves/, or --dir) with players, round and whose turn"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", metavar="DIR", help="the folder to list (default: DATA_DIR/saves)")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of text")


def run(args: argparse.Namespace) -> int:
    import json
    import time
    from pathlib import Path

    import msgspec

    from mqtui import saves

    folder = Path(args.dir) if args.dir else saves.saves_dir()
    entries = saves.list_saves(folder)
    installed: dict[tuple[str, ...], str | None] = {}

    def content(e: saves.SaveEntry) -> str | None:
        """Which content the game plays with, or None when it is the installed one."""
        if e.header is None or e.error or e.format > saves.FORMAT:
            return None
        key = tuple(e.header.packs)
        if key not in installed:
            installed[key] = saves.installed_version(e.header)
        if installed[key] == e.header.content:
            return None
        return saves.describe_listed(e.format, e.header, installed[key])

    if args.json:
        out = [
            {
                "name": e.name,
                "path": str(e.path),
                "modified": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(e.mtime)),
                "size": e.size,
                "format": e.format,
                "header": msgspec.to_builtins(e.header) if e.header is not None else None,
                "error": e.error or None,
                "content": content(e),
            }
            for e in entries
        ]
        print(json.dumps(out, indent=2))
        return 0
    if not entries:
        print(f"no saves in {folder}")
        return 0
    print(f"saves in {folder}:")
    width = max(len(e.name) for e in entries)
    for e in entries:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.mtime))
        if e.error:
            what = f"unreadable: {e.error}"
        elif e.format > saves.FORMAT:
            what = f"save format {e.format}: needs a newer mqtui"
        else:
            assert e.header is not None
            what = saves.describe(e.header.summary)
            note = content(e)
            if note:
                what += f"; {note}"
        print(f"  {e.name:<{width}}  {when}  {what}")
    return 0
