"""The race, from public facts only: where each hero stands, and who is close to winning.

Pure functions over a seat's redacted view (no Textual): every fact used here (Level, Life, the room a
hero stands in, the map) is public, so the same words are right for every seat and over a hand-off.
"""

from __future__ import annotations

from collections import deque

from mqtui.engine.board import neighbours
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import Hero, State

ENTRANCE = (0, 0)


def rooms_to_entrance(view: State, x: int, y: int) -> int | None:
    """How many rooms a hero at (x, y) walks through to the Entrance over the map as explored (not
    walls); None: no explored way there."""
    seen = {(x, y)}
    todo = deque([(x, y, 0)])
    while todo:
        cx, cy, n = todo.popleft()
        if (cx, cy) == ENTRANCE:
            return n
        for _d, nx, ny in neighbours(view, cx, cy):
            if (nx, ny) not in seen:
                seen.add((nx, ny))
                todo.append((nx, ny, n + 1))
    return None


def _away(hero: Hero, view: State) -> str:
    """Where the hero stands, seen from the Entrance."""
    if hero.dead:
        return "back at the Entrance next turn"
    n = rooms_to_entrance(view, hero.x, hero.y)
    if n == 0:
        return "in the Entrance"
    if n is None:
        return "with no known way to the Entrance"
    return f"{n} room{'s' if n != 1 else ''} from the Entrance"


def race_warning(view: State, seat: int) -> str | None:
    """A warning when the hero at ``seat`` could win this turn or the next: at Level 10 (one boss
    fight away) or Level 9 (one kill from Level 10, then the boss). None: not close yet."""
    hero = view.heroes[seat]
    if hero.level >= MAX_LEVEL:
        return f"{hero.name} is Level {hero.level}, {_away(hero, view)}: one boss fight from winning"
    if hero.level == MAX_LEVEL - 1:
        return f"{hero.name} is Level {hero.level}, {_away(hero, view)}: one kill from Level {MAX_LEVEL}"
    return None


def race_warnings(view: State, viewer: int) -> list[str]:
    """The warnings about the other heroes (not the viewer's own), the closest to winning first."""
    others = [h for h in view.heroes if h.seat != viewer]
    others.sort(key=lambda h: -h.level)  # (stable: seat order among equals)
    return [w for h in others if (w := race_warning(view, h.seat)) is not None]
