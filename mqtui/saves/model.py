"""The shapes of a save file (format 2), as msgspec Structs: the header and the game.

A save file is three standard msgpack values one after the other (see ``docs/store.md``):

1. the *prefix*, a fixed 32-byte array ``["mqtui-save", format, header_len, body_len, crc32]``;
2. the *header*, a small map (:class:`Header`): program and content versions and a summary for listings;
3. the *body*, a map (:class:`Game`): seed, seats, the action log, the state snapshot, the log's tail,
   and the game's own copy of its content (:class:`Defs`).

Every map has string keys. Cards are physical card numbers (uids) and rooms are content indexes, exactly
as in :class:`~mqtui.engine.state.State`; they mean something in the content the save carries (the
header's content version names it), which is the content the game continues with. The state's
two int-keyed maps (``grid`` and ``edges``) are stored beside it as lists of pairs (:class:`StateRec`),
so that the file holds no map with non-string keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

import msgspec

from mqtui import paths
from mqtui.engine.actions import Action, Event
from mqtui.engine.state import State

FORMAT = 2  # the save format this program writes
OLDEST_FORMAT = 0  # the oldest format it still reads (through migrations)
READER = "0.2.0"  # the first mqtui version that reads FORMAT: written into every header

MAGIC = b"mqtui-save"
PREFIX_SIZE = 32
MAX_FILE = 8 * 1024 * 1024  # no save is ever this big; anything larger is refused unread
MAX_HEADER = 64 * 1024
SUFFIX = paths.SAVE_SUFFIX

Name = Annotated[str, msgspec.Meta(max_length=64)]
Word = Annotated[str, msgspec.Meta(max_length=32)]
Short = Annotated[str, msgspec.Meta(max_length=256)]


class PlayerInfo(msgspec.Struct, kw_only=True):
    """One player as the save listing shows it."""

    name: Name
    colour: Word
    kind: Word = "human"
    level: int = 1


class Summary(msgspec.Struct, kw_only=True):
    """Enough to list a save without reading its body."""

    players: Annotated[list[PlayerInfo], msgspec.Meta(max_length=6)] = []
    round: int = 1
    turn: Name = ""  # whose turn it is ("" before the first turn)
    deciding: Name = ""  # who must decide now ("" when the game is over)
    stage: Word = ""
    winners: Annotated[list[Name], msgspec.Meta(max_length=6)] = []
    actions: int = 0


class Header(msgspec.Struct, kw_only=True):
    """The second value of the file. Fields added later get defaults, so that older files still read."""

    program: Short  # the mqtui version that wrote the file
    reader: Short  # the oldest mqtui version that reads the file's format
    content: Short  # the content version its card and room numbers refer to
    packs: Annotated[list[Short], msgspec.Meta(max_length=32)] = []  # content packs on top of the base
    saved: Short = ""  # UTC time, ISO 8601
    summary: Summary = msgspec.field(default_factory=Summary)


class SeatRec(msgspec.Struct, kw_only=True):
    name: Name
    colour: Word
    kind: Word = "human"


class StateRec(msgspec.Struct, kw_only=True):
    """A state, with its int-keyed maps (``grid``, ``edges``, ...) moved out into lists of pairs under
    ``maps`` (the ``state``'s own copies are empty), so that the file has only string-keyed maps."""

    state: State
    maps: dict[Word, list[tuple[int, Any]]] = {}


def _int_keyed_maps() -> tuple[tuple[str, Any], ...]:
    """The State fields that are maps with int keys, with their types (found, not listed, so that a new
    one added to the engine is handled without touching the save code)."""
    info = msgspec.inspect.type_info(State)
    assert isinstance(info, msgspec.inspect.StructType)
    return tuple(
        (f.name, dict[int, _py(f.type.value_type)])  # type: ignore[misc]
        for f in info.fields
        if isinstance(f.type, msgspec.inspect.DictType)
        and isinstance(f.type.key_type, msgspec.inspect.IntType)
    )


def _py(t: msgspec.inspect.Type) -> Any:
    simple = {
        msgspec.inspect.IntType: int,
        msgspec.inspect.StrType: str,
        msgspec.inspect.BoolType: bool,
        msgspec.inspect.FloatType: float,
    }
    for k, v in simple.items():
        if isinstance(t, k):
            return v
    if isinstance(t, msgspec.inspect.StructType):
        return t.cls
    return Any


INT_MAPS = _int_keyed_maps()


class Defs(msgspec.Struct, kw_only=True):
    """The content a game was made with (base and packs merged), carried in its save: ``data`` is the
    :class:`~mqtui.engine.defs.Content` as msgpack, zlib-compressed (see :mod:`mqtui.saves.defs`)."""

    format: int = 1  # the shape of ``data``: bumped (with a conversion) if the definitions change shape
    version: Short  # the content version (the same as the header's)
    data: Annotated[bytes, msgspec.Meta(max_length=4 * 1024 * 1024)]


class Game(msgspec.Struct, kw_only=True):
    """The body of a format-2 save (as decoded)."""

    seed: int
    seats: Annotated[list[SeatRec], msgspec.Meta(min_length=2, max_length=6)]
    actions: Annotated[list[Action], msgspec.Meta(max_length=2_000_000)]
    snapshot: StateRec
    start: StateRec | None = None  # the first state, when the game did not start from the seed
    log: Annotated[list[Event], msgspec.Meta(max_length=100_000)] = []
    content: Defs | None = None  # None only in a migrated save whose content is not archived


class GameOut(msgspec.Struct, kw_only=True):
    """The body as written: the same map, with pre-encoded parts spliced in as raw msgpack."""

    seed: int
    seats: list[SeatRec]
    actions: msgspec.Raw
    snapshot: msgspec.Raw
    start: msgspec.Raw | None = None
    log: msgspec.Raw
    content: msgspec.Raw | None = None


@dataclass
class SaveData:
    """A save in memory: a real State (maps restored) and everything needed to resume or replay."""

    header: Header
    seed: int
    seats: list[SeatRec]
    actions: list[Action]
    state: State
    start: State | None = None  # None: the game starts from ``Engine.new_game(seats, seed)``
    log: list[Event] = field(default_factory=list)
    format: int = FORMAT  # the format the file was read from
    defs: Defs | None = None  # the content the game was made with (None: an old save, content unknown)


def summarise(state: State, seats: list[SeatRec], actions: int) -> Summary:
    """The listing summary of a state."""
    from mqtui.engine.legal import deciding
    from mqtui.engine.state import STAGE_SETUP

    heroes = state.heroes
    who = deciding(state)
    return Summary(
        players=[
            PlayerInfo(name=h.name, colour=h.colour, kind=seat.kind, level=h.level)
            for h, seat in zip(heroes, seats, strict=False)
        ],
        round=state.round,
        turn=""
        if state.stage == STAGE_SETUP or not 0 <= state.active < len(heroes)
        else heroes[state.active].name,
        deciding=heroes[who].name if 0 <= who < len(heroes) else "",
        stage=state.stage,
        winners=[heroes[w].name for w in state.winners if 0 <= w < len(heroes)],
        actions=actions,
    )


def describe(summary: Summary) -> str:
    """One line: players, round, whose turn."""
    players = ", ".join(
        f"{p.name} ({p.colour}{'' if p.kind == 'human' else ', ' + p.kind}) L{p.level}"
        for p in summary.players
    )
    n = len(summary.players)
    if summary.stage == "over":
        won = ", ".join(summary.winners) or "nobody"
        where = f"game over after round {summary.round}, won by {won}"
    elif not summary.turn:
        where = "setting up"
    else:
        where = f"round {summary.round}, {summary.turn}'s turn"
        if summary.deciding and summary.deciding != summary.turn:
            where += f" ({summary.deciding} to decide)"
    return f"{n} players: {players}; {where}; {summary.actions} actions"
