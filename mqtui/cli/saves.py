"""``mqtui saves``: list the saved games in the data folder with their summaries."""

from __future__ import annotations

import argparse

HELP = (
    "list the saved games (in the data folder's saves/, or --dir): games in progress, saved by name and "
    "finished (saves/finished/), with players, round, whose turn and backups"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", metavar="DIR", help="the folder to list (default: DATA_DIR/saves)")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of text")


def run(args: argparse.Namespace) -> int:
    import json
    import time
    from pathlib import Path

    import msgspec

    from mqtui import saves
    from mqtui.saves import slots

    folder = Path(args.dir) if args.dir else saves.saves_dir()
    games = slots.list_games(folder)
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
                "state": g.state,
                "modified": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(e.mtime)),
                "size": e.size,
                "format": e.format,
                "header": msgspec.to_builtins(e.header) if e.header is not None else None,
                "error": e.error or None,
                "backups": [str(b) for b in g.backups],
                "content": content(e),
            }
            for g in games
            for e in (g.entry,)
        ]
        print(json.dumps(out, indent=2))
        return 0
    if not games:
        print(f"no saves in {folder}")
        return 0
    print(f"saves in {folder}:")
    width = max(len(g.entry.name) for g in games)
    heading = ""
    for g in games:
        e = g.entry
        title = {slots.DONE: f"finished (in {slots.history_dir(folder)})"}.get(g.state, "")
        if g.state in (slots.IN_PROGRESS, slots.NAMED):
            title = "games in progress (Continue resumes the newest autosave)"
        if title and title != heading:
            heading = title
            print(f" {title}:")
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
        kind = (
            "autosave" if g.state == slots.IN_PROGRESS else ("saved" if g.state == slots.NAMED else g.state)
        )
        print(f"  {e.name:<{width}}  {when}  {kind}: {what}")
        for b in g.backups:
            try:
                stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(b.stat().st_mtime))
            except OSError:
                stamp = "?"
            print(f"  {'':<{width}}  {stamp}  backup: {b.name}")
    return 0
