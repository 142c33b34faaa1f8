"""The dungeon grid, the decks, exploring, and how monsters move."""

from __future__ import annotations

from mqtui.engine import rng
from mqtui.engine.actions import Event
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.defs import COLOURS, RoomDef
from mqtui.engine.state import DX, DY, Hero, Monster, Room, State, cell_key, edge_key

DIRS = "NESW"
DIR_NAMES = ("north", "east", "south", "west")
MONSTER_PASSABLE = frozenset(("passage", "door"))
ENTRANCE = -1


# -- decks -----------------------------------------------------------------------------------------


def draw(t: CardTable, s: State, deck: str) -> int | None:
    """Take the top card of a deck, reshuffling its discards when it runs out."""
    pile, discard = _piles(s, deck)
    if not pile:
        if not discard:
            return None
        pile.extend(discard)
        discard.clear()
        rng.shuffle(s, pile)
    return pile.pop()


def discard(t: CardTable, s: State, uid: int) -> None:
    _piles(s, t.deck_of[uid])[1].append(uid)


def _piles(s: State, deck: str) -> tuple[list[int], list[int]]:
    if deck == DXM:
        return s.dxm, s.dxm_discard
    if deck == TREASURE:
        return s.treasure, s.treasure_discard
    return s.monster_deck, s.monster_discard


def draw_to_hand(t: CardTable, s: State, ev: list[Event], hero: Hero, deck: str, n: int = 1) -> list[int]:
    got: list[int] = []
    for _ in range(n):
        uid = draw(t, s, deck)
        if uid is None:
            break
        hero.hand.append(uid)
        got.append(uid)
    if got:
        label = "DxM" if deck == DXM else "Treasure"
        what = f"a {label} card" if len(got) == 1 else f"{len(got)} {label} cards"
        names = ", ".join(t.names[u] for u in got)
        ev.append(Event("draw", f"{hero.name} draws {what}.", hero.seat, f"You draw {names}."))
    return got


def roll_colour(s: State, ev: list[Event], reason: str, reroll_empty: bool) -> str:
    """Roll the colour die; with ``reroll_empty``, faces of colours nobody plays are rolled again."""
    playing = {h.colour for h in s.heroes}
    while True:
        colour = COLOURS[rng.roll(s, 6) - 1]
        if colour in playing or not reroll_empty:
            ev.append(Event("colour", f"Colour die ({reason}): {colour}."))
            return colour
        ev.append(Event("colour", f"Colour die ({reason}): {colour}, nobody's colour: roll again."))


# -- grid -------------------------------------------------------------------------------------------


def room_at(s: State, x: int, y: int) -> Room | None:
    i = s.grid.get(cell_key(x, y))
    return None if i is None else s.rooms[i]


def room_def(t: CardTable, room: Room) -> RoomDef:
    return t.room(room.room)


def connection(s: State, x: int, y: int, d: int) -> str | None:
    return s.edges.get(edge_key(x, y, d))


def hero_room(s: State, hero: Hero) -> Room:
    room = room_at(s, hero.x, hero.y)
    assert room is not None
    return room


def room_name(t: CardTable, s: State, x: int, y: int) -> str:
    room = room_at(s, x, y)
    return "unexplored space" if room is None else room_def(t, room).name


def neighbours(
    s: State, x: int, y: int, passable: frozenset[str] | None = None
) -> list[tuple[int, int, int]]:
    """Placed rooms next to (x, y) through a connection (of the given kinds, default: not a wall)."""
    out = []
    for d in range(4):
        kind = s.edges.get(edge_key(x, y, d))
        if kind is None or kind == "wall" or (passable is not None and kind not in passable):
            continue
        nx, ny = x + DX[d], y + DY[d]
        if cell_key(nx, ny) in s.grid:
            out.append((d, nx, ny))
    return out


def adjacent(s: State, x1: int, y1: int, x2: int, y2: int) -> bool:
    """Same room, or a neighbouring room through a connection that is not a wall."""
    if (x1, y1) == (x2, y2):
        return True
    return any((nx, ny) == (x2, y2) for _, nx, ny in neighbours(s, x1, y1))


def monsters_at(s: State, x: int, y: int) -> list[Monster]:
    return [m for m in s.monsters if m.x == x and m.y == y]


def place_room(t: CardTable, s: State, ev: list[Event], x: int, y: int) -> Room | None:
    """Draw a tile, show a random face at (x, y) and give every open side a connection from the bag."""
    if not s.tiles:
        return None
    tile = s.tiles.pop()
    faces = t.tiles[tile]
    index = s.faces.pop(tile) if tile in s.faces else faces[rng.below(s, len(faces))]
    room = Room(room=index, x=x, y=y)
    s.grid[cell_key(x, y)] = len(s.rooms)
    s.rooms.append(room)
    for d in range(4):
        key = edge_key(x, y, d)
        if key not in s.edges:
            s.edges[key] = _from_bag(t, s)
    sides = ", ".join(f"{DIRS[d]} {s.edges[edge_key(x, y, d)]}" for d in range(4))
    ev.append(Event("room", f"A new room: {t.room(index).name} ({sides})."))
    return room


def _from_bag(t: CardTable, s: State) -> str:
    if not s.bag:
        s.bag = [kind for kind, n in sorted(t.content.tables.bag.items()) for _ in range(n)]
        rng.shuffle(s, s.bag)
    return s.bag.pop()


def spawn_monster(t: CardTable, s: State, ev: list[Event], x: int, y: int, reason: str) -> Monster | None:
    """Draw a Monster card, roll its target colour and put it in (x, y); the target draws a DxM card."""
    uid = draw(t, s, MONSTER)
    if uid is None:
        ev.append(Event("monster", "The Monster deck is empty: no monster appears."))
        return None
    colour = roll_colour(s, ev, "monster's target", reroll_empty=True)
    monster = Monster(id=s.next_monster, card=uid, colour=colour, x=x, y=y)
    s.next_monster += 1
    s.monsters.append(monster)
    d = t.monster[uid]
    target = next(h for h in s.heroes if h.colour == colour)
    ev.append(
        Event(
            "monster",
            f"{reason}: {d.name} (level {d.level}, {d.move}) appears in {room_name(t, s, x, y)}, "
            f"hunting {target.name} ({colour}).",
        )
    )
    draw_to_hand(t, s, ev, target, DXM)
    return monster


# -- monster movement ------------------------------------------------------------------------------


def _far_end(s: State, x: int, y: int, d: int) -> tuple[int, int]:
    """The farthest placed room from (x, y) against direction d, on the same row or column."""
    bx, by = x, y
    for room in s.rooms:
        if d in (1, 3) and room.y == y:
            if (d == 1 and room.x < bx) or (d == 3 and room.x > bx):
                bx = room.x
        elif d in (0, 2) and room.x == x and ((d == 2 and room.y < by) or (d == 0 and room.y > by)):
            by = room.y
    return bx, by


def step_target(s: State, x: int, y: int, d: int) -> tuple[int, int] | None:
    """Where a monster going d from (x, y) arrives, or None if the connection stops it."""
    if s.edges.get(edge_key(x, y, d)) not in MONSTER_PASSABLE:
        return None
    nx, ny = x + DX[d], y + DY[d]
    if cell_key(nx, ny) in s.grid:
        return nx, ny
    return _far_end(s, x, y, d)


def _arrow(t: CardTable, s: State, x: int, y: int, colour: str) -> int | None:
    i = s.grid.get(cell_key(x, y))
    if i is None:
        return None
    room = s.rooms[i].room
    return None if room == ENTRANCE else t.arrows[room].get(colour)


def _is_entrance(s: State, x: int, y: int) -> bool:
    return x == 0 and y == 0


def _target_cell(s: State, m: Monster) -> tuple[int, int] | None:
    """Where the monster's target hero stands (None if it is dead or not playing)."""
    for h in s.heroes:
        if h.colour == m.colour:
            return None if h.dead else (h.x, h.y)
    return None


def _enter(s: State, m: Monster, x: int, y: int, d: int, came: tuple[int, int]) -> tuple[int, int]:
    """Move into (x, y); a monster entering the Entrance leaves at once through the opposite side."""
    if not _is_entrance(s, x, y):
        return x, y
    beyond = step_target(s, x, y, d)
    if beyond is None or _is_entrance(s, *beyond):
        return came  # nowhere to go on: it turns back rather than stop in the Entrance
    return beyond


def move_monsters(t: CardTable, s: State, ev: list[Event], colour: str) -> None:
    previous = s.last_colour or colour
    for m in list(s.monsters):
        if s.combat is not None and m.id in s.combat.monsters:
            continue
        start = (m.x, m.y)
        d = t.monster[m.card]
        if d.move == "lurking":
            continue
        if d.move == "weird":
            _move_weird(t, s, m, d.weird, previous)
        else:
            _move_along(t, s, m, d.move, colour)
        if (m.x, m.y) != start:
            ev.append(
                Event(
                    "move",
                    f"{d.name} moves from {room_name(t, s, *start)} to {room_name(t, s, m.x, m.y)}.",
                )
            )
    s.last_colour = colour


def _move_along(t: CardTable, s: State, m: Monster, kind: str, colour: str) -> None:
    visited = {(m.x, m.y)}
    goal = _target_cell(s, m)
    if kind == "contrary":
        d = _arrow(t, s, m.x, m.y, colour)
        if d is None or (m.x, m.y) == goal:
            return
        back = (d + 2) % 4
        nxt = step_target(s, m.x, m.y, back)
        if nxt is not None and nxt not in visited:
            m.x, m.y = _enter(s, m, *nxt, back, (m.x, m.y))
            visited.add((m.x, m.y))
    last_dir = -1
    stopped_by_target = False
    while True:
        if (m.x, m.y) == goal:
            stopped_by_target = True
            break
        d = _arrow(t, s, m.x, m.y, colour)
        if d is None:
            break
        nxt = step_target(s, m.x, m.y, d)
        if nxt is None or nxt in visited:
            break
        m.x, m.y = _enter(s, m, *nxt, d, (m.x, m.y))
        visited.add(nxt)
        visited.add((m.x, m.y))
        last_dir = d
        if kind == "slow":
            return
    if kind == "fast" and last_dir >= 0 and not stopped_by_target:
        nxt = step_target(s, m.x, m.y, last_dir)
        if nxt is not None:
            m.x, m.y = _enter(s, m, *nxt, last_dir, (m.x, m.y))


def _move_weird(t: CardTable, s: State, m: Monster, rule: str, previous: str) -> None:
    if rule == "follows_last":
        _move_along(t, s, m, "normal", previous)
    elif rule == "blinks":
        choices = [r for r in s.rooms if r.room != ENTRANCE and (r.x, r.y) != (m.x, m.y)]
        if choices:
            room = choices[rng.below(s, len(choices))]
            m.x, m.y = room.x, room.y
    elif rule == "hunts":
        target = next(h for h in s.heroes if h.colour == m.colour)
        if target.dead or (target.x, target.y) == (m.x, m.y):
            return
        first = _first_step(s, (m.x, m.y), (target.x, target.y))
        if first is not None:
            d, nx, ny = first
            m.x, m.y = _enter(s, m, nx, ny, d, (m.x, m.y))


def _first_step(s: State, start: tuple[int, int], goal: tuple[int, int]) -> tuple[int, int, int] | None:
    """The first step of a shortest path for monsters (passages and doors), by breadth-first search."""
    frontier = [start]
    first: dict[tuple[int, int], tuple[int, int, int]] = {}
    seen = {start}
    while frontier:
        nxt_frontier = []
        for cell in frontier:
            for d, nx, ny in neighbours(s, *cell, MONSTER_PASSABLE):
                if (nx, ny) in seen:
                    continue
                seen.add((nx, ny))
                first[(nx, ny)] = first.get(cell, (d, nx, ny))
                if (nx, ny) == goal:
                    return first[(nx, ny)]
                nxt_frontier.append((nx, ny))
        frontier = nxt_frontier
    return None
