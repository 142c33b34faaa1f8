"""Scenarios: a position set up by hand, actions in the notation, and the results they must give.

A scenario is a TOML file (format: ``docs/scenarios.md``). :func:`build` turns its setup tables into a
:class:`~mqtui.engine.state.State`; :func:`resolve_action` reads an action in the notation where card
arguments may be written by card id (``0 equip {alleged-sword}``); :func:`run` plays the steps and
compares what happened with what the file expects, giving a :class:`Result` whose report is a readable
diff. The tests build their positions with the same functions.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqtui.engine.actions import SPECS, Action, Event, IllegalAction, NotationError, parse
from mqtui.engine.board import DIRS, room_at
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.combat import hero_terms, monster_terms
from mqtui.engine.defs import COLOURS, CONNECTIONS
from mqtui.engine.game import Engine
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
PHASES = ("setup", "turn", "act", "charity", "monsters")
SEARCHED = {"": 0, "ransacked": 1, "looted": 2}

TOP_KEYS = {
    "title",
    "rules",
    "description",
    "seed",
    "hero",
    "heroes",
    "room",
    "rooms",
    "monster",
    "monsters",
    "dice",
    "decks",
    "turn",
    "phase",
    "round",
    "last_colour",
    "step",
    "expect",
}
HERO_KEYS = {
    "name",
    "colour",
    "level",
    "life",
    "max_life",
    "gold",
    "moves",
    "at",
    "race",
    "class",
    "half_breed",
    "super_munchkin",
    "hand",
    "equipped",
    "belt",
    "backpack",
    "dead",
    "moved",
    "explored",
    "lose_moves",
}
ROOM_KEYS = {"id", "at", "connections", "searched", "piles"}
MONSTER_KEYS = {"card", "at", "colour"}
DECK_KEYS = {"dxm", "treasure", "monster", "rooms", "bag"}
EXPECT_KEYS = {
    "events",
    "no_events",
    "legal",
    "not_legal",
    "deciding",
    "frame",
    "turn",
    "round",
    "over",
    "winners",
    "hero",
    "monster",
    "monsters",
    "room",
    "strength",
    "discarded",
    "dice_left",
}
STEP_KEYS = {"do", "illegal"} | EXPECT_KEYS
EXPECT_HERO_KEYS = {
    "seat",
    "level",
    "life",
    "gold",
    "moves",
    "at",
    "dead",
    "race",
    "class",
    "hand",
    "hand_has",
    "hand_lacks",
    "hand_count",
    "equipped",
    "belt",
    "backpack",
    "kills",
    "deaths",
    "lose_moves",
    "moved",
    "explored",
}
EXPECT_MONSTER_KEYS = {"card", "at", "gone", "colour"}
EXPECT_ROOM_KEYS = {"at", "id", "searched", "piles", "connections"}


class ScenarioError(Exception):
    """The scenario itself is wrong (unknown card, bad field...), as opposed to a failed expectation."""


# -- building a position ------------------------------------------------------------------------------


def build(engine: Engine, data: dict[str, Any]) -> tuple[State, list[Event]]:
    """A position from a scenario's setup tables; returns the state and the events of settling it.

    ``data`` has the keys of a scenario file (``heroes`` and ``hero`` are the same list, likewise
    ``rooms``/``room`` and ``monsters``/``monster``). Every card starts in its deck; the position takes
    the copies it names from there.
    """
    _keys(data, TOP_KEYS, "scenario")
    t = engine.cards
    heroes: list[dict[str, Any]] = _list(data, "hero", "heroes")
    if not 2 <= len(heroes) <= 6:
        raise ScenarioError(f"a scenario needs 2 to 6 heroes, got {len(heroes)}")
    players = []
    for i, h in enumerate(heroes):
        _keys(h, HERO_KEYS, f"hero {i}")
        players.append((str(h.get("name", NAMES[i])), str(h.get("colour", COLOURS[i]))))
    try:
        s, _ = engine.new_game(players, seed=int(data.get("seed", 1)))
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    deck = _Decks(t, s)
    for hero in s.heroes:
        deck.give_back(hero.hand)
        hero.hand = []
    for i, h in enumerate(heroes):
        _setup_hero(t, s, deck, s.heroes[i], h)
    _setup_rooms(t, s, deck, _list(data, "room", "rooms"))
    for hero in s.heroes:
        if cell_key(hero.x, hero.y) not in s.grid:
            raise ScenarioError(f"hero {hero.seat} stands at {hero.x},{hero.y}, where no room is placed")
    for i, m in enumerate(_list(data, "monster", "monsters")):
        _keys(m, MONSTER_KEYS, f"monster {i}")
        x, y = _at(m, f"monster {i}")
        if (x, y) == (0, 0) or cell_key(x, y) not in s.grid:
            raise ScenarioError(f"monster {i} at {x},{y}: monsters stand in placed rooms, never the Entrance")
        colour = str(m.get("colour", s.heroes[0].colour))
        if colour not in COLOURS:
            raise ScenarioError(f"monster {i}: unknown colour {colour!r}")
        uid = deck.take(str(m["card"]), MONSTER)
        s.monsters.append(Monster(id=s.next_monster, card=uid, colour=colour, x=x, y=y))
        s.next_monster += 1
    decks = data.get("decks", {})
    _keys(decks, DECK_KEYS, "decks")
    for name, kind in (("dxm", DXM), ("treasure", TREASURE), ("monster", MONSTER)):
        deck.stack(kind, [str(c) for c in decks.get(name, [])])
    _stack_rooms(t, s, [str(r) for r in decks.get("rooms", [])])
    bag = [str(b) for b in decks.get("bag", [])]
    for kind in bag:
        if kind not in CONNECTIONS:
            raise ScenarioError(f"decks.bag: unknown connection {kind!r}")
    if bag:
        s.bag = bag[::-1]
    s.forced = [int(d) for d in data.get("dice", [])]
    last = str(data.get("last_colour", ""))
    if last and last not in COLOURS:
        raise ScenarioError(f"last_colour: unknown colour {last!r}")
    s.last_colour = last
    return s, _start(engine, s, data)


def _start(engine: Engine, s: State, data: dict[str, Any]) -> list[Event]:
    turn = int(data.get("turn", 0))
    if not 0 <= turn < len(s.heroes):
        raise ScenarioError(f"turn: no seat {turn}")
    phase = str(data.get("phase", "act"))
    if phase not in PHASES:
        raise ScenarioError(f"phase must be one of {', '.join(PHASES)}, got {phase!r}")
    s.active = turn
    s.round = int(data.get("round", 1))
    if phase == "setup":
        s.stage = Stage.SETUP
        s.frames = [Frame(kind=FrameKind.SETUP, seat=h.seat) for h in reversed(s.heroes)]
        return engine.settle(s)
    s.frames = []
    s.stage = Stage.CHARITY if phase == "monsters" else Stage.TURN
    ev: list[Event] = []
    if phase == "turn":
        engine._begin_turn(s, ev, turn)
    elif phase == "act":
        s.frames = [Frame(kind=FrameKind.ACT, seat=turn)]
    return ev + engine.settle(s)


class _Decks:
    """Takes named cards out of the draw piles, and stacks deck tops."""

    def __init__(self, t: CardTable, s: State) -> None:
        self.t = t
        self.s = s

    def pile(self, kind: str) -> list[int]:
        return {DXM: self.s.dxm, TREASURE: self.s.treasure, MONSTER: self.s.monster_deck}[kind]

    def give_back(self, uids: list[int]) -> None:
        for uid in uids:
            self.pile(self.t.deck_of[uid]).insert(0, uid)

    def take(self, card_id: str, kind: str | None = None) -> int:
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

    def stack(self, kind: str, card_ids: list[str]) -> None:
        """Put these cards on top of a deck, the first to be drawn first."""
        uids = [self.take(c, kind) for c in card_ids]
        self.pile(kind).extend(reversed(uids))


def _setup_hero(t: CardTable, s: State, deck: _Decks, hero: Hero, h: dict[str, Any]) -> None:
    for name in ("level", "life", "max_life", "gold", "moves", "lose_moves"):
        if name in h:
            setattr(hero, name, int(h[name]))
    if "max_life" in h and "life" not in h:
        hero.life = hero.max_life
    for name in ("dead", "moved", "explored"):
        if name in h:
            setattr(hero, name, bool(h[name]))
    if "at" in h:
        hero.x, hero.y = _at(h, f"hero {hero.seat}")
    for key, pile, kind in (
        ("hand", hero.hand, None),
        ("equipped", hero.equipped, TREASURE),
        ("belt", hero.belt, TREASURE),
        ("backpack", hero.backpack, TREASURE),
    ):
        pile.extend(deck.take(str(c), kind) for c in _strs(h.get(key, [])))
    for key, pile, want in (("race", hero.races, "race"), ("class", hero.classes, "class")):
        for c in _strs(h.get(key, [])):
            uid = deck.take(c, DXM)
            if t.dxm[uid].kind != want:
                raise ScenarioError(f"hero {hero.seat}: {c!r} is not a {want} card")
            pile.append(uid)
    for key, want in (("half_breed", "half_breed"), ("super_munchkin", "super_munchkin")):
        if key in h:
            uid = deck.take(str(h[key]), DXM)
            if t.dxm[uid].kind != want:
                raise ScenarioError(f"hero {hero.seat}: {h[key]!r} is not a {want} card")
            setattr(hero, key, uid)


def _setup_rooms(t: CardTable, s: State, deck: _Decks, rooms: list[dict[str, Any]]) -> None:
    index = {r.id: i for i, r in enumerate(t.content.rooms)}
    declared: dict[int, tuple[str, str]] = {}  # edge -> (kind, who declared it)
    placed_tiles: set[int] = set()
    cells: list[tuple[int, int]] = []
    for n, r in enumerate(rooms):
        _keys(r, ROOM_KEYS, f"room {n}")
        rid = str(r.get("id", ""))
        if rid not in index:
            raise ScenarioError(f"room {n}: unknown room id {rid!r}")
        x, y = _at(r, f"room {rid!r}")
        if cell_key(x, y) in s.grid:
            raise ScenarioError(f"room {rid!r}: {x},{y} is already taken")
        tile = t.content.rooms[index[rid]].tile
        if tile in placed_tiles:
            raise ScenarioError(f"room {rid!r}: the other face of tile {tile} is already placed")
        placed_tiles.add(tile)
        s.tiles.remove(tile)
        searched = r.get("searched", 0)
        room = Room(
            room=index[rid], x=x, y=y, searched=SEARCHED[searched] if isinstance(searched, str) else searched
        )
        room.piles = [[deck.take(str(c), TREASURE) for c in _strs(pile)] for pile in r.get("piles", [])]
        s.grid[cell_key(x, y)] = len(s.rooms)
        s.rooms.append(room)
        cells.append((x, y))
        conns = r.get("connections", {})
        for side, kind in conns.items():
            if side not in DIRS or kind not in CONNECTIONS:
                raise ScenarioError(f"room {rid!r}: connections: bad side {side!r} or kind {kind!r}")
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
    for key, (kind, _) in declared.items():
        s.edges[key] = kind
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


def _list(data: dict[str, Any], one: str, many: str) -> list[dict[str, Any]]:
    items = data.get(one, data.get(many, []))
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ScenarioError(f"{one}: expected a list of tables ([[{one}]])")
    return items


def _keys(table: Any, allowed: set[str], where: str) -> None:
    if not isinstance(table, dict):
        raise ScenarioError(f"{where}: expected a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ScenarioError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")


def _strs(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _at(table: dict[str, Any], where: str) -> tuple[int, int]:
    at = table.get("at")
    if not isinstance(at, list) or len(at) != 2:
        raise ScenarioError(f"{where}: 'at' must be [x, y]")
    return int(at[0]), int(at[1])


# -- actions by card id ---------------------------------------------------------------------------------

_REF = re.compile(r"^\{([^{}]+)\}$")


def resolve_action(engine: Engine, s: State, text: str) -> Action:
    """Parse an action; ``{card-id}`` in a card argument names a copy of that card the acting seat holds
    (hand, belt, equipment, backpack, race and class cards; then the active hero's hand, then any hero),
    preferring a copy that makes the action legal; in a monster argument it names the monster on the
    board with that card."""
    options = _resolutions(engine, s, text)
    legal = engine.legal(s, options[0].seat)
    return next((a for a in options if a in legal), options[0])


def _resolutions(engine: Engine, s: State, text: str) -> list[Action]:
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


# -- expectations -------------------------------------------------------------------------------------


def check(engine: Engine, s: State, expect: dict[str, Any], events: list[Event]) -> list[str]:
    """Compare a state and the events that led to it with expectations; one line per difference."""
    _keys(expect, EXPECT_KEYS | {"do", "illegal"}, "expect")
    t = engine.cards
    out: list[str] = []

    def same(label: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{label}: expected {want!r}, got {got!r}")

    lines = [text for e in events for text in (e.text, e.private) if text]
    for frag in _strs(expect.get("events", [])):
        if not any(frag.lower() in line.lower() for line in lines):
            out.append(f"events: expected a line containing {frag!r}; there was none")
    for frag in _strs(expect.get("no_events", [])):
        hits = [line for line in lines if frag.lower() in line.lower()]
        if hits:
            out.append(f"events: expected no line containing {frag!r}; got {hits[0]!r}")
    for key, want_legal in (("legal", True), ("not_legal", False)):
        for text in _strs(expect.get(key, [])):
            try:
                options = _resolutions(engine, s, text)
            except (NotationError, ScenarioError) as exc:
                if want_legal:
                    out.append(f"legal: {text!r} cannot be read: {exc}")
                continue
            legal = engine.legal(s, options[0].seat)
            if any(a in legal for a in options) != want_legal:
                shown = ", ".join(str(a) for a in legal) or "none"
                verdict = "legal" if want_legal else "not legal"
                out.append(
                    f"{key}: expected {text!r} to be {verdict}; legal for seat {options[0].seat}: {shown}"
                )
    if "deciding" in expect:
        same("deciding seat", expect["deciding"], engine.deciding(s))
    if "frame" in expect:
        same("top frame", expect["frame"], str(s.frames[-1].kind) if s.frames else "none")
    if "turn" in expect:
        same("whose turn", expect["turn"], s.active)
    if "round" in expect:
        same("round", expect["round"], s.round)
    if "over" in expect:
        same("game over", expect["over"], s.stage == Stage.OVER)
    if "winners" in expect:
        same("winners", expect["winners"], s.winners)
    if "dice_left" in expect:
        same("forced dice left", expect["dice_left"], s.forced)
    if "monsters" in expect:
        same("monsters on the board", expect["monsters"], len(s.monsters))
    if "strength" in expect:
        if s.combat is None:
            out.append("strength: expected a combat, there is none")
        else:
            got = [
                sum(v for _, v in hero_terms(t, s, s.combat)),
                sum(v for _, v in monster_terms(t, s, s.combat)),
            ]
            same("strength (heroes, monsters; without dice)", list(expect["strength"]), got)
    if "discarded" in expect:
        pile = Counter(t.card_id(u) for u in [*s.dxm_discard, *s.treasure_discard, *s.monster_discard])
        for c in _strs(expect["discarded"]):
            if pile[c] < 1:
                out.append(f"discarded: expected {c!r} in a discard pile; it is not")
            pile[c] -= 1
    for i, h in enumerate(_list(expect, "hero", "heroes")):
        out += _check_hero(t, s, h, i)
    for i, m in enumerate(_list(expect, "monster", "monsters_at")):
        out += _check_monster(t, s, m, i)
    for i, r in enumerate(_list(expect, "room", "rooms")):
        out += _check_room(t, s, r, i)
    return out


def _ids(t: CardTable, uids: list[int]) -> list[str]:
    return sorted(t.card_id(u) for u in uids)


def _check_hero(t: CardTable, s: State, want: dict[str, Any], i: int) -> list[str]:
    _keys(want, EXPECT_HERO_KEYS, f"expected hero {i}")
    seat = int(want.get("seat", i))
    if not 0 <= seat < len(s.heroes):
        raise ScenarioError(f"expected hero: no seat {seat}")
    h = s.heroes[seat]
    out: list[str] = []
    label = f"hero {seat} ({h.name})"
    got: dict[str, Callable[[], Any]] = {
        "level": lambda: h.level,
        "life": lambda: h.life,
        "gold": lambda: h.gold,
        "moves": lambda: h.moves,
        "at": lambda: [h.x, h.y],
        "dead": lambda: h.dead,
        "kills": lambda: h.kills,
        "deaths": lambda: h.deaths,
        "lose_moves": lambda: h.lose_moves,
        "moved": lambda: h.moved,
        "explored": lambda: h.explored,
        "race": lambda: sorted(t.dxm[u].race for u in h.races),
        "class": lambda: sorted(t.dxm[u].klass for u in h.classes),
        "hand": lambda: _ids(t, h.hand),
        "equipped": lambda: _ids(t, h.equipped),
        "belt": lambda: _ids(t, h.belt),
        "backpack": lambda: _ids(t, h.backpack),
        "hand_count": lambda: len(h.hand),
    }
    for key, value in want.items():
        if key in got:
            want_value: Any = value
            if key in ("race", "class", "hand", "equipped", "belt", "backpack"):
                want_value = sorted(_strs(value))
            actual = got[key]()
            if want_value != actual:
                out.append(f"{label} {key}: expected {want_value!r}, got {actual!r}")
    hand = Counter(_ids(t, h.hand))
    for c in _strs(want.get("hand_has", [])):
        if hand[c] < 1:
            out.append(f"{label} hand: expected {c!r} in it; hand is {sorted(hand.elements())!r}")
        hand[c] -= 1
    for c in _strs(want.get("hand_lacks", [])):
        if hand[c] > 0:
            out.append(f"{label} hand: expected no {c!r} in it; hand is {sorted(hand.elements())!r}")
    return out


def _check_monster(t: CardTable, s: State, want: dict[str, Any], i: int) -> list[str]:
    _keys(want, EXPECT_MONSTER_KEYS, f"expected monster {i}")
    card = str(want["card"])
    found = [m for m in s.monsters if t.card_id(m.card) == card]
    if want.get("gone"):
        if found:
            return [f"monster {card}: expected gone, it is at {[found[0].x, found[0].y]}"]
        return []
    if not found:
        return [f"monster {card}: expected on the board, it is gone"]
    out = []
    if "at" in want and not any([m.x, m.y] == list(want["at"]) for m in found):
        out.append(f"monster {card} at: expected {list(want['at'])!r}, got {[[m.x, m.y] for m in found]!r}")
    if "colour" in want and not any(m.colour == want["colour"] for m in found):
        out.append(f"monster {card} colour: expected {want['colour']!r}, got {[m.colour for m in found]!r}")
    return out


def _check_room(t: CardTable, s: State, want: dict[str, Any], i: int) -> list[str]:
    _keys(want, EXPECT_ROOM_KEYS, f"expected room {i}")
    x, y = _at(want, f"expected room {i}")
    room = room_at(s, x, y)
    if room is None:
        return [f"room at {[x, y]}: expected a placed room, the space is unexplored"]
    out = []
    label = f"room at {[x, y]}"
    if "id" in want and t.room(room.room).id != want["id"]:
        out.append(f"{label} id: expected {want['id']!r}, got {t.room(room.room).id!r}")
    if "searched" in want:
        searched = want["searched"]
        value = SEARCHED[searched] if isinstance(searched, str) else searched
        if room.searched != value:
            out.append(f"{label} searched: expected {value}, got {room.searched}")
    if "piles" in want:
        piles = want["piles"]
        got_piles = [_ids(t, p) for p in room.piles]
        if isinstance(piles, int):
            if len(got_piles) != piles:
                out.append(f"{label} piles: expected {piles}, got {len(got_piles)}: {got_piles!r}")
        elif sorted(sorted(_strs(p)) for p in piles) != sorted(got_piles):
            out.append(f"{label} piles: expected {piles!r}, got {got_piles!r}")
    for side, kind in want.get("connections", {}).items():
        got = s.edges.get(edge_key(x, y, DIRS.index(side)))
        if got != kind:
            out.append(f"{label} connection {side}: expected {kind!r}, got {got!r}")
    return out


# -- files and runs -----------------------------------------------------------------------------------


@dataclass
class Scenario:
    """A loaded scenario file."""

    path: str
    title: str
    rules: list[str]
    data: dict[str, Any]
    steps: list[dict[str, Any]]
    expect: dict[str, Any]


@dataclass
class Result:
    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # what happened: actions and event texts

    @property
    def ok(self) -> bool:
        return not self.failures

    def report(self, verbose: bool = False) -> str:
        head = f"{'ok  ' if self.ok else 'FAIL'} {self.scenario.path}: {self.scenario.title}"
        lines = [head]
        lines += [f"    {line}" for line in self.failures]
        if self.failures or verbose:
            lines.append("    what happened:")
            lines += [f"      | {line}" for line in self.log[-40:]]
        return "\n".join(lines)


def load(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{p}: {exc}") from None
    return from_dict(data, str(p))


def from_dict(data: dict[str, Any], path: str = "<scenario>") -> Scenario:
    if "title" not in data:
        raise ScenarioError(f"{path}: a scenario needs a title")
    steps = data.get("step", [])
    if not isinstance(steps, list):
        raise ScenarioError(f"{path}: step: expected a list of tables ([[step]])")
    for i, st in enumerate(steps):
        _keys(st, STEP_KEYS, f"step {i + 1}")
        if "do" not in st:
            raise ScenarioError(f"{path}: step {i + 1} has no 'do'")
        if "illegal" in st and not isinstance(st["do"], str):
            raise ScenarioError(f"{path}: step {i + 1}: 'illegal' needs a single action in 'do'")
    expect = data.get("expect", {})
    _keys(expect, EXPECT_KEYS, f"{path}: expect")
    setup = {k: v for k, v in data.items() if k not in ("step", "expect", "title", "rules", "description")}
    return Scenario(
        path=path,
        title=str(data["title"]),
        rules=[str(r) for r in data.get("rules", [])],
        data=setup,
        steps=steps,
        expect=expect,
    )


def run(engine: Engine, sc: Scenario) -> Result:
    """Play a scenario and compare; a broken scenario file is reported as a failure too."""
    result = Result(sc)
    try:
        _run(engine, sc, result)
    except (ScenarioError, NotationError) as exc:
        result.failures.append(f"scenario error: {exc}")
    except Exception as exc:  # an engine crash while setting up is a failure too, in its own words
        result.failures.append(f"the engine raised {type(exc).__name__}: {exc}")
    return result


def _run(engine: Engine, sc: Scenario, result: Result) -> None:
    s, ev = build(engine, sc.data)
    everything = list(ev)
    result.log += [f"(setup){line}" for line in _log_lines(ev)]
    for n, step in enumerate(sc.steps, 1):
        texts = _strs(step["do"])
        step_events: list[Event] = []
        for text in texts:
            action = resolve_action(engine, s, text)
            where = f"step {n} `{text}`" + (f" ({action})" if str(action) != text else "")
            result.log.append(f"> {text}")
            try:
                got = engine.apply(s, action)
            except IllegalAction as exc:
                if "illegal" in step:
                    if str(step["illegal"]).lower() not in str(exc).lower():
                        result.failures.append(
                            f"{where}: expected IllegalAction containing {step['illegal']!r}, got {str(exc)!r}"
                        )
                        return
                    result.log.append(f"  illegal, as expected: {exc}")
                    continue
                result.failures.append(f"{where}: illegal: {exc}")
                return
            except Exception as exc:  # an engine crash is a failure with its own words
                result.failures.append(f"{where}: the engine raised {type(exc).__name__}: {exc}")
                return
            if "illegal" in step:
                result.failures.append(
                    f"{where}: expected IllegalAction containing {step['illegal']!r}; it was legal"
                )
                return
            result.log += _log_lines(got)
            step_events += got
        everything += step_events
        diffs = check(engine, s, {k: v for k, v in step.items() if k not in ("do", "illegal")}, step_events)
        if diffs:
            result.failures += [f"after step {n} `{' ; '.join(texts)}`: {d}" for d in diffs]
            return
    result.failures += [f"at the end: {d}" for d in check(engine, s, sc.expect, everything)]


def _log_lines(events: list[Event]) -> list[str]:
    out = []
    for e in events:
        if e.text:
            out.append(f"  {e.text}")
        if e.private:
            out.append(f"    (seat {e.seat} only) {e.private}")
    return out


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """The scenario files named: files as they are, folders as their ``*.toml`` files, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return out
