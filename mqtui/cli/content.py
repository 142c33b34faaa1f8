"""``mqtui content check [DIR ...]``: validate a content folder (plus packs) and print its counts."""

from __future__ import annotations

import argparse
import sys

HELP = "check the game content and every installed pack (or DIR ... = a base plus packs in order)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="content_command", metavar="ACTION")
    check = sub.add_parser("check", help="validate content folders and print counts per kind")
    check.add_argument(
        "dirs",
        nargs="*",
        metavar="DIR",
        help="content folders: the first is the base, the rest are packs layered on it "
        "(default: the base, then each installed pack on it)",
    )
    check.add_argument("--plain", action="store_true", help="plain text output even on a terminal")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mqtui.engine.content import ContentError, counts, load_content, pack_info, text_drift

    if getattr(args, "content_command", None) != "check":
        print("usage: mqtui content check [DIR ...]", file=sys.stderr)
        return 2
    dirs = [Path(d) for d in args.dirs] or None
    try:
        content = load_content(dirs)
        drift = text_drift(dirs)
    except ContentError as exc:
        return _failed(exc.errors)
    if drift:  # (a game shows the rules text made from the data: a file must not say otherwise)
        return _failed(drift)
    rows = list(counts(content).items())
    packs = []
    for d in (dirs or [])[1:]:
        info = pack_info(d)
        packs.append(info.name if info else d.name)
    title = f"content {content.version}" + (f" (+ {', '.join(packs)})" if packs else "")
    if sys.stdout.isatty() and not args.plain:
        from rich.console import Console
        from rich.table import Table

        table = Table(title=title)
        table.add_column("kind")
        table.add_column("count", justify="right")
        for key, value in rows:
            table.add_row(key, str(value))
        Console().print(table)
        Console().print("[green]content OK[/green]")
    else:
        print(title)
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            print(f"  {key:<{width}}  {value}")
        print("content OK")
    return 0 if dirs else _check_packs()


def _failed(errors: list[str]) -> int:
    for line in errors:
        print(f"error: {line}")
    n = len(errors)
    print(f"content check failed: {n} error{'s' if n != 1 else ''}")
    return 1


def _check_packs() -> int:
    """Each installed pack on the base: OK with its size, or left out with its errors. 1 if any is broken."""
    from mqtui import packs
    from mqtui.engine.content import counts, load_content, text_drift
    from mqtui.paths import BASE_CONTENT_DIR, user_packs_dir

    found = packs.scan()
    wrong = 0  # packs that play, but whose files write a text that is not their rules text
    where = f"shipped, and yours in {user_packs_dir()}"
    print(f"packs ({where}): {len(found) or 'none'}")
    base = counts(load_content([BASE_CONTENT_DIR]))
    for pack in found:
        origin = str(pack.path) if pack.user else "shipped"
        if pack.ok:
            more = counts(load_content([BASE_CONTENT_DIR, pack.path]))
            cards = sum(more[k] - base[k] for k in ("monster cards", "treasure cards", "dxm cards"))
            rooms = more["rooms"] - base["rooms"]
            print(f"  {pack.name}: OK: {pack.label} ({origin}): {cards:+d} cards, {rooms:+d} rooms")
            drift = text_drift([BASE_CONTENT_DIR, pack.path])
            for line in drift:
                print(f"    error: {line}")
            wrong += bool(drift)
            continue
        print(f"  {pack.name}: left out of games ({origin}):")
        for line in pack.errors:
            print(f"    error: {line}")
    broken = sum(1 for p in found if not p.ok)
    if broken:
        print(
            f"{broken} pack{'s' if broken != 1 else ''} broken (the games leave {'them' if broken != 1 else 'it'} out)"
        )
    if wrong:
        print(
            f"{wrong} pack{'s' if wrong != 1 else ''} with texts that are not the rules text made from the data"
        )
    return 1 if broken or wrong else 0
