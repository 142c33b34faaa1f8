"""Drawing the dungeon as a grid of characters, each with a style name (no Textual here).

Every placed room is a box ``PITCH_X`` wide and ``PITCH_Y`` high sharing its walls with its
neighbours; a connection is drawn in the middle of the wall it sits on, with a glyph per kind (so the
kind reads without colour). Inside a room: its short name, the heroes (a letter each) and the
monsters ("M" and the level), with marks for dropped treasure (``*``) and search state (``r``/``x``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mqtui.engine.cards import CardTable
from mqtui.engine.state import DX, DY, Hero, State, cell_key, edge_key

PITCH_X = 11
PITCH_Y = 4
INNER = PITCH_X - 1
BIG_PITCH = (15, 6)  # for large panes: room for a fourth line (Deal, rule, loot and search marks)

# Connection glyphs (horizontal wall: 3 cells, vertical wall: 1 cell) and their style names. Never a
# letter: heroes are letters on the map (a door "D" was once also Dame Pointy).
CONNECTIONS: dict[str, tuple[str, str, str]] = {
    "passage": ("   ", " ", "passage"),
    "door": (" + ", "+", "door"),
    "locked": (" # ", "#", "locked"),
    "hidden": (" ~ ", "~", "hidden"),
    "wall": ("███", "█", "wall"),
}
LEGEND = "+ door  # locked  ~ hidden  █ wall  ? unexplored  * loot  r/x searched"
_BOX = " │─└│││├─┘─┴┐┤┬┼"  # by bits N=1 E=2 S=4 W=8
_HEAVY = {"corner_nw": "┏", "corner_ne": "┓", "corner_sw": "┗", "corner_se": "┛", "h": "━", "v": "┃"}
_ARROWS = "↑→↓←"

Cell = tuple[str, str]  # (character, style name)


@dataclass
class Canvas:
    rows: list[list[Cell]]
    origin: tuple[int, int]  # grid cell at canvas (0, 0)
    pitch: tuple[int, int] = (PITCH_X, PITCH_Y)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    @property
    def height(self) -> int:
        return len(self.rows)

    def cell_box(self, x: int, y: int) -> tuple[int, int]:
        """Canvas position of the top-left corner of grid cell (x, y)."""
        return (x - self.origin[0]) * self.pitch[0], (y - self.origin[1]) * self.pitch[1]

    def cell_at(self, cx: int, cy: int) -> tuple[int, int]:
        """The grid cell under a canvas position."""
        return cx // self.pitch[0] + self.origin[0], cy // self.pitch[1] + self.origin[1]

    def put(self, x: int, y: int, text: str, style: str) -> None:
        if not 0 <= y < len(self.rows):
            return
        row = self.rows[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < len(row):
                row[x + i] = (ch, style)


def bounds(view: State, extra: Sequence[tuple[int, int]] = ()) -> tuple[int, int, int, int]:
    xs = [r.x for r in view.rooms] + [x for x, _ in extra]
    ys = [r.y for r in view.rooms] + [y for _, y in extra]
    return min(xs), min(ys), max(xs), max(ys)


def draw(
    cards: CardTable,
    view: State,
    letters: dict[int, str],
    cursor: tuple[int, int] | None = None,
    active: int = -1,
    pitch: tuple[int, int] = (PITCH_X, PITCH_Y),
) -> Canvas:
    """The whole explored dungeon, one spare cell around it, with the cursor room outlined."""
    pw, ph = pitch
    inner = pw - 1
    min_x, min_y, max_x, max_y = bounds(view, [cursor] if cursor else [])
    origin = (min_x - 1, min_y - 1)
    width = (max_x - min_x + 3) * pw + 1
    height = (max_y - min_y + 3) * ph + 1
    canvas = Canvas([[(" ", "")] * width for _ in range(height)], origin, pitch)
    bits = [[0] * width for _ in range(height)]
    placed = {(r.x, r.y) for r in view.rooms}

    def h_line(x0: int, x1: int, y: int) -> None:
        for x in range(x0, x1):
            bits[y][x] |= 2
            bits[y][x + 1] |= 8

    def v_line(x: int, y0: int, y1: int) -> None:
        for y in range(y0, y1):
            bits[y][x] |= 4
            bits[y + 1][x] |= 1

    for room in view.rooms:
        px, py = canvas.cell_box(room.x, room.y)
        h_line(px, px + pw, py)
        h_line(px, px + pw, py + ph)
        v_line(px, py, py + ph)
        v_line(px + pw, py, py + ph)
    for y in range(height):
        row = canvas.rows[y]
        for x in range(width):
            if bits[y][x]:
                row[x] = (_BOX[bits[y][x]], "border")

    # the cursor room: a heavy outline (readable without colour)
    if cursor is not None:
        px, py = canvas.cell_box(*cursor)
        style = "cursor"
        if cursor in placed:
            canvas.put(px, py, _HEAVY["corner_nw"] + _HEAVY["h"] * inner + _HEAVY["corner_ne"], style)
            canvas.put(px, py + ph, _HEAVY["corner_sw"] + _HEAVY["h"] * inner + _HEAVY["corner_se"], style)
            for dy in range(1, ph):
                canvas.put(px, py + dy, _HEAVY["v"], style)
                canvas.put(px + pw, py + dy, _HEAVY["v"], style)
        else:
            canvas.put(px, py, "┌" + "┄" * inner + "┐", style)
            canvas.put(px, py + ph, "└" + "┄" * inner + "┘", style)
            for dy in range(1, ph):
                canvas.put(px, py + dy, "┆", style)
                canvas.put(px + pw, py + dy, "┆", style)

    # connections and unexplored sides
    mid_x, mid_y = pw // 2, ph // 2
    for room in view.rooms:
        px, py = canvas.cell_box(room.x, room.y)
        for d in range(4):
            kind = view.edges.get(edge_key(room.x, room.y, d))
            if kind is None:
                continue
            wide, tall, style = CONNECTIONS.get(kind, (" ? ", "?", "border"))
            if d == 0:
                canvas.put(px + mid_x - 1, py, wide, style)
            elif d == 2:
                canvas.put(px + mid_x - 1, py + ph, wide, style)
            elif d == 1:
                canvas.put(px + pw, py + mid_y, tall, style)
            else:
                canvas.put(px, py + mid_y, tall, style)
            nx, ny = room.x + DX[d], room.y + DY[d]
            if kind != "wall" and (nx, ny) not in placed:
                spot = {
                    0: (px + mid_x, py - 1),
                    2: (px + mid_x, py + ph + 1),
                    1: (px + pw + 2, py + mid_y),
                    3: (px - 2, py + mid_y),
                }[d]
                canvas.put(spot[0], spot[1], "?", "unexplored")

    # room contents
    heroes_at: dict[tuple[int, int], list[Hero]] = {}
    for hero in view.heroes:
        if not hero.dead:
            heroes_at.setdefault((hero.x, hero.y), []).append(hero)
    for room in view.rooms:
        px, py = canvas.cell_box(room.x, room.y)
        rdef = cards.room(room.room)
        name_style = "cursor_name" if cursor == (room.x, room.y) else "name"
        canvas.put(px + 1, py + 1, rdef.short[:inner].ljust(inner), name_style)
        heroes = heroes_at.get((room.x, room.y), [])

        def left(row: int, px: int = px) -> int:
            # the row with the side connections keeps a space from the wall: "D A", not "DA"
            return px + (2 if row == mid_y else 1)

        def right(row: int, px: int = px) -> int:
            return px + (inner - 1 if row == mid_y else inner)

        sep = " " if len(heroes) <= 4 else ""
        x = left(2)
        for hero in heroes:
            style = f"hero-{hero.colour}" + ("-active" if hero.seat == active else "")
            canvas.put(x, py + 2, letters.get(hero.seat, "?"), style)
            x += 1 + len(sep)
        big = ph >= 6
        if room.piles:
            canvas.put(right(2), py + 2, "*", "treasure")
        if big:
            marks = []
            if rdef.deal is not None:
                marks.append(("$Deal", "treasure"))
            if rdef.rules:
                marks.append(("!rule", "door"))
            if room.searched:
                marks.append(("Ransacked" if room.searched == 1 else "Looted", "searched"))
            x = px + 1
            for label, style in marks:
                if x + len(label) > px + inner:
                    break
                canvas.put(x, py + 4, label, style)
                x += len(label) + 1
        x = left(3)
        monsters = [m for m in view.monsters if (m.x, m.y) == (room.x, room.y)]
        for i, m in enumerate(monsters):
            label = f"M{cards.monster[m.card].level}"
            if x + len(label) > right(3) - 1:
                canvas.put(x, py + 3, f"+{len(monsters) - i}", "monster")
                break
            canvas.put(x, py + 3, label, f"monster-{m.colour}")
            x += len(label) + 1
        if room.searched and not big:
            canvas.put(right(3), py + 3, "r" if room.searched == 1 else "x", "searched")

    # the monster arrows of the cursor room, in the colours in play
    if cursor is not None and cursor in placed:
        i = view.grid[cell_key(*cursor)]
        rdef = cards.room(view.rooms[i].room)
        px, py = canvas.cell_box(*cursor)
        cols = [c for c in range(1, inner) if abs(c - mid_x) > 1][:6]
        rows = [r for r in range(1, ph) if r != mid_y][:6]
        slots: dict[int, list[tuple[int, int]]] = {
            0: [(px + c, py) for c in cols],
            2: [(px + c, py + ph) for c in cols],
            1: [(px + pw, py + r) for r in rows],
            3: [(px, py + r) for r in rows],
        }
        for hero in view.heroes:
            side = rdef.arrows.get(hero.colour)
            if side is None:
                continue
            d = "NESW".index(side)
            if slots[d]:
                x, y = slots[d].pop(0)
                canvas.put(x, y, _ARROWS[d], f"arrow-{hero.colour}")
    return canvas
