"""The store's contract: what the UI reads (:class:`Snapshot`) and calls (:class:`GameStore`).

The UI only ever sees :class:`Snapshot` values (immutable, one seat's view plus that seat's legal
actions and log) and calls the :class:`GameStore` methods; the local store
(:class:`mqtui.store.local.LocalStore`) and the networked one (:class:`mqtui.net.netstore.NetStore`)
implement it, so widgets never know the difference. The contract is written down in ``docs/store.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import msgspec

from mqtui.engine.actions import Action, Event, EventKind, Fight
from mqtui.engine.cards import CardTable
from mqtui.engine.state import State
from mqtui.seat_kinds import HUMAN, PEOPLE_KINDS, SeatKind

PEOPLE = PEOPLE_KINDS  # seats played by a person: their actions can be undone


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str
    kind: SeatKind = HUMAN  # a person here or over the network, or a computer player


class LogLine(msgspec.Struct, frozen=True, array_like=True):
    """One log entry as one seat may read it: the engine event's kind and that seat's own text
    (:meth:`Event.for_seat`). The kind is the same for every seat; only the text can be private."""

    kind: EventKind
    text: str
    fight: Fight | None = None  # a fight's result: the fight as data (public, as its text is)


def log_line(e: Event, seat: int) -> LogLine | None:
    """The entry ``seat`` reads for ``e`` (a spectator, seat < 0, the public text); None: nothing."""
    text = e.for_seat(seat)
    return LogLine(e.kind, text, e.fight) if text else None


@dataclass(frozen=True)
class Snapshot:
    """What one seat sees now. Widgets compare slices of it by identity to skip redraws."""

    seat: int  # whose eyes: hands and log are this seat's
    view: State  # redacted for ``seat``
    legal: tuple[Action, ...]  # what ``seat`` may do now (empty if it is someone else's decision)
    deciding: int  # the seat that must decide now (-1: game over)
    log: tuple[LogLine, ...]  # every log entry this seat may read, oldest first
    n: int  # state number (goes back after an undo)
    over: bool = False
    undo: bool = False  # ``seat`` may take back its last action now
    redo: bool = False  # ``seat`` may redo what it just took back


Listener = Callable[[Snapshot], None]


@dataclass(frozen=True)
class Reason:
    """Why a computer player did what it did (shown on request, never in the log)."""

    round: int
    seat: int
    action: Action
    why: str


class GameStore(Protocol):
    """What the UI needs from a store, local or networked (see ``docs/store.md``)."""

    @property
    def cards(self) -> CardTable: ...

    @property
    def seats(self) -> tuple[Seat, ...]: ...

    def snapshot(self) -> Snapshot: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    async def send(self, action: Action) -> None:
        """Apply an action for the viewing seat; raises IllegalAction (with the reason)."""
        ...

    def explain(self, action: Action) -> str: ...

    #: whether this store ever takes an action back (False: a game over the network, where an action
    #: sent is the whole table's); when False the UI offers no undo at all, not a greyed-out one
    takes_back: bool

    def can_undo(self) -> bool:
        """The viewing seat may take back its last action (also ``snapshot().undo``)."""
        ...

    def can_redo(self) -> bool: ...

    async def undo(self) -> None:
        """Take back the viewing seat's last action; raises IllegalAction if it cannot be."""
        ...

    async def redo(self) -> None:
        """Do again the action just taken back; raises IllegalAction if there is none."""
        ...
