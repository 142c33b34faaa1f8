"""Checking a decoded save against the content: ids in range, every card in exactly one place, the
pieces consistent; and replaying the log to verify the snapshot.

A save that passes :func:`validate` is safe to hand to the engine (it is also asked, once, for the legal
actions and every seat's view, so that a corrupt but well-typed state fails here and not in the UI).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from mqtui import __version__
from mqtui.engine.actions import Action, EngineError, Event
from mqtui.engine.cards import DXM, MONSTER, TREASURE
from mqtui.engine.defs import COLOURS, CONNECTIONS
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import HIDDEN, FrameKind, Stage, State, cell_key, key_cell
from mqtui.engine.view import view_for
from mqtui.saves.errors import SaveError
from mqtui.saves.model import SaveData
from mqtui.seat_kinds import SEAT_KINDS

FRAME_KINDS = frozenset(FrameKind)
STAGES = frozenset(Stage)
MAX_COORD = 500  # cell keys hold -512..511


class _Bad(Exception):
    pass


def _need(ok: bool, msg: str) -> None:
    if not ok:
        raise _Bad(msg)


def content_mismatch(data: SaveData, engine: Engine) -> str:
    """Why the engine's content cannot read this save, or ''."""
    have = engine.content.version
    want = data.header.content or data.state.content
    if want != have or data.state.content != have:
        packs = f" with packs {', '.join(data.header.packs)}" if data.header.packs else ""
        return f"made with content {want}{packs}, but the loaded content is {have}"
    return ""


def validate(data: SaveData, engine: Engine) -> None:
    """Raise SaveError (one line) unless the save is consistent and every id means something here."""
    why = content_mismatch(data, engine)
    if why:
        raise SaveError(why)
    try:
        _check_seats(data)
        _check_state(data.state, engine, "snapshot")
        if data.start is not None:
            _check_state(data.start, engine, "start")
            _need(data.start.seed == data.seed, "the start state's seed differs from the game's")
            first = data.start.n
        else:
            first = 0
        _need(data.state.seed == data.seed, "the snapshot's seed differs from the game's")
        _need(
            data.state.n == first + len(data.actions),
            f"the log has {len(data.actions)} actions but the snapshot is at state {data.state.n}",
        )
        n_seats = len(data.seats)
        bad = next((i for i, a in enumerate(data.actions) if not 0 <= a.seat < n_seats), None)
        if bad is not None:  # (no message built per action: a long log has thousands)
            raise _Bad(f"action {bad + 1} is by seat {data.actions[bad].seat}, which does not exist")
        _smoke(data.state, engine)
    except _Bad as exc:
        raise SaveError(f"inconsistent game: {exc}") from None


def _check_seats(data: SaveData) -> None:
    heroes = data.state.heroes
    _need(len(data.seats) == len(heroes), f"{len(data.seats)} seats but {len(heroes)} heroes in the snapshot")
    for i, (seat, hero) in enumerate(zip(data.seats, heroes, strict=True)):
        _need(seat.kind in SEAT_KINDS, f"seat {i} has unknown kind {seat.kind!r}")
        _need(
            (seat.name, seat.colour) == (hero.name, hero.colour),
            f"seat {i} is {seat.name} ({seat.colour}) but its hero is {hero.name} ({hero.colour})",
        )


def _cards(s: State) -> Iterator[tuple[str, list[int]]]:
    """Every place a card can be, with its name for messages."""
    yield "the DxM deck", s.dxm
    yield "the Treasure deck", s.treasure
    yield "the Monster deck", s.monster_deck
    yield "the DxM discards", s.dxm_discard
    yield "the Treasure discards", s.treasure_discard
    yield "the Monster discards", s.monster_discard
    for h in s.heroes:
        yield f"{h.name}'s hand", h.hand
        yield f"{h.name}'s equipment", h.equipped
        yield f"{h.name}'s belt", h.belt
        yield f"{h.name}'s backpack", h.backpack
        yield f"{h.name}'s races", h.races
        yield f"{h.name}'s classes", h.classes
        yield (
            f"{h.name}'s extra race/class cards",
            [u for u in (h.half_breed, h.super_munchkin) if u != HIDDEN],
        )
    for r in s.rooms:
        for pile in r.piles:
            yield f"a pile in room ({r.x},{r.y})", pile
    yield "the monsters on the board", [m.card for m in s.monsters]
    if s.combat is not None and s.combat.boss_card != HIDDEN:
        yield "the boss fight", [s.combat.boss_card]


DECK_OF_PLACE = {
    "the DxM deck": DXM,
    "the DxM discards": DXM,
    "the Treasure deck": TREASURE,
    "the Treasure discards": TREASURE,
    "the Monster deck": MONSTER,
    "the Monster discards": MONSTER,
    "the monsters on the board": MONSTER,
    "the boss fight": MONSTER,
}


def _check_state(s: State, engine: Engine, what: str) -> None:
    t = engine.cards
    n_cards = len(t.deck_of)
    _need(2 <= len(s.heroes) <= 6, f"{what}: {len(s.heroes)} heroes (2 to 6 play)")
    nh = len(s.heroes)
    _need(s.stage in STAGES, f"{what}: unknown stage {s.stage!r}")
    _need(0 <= s.active < nh, f"{what}: the active seat {s.active} does not exist")
    _need(s.n >= 0 and s.round >= 1 and s.actions >= 0, f"{what}: negative counters")
    # queued die results (scenarios): d6 and d10 results
    _need(all(1 <= d <= 10 for d in s.forced), f"{what}: a queued die result is not 1 to 10")
    _need(0 <= s.rng < 1 << 64, f"{what}: the generator is out of range")
    # cards: each physical card exactly once, in a place that can hold its deck
    seen = bytearray(n_cards)
    for place, uids in _cards(s):
        deck = DECK_OF_PLACE.get(place)
        for u in uids:
            if not 0 <= u < n_cards:
                raise _Bad(f"{what}: card #{u} in {place} does not exist in this content")
            if deck is not None and t.deck_of[u] != deck:
                raise _Bad(f"{what}: card #{u} in {place} is a {t.deck_of[u]} card")
            if seen[u]:
                raise _Bad(f"{what}: card #{u} is in two places (one is {place})")
            seen[u] = 1
    missing = seen.count(0)
    if missing:
        raise _Bad(f"{what}: {missing} cards are nowhere (e.g. #{seen.index(0)})")
    # heroes (in the loops below, a message is made only for what is wrong: a state has hundreds of parts)
    colours = [h.colour for h in s.heroes]
    _need(len(set(colours)) == nh, f"{what}: two heroes share a colour")
    for i, h in enumerate(s.heroes):
        if h.seat != i:
            raise _Bad(f"{what}: hero {i} says it sits in seat {h.seat}")
        if h.colour not in COLOURS:
            raise _Bad(f"{what}: hero {i} has unknown colour {h.colour!r}")
        if not 1 <= h.level <= 10:
            raise _Bad(f"{what}: {h.name} is at Level {h.level}")
        if not (cell_key(h.x, h.y) in s.grid or h.dead):
            raise _Bad(f"{what}: {h.name} stands outside the dungeon")
        for u in h.hand + h.races + h.classes:
            if t.deck_of[u] not in (DXM, TREASURE):
                raise _Bad(f"{what}: a monster card in {h.name}'s hand")
        for u in h.equipped + h.belt + h.backpack:
            if t.deck_of[u] != TREASURE:
                raise _Bad(f"{what}: card #{u} carried by {h.name} is not a Treasure")
    # the dungeon
    tiles_all = t.tiles
    _need(len(s.rooms) >= 1, f"{what}: no Entrance")
    placed: set[int] = set()
    for i, r in enumerate(s.rooms):
        if not -1 <= r.room < len(t.content.rooms):
            raise _Bad(f"{what}: room {r.room} does not exist in this content")
        if not (-MAX_COORD <= r.x <= MAX_COORD and -MAX_COORD <= r.y <= MAX_COORD):
            raise _Bad(f"{what}: a room far away")
        if s.grid.get(cell_key(r.x, r.y)) != i:
            raise _Bad(f"{what}: room {i} is not on the grid where it says")
        if not 0 <= r.searched <= 2:
            raise _Bad(f"{what}: room {i} searched {r.searched} times")
        if r.room >= 0:
            tile = t.content.rooms[r.room].tile
            if tile in placed:
                raise _Bad(f"{what}: tile {tile} placed twice")
            placed.add(tile)
    _need(len(s.grid) == len(s.rooms), f"{what}: the grid and the room list disagree")
    for tile in s.tiles:
        if not (tile in tiles_all and tile > 0):
            raise _Bad(f"{what}: tile {tile} does not exist in this content")
        if tile in placed:
            raise _Bad(f"{what}: tile {tile} is both placed and in the stack")
        placed.add(tile)
    for tile, face in s.faces.items():
        if face not in tiles_all.get(tile, ()):
            raise _Bad(f"{what}: tile {tile} cannot show room {face}")
    for kind in (*s.edges.values(), *s.bag):
        if kind not in CONNECTIONS:
            raise _Bad(f"{what}: unknown connection {kind!r}")
    ids = set()
    for m in s.monsters:
        if not (0 < m.id < s.next_monster and m.id not in ids):
            raise _Bad(f"{what}: bad monster id {m.id}")
        ids.add(m.id)
        if m.colour not in COLOURS:
            raise _Bad(f"{what}: monster {m.id} has unknown colour {m.colour!r}")
        if cell_key(m.x, m.y) not in s.grid:
            raise _Bad(f"{what}: monster {m.id} is outside the dungeon")
    # decisions
    for f in s.frames:
        if f.kind not in FRAME_KINDS:
            raise _Bad(f"{what}: unknown decision {f.kind!r}")
        if not 0 <= f.seat < nh:
            raise _Bad(f"{what}: a decision for seat {f.seat}, which does not exist")
    _need(bool(s.frames) or s.stage == Stage.OVER, f"{what}: nobody has anything to decide")
    c = s.combat
    if c is not None:
        _need(0 <= c.active < nh and -1 <= c.helper < nh, f"{what}: the combat's heroes do not exist")
        _need(all(m in ids for m in c.monsters), f"{what}: the combat names a monster that is not there")
        _need(cell_key(c.x, c.y) in s.grid, f"{what}: the combat is outside the dungeon")
        _need(all(0 <= i < nh for i in c.invited), f"{what}: the combat invites a seat that does not exist")
    for w in s.winners:
        if not 0 <= w < nh:
            raise _Bad(f"{what}: winner seat {w} does not exist")
    for key in s.grid:
        x, y = key_cell(key)
        if not (-MAX_COORD <= x <= MAX_COORD and -MAX_COORD <= y <= MAX_COORD):
            raise _Bad(f"{what}: a grid cell far away")


def _smoke(s: State, engine: Engine) -> None:
    """Ask the engine what it will be asked first; a state it chokes on is reported, not crashed on."""
    probe = copy_state(s)
    try:
        who = engine.deciding(probe)
        if who >= 0:
            engine.legal(probe, who)
            for a in engine.legal(probe, who)[:50]:
                engine.explain(probe, a)
        for seat in range(-1, len(probe.heroes)):
            view_for(probe, seat)
    except Exception as exc:
        raise _Bad(f"the engine cannot use the snapshot ({type(exc).__name__}: {exc})") from None


# -- replay -----------------------------------------------------------------------------------------

Step = Callable[[int, Action | None, list[Event]], None]  # (index, action or None for the start, events)
Watch = Callable[[int, Action | None, list[Event], State], None]  # the same, with the state after it


class LogStops(Exception):
    """A log stopped replaying: at action ``index`` (-1 and no action: the game does not start)."""

    def __init__(self, index: int, action: Action | None, cause: Exception) -> None:
        super().__init__(index, action, cause)
        self.index, self.action, self.cause = index, action, cause


def play_log(
    engine: Engine,
    names: list[tuple[str, str]],
    seed: int,
    start: State | None,
    actions: Sequence[Action],
    watch: Watch,
) -> State:
    """Play ``actions`` from ``start`` (None: a new game from ``seed`` for the ``(name, colour)`` seats),
    the one replay loop of saves and timelines: ``watch(-1, None, events, state)`` on the first state
    (the new game's events; none after a start state), then ``watch(i, action, events, state)`` after
    each action; raises :class:`LogStops`. The state is the game's own, changed by the next action."""
    if start is not None:
        s, events = copy_state(start), list[Event]()
    else:
        try:
            s, events = engine.new_game(names, seed)
        except ValueError as exc:
            raise LogStops(-1, None, exc) from None
    watch(-1, None, events, s)
    for i, action in enumerate(actions):
        try:
            events = engine.apply(s, action)
        except Exception as exc:
            raise LogStops(i, action, exc) from None
        watch(i, action, events, s)
    return s


def replay(data: SaveData, engine: Engine, step: Step | None = None) -> State:
    """Play the log again from the seed (or the start state); ``step(i, action, events)`` after each
    (first ``step(-1, None, events)`` with the new game's events, when it starts from the seed)."""
    why = content_mismatch(data, engine)
    if why:
        raise SaveError(why)

    def watch(i: int, action: Action | None, events: list[Event], _: State) -> None:
        if step is not None and (action is not None or data.start is None):
            step(i, action, events)

    seats = [(p.name, p.colour) for p in data.seats]
    try:
        return play_log(engine, seats, data.seed, data.start, data.actions, watch)
    except LogStops as stop:
        if stop.action is None:
            raise SaveError(f"cannot start the game again: {stop.cause}") from None
        exc = stop.cause
        why = f": {exc}" if isinstance(exc, EngineError) else f" fails ({type(exc).__name__}: {exc})"
        raise SaveError(
            f"the log does not replay: action {stop.index + 1} '{_text(stop.action)}'{why}{_older(data)}"
        ) from None


def _text(a: Action) -> str:
    try:
        return str(a)
    except (KeyError, IndexError):
        return f"{a.seat} {a.kind} {a.a} {a.b} {a.c}"


def first_difference(a: Any, b: Any, path: str = "state") -> str | None:
    """Where two states (or parts) differ, as ``path: x != y``; None if equal."""
    if isinstance(a, msgspec.Struct) and isinstance(b, msgspec.Struct):
        for name in a.__struct_fields__:
            d = first_difference(getattr(a, name), getattr(b, name), f"{path}.{name}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path} has {len(a)} entries in the save, {len(b)} by the log"
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return f"{path}[{k}] is {a.get(k)!r} in the save, {b.get(k)!r} by the log"
        return None
    if a != b:
        return f"{path} is {a!r} in the save, {b!r} by the log"
    return None


def verify(data: SaveData, engine: Engine, step: Step | None = None) -> State:
    """Replay the log and raise SaveError unless it reproduces the snapshot exactly."""
    s = replay(data, engine, step)
    if s != data.state:
        diff = first_difference(data.state, s) or "the states differ"
        raise SaveError(f"the log does not reproduce the snapshot: {diff}{_older(data)}")
    return s


def _older(data: SaveData) -> str:
    """A hint when the save was written by another mqtui: its content travels with it, but a change to
    the rules since then can make an old log play out differently (the snapshot itself still loads)."""
    made = data.header.program
    if not made or made == __version__:
        return ""
    return f" (written by mqtui {made}: the rules may have changed since; the game itself still loads)"
