"""``mqtui cards``: list the game's cards, rooms, races and classes with their numbers and text."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from mqtui.cli.packopt import add_dir_option, add_pack_option

if TYPE_CHECKING:
    from mqtui.engine.defs import Content

HELP = "list cards (monsters, treasures, DxM), rooms, races and classes with their numbers and text"

KINDS = ("monster", "treasure", "dxm", "room", "race", "class")

# one table: title, column headers, rows of (search haystack, cells as rich markup)
Rows = list[tuple[str, list[str]]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", choices=KINDS, action="append", help="only this kind (may be repeated)")
    parser.add_argument("--search", metavar="TEXT", help="only entries whose id, name or text contain TEXT")
    add_dir_option(parser)
    add_pack_option(parser, "show too")


def _tables(content: Content, kinds: tuple[str, ...]) -> list[tuple[str, list[str], Rows]]:
    from rich.markup import escape as e

    def named(name: str, ident: str) -> str:
        return f"[b]{e(name)}[/b]\n[dim]{e(ident)}[/dim]"

    def texts(text: str, flavour: str = "") -> str:
        return e(text) + (f"\n[i]{e(flavour)}[/i]" if flavour else "")

    out: list[tuple[str, list[str], Rows]] = []
    if "race" in kinds or "class" in kinds:
        for title, kind, defs in (("Races", "race", content.races), ("Classes", "class", content.classes)):
            if kind not in kinds:
                continue
            rows: Rows = []
            for h in defs.values():
                powers = ", ".join(p.kind + (f" {p.amount}" if p.amount else "") for p in h.powers)
                rows.append((f"{h.id} {h.name} {h.text}", [named(h.name, h.id), e(powers), e(h.text)]))
            out.append((title, ["name", "powers", "text"], rows))
    if "room" in kinds:
        rows = []
        for r in (content.entrance, *content.rooms):
            arrows = " ".join(f"{c}:{s}" for c, s in r.arrows.items())
            cells = [
                str(r.tile),
                named(r.name, r.id),
                e(r.short),
                f"{r.search:+d}",
                e(arrows),
                texts(r.text, r.flavour),
            ]
            rows.append((f"{r.id} {r.name} {r.text} {r.flavour}", cells))
        out.append(("Rooms", ["tile", "name", "map", "search", "arrows", "text"], rows))
    if "monster" in kinds:
        rows = []
        for m in sorted(content.monsters, key=lambda m: (m.level, m.name)):
            move = f"{m.move}:{m.weird}" if m.weird else m.move
            notes = [f"ignores ≤{m.ignores}"] if m.ignores else []
            notes += [", ".join(m.tags)] if m.tags else []
            cells = [
                str(m.level),
                named(m.name, m.id),
                f"{m.treasures}/{m.levels}",
                e(move),
                e("\n".join(notes)),
                str(m.count),
                texts(m.text, m.flavour),
            ]
            rows.append((f"{m.id} {m.name} {m.text} {m.flavour} {' '.join(m.tags)}", cells))
        out.append(("Monsters", ["lvl", "name", "T/lv", "move", "notes", "×", "text"], rows))
    if "treasure" in kinds:
        rows = []
        for t in content.treasures:
            what: str = t.slot if t.kind == "equipment" else (t.use if t.kind == "oneshot" else t.kind)
            what += " big" if t.big else ""
            what += " thrown" if t.thrown else ""
            bonus = f"{t.bonus:+d}" if t.bonus else ""
            cells = [named(t.name, t.id), e(what), bonus, str(t.gold), str(t.count), e(t.text)]
            rows.append((f"{t.id} {t.name} {t.text}", cells))
        out.append(("Treasures", ["name", "slot/use", "bonus", "gold", "×", "text"], rows))
    if "dxm" in kinds:
        rows = [
            (f"{d.id} {d.name} {d.text}", [named(d.name, d.id), e(d.kind), str(d.count), e(d.text)])
            for d in content.dxm
        ]
        out.append(("DxM cards", ["name", "kind", "×", "text"], rows))
    return out


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table

    from mqtui.engine.content import ContentError, load_content
    from mqtui.packs import PackError, content_dirs

    try:
        content = load_content([Path(d) for d in args.dirs] if args.dirs else content_dirs(args.packs))
    except ContentError as exc:
        for line in exc.errors:
            print(f"error: {line}", file=sys.stderr)
        return 1
    except PackError as exc:
        print(f"mqtui cards: {exc}", file=sys.stderr)
        return 2
    kinds = tuple(args.kind) if args.kind else KINDS
    needle = (args.search or "").lower()
    console = Console(highlight=False)
    shown = 0
    for title, headers, rows in _tables(content, kinds):
        if needle:
            rows = [r for r in rows if needle in r[0].lower()]
        if not rows:
            continue
        table = Table(title=f"{title} ({len(rows)})", show_lines=True)
        for h in headers:
            table.add_column(h, overflow="fold")
        for _, cells in rows:
            table.add_row(*cells)
        console.print(table)
        shown += len(rows)
    if not shown:
        console.print("no matching cards")
    return 0
