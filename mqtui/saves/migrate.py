"""Older save formats, and the chain of migrations that brings each up to the current one.

Each old format ``N`` has a *reader* (its body bytes -> plain data, decoded through a typed Struct that
is frozen here forever) and a *step* (plain data of format ``N`` -> plain data of format ``N + 1``).
:func:`upgrade` runs the reader of the file's format, then every step up to :data:`FORMAT`, then converts
the result into the current :class:`~mqtui.saves.model.Game`, which validates it.

Adding format 2 later: freeze the format-1 body as ``Game1`` here, write ``_read_1`` and ``_step_1``
(format 1 -> 2), bump ``FORMAT`` (and ``READER``) in :mod:`mqtui.saves.model`, and add a format-2 fixture
with ``scripts/make_fixture_saves.py``. A State change that only *adds a field with a default* needs no
new format: msgspec fills the default when it reads an older file.

Format 0 (never released; kept as the chain's first, tested link) stored the actions in the text
notation and the state with its int-keyed maps as they are in memory, and had no log. Format 1 (mqtui
0.1.0) is format 2 without the game's own copy of its content: :func:`mqtui.saves.codec.decode` looks
that up in the archive of released contents (:mod:`mqtui.saves.defs`) by the header's content version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from mqtui.engine.actions import NotationError, parse
from mqtui.saves.errors import DECODE_ERRORS, SaveError
from mqtui.saves.model import FORMAT, Game, Name, Short, Word

Plain = dict[str, Any]


class Game0(msgspec.Struct, kw_only=True):
    """The body of a format-0 save."""

    seed: int
    players: Annotated[list[tuple[Name, Word, Word]], msgspec.Meta(min_length=2, max_length=6)]
    actions: Annotated[list[Short], msgspec.Meta(max_length=2_000_000)]
    state: dict[str, Any]


def _read_0(body: bytes) -> Plain:
    g = msgspec.msgpack.decode(body, type=Game0)
    return {"seed": g.seed, "players": g.players, "actions": g.actions, "state": g.state}


def _split_state(state: Any) -> Plain:
    if not isinstance(state, dict):
        raise SaveError("damaged game data: the state is not a map")
    state = dict(state)
    maps = {}
    for name in ("grid", "edges"):
        value = state.pop(name, {})
        if not isinstance(value, dict):
            raise SaveError(f"damaged game data: state.{name} must be a map")
        maps[name] = list(value.items())
    return {"state": state, "maps": maps}


def _step_0(d: Plain) -> Plain:
    """Format 0 -> 1: seats as maps, actions as arrays, the state's int-keyed maps as pairs, a log."""
    actions = []
    for i, text in enumerate(d["actions"]):
        try:
            a = parse(text)
        except NotationError as exc:
            raise SaveError(f"damaged game data: action {i + 1}: {exc}") from None
        actions.append([a.seat, a.kind, a.a, a.b, a.c])
    return {
        "seed": d["seed"],
        "seats": [{"name": n, "colour": c, "kind": k} for n, c, k in d["players"]],
        "actions": actions,
        "snapshot": _split_state(d["state"]),
        "log": [],
    }


class Game1(msgspec.Struct, kw_only=True):
    """The body of a format-1 save (mqtui 0.1.0), frozen here: the parts the migration passes on
    unchanged are left undecoded until the current :class:`Game` validates them."""

    seed: int
    seats: Annotated[list[Any], msgspec.Meta(min_length=2, max_length=6)]
    actions: Annotated[list[Any], msgspec.Meta(max_length=2_000_000)]
    snapshot: dict[str, Any]
    start: dict[str, Any] | None = None
    log: Annotated[list[Any], msgspec.Meta(max_length=100_000)] = []


def _read_1(body: bytes) -> Plain:
    return msgspec.structs.asdict(msgspec.msgpack.decode(body, type=Game1))


def _step_1(d: Plain) -> Plain:
    """Format 1 -> 2: the same game, without its content (``decode`` looks it up in the archive)."""
    return {**d, "content": None}


READERS: dict[int, Callable[[bytes], Plain]] = {0: _read_0, 1: _read_1}
STEPS: dict[int, Callable[[Plain], Plain]] = {0: _step_0, 1: _step_1}


def upgrade(fmt: int, body: bytes, target: type[Game] = Game) -> Game:
    """Read a body of format ``fmt`` and migrate it to the current format."""
    if fmt not in READERS:
        raise SaveError(f"save format {fmt} is too old for this program to read")
    try:
        data = READERS[fmt](body)
        for version in range(fmt, FORMAT):
            data = STEPS[version](data)
        return msgspec.convert(data, target)
    except DECODE_ERRORS as exc:
        raise SaveError(f"damaged game data (format {fmt}): {exc}") from None
