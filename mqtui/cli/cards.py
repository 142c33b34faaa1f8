"""``mqtui cards``: list the game's cards, rooms, races and classes with their numbers and text."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mqtui.engine.defs import Content

HELP = "list cards (monsters, treasures, DxM), rooms, races and classes with their numbers and text"

KINDS = ("monster", "treasure", "dxm", "room", "race", "class")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", choices=KINDS, action="append", help="only this kind (may be repeated)")
    parser.add_argument("--search", metavar="TEXT", help="only entries whose id, name or text contain TEXT")
    parser.add_argument(
        "--dir",
        action="append",
        metavar="DIR",
        dest="dirs",
        help="content folder (repeat for base + packs; default: the base content)",
    )


def _effects(effects: Any) -> str:
    parts = []
    for e in effects:
        if e.kind == "lose_slot":
            parts.append(f"lose_slot {e.slot}")
        elif e.kind in ("lose_race", "lose_class", "to_entrance", "death"):
            parts.append(e.kind)
        else:
            parts.append(f"{e.kind} {e.amount}")
    return ", ".join(parts)


def _tables(content: Content, kinds: tuple[str, ...]) -> list[tuple[str, list[str], list[list[str]]]]:
    out: list[tuple[str, list[str], list[list[str]]]] = []
    if "race" in kinds:
        rows = [[r.id, r.name, ", ".join(p.kind for p in r.powers), r.text] for r in content.races.values()]
        out.append(("Races", ["id", "name", "powers", "text"], rows))
    if "class" in kinds:
        rows = [[c.id, c.name, ", ".join(p.kind for p in c.powers), c.text] for c in content.classes.values()]
        out.append(("Classes", ["id", "name", "powers", "text"], rows))
    if "room" in kinds:
        rows = []
        for r in (content.entrance, *content.rooms):
            arrows = " ".join(f"{c[0]}{s}" for c, s in r.arrows.items())
            rows.append(
                [
                    str(r.tile),
                    r.id,
                    r.name,
                    r.short,
                    f"{r.search:+d}",
                    arrows,
                    r.text + f"\n[i]{r.flavour}[/i]",
                ]
            )
        out.append(("Rooms", ["tile", "id", "name", "map", "search", "arrows", "text"], rows))
    if "monster" in kinds:
        rows = []
        for m in sorted(content.monsters, key=lambda m: (m.level, m.name)):
            move = f"{m.move}:{m.weird}" if m.weird else m.move
            extra = []
            if m.ignores:
                extra.append(f"ignores ≤{m.ignores}")
            if m.tags:
                extra.append(",".join(m.tags))
            rows.append(
                [
                    str(m.level),
                    m.name,
                    f"{m.treasures}/{m.levels}",
                    move,
                    " ".join(extra),
                    str(m.count),
                    m.text + (f"\n[i]{m.flavour}[/i]" if m.flavour else ""),
                ]
            )
        out.append(("Monsters", ["lvl", "name", "T/lv", "move", "notes", "×", "text"], rows))
    if "treasure" in kinds:
        rows = []
        for t in content.treasures:
            what = t.slot if t.kind == "equipment" else (t.use if t.kind == "oneshot" else t.kind)
            if t.big:
                what += " big"
            if t.thrown:
                what += " thrown"
            rows.append(
                [t.name, t.kind, what, f"{t.bonus:+d}" if t.bonus else "", str(t.gold), str(t.count), t.text]
            )
        out.append(("Treasures", ["name", "kind", "slot/use", "bonus", "gold", "×", "text"], rows))
    if "dxm" in kinds:
        rows = [[d.name, d.kind, str(d.count), d.text] for d in content.dxm]
        out.append(("DxM cards", ["name", "kind", "×", "text"], rows))
    return out


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from mqtui.engine.content import ContentError, load_content

    try:
        content = load_content([Path(d) for d in args.dirs] if args.dirs else None)
    except ContentError as exc:
        for line in exc.errors:
            print(f"error: {line}", file=sys.stderr)
        return 1
    kinds = tuple(args.kind) if args.kind else KINDS
    needle = (args.search or "").lower()
    console = Console(highlight=False)
    shown = 0
    for title, headers, rows in _tables(content, kinds):
        if needle:
            rows = [r for r in rows if any(needle in cell.lower() for cell in r)]
        if not rows:
            continue
        table = Table(title=f"{title} ({len(rows)})", show_lines=True)
        for h in headers:
            table.add_column(h, overflow="fold")
        for r in rows:
            # the flavour is marked up in italics; everything else is shown literally
            table.add_row(*(escape(c).replace("\\[i]", "[i]").replace("\\[/i]", "[/i]") for c in r))
        console.print(table)
        shown += len(rows)
    if not shown:
        console.print("no matching cards")
    return 0
