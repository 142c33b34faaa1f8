"""The scenario file format (``docs/scenarios.md``) as msgspec Structs.

A scenario file decodes into :class:`ScenarioFile`: the setup tables of a position (:class:`Setup`),
the steps and the expectations. msgspec checks every key, type, colour, side and connection on the way
in (:func:`decode`); :mod:`mqtui.engine.scenario_build` checks what needs the content (card and room
ids), :mod:`mqtui.engine.scenario_check` compares expectations.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar, get_args

import msgspec

from mqtui.engine.decode import DecodeError, convert
from mqtui.engine.defs import VOCABULARIES, Colour, Connection, Dir

Strs = str | list[str]  # one card id, or several
At = tuple[int, int]  # [x, y]
Searched = int | Literal["", "ransacked", "looted"]  # 0/1/2 or in words
Phase = Literal["setup", "turn", "act", "charity", "monsters"]
PHASES: tuple[Phase, ...] = get_args(Phase)
SEARCHED: dict[str, int] = {"": 0, "ransacked": 1, "looted": 2}
T = TypeVar("T")


class ScenarioError(Exception):
    """The scenario itself is wrong (unknown card, bad field...), as opposed to a failed expectation."""


class Table(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of every table of a scenario file: an unknown key is an error."""


def strs(value: Strs) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def searched(value: Searched) -> int:
    return SEARCHED[value] if isinstance(value, str) else value


# -- the setup ------------------------------------------------------------------------------------------


class HeroSetup(Table):
    name: str = ""  # default: Ann, Bob, Cy... by seat
    colour: Colour | Literal[""] = ""  # default: the colours in order, by seat
    level: int | None = None
    life: int | None = None
    max_life: int | None = None  # (life follows it unless given)
    gold: int | None = None
    moves: int | None = None
    lose_moves: int | None = None
    at: At | None = None
    race: Strs = []
    klass: Strs = msgspec.field(default_factory=list, name="class")
    half_breed: str = ""
    super_munchkin: str = ""
    hand: Strs = []
    equipped: Strs = []
    belt: Strs = []
    backpack: Strs = []
    dead: bool | None = None
    moved: bool | None = None
    explored: bool | None = None


class RoomSetup(Table):
    id: str
    at: At
    connections: dict[Dir, Connection] = {}
    searched: Searched = 0
    piles: list[Strs] = []


class MonsterSetup(Table):
    card: str
    at: At
    colour: Colour | Literal[""] = ""  # default: the first hero's


class Decks(Table):
    """Deck tops, first drawn first."""

    dxm: list[str] = []
    treasure: list[str] = []
    monster: list[str] = []
    rooms: list[str] = []
    bag: list[Connection] = []


class Setup(Table):
    """A position. ``hero``/``heroes``, ``room``/``rooms`` and ``monster``/``monsters`` are the same
    lists under two names."""

    seed: int = 1
    hero: list[HeroSetup] = []
    heroes: list[HeroSetup] = []
    room: list[RoomSetup] = []
    rooms: list[RoomSetup] = []
    monster: list[MonsterSetup] = []
    monsters: list[MonsterSetup] = []
    dice: list[int] = []
    decks: Decks = msgspec.field(default_factory=Decks)
    turn: int = 0
    phase: Phase = "act"
    round: int = 1
    last_colour: Colour | Literal[""] = ""


# -- expectations ---------------------------------------------------------------------------------------


class ExpectHero(Table):
    seat: int | None = None  # default: the entry's place in the list
    level: int | None = None
    life: int | None = None
    gold: int | None = None
    moves: int | None = None
    at: At | None = None
    dead: bool | None = None
    race: Strs | None = None
    klass: Strs | None = msgspec.field(default=None, name="class")
    hand: Strs | None = None
    hand_has: Strs = []
    hand_lacks: Strs = []
    hand_count: int | None = None
    equipped: Strs | None = None
    belt: Strs | None = None
    backpack: Strs | None = None
    kills: int | None = None
    deaths: int | None = None
    lose_moves: int | None = None
    moved: bool | None = None
    explored: bool | None = None


class ExpectMonster(Table):
    card: str
    at: At | None = None
    gone: bool = False
    colour: Colour | None = None


class ExpectRoom(Table):
    at: At
    id: str | None = None
    searched: Searched | None = None
    piles: int | list[Strs] | None = None  # a count, or the piles' card ids
    connections: dict[Dir, Connection] = {}


class Expect(Table):
    events: Strs = []  # lines containing these (any case)
    no_events: Strs = []
    legal: Strs = []
    not_legal: Strs = []
    deciding: int | None = None
    frame: str | None = None  # a frame kind, or "none"
    turn: int | None = None
    round: int | None = None
    over: bool | None = None
    winners: list[int] | None = None
    hero: list[ExpectHero] = []
    monster: list[ExpectMonster] = []
    monsters: int | None = None  # how many on the board
    room: list[ExpectRoom] = []
    strength: list[int] | None = None  # [heroes, monsters] without dice
    discarded: Strs = []
    dice_left: list[int] | None = None


class Step(Expect, kw_only=True):
    do: Strs  # one action, or several in a row
    illegal: str | None = None  # the action must be refused with a reason containing this


class ScenarioFile(Setup, kw_only=True):
    title: str
    rules: list[str] = []
    description: str = ""
    step: list[Step] = []
    expect: Expect = msgspec.field(default_factory=Expect)


def decode(raw: Any, typ: type[T], where: str = "") -> T:
    """``raw`` as a ``typ``, or a :class:`ScenarioError` that says where (file) and which field."""
    try:
        return convert(raw, typ, {**VOCABULARIES, PHASES: "phase"})
    except DecodeError as exc:
        raise ScenarioError(f"{where}: {exc}" if where else str(exc)) from None
