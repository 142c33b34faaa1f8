"""Building a scenario's position, and reading its actions with cards named by id.

:func:`build` turns a scenario's setup tables (:class:`~mqtui.engine.scenario_spec.Setup`, or the same
as a dict) into a :class:`~mqtui.engine.state.State`; :func:`resolve_action` reads an action in the
notation where card arguments may be written by card id (``0 equip {alleged-sword}``). The tests build
their positions with the same functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mqtui.engine.actions import SPECS, Action, Event, NotationError, parse
from mqtui.engine.board import DIRS
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable, Deck
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.scenario_spec import (
    HeroSetup,
    RoomSetup,
    ScenarioError,
    Setup,
    decode,
    searched,
    strs,
)
from mqtui.engine.state import (
    HIDDEN,
    Frame,
    FrameKind,
    Hero,
    Monster,
    Room,
    Stage,
    State,
    cell_key,
    edge_key,
)

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo")


# -- building a position ------------------------------------------------------------------------------


def build(engine: Engine, data: Setup | dict[str, Any]) -> tuple[State, list[Event]]:
    """A position from a scenario's setup tables; returns the state and the events of settling it.

    ``data`` has the keys of a scenario file (``heroes`` and ``hero`` are the same list, likewise
    ``rooms``/``room`` and ``monsters``/``monster``). Every card starts in its deck; the position takes
    the copies it names from there.
    """
    setup = data if isinstance(data, Setup) else decode(data, Setup)
    t = engine.cards
    heroes = setup.hero or setup.heroes
    if not 2 <= len(heroes) <= 6:
        raise ScenarioError(f"a scenario needs 2 to 6 heroes, got {len(heroes)}")
    players = [(h.name or NAMES[i], h.colour or COLOURS[i]) for i, h in enumerate(heroes)]
    try:
        s, _ = engine.new_game(players, seed=setup.seed)
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    deck = _Decks(t, s)
    for hero in s.heroes:
        deck.give_back(hero.hand)
        hero.hand = []
    for i, h in enumerate(heroes):
        _setup_hero(t, deck, s.heroes[i], h)
    _setup_rooms(t, s, deck, setup.room or setup.rooms)
    for hero in s.heroes:
        if cell_key(hero.x, hero.y) not in s.grid:
            raise ScenarioError(f"hero {hero.seat} stands at {hero.x},{hero.y}, where no room is placed")
    for i, m in enumerate(setup.monster or setup.monsters):
        x, y = m.at
        if (x, y) == (0, 0) or cell_key(x, y) not in s.grid:
            raise ScenarioError(f"monster {i} at {x},{y}: monsters stand in placed rooms, never the Entrance")
        uid = deck.take(m.card, MONSTER)
        s.monsters.append(
            Monster(id=s.next_monster, card=uid, colour=m.colour or s.heroes[0].colour, x=x, y=y)
        )
        s.next_monster += 1
    decks = setup.decks
    deck.stack(DXM, decks.dxm)
    deck.stack(TREASURE, decks.treasure)
    deck.stack(MONSTER, decks.monster)
    _stack_rooms(t, s, decks.rooms)
    if decks.bag:
        s.bag = list(decks.bag[::-1])
    s.forced = list(setup.dice)
    s.last_colour = setup.last_colour
    return s, _start(engine, s, setup)


def _start(engine: Engine, s: State, setup: Setup) -> list[Event]:
    turn = setup.turn
    if not 0 <= turn < len(s.heroes):
        raise ScenarioError(f"turn: no seat {turn}")
    s.active = turn
    s.round = setup.round
    if setup.phase == "setup":
        s.stage = Stage.SETUP
        s.frames = [Frame(kind=FrameKind.SETUP, seat=h.seat) for h in reversed(s.heroes)]
        return engine.settle(s)
    s.frames = []
    s.stage = Stage.CHARITY if setup.phase == "monsters" else Stage.TURN
    ev: list[Event] = []
    if setup.phase == "turn":
        engine._begin_turn(s, ev, turn)
    elif setup.phase == "act":
        s.frames = [Frame(kind=FrameKind.ACT, seat=turn)]
    return ev + engine.settle(s)


class _Decks:
    """Takes named cards out of the draw piles, and stacks deck tops."""

    def __init__(self, t: CardTable, s: State) -> None:
        self.t = t
        self.s = s

    def pile(self, kind: Deck) -> list[int]:
        return {DXM: self.s.dxm, TREASURE: self.s.treasure, MONSTER: self.s.monster_deck}[kind]

    def give_back(self, uids: list[int]) -> None:
        for uid in uids:
            self.pile(self.t.deck_of[uid]).insert(0, uid)

    def take(self, card_id: str, kind: Deck | None = None) -> int:
        uids = self.t.by_id.get(card_id)
        if not uids:
            raise ScenarioError(f"unknown card id {card_id!r}")
        deck = self.t.deck_of[uids[0]]
        if kind is not None and deck != kind:
            raise ScenarioError(f"{card_id!r} is a {deck} card, not a {kind} card")
        pile = self.pile(deck)
        for uid in uids:
            if uid in pile:
                pile.remove(uid)
                return uid
        raise ScenarioError(f"no copy of {card_id!r} is left to take (the game has {len(uids)})")

    def stack(self, kind: Deck, card_ids: list[str]) -> None:
        """Put these cards on top of a deck, the first to be drawn first."""
        uids = [self.take(c, kind) for c in card_ids]
        self.pile(kind).extend(reversed(uids))

    def take_kind(self, hero: Hero, card_id: str, want: str) -> int:
        """A DxM card of kind ``want`` (race, class, half_breed, super_munchkin) for ``hero``."""
        uid = self.take(card_id, DXM)
        if self.t.dxm[uid].kind != want:
            raise ScenarioError(f"hero {hero.seat}: {card_id!r} is not a {want} card")
        return uid


def _setup_hero(t: CardTable, deck: _Decks, hero: Hero, h: HeroSetup) -> None:
    hero.level = hero.level if h.level is None else h.level
    hero.max_life = hero.max_life if h.max_life is None else h.max_life
    hero.life = (hero.max_life if h.max_life is not None else hero.life) if h.life is None else h.life
    hero.gold = hero.gold if h.gold is None else h.gold
    hero.moves = hero.moves if h.moves is None else h.moves
    hero.lose_moves = hero.lose_moves if h.lose_moves is None else h.lose_moves
    hero.dead = hero.dead if h.dead is None else h.dead
    hero.moved = hero.moved if h.moved is None else h.moved
    hero.explored = hero.explored if h.explored is None else h.explored
    if h.at is not None:
        hero.x, hero.y = h.at
    hero.hand.extend(deck.take(c) for c in strs(h.hand))
    for ids, pile in ((h.equipped, hero.equipped), (h.belt, hero.belt), (h.backpack, hero.backpack)):
        pile.extend(deck.take(c, TREASURE) for c in strs(ids))
    hero.races.extend(deck.take_kind(hero, c, "race") for c in strs(h.race))
    hero.classes.extend(deck.take_kind(hero, c, "class") for c in strs(h.klass))
    if h.half_breed:
        hero.half_breed = deck.take_kind(hero, h.half_breed, "half_breed")
    if h.super_munchkin:
        hero.super_munchkin = deck.take_kind(hero, h.super_munchkin, "super_munchkin")


def _setup_rooms(t: CardTable, s: State, deck: _Decks, rooms: list[RoomSetup]) -> None:
    index = {r.id: i for i, r in enumerate(t.content.rooms)}
    declared: dict[int, tuple[str, str]] = {}  # edge -> (kind, who declared it)
    placed_tiles: set[int] = set()
    cells: list[tuple[int, int]] = []
    for n, r in enumerate(rooms):
        rid = r.id
        if rid not in index:
            raise ScenarioError(f"room {n}: unknown room id {rid!r}")
        x, y = r.at
        if cell_key(x, y) in s.grid:
            raise ScenarioError(f"room {rid!r}: {x},{y} is already taken")
        tile = t.content.rooms[index[rid]].tile
        if tile in placed_tiles:
            raise ScenarioError(f"room {rid!r}: the other face of tile {tile} is already placed")
        placed_tiles.add(tile)
        s.tiles.remove(tile)
        room = Room(room=index[rid], x=x, y=y, searched=searched(r.searched))
        room.piles = [[deck.take(c, TREASURE) for c in strs(pile)] for pile in r.piles]
        s.grid[cell_key(x, y)] = len(s.rooms)
        s.rooms.append(room)
        cells.append((x, y))
        for side, kind in r.connections.items():
            key = edge_key(x, y, DIRS.index(side))
            if key in s.edges and s.edges[key] != kind:
                raise ScenarioError(
                    f"room {rid!r}: {side} faces the Entrance, whose connections are passages"
                )
            if key in declared and declared[key][0] != kind:
                raise ScenarioError(
                    f"room {rid!r}: {side} is {kind}, but {declared[key][1]} says {declared[key][0]}"
                )
            declared[key] = (kind, f"room {rid!r}")
    for key, (connection, _) in declared.items():
        s.edges[key] = connection
    for x, y in cells:
        for d in range(4):
            s.edges.setdefault(edge_key(x, y, d), "wall")


def _stack_rooms(t: CardTable, s: State, room_ids: list[str]) -> None:
    index = {r.id: i for i, r in enumerate(t.content.rooms)}
    tiles = []
    for rid in room_ids:
        if rid not in index:
            raise ScenarioError(f"decks.rooms: unknown room id {rid!r}")
        tile = t.content.rooms[index[rid]].tile
        if tile not in s.tiles:
            raise ScenarioError(f"decks.rooms: tile {tile} of {rid!r} is already placed or stacked")
        s.tiles.remove(tile)
        s.faces[tile] = index[rid]
        tiles.append(tile)
    s.tiles.extend(reversed(tiles))


_REF = re.compile(r"^\{([^{}]+)\}$")


def resolve_action(engine: Engine, s: State, text: str) -> Action:
    """Parse an action; ``{card-id}`` in a card argument names a copy of that card the acting seat holds
    (hand, belt, equipment, backpack, race and class cards; then the active hero's hand, then any hero),
    preferring a copy that makes the action legal; in a monster argument it names the monster on the
    board with that card."""
    options = resolutions(engine, s, text)
    legal = engine.legal(s, options[0].seat)
    return next((a for a in options if a in legal), options[0])


def resolutions(engine: Engine, s: State, text: str) -> list[Action]:
    tokens = text.split()
    if len(tokens) < 2 or tokens[1] not in SPECS or not any(_REF.match(tok) for tok in tokens[2:]):
        return [parse(text)]
    try:
        seat = int(tokens[0])
    except ValueError:
        raise NotationError(f"{text!r}: the seat must be a number") from None
    if not 0 <= seat < len(s.heroes):
        raise ScenarioError(f"{text!r}: there is no seat {seat}")
    spec = [k.rstrip("?") for k in SPECS[tokens[1]]]
    choices: list[list[str]] = []
    for i, tok in enumerate(tokens[2:]):
        m = _REF.match(tok)
        if m is None:
            choices.append([tok])
        elif i < len(spec) and spec[i] == "card":
            uids = _card_uids(engine.cards, s, seat, m.group(1))
            if not uids:
                raise ScenarioError(f"{text!r}: nobody holds a card {m.group(1)!r}")
            choices.append([f"#{u}" for u in uids])
        elif i < len(spec) and spec[i] == "mon":
            ids = [mon.id for mon in s.monsters if engine.cards.card_id(mon.card) == m.group(1)]
            if not ids and s.combat is not None and s.combat.boss:
                ids = [0] if engine.cards.card_id(s.combat.boss_card) == m.group(1) else []
            if not ids:
                raise ScenarioError(f"{text!r}: no monster {m.group(1)!r} on the board")
            choices.append([f"m{mid}" for mid in ids])
        else:
            raise ScenarioError(f"{text!r}: {tok} is not in a card or monster argument")
    out = []
    for combo in _product(choices):
        out.append(parse(" ".join([*tokens[:2], *combo])))
    return out


def _product(choices: list[list[str]]) -> Iterator[list[str]]:
    if not choices:
        yield []
        return
    for first in choices[0]:
        for rest in _product(choices[1:]):
            yield [first, *rest]


def _card_uids(t: CardTable, s: State, seat: int, card_id: str) -> list[int]:
    if card_id not in t.by_id:
        raise ScenarioError(f"unknown card id {card_id!r}")
    wanted = set(t.by_id[card_id])
    order = [s.heroes[seat], s.heroes[s.active], *s.heroes]
    out: list[int] = []
    for i, h in enumerate(order):
        piles = [h.hand] if i == 1 else [h.hand, h.belt, h.equipped, h.backpack, h.races, h.classes]
        extra = [[u] for u in (h.half_breed, h.super_munchkin) if u != HIDDEN and i != 1]
        for pile in [*piles, *extra]:
            out.extend(u for u in pile if u in wanted and u not in out)
    return out
