"""The race, from public facts only: where each hero stands, who is close to winning, and what the
others did since your last turn.

Pure functions over a seat's redacted view (no Textual): every fact used here (Level, Life, the room a
hero stands in, the map) is public, so the same words are right for every seat and over a hand-off.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from mqtui.engine.board import neighbours
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import Hero, State
from mqtui.store import LogLine
from mqtui.timeline import Timeline

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


# -- the recap at the start of a turn ------------------------------------------------------------------

RECAP_LINES = 5  # at most: the most recent


def _hero_tally(hero: Hero) -> tuple[int, int, int]:
    """A hero's public (Level, kills, deaths)."""
    return hero.level, hero.kills, hero.deaths


def _tally(view: State) -> tuple[tuple[int, int, int], ...]:
    """Each hero's public (Level, kills, deaths)."""
    return tuple(_hero_tally(h) for h in view.heroes)


def _plural(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


@dataclass(frozen=True)
class Recap:
    """One line of the recap, and what it tells of: a hero whose tally changed (``seat``), or a line of
    the log (``line``), so that the replay can be opened at that moment."""

    text: str
    seat: int = -1
    line: LogLine | None = None


def recap_entries(
    before: tuple[tuple[int, int, int], ...], view: State, log: Sequence[LogLine], viewer: int
) -> list[Recap]:
    """What the other heroes did since ``before`` (their tally then) and the log lines since then
    (``log``): one line per hero whose Level, kills or deaths changed, then the curses on the viewer
    and any boss fight. Public facts only."""
    lines = []
    for hero, (level, kills, deaths) in zip(view.heroes, before, strict=True):
        if hero.seat == viewer:
            continue
        parts = []
        if hero.level != level:
            parts.append(f"Level {level} → {hero.level}")
        if hero.kills > kills:
            parts.append(_plural(hero.kills - kills, "kill"))
        if hero.deaths > deaths:
            parts.append("died" if hero.deaths - deaths == 1 else f"died {hero.deaths - deaths} times")
        if parts:
            lines.append(Recap(f"▲ {hero.name}: {', '.join(parts)}", seat=hero.seat))
    you = view.heroes[viewer].name
    for line in log:
        if line.kind == "curse" and f" curses {you} with " in line.text:
            lines.append(Recap("☹ " + line.text.split(": ")[0], line=line))  # (the card's name only)
        elif line.kind == "boss":
            lines.append(Recap("★ " + line.text, line=line))
    return lines[-RECAP_LINES:]


def recap_lines(
    before: tuple[tuple[int, int, int], ...], view: State, log: Sequence[LogLine], viewer: int
) -> list[str]:
    """The words of :func:`recap_entries`."""
    return [entry.text for entry in recap_entries(before, view, log, viewer)]


class Recaps:
    """Each seat's view of the race at the start of its last turn, for the recap at its next."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[tuple[tuple[int, int, int], ...], int]] = {}

    def turn_started(self, view: State, log: Sequence[LogLine], seat: int) -> list[str]:
        """The recap for ``seat`` whose turn starts now (nothing at its first turn seen here)."""
        return [entry.text for entry in self.entries(view, log, seat)]

    def entries(self, view: State, log: Sequence[LogLine], seat: int) -> list[Recap]:
        """:meth:`turn_started`, each line with what it tells of."""
        before = self._seen.get(seat)
        self._seen[seat] = (_tally(view), len(log))
        if before is None or len(before[0]) != len(view.heroes):
            return []
        tally, start = before
        return recap_entries(tally, view, log[min(start, len(log)) :], seat)


def recap_moment(timeline: Timeline, start: int, viewer: int, entry: Recap) -> int:
    """The position in ``timeline`` where what a recap line tells of happened, after ``start`` (the
    viewer's last turn began there): the log line written, or the hero's tally first changed; the last
    position when it cannot be found (an undo since)."""
    start = max(0, min(start, timeline.last))
    if entry.line is not None:
        found = timeline.written(viewer, entry.line, start)
        if found is not None:
            return found
    if entry.seat >= 0:
        was = _hero_tally(timeline.state(start).heroes[entry.seat])
        for i in range(start + 1, timeline.last + 1):
            if _hero_tally(timeline.state(i).heroes[entry.seat]) != was:
                return i
    return timeline.last
