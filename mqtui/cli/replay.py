"""``mqtui replay FILE``: play a save's log again from its seed and print what happens.

``--verify`` exits 0 only if the replay reproduces the saved state exactly (1 if it does not, 2 if the
file cannot be read). On a terminal, long logs show a progress bar.
"""

from __future__ import annotations

import argparse

HELP = "replay a save's action log from its seed, printing the log (--verify: compare with the saved state)"

PROGRESS_FROM = 200  # actions: show a progress bar for logs at least this long (on a terminal)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a save file (.mqsave)")
    parser.add_argument(
        "--verify", action="store_true", help="exit 0 only if the log reproduces the saved state exactly"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    parser.add_argument(
        "--seat",
        type=int,
        default=-1,
        help="read the log through this seat's eyes (private lines); default: a spectator's",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="print no log, only the result")
    parser.add_argument(
        "--content",
        nargs="+",
        metavar="DIR",
        help="content folders (default: the base content plus the save's packs)",
    )


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    try:
        return _run(args)
    except BrokenPipeError:  # piped into head, less, ...: stop quietly
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path
    from typing import Any

    from mqtui import saves
    from mqtui.engine.actions import Action, Event

    result: dict[str, Any] = {"file": args.file, "ok": False}
    entries: list[dict[str, Any]] = []

    def fail(msg: str, code: int) -> int:
        if args.json:
            result["error"] = msg
            result["actions"] = entries
            print(json.dumps(result, indent=1))
        else:
            print(f"{args.file}: {msg}", file=sys.stderr)
        return code

    try:
        data = saves.read(args.file)
        engine = saves.engine_of(data, None, [Path(d) for d in args.content] if args.content else None)
        saves.validate(data, engine)
    except saves.SaveError as exc:
        hint = (
            " (replay it with --content DIR...)"
            if "made with content" in str(exc) and not args.content
            else ""
        )
        return fail(f"{exc}{hint}", 2)
    seat = args.seat
    result.update(seed=data.seed, players=[p.name for p in data.seats], format=data.format)
    total = len(data.actions)
    text_out = not args.json and not args.quiet
    progress = None
    task = None
    if text_out and sys.stdout.isatty() and total >= PROGRESS_FROM:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        progress = Progress(
            TextColumn("replaying"), BarColumn(), MofNCompleteColumn(), transient=True, redirect_stdout=False
        )
        task = progress.add_task("replay", total=total)
        progress.start()

    lines: list[str] = []

    def step(i: int, action: Action | None, events: list[Event]) -> None:
        texts = [t for e in events if (t := e.for_seat(seat))]
        if args.json:
            entries.append({"n": i + 1, "action": None if action is None else str(action), "events": texts})
            return
        if not text_out:
            return
        head = "start" if action is None else f"{i + 1:>5}  {action}"
        lines.append(head)
        lines.extend(f"       {t}" for t in texts)
        if progress is not None and task is not None:
            if action is not None:
                progress.advance(task)
            if len(lines) >= 64:
                progress.console.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)
                lines.clear()
        elif len(lines) >= 512:
            print("\n".join(lines))
            lines.clear()

    try:
        if args.verify:
            saves.verify(data, engine, step)
        else:
            final = saves.replay(data, engine, step)
    except saves.SaveError as exc:
        if progress is not None:
            progress.stop()
        if lines:
            print("\n".join(lines))
        return fail(str(exc), 1 if args.verify else 2)
    if progress is not None:
        if lines:
            progress.console.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)
            lines.clear()
        progress.stop()
    if lines:
        print("\n".join(lines))
    result["ok"] = True
    result["actions_replayed"] = total
    if args.verify:
        result["verified"] = True
        summary = f"{total} actions replayed: the log reproduces the saved state exactly"
    else:
        same = final == data.state
        result["matches_snapshot"] = same
        summary = f"{total} actions replayed" + ("" if same else " (the result differs from the saved state)")
    if args.json:
        result["actions"] = entries
        print(json.dumps(result, indent=1))
    else:
        print(f"{args.file}: {summary}")
    return 0
