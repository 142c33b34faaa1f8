"""The game state: one value that holds the whole game.

Plain mutable msgspec Structs, so that a state encodes to msgpack directly and copies cheaply.
Cards are physical card numbers (``uid``) into the engine's card table; monsters on the board have
their own ids. A player's view (:func:`mqtui.engine.view.view_for`) has the same shape with the
hidden parts replaced by ``HIDDEN``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Literal, cast

import msgspec
import msgspec.inspect

HIDDEN = -1  # a card the viewer may not see


class FrameKind(StrEnum):
    """Who must decide what, now: the kind of a frame. (Saved as the value.)"""

    SETUP = "setup"  # build your hero before the first turn
    ACT = "act"  # the active player's action phase
    WINDOW = "window"  # combat interference goes round the table (stage "pre" before dice, "post" after)
    INVITE = "invite"  # the invited player accepts or declines helping
    REWARD = "reward"  # the chooser hands the helper the agreed Treasure cards
    LOSE_ITEM = "lose_item"  # Bad Stuff: the victim chooses an item to lose
    FLEE = "flee"  # a loser chooses where to run
    CHARITY = "charity"  # the active player gives away or discards cards over the hand limit
    # what a lost fight or a curse still does to a hero, in order (the engine carries it out; it waits
    # below a choice that one of its effects asks, so that the choice is made before what follows)
    BAD_STUFF = "bad_stuff"


class Stage(StrEnum):
    """Where the game is between frames. A distinct type from :class:`FrameKind` although "setup" and
    "charity" are words of both: mypy refuses to compare or assign one to the other. (Saved as the value.)"""

    SETUP = "setup"  # before the first turn
    TURN = "turn"
    CHARITY = "charity"  # the turn's end, when the hand limit applies
    OVER = "over"


WindowStage = Literal["", "pre", "post"]  # a combat window: before the dice, after them ("" elsewhere)

# The frame kinds and stages by their old names (the bots and the UI use these), in declaration order.
SETUP, ACT, WINDOW, INVITE, REWARD, LOSE_ITEM, FLEE, CHARITY, BAD_STUFF = FrameKind
STAGE_SETUP, STAGE_TURN, STAGE_CHARITY, STAGE_OVER = Stage


class Hero(msgspec.Struct, kw_only=True):
    seat: int
    name: str
    colour: str
    level: int = 1
    life: int = 4
    max_life: int = 4
    moves: int = 3
    moved: bool = False  # spent a Move this turn (ends the spend-all option)
    explored: bool = False  # explored this turn (ends movement)
    gold: int = 300
    races: list[int] = []  # race cards in play
    classes: list[int] = []  # class cards in play
    half_breed: int = HIDDEN  # the two-races card (Mixed Heritage) in play, if any
    super_munchkin: int = HIDDEN
    hand: list[int] = []
    equipped: list[int] = []  # items in use
    belt: list[int] = []  # one-shot items ready to use
    backpack: list[int] = []
    x: int = 0
    y: int = 0
    dead: bool = False  # off the board until the start of its next turn
    lose_moves: int = 0  # Moves lost at the start of the next turn
    kills: int = 0
    deaths: int = 0


class Room(msgspec.Struct, kw_only=True):
    room: int  # index into content.rooms; -1 is the Entrance
    x: int
    y: int
    searched: int = 0  # 1: Ransacked, 2: Looted out
    piles: list[list[int]] = []  # dropped Treasure cards, pile by pile


class Monster(msgspec.Struct, kw_only=True):
    id: int
    card: int
    colour: str  # the colour base it stands on: its target
    x: int
    y: int


class Mod(msgspec.Struct, array_like=True):
    """One term of a combat sum added by a card: who played it, what, for which side."""

    label: str
    amount: int
    side: int  # 0 heroes, 1 monsters
    monster: int = -1  # enhancers: the monster it is on


class Combat(msgspec.Struct, kw_only=True):
    x: int
    y: int
    active: int
    monsters: list[int]
    boss: bool = False
    boss_card: int = HIDDEN
    helper: int = -1
    terms_treasures: int = 0
    terms_first: bool = False
    terms_gold: int = 0
    invited: list[int] = []
    mods: list[Mod] = []
    extra_treasures: int = 0
    hero_die: int = 0
    monster_dice: list[int] = []
    die_mods: list[Mod] = []  # dice cards: side 0 hero die, 1 monster die


class Frame(msgspec.Struct, kw_only=True):
    kind: FrameKind
    seat: int
    stage: WindowStage = ""
    passes: int = 0
    n: int = 0
    target: int = -1
    first: bool = False
    options: list[int] = []


class State(msgspec.Struct, kw_only=True):
    content: str  # content version
    seed: int
    rng: int
    forced: list[int] = []  # queued die results (scenarios, tests)
    n: int = 0  # state number: increases with every accepted action
    round: int = 1
    active: int = 0
    stage: Stage = Stage.SETUP
    heroes: list[Hero]
    rooms: list[Room] = []
    grid: dict[int, int] = {}  # cell key -> index into rooms
    edges: dict[int, str] = {}  # edge key -> connection kind
    monsters: list[Monster] = []  # in the order they entered the dungeon
    next_monster: int = 1
    dxm: list[int] = []  # draw piles, top at the end
    treasure: list[int] = []
    monster_deck: list[int] = []
    tiles: list[int] = []  # the room stack (tile numbers), top at the end
    faces: dict[int, int] = {}  # tile -> the face (room index) it will show, where already decided
    bag: list[str] = []  # the connection bag
    dxm_discard: list[int] = []
    treasure_discard: list[int] = []
    monster_discard: list[int] = []
    frames: list[Frame] = []
    combat: Combat | None = None
    last_colour: str = ""
    winners: list[int] = []
    actions: int = 0  # decisions taken


def cell_key(x: int, y: int) -> int:
    return (x + 512) * 1024 + (y + 512)


def key_cell(key: int) -> tuple[int, int]:
    return key // 1024 - 512, key % 1024 - 512


DX = (0, 1, 0, -1)  # N E S W, y grows downward (south)
DY = (-1, 0, 1, 0)
KEY_STEP = (-1, 1024, 1, -1024)  # what one step N E S W adds to a cell key


# Offsets of the edge key on each side (N E S W) from twice the cell key: see edge_key.
_EDGE_OFFSET = (-1, 0, 1, -2048)


def edge_key(x: int, y: int, d: int) -> int:
    """The edge on side ``d`` of cell (x, y); the same key from both cells it separates.

    East of (x, y) is ``2*cell(x, y)``, which is also west of (x+1, y); south is ``2*cell(x, y) + 1``,
    which is also north of (x, y+1)."""
    return ((x + 512) * 1024 + y + 512) * 2 + _EDGE_OFFSET[d]


def key_edge(key: int, d: int) -> int:
    """The edge on side ``d`` of the cell with key ``key``: ``edge_key`` for code that works on keys."""
    return key * 2 + _EDGE_OFFSET[d]


# -- copying ----------------------------------------------------------------------------------------
#
# A deep copy that shares nothing mutable with the original: each Struct copied shallow (msgspec's own
# ``__copy__``), then every list, dict and Struct in it copied in turn; ints, strings and enum members
# are immutable and shared. The copy functions are generated from the Structs' field types (as
# dataclasses generates ``__init__``), so a new field is copied with the rest; a field of a type not
# handled here fails at import. Equal to a msgpack round trip (the encoding of the copy is the same
# bytes), in about half the time: views, rollback copies and hard-bot samples are made all the time.

_IMMUTABLE = (
    msgspec.inspect.IntType,
    msgspec.inspect.StrType,
    msgspec.inspect.BoolType,
    msgspec.inspect.FloatType,
    msgspec.inspect.EnumType,
    msgspec.inspect.LiteralType,
    msgspec.inspect.NoneType,
)


def _copy_expr(t: msgspec.inspect.Type, x: str, depth: int, need: dict[str, type]) -> str | None:
    """A Python expression that copies the value ``x`` of type ``t``; None if it needs no copy."""
    if isinstance(t, _IMMUTABLE):
        return None
    v = f"v{depth}"
    if isinstance(t, msgspec.inspect.ListType):
        item = _copy_expr(t.item_type, v, depth + 1, need)
        return f"{x}[:]" if item is None else f"[{item} for {v} in {x}]"
    if isinstance(t, msgspec.inspect.DictType) and isinstance(t.key_type, _IMMUTABLE):
        value = _copy_expr(t.value_type, v, depth + 1, need)
        return f"{x}.copy()" if value is None else f"{{k{depth}: {value} for k{depth}, {v} in {x}.items()}}"
    if isinstance(t, msgspec.inspect.StructType):
        need[t.cls.__name__] = t.cls
        return f"_copy_{t.cls.__name__}({x})"
    if isinstance(t, msgspec.inspect.UnionType):
        others = [u for u in t.types if not isinstance(u, msgspec.inspect.NoneType)]
        if len(others) == 1 and len(t.types) == 2:
            inner = _copy_expr(others[0], x, depth, need)
            return None if inner is None else f"None if {x} is None else {inner}"
        if all(isinstance(u, _IMMUTABLE) for u in t.types):
            return None
    raise TypeError(f"no copy for a field of type {t}")


def _copier(root: type[msgspec.Struct]) -> dict[str, object]:
    """The copy functions of ``root`` and of every Struct in it, by name (``_copy_<Name>``)."""
    lines: list[str] = []
    todo, done = {root.__name__: root}, set[str]()
    while todo:
        name, cls = todo.popitem()
        done.add(name)
        need: dict[str, type] = {}
        lines += [f"def _copy_{name}(s):", "    c = s.__copy__()"]
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType)
        for f in info.fields:
            expr = _copy_expr(f.type, f"s.{f.name}", 0, need)
            if expr is not None:
                lines.append(f"    c.{f.name} = {expr}")
        lines.append("    return c")
        todo.update({n: c for n, c in need.items() if n not in done})
    scope: dict[str, object] = {}
    exec("\n".join(lines), scope)
    return scope


copy_state = cast(Callable[[State], State], _copier(State)["_copy_State"])
copy_state.__doc__ = """A deep copy of a state (or a view): nothing mutable is shared with the original."""
