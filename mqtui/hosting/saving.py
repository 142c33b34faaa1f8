"""A hosted game as a save file's bytes (:mod:`mqtui.saves` format), encoded incrementally."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from mqtui import saves
from mqtui.engine.actions import Action, Event
from mqtui.engine.defs import Content
from mqtui.engine.state import State


class SeatLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def colour(self) -> str: ...
    @property
    def kind(self) -> str: ...


def seat_recs(seats: Sequence[SeatLike]) -> list[saves.SeatRec]:
    return [saves.SeatRec(name=s.name, colour=s.colour, kind=s.kind) for s in seats]


class SaveEncoder:
    """Encodes one game again and again as it goes: the action log is encoded once per action, the
    first state once, the game's content (``content``; None: none in the file) once.

    ``log_tail`` is how many of the last events the save keeps (for the UI's scrollback).
    """

    def __init__(self, content: Content | None, log_tail: int) -> None:
        self._defs = None if content is None else saves.defs.pack(content)[1]
        self.log_tail = log_tail
        self._actions = saves.ActionBuffer()
        self._start: bytes | None = None
        self._start_of: State | None = None

    def encode(
        self,
        state: State,
        seats: Sequence[SeatLike],
        actions: list[Action],
        log: list[Event],
        packs: Sequence[str] = (),
        start: State | None = None,
    ) -> bytes:
        """The save's bytes; ``start`` is the first state when the game did not begin at its seed."""
        if start is not None and start is not self._start_of:
            self._start, self._start_of = saves.encode_state(start), start
        recs = seat_recs(seats)
        header = saves.make_header(state, recs, len(actions), list(packs))
        return saves.encode_parts(
            header,
            state.seed,
            recs,
            self._actions.sync(actions),
            state,
            log[-self.log_tail :],
            self._start,
            self._defs,
        )
