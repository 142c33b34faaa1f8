"""The dungeon grid, the decks, exploring, and how monsters move."""

from __future__ import annotations

from mqtui.engine import rng
from mqtui.engine.actions import Event
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.defs import COLOURS, RoomDef
from mqtui.engine.state import (
    DX,
    DY,
    KEY_STEP,
    Hero,
    Monster,
    Room,
    State,
    cell_key,
    edge_key,
    key_cell,
    key_edge,
)

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


def hero_room(s: State, hero: Hero) -> Room:
    room = room_at(s, hero.x, hero.y)
    assert room is not None
    return room


def room_name(t: CardTable, s: State, x: int, y: int) -> str:
    return _key_name(t, s, cell_key(x, y))


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
    if x1 == x2 and y1 == y2:
        return True
    key, other = cell_key(x1, y1), cell_key(x2, y2)
    for d in range(4):
        if key + KEY_STEP[d] == other:
            kind = s.edges.get(key_edge(key, d))
            return kind is not None and kind != "wall" and other in s.grid
    return False


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
    if not s.tiles:  # the last room: the looted rooms restock (see _do_search)
        looted = [r for r in s.rooms if r.searched >= 2]
        for r in looted:
            r.searched = 1
        ev.append(
            Event(
                "room",
                "That was the last room: the dungeon is complete."
                + (" Looted-out rooms are Ransacked again and can be searched." if looted else ""),
            )
        )
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
# Monsters move many times per turn, so this part works on cell keys (see state.cell_key), not (x, y).

ENTRANCE_KEY = cell_key(0, 0)
# (cell, colour) -> (side, next cell, cell entered) of arrow steps already worked out this phase
Steps = dict[tuple[int, str], tuple[int, int, int]]


def step_target(s: State, x: int, y: int, d: int) -> tuple[int, int] | None:
    """Where a monster going d from (x, y) arrives, or None if the connection stops it."""
    key = _step(s, cell_key(x, y), d)
    return None if key is None else key_cell(key)


def _step(s: State, key: int, d: int) -> int | None:
    """step_target on cell keys: into the next room, or round to the far end across unexplored space."""
    if s.edges.get(key_edge(key, d)) not in MONSTER_PASSABLE:
        return None
    nxt = key + KEY_STEP[d]
    if nxt in s.grid:
        return nxt
    return _far_end(s, key, d)


def _far_end(s: State, key: int, d: int) -> int:
    """The farthest placed room from the cell against direction d, on the same row or column."""
    x, y = key_cell(key)
    if d in (1, 3):
        xs = [x, *[room.x for room in s.rooms if room.y == y]]
        return cell_key(min(xs) if d == 1 else max(xs), y)
    ys = [y, *[room.y for room in s.rooms if room.x == x]]
    return cell_key(x, min(ys) if d == 2 else max(ys))


def _arrow(t: CardTable, s: State, key: int, colour: str) -> int | None:
    i = s.grid.get(key)
    if i is None:
        return None
    room = s.rooms[i].room
    return None if room == ENTRANCE else t.arrows[room].get(colour)


def _enter(s: State, key: int, d: int, came: int) -> int:
    """Move into a cell; a monster entering the Entrance leaves at once through the opposite side."""
    if key != ENTRANCE_KEY:
        return key
    beyond = _step(s, key, d)
    if beyond is None or beyond == ENTRANCE_KEY:
        return came  # nowhere to go on: it turns back rather than stop in the Entrance
    return beyond


def _key_name(t: CardTable, s: State, key: int) -> str:
    i = s.grid.get(key)
    return "unexplored space" if i is None else t.room(s.rooms[i].room).name


def move_monsters(t: CardTable, s: State, ev: list[Event], colour: str) -> None:
    previous = s.last_colour or colour
    # where each colour's hero stands (None while dead): a monster stops at its target
    goals = {h.colour: None if h.dead else cell_key(h.x, h.y) for h in s.heroes}
    fighting = s.combat.monsters if s.combat is not None else []
    # Nothing on the board changes during the phase, so monsters that start in the same cell, move
    # alike and hunt the same hero take the same route: each route is worked out once, and so is
    # each step along an arrow (routes from different cells often merge).
    routes: dict[tuple[int, int | None, str, str], int] = {}
    steps: Steps = {}
    for m in list(s.monsters):
        if m.id in fighting:
            continue
        d = t.monster[m.card]
        if d.move == "lurking":
            continue
        start = cell_key(m.x, m.y)
        if d.move == "weird" and d.weird == "blinks":
            end = _blink(s, start)  # random: never shared
        else:
            goal = goals.get(m.colour)
            route = (start, goal, d.move, d.weird)
            found = routes.get(route)
            if found is None:
                if d.move == "weird":
                    found = _move_weird(t, s, start, goal, d.weird, previous, steps)
                else:
                    found = _move_along(t, s, start, goal, d.move, colour, steps)
                routes[route] = found
            end = found
        if end != start:
            m.x, m.y = key_cell(end)
            where = f"from {_key_name(t, s, start)} to {_key_name(t, s, end)}"
            ev.append(Event("monster", f"{d.name} moves {where}."))  # a monster's doing, not a hero's move
    s.last_colour = colour


def _arrow_step(t: CardTable, s: State, key: int, colour: str, steps: Steps) -> tuple[int, int, int]:
    """Following the arrow of ``colour`` out of a cell: (side, next cell, cell entered), with side -1
    where there is no arrow and next cell -1 where the connection stops the monster; kept in ``steps``."""
    found = steps.get((key, colour))
    if found is None:
        d = _arrow(t, s, key, colour)
        if d is None:
            found = (-1, -1, key)
        else:
            nxt = _step(s, key, d)
            found = (d, -1, key) if nxt is None else (d, nxt, _enter(s, nxt, d, key))
        steps[(key, colour)] = found
    return found


def _move_along(
    t: CardTable,
    s: State,
    key: int,
    goal: int | None,
    kind: str,
    colour: str,
    steps: Steps,
) -> int:
    """Follow the arrows of ``colour`` from a cell; returns the cell where the monster stops."""
    visited = {key}
    if kind == "contrary":
        d = _arrow(t, s, key, colour)
        if d is None or key == goal:
            return key
        back = (d + 2) % 4
        nxt = _step(s, key, back)
        if nxt is not None and nxt not in visited:
            key = _enter(s, nxt, back, key)
            visited.add(key)
    last_dir = -1
    stopped_by_target = False
    while True:
        if key == goal:
            stopped_by_target = True
            break
        d, nxt, entered = _arrow_step(t, s, key, colour, steps)
        if d < 0 or nxt < 0 or nxt in visited:
            break
        if entered != nxt and _loops_back(entered, key, visited):
            break  # through the Entrance into a room it was already in: stop rule (a) there too
        key = entered
        visited.add(nxt)
        visited.add(key)
        last_dir = d
        if kind == "slow":
            return key
    if kind == "fast" and last_dir >= 0 and not stopped_by_target:
        nxt = _step(s, key, last_dir)
        if nxt is not None:
            key = _enter(s, nxt, last_dir, key)
    return key


def _loops_back(beyond: int, key: int, visited: set[int]) -> bool:
    """Stop rule (a) through the Entrance: the room beyond it was already visited this phase (a way
    straight back to ``key`` is the turn-back rule of ``_enter`` instead)."""
    return beyond != key and beyond in visited


def _blink(s: State, key: int) -> int:
    """A blinking monster jumps to a random other room (never the Entrance)."""
    x, y = key_cell(key)
    choices = [r for r in s.rooms if r.room != ENTRANCE and (r.x != x or r.y != y)]
    if not choices:
        return key
    room = choices[rng.below(s, len(choices))]
    return cell_key(room.x, room.y)


def _move_weird(
    t: CardTable,
    s: State,
    key: int,
    goal: int | None,
    rule: str,
    previous: str,
    steps: Steps,
) -> int:
    """Weird movers other than blinkers: they follow the last colour, or hunt their target."""
    if rule == "follows_last":
        return _move_along(t, s, key, goal, "normal", previous, steps)
    if rule == "hunts" and goal is not None and goal != key:
        first = _first_step(s, key, goal)
        if first is not None:
            d, nxt = first
            return _enter(s, nxt, d, key)
    return key


def _first_step(s: State, start: int, goal: int) -> tuple[int, int] | None:
    """The first step (side, cell) of a shortest path for monsters (passages and doors), breadth first."""
    frontier: list[tuple[int, tuple[int, int] | None]] = [(start, None)]  # cell, first step to it
    seen = {start}
    while frontier:
        nxt_frontier: list[tuple[int, tuple[int, int] | None]] = []
        for key, first in frontier:
            for d in range(4):
                nxt = key + KEY_STEP[d]
                if nxt in seen or nxt not in s.grid or s.edges.get(key_edge(key, d)) not in MONSTER_PASSABLE:
                    continue
                seen.add(nxt)
                step = first or (d, nxt)
                if nxt == goal:
                    return step
                nxt_frontier.append((nxt, step))
        frontier = nxt_frontier
    return None
