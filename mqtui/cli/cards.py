"""``mqtui cards``: list the game's cards, rooms, races, classes and tables with their numbers and the
rules text a player reads (made from their data: :mod:`mqtui.engine.rules_text`); ``--json`` prints
every entry's data and rules text for modders and tools."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from mqtui.cli.packopt import add_dir_option, add_pack_option

if TYPE_CHECKING:
    from mqtui.engine.defs import Content

HELP = "list cards (monsters, treasures, DxM), rooms, races, classes and tables with their numbers and text"

KINDS = ("monster", "treasure", "dxm", "room", "race", "class", "table")

# one table: title, column headers, rows of (search haystack, cells as rich markup)
Rows = list[tuple[str, list[str]]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", choices=KINDS, action="append", help="only this kind (may be repeated)")
    parser.add_argument("--search", metavar="TEXT", help="only entries whose id, name or text contain TEXT")
    parser.add_argument(
        "--json", action="store_true", help="one JSON list: each entry's kind, id, rules text and data"
    )
    add_dir_option(parser)
    add_pack_option(parser, "show too")


def _tables(content: Content, kinds: tuple[str, ...]) -> list[tuple[str, list[str], Rows]]:
    from rich.markup import escape as e

    from mqtui.engine.rules_text import words

    text = words(content).text

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
                rows.append(
                    (
                        f"{h.id} {h.name} {text(h)}",
                        [named(h.name, h.id), e(powers), texts(text(h), h.flavour)],
                    )
                )
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
                texts(text(r), r.flavour),
            ]
            rows.append((f"{r.id} {r.name} {text(r)} {r.flavour}", cells))
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
                texts(text(m), m.flavour),
            ]
            rows.append((f"{m.id} {m.name} {text(m)} {m.flavour} {' '.join(m.tags)}", cells))
        out.append(("Monsters", ["lvl", "name", "T/lv", "move", "notes", "×", "text"], rows))
    if "treasure" in kinds:
        rows = []
        for t in content.treasures:
            what: str = t.slot if t.kind == "equipment" else (t.use if t.kind == "oneshot" else t.kind)
            what += " big" if t.big else ""
            what += " thrown" if t.thrown else ""
            bonus = f"{t.bonus:+d}" if t.bonus else ""
            cells = [
                named(t.name, t.id),
                e(what),
                bonus,
                str(t.gold),
                str(t.count),
                texts(text(t), t.flavour),
            ]
            rows.append((f"{t.id} {t.name} {text(t)} {t.flavour}", cells))
        out.append(("Treasures", ["name", "slot/use", "bonus", "gold", "×", "text"], rows))
    if "dxm" in kinds:
        rows = [
            (
                f"{d.id} {d.name} {text(d)} {d.flavour}",
                [named(d.name, d.id), e(d.kind), str(d.count), texts(text(d), d.flavour)],
            )
            for d in content.dxm
        ]
        out.append(("DxM cards", ["name", "kind", "×", "text"], rows))
    if "table" in kinds:
        rows = [(f"{ident} {line}", [e(ident), e(line)]) for _, ident, line, _ in _table_entries(content)]
        out.append(("Tables", ["entry", "text"], rows))
    return out


def _table_entries(content: Content) -> list[tuple[str, str, str, object]]:
    """(kind, id, rules text, data) of each row of the Search table and each kind of connection."""
    import msgspec

    from mqtui.engine.defs import CONNECTIONS
    from mqtui.engine.rules_text import words

    rules, tables = words(content), content.tables
    out: list[tuple[str, str, str, object]] = []
    for row, line in zip(tables.search, rules.search_rows(), strict=True):
        out.append(("search", f"search {row.low}..{row.high}", line, msgspec.to_builtins(row)))
    for kind, line in zip(CONNECTIONS, rules.connections(), strict=True):
        data = {"bag": tables.bag.get(kind, 0), "move_cost": tables.move_cost.get(kind)}
        out.append(("connection", kind, line, data))
    return out


def json_entries(content: Content, kinds: tuple[str, ...] = KINDS) -> list[dict[str, Any]]:
    """Every entry of ``kinds``: its kind, id, the rules text a player reads and its whole data."""
    import msgspec

    from mqtui.engine.rules_text import words

    text = words(content).text
    defs: list[tuple[str, Any]] = [
        *(("race", r) for r in content.races.values()),
        *(("class", c) for c in content.classes.values()),
        *(("room", r) for r in (content.entrance, *content.rooms)),
        *(("monster", m) for m in content.monsters),
        *(("treasure", t) for t in content.treasures),
        *(("dxm", d) for d in content.dxm),
    ]
    out: list[dict[str, Any]] = [
        {"kind": kind, "id": d.id, "text": text(d), "data": msgspec.to_builtins(d)}
        for kind, d in defs
        if kind in kinds
    ]
    if "table" in kinds:
        out += [
            {"kind": k, "id": i, "text": line, "data": data} for k, i, line, data in _table_entries(content)
        ]
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
    if args.json:
        import json

        def haystack(e: dict[str, Any]) -> str:
            data = e["data"] if isinstance(e["data"], dict) else {}
            return f"{e['id']} {data.get('name', '')} {e['text']} {data.get('flavour', '')}".lower()

        found = [e for e in json_entries(content, kinds) if needle in haystack(e)]
        print(json.dumps(found, indent=1, ensure_ascii=False))
        return 0
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
