"""The game-state store: the one place the UI reads state from and sends actions to.

The UI only ever sees :class:`Snapshot` values (immutable, one seat's view plus that seat's legal
actions and log) and calls :meth:`GameStore.send`. :class:`LocalStore` runs the engine in-process and
drives the computer seats; a networked store (``mqtui.net``) implements the same :class:`GameStore`
protocol by sending actions to a server and receiving snapshots, so widgets never know the difference.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from mqtui.bots import Bot, make_bot
from mqtui.engine.actions import Action, Event, IllegalAction
from mqtui.engine.cards import CardTable
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER, State
from mqtui.engine.view import view_for

HUMAN = "human"


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str
    kind: str = HUMAN  # "human", or a bot kind ("random", "normal", "hard"), or "remote"


@dataclass(frozen=True)
class Snapshot:
    """What one seat sees now. Widgets compare slices of it by identity to skip redraws."""

    seat: int  # whose eyes: hands and log are this seat's
    view: State  # redacted for ``seat``
    legal: tuple[Action, ...]  # what ``seat`` may do now (empty if it is someone else's decision)
    deciding: int  # the seat that must decide now (-1: game over)
    log: tuple[str, ...]  # every log line this seat may read, oldest first
    n: int  # state number
    over: bool = False


Listener = Callable[[Snapshot], None]


class GameStore(Protocol):
    """What the UI needs from a store, local or networked."""

    cards: CardTable
    seats: tuple[Seat, ...]

    def snapshot(self) -> Snapshot: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    async def send(self, action: Action) -> None:
        """Apply an action for the viewing seat; raises IllegalAction (with the reason)."""
        ...

    def explain(self, action: Action) -> str: ...


@dataclass
class LocalStore:
    """Runs a game in this process: hot-seat humans plus bots."""

    engine: Engine
    state: State
    seats: tuple[Seat, ...]
    bot_delay: float = 0.4  # seconds between computer actions; 0 in tests
    log: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    _listeners: list[Listener] = field(default_factory=list)
    _bots: dict[int, Bot] = field(default_factory=dict)
    _viewer: int = 0
    _task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        for i, seat in enumerate(self.seats):
            if seat.kind not in (HUMAN, "remote"):
                self._bots[i] = make_bot(seat.kind, seed=self.state.seed * 31 + i)
        self._viewer = self._human_viewer()

    @property
    def cards(self) -> CardTable:
        return self.engine.cards

    @classmethod
    def new(cls, engine: Engine, seats: tuple[Seat, ...], seed: int, bot_delay: float = 0.4) -> LocalStore:
        state, events = engine.new_game([(s.name, s.colour) for s in seats], seed)
        return cls(engine, state, seats, bot_delay=bot_delay, log=list(events))

    # -- reading ------------------------------------------------------------------------------------

    def _human_viewer(self) -> int:
        """The human seat whose eyes the screen shows: the one deciding, else the last one who did."""
        who = self.engine.deciding(self.state)
        if who >= 0 and self.seats[who].kind == HUMAN:
            return who
        if self.seats[self._viewer].kind == HUMAN:
            return self._viewer
        return next((i for i, s in enumerate(self.seats) if s.kind == HUMAN), 0)

    def snapshot(self, seat: int | None = None) -> Snapshot:
        seat = self._viewer if seat is None else seat
        s = self.state
        deciding = self.engine.deciding(s)
        legal = tuple(self.engine.legal(s, seat)) if deciding == seat else ()
        lines = tuple(line for e in self.log if (line := e.for_seat(seat)))
        return Snapshot(seat, view_for(s, seat), legal, deciding, lines, s.n, s.stage == STAGE_OVER)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def explain(self, action: Action) -> str:
        return self.engine.explain(self.state, action)

    # -- acting -------------------------------------------------------------------------------------

    async def send(self, action: Action) -> None:
        if self.seats[action.seat].kind != HUMAN:
            raise IllegalAction(f"seat {action.seat} is not played from this terminal")
        self.apply(action)
        self._kick_bots()

    def apply(self, action: Action) -> list[Event]:
        events = self.engine.apply(self.state, action)
        self.actions.append(action)
        self.log.extend(events)
        self._viewer = self._human_viewer()
        self._publish()
        return events

    def _publish(self) -> None:
        if not self._listeners:
            return
        snap = self.snapshot()
        for listener in list(self._listeners):
            listener(snap)

    def bot_to_move(self) -> int:
        who = self.engine.deciding(self.state)
        return who if who in self._bots else -1

    def step_bot(self) -> bool:
        """Let the deciding bot act once; False if no bot is to move."""
        who = self.bot_to_move()
        if who < 0:
            return False
        legal = self.engine.legal(self.state, who)
        choice = self._bots[who].choose(self.engine, view_for(self.state, who), who, list(legal))
        if choice.why:
            self.log.append(Event("bot", f"{self.seats[who].name}: {choice.why}"))
        self.apply(choice.action)
        return True

    def _kick_bots(self) -> None:
        if self.bot_to_move() >= 0 and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self.run_bots())

    async def run_bots(self) -> None:
        """Play the computer seats until a human must decide or the game ends."""
        while self.bot_to_move() >= 0:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            else:
                await asyncio.sleep(0)
            self.step_bot()

    def start(self) -> None:
        """Call once the event loop runs: lets the bots act if they are first."""
        self._kick_bots()
