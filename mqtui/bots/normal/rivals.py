"""Reading the table: how much a rival threatens to win, and whether a seat still can."""

from __future__ import annotations

import functools

from mqtui.bots.eval import hero_strength, monster_strength
from mqtui.bots.normal.core import HOPE_FIGHTS, HOPE_MARGIN, HOPE_POWER, Cell, Ctx
from mqtui.engine.board import ENTRANCE
from mqtui.engine.defs import MonsterDef
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import State


def threat(s: State, seat: int, other: int) -> float:
    """How much ``seat`` wants to stop ``other`` getting ahead: 0 (harmless) to 1 (about to win)."""
    o = s.heroes[other]
    if o.level >= MAX_LEVEL - 1:
        return 1.0
    top = max(h.level for h in s.heroes)
    me = s.heroes[seat].level
    base = max(0.0, (o.level - 3) / 6)
    if o.level >= top:
        base += 0.15
    if o.level > me:
        base += 0.1 * (o.level - me)
    return min(1.0, base)


def hope(ctx: Ctx, seat: int) -> float:
    """Whether ``seat`` still has a realistic path to win, 0 to 1, from public facts: a Level 10 hero
    has one; below that it needs a kill, so it counts the fights the dungeon can still give it (rooms
    left to explore, rooms whose monsters it could beat without help, a wandering monster now and then
    from a search). Stopping a rival is worth only as much as the stopper's own hope: once a player
    cannot win the race any more, its cards only drag the game on (and it lets the leader through)."""
    found: float | None = ctx.memo.get(("hope", seat))  # type: ignore[assignment]
    if found is None:  # (ctx.cached written out: asked for every fight weighed)
        found = ctx.memo["hope", seat] = _hope(ctx, seat)
    return found


def _hope(ctx: Ctx, seat: int) -> float:
    t, s = ctx.t, ctx.s
    hero = s.heroes[seat]
    if hero.level >= MAX_LEVEL:
        return 1.0
    fights = float(len(s.tiles))
    strength = hero_strength(t, hero)
    rooms, searches = ctx.cached("board fights", lambda: _board_fights(ctx))
    for foes in rooms:
        if strength - monster_strength(t, foes, [hero]) >= -HOPE_MARGIN:
            fights += 1.0
    for chance in searches:
        fights += chance
    share = fights / (HOPE_FIGHTS * len(s.heroes))  # the fights are shared out round the table
    return float(min(1.0, share) ** HOPE_POWER)


def _board_fights(ctx: Ctx) -> tuple[list[list[MonsterDef]], list[float]]:
    """What the board offers every seat alike: the monsters of each room, and for each room that can
    still be searched the chance of a wandering monster from its searches."""
    t, s = ctx.t, ctx.s
    rooms: dict[Cell, list[MonsterDef]] = {}
    for m in s.monsters:
        rooms.setdefault((m.x, m.y), []).append(t.monster[m.card])
    searches = []
    for r in s.rooms:
        if r.room != ENTRANCE and r.searched < 2:
            searches.append(_wandering_chance(t.room(r.room).search, r.searched))
    return list(rooms.values()), searches


@functools.lru_cache(maxsize=256)
def _wandering_chance(mod: int, searched: int) -> float:
    """The chance of wandering monsters from the searches a room has left: one on a d10 roll of 1 or
    less, after the room's modifier ``mod`` (-2 once ransacked)."""
    return sum(min(10, max(0, 1 - mod + 2 * k)) / 10 for k in range(searched, 2))
