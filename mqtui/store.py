"""The game-state store: the one place the UI reads state from and sends actions to.

The UI only ever sees :class:`Snapshot` values (immutable, one seat's view plus that seat's legal
actions and log) and calls the :class:`GameStore` methods. :class:`LocalStore` runs the engine
in-process, drives the computer seats, offers undo/redo of actions that revealed nothing, and saves
(``save``, ``autosave_to``); a networked store (``mqtui.net``) implements the same :class:`GameStore`
protocol by sending actions to a server and receiving snapshots, so widgets never know the difference.
The contract is written down in ``docs/store.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Protocol

import msgspec

from mqtui import saves
from mqtui.bots import Bot, Choice, make_bot
from mqtui.engine.actions import Action, Event, IllegalAction
from mqtui.engine.cards import CardTable
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import SETUP, STAGE_OVER, State
from mqtui.engine.view import view_for

HUMAN = "human"
REMOTE = "remote"
PEOPLE = (HUMAN, REMOTE)  # seats played by a person: their actions can be undone

# Bot reasons stay out of the log (they read like debug output there): the last few are kept in
# ``LocalStore.reasons`` for a "why?" view, for the decisions whose why matters to the table.
EXPLAINED_KINDS = frozenset(
    ("invite", "accept", "decline", "enhance", "use", "wander", "dice", "curse", "challenge")
)
REASONS_KEPT = 30
LOG_TAIL = 150  # log events kept in a save, for the UI's scrollback after loading
UNDO_DEPTH = 64

# Undo: action kinds a player may take back (if they also revealed nothing, see ``_reveals``) ...
UNDOABLE = frozenset(
    (
        "equip",
        "stow",
        "belt",
        "move",
        "pickup",
        "play",
        "buylevel",
        "deal",
        "done",
        "end",
        "flee",
        "challenge",
        "invite",
        "accept",
        "decline",
        "pass",
    )
)
# ... and event kinds that mean something hidden came to light (dice, draws, new rooms and monsters).
REVEALING = frozenset(
    ("draw", "dice", "room", "colour", "search", "monster", "explore", "boss", "death", "power", "win")
)


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str
    kind: str = HUMAN  # "human", or a bot kind ("random", "normal", "hard"), or "remote"


class LogLine(msgspec.Struct, frozen=True, array_like=True):
    """One log entry as one seat may read it: the engine event's kind and that seat's own text
    (:meth:`Event.for_seat`). The kind is the same for every seat; only the text can be private."""

    kind: str
    text: str


def log_line(e: Event, seat: int) -> LogLine | None:
    """The entry ``seat`` reads for ``e`` (a spectator, seat < 0, the public text); None: nothing."""
    text = e.for_seat(seat)
    return LogLine(e.kind, text) if text else None


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


@dataclass
class _Undo:
    before: State  # the whole state before the action (never shown: snapshots are views)
    action: Action
    n_log: int  # log length before the action


def _fingerprint(s: State) -> tuple[object, ...]:
    """Everything that changes when something hidden is drawn, rolled or placed."""
    return (
        s.rng,
        len(s.forced),
        len(s.dxm),
        len(s.treasure),
        len(s.monster_deck),
        len(s.tiles),
        len(s.bag),
        s.next_monster,
        len(s.rooms),
        len(s.monsters),
    )


def _reveals(before: State, after: State, action: Action, events: list[Event]) -> bool:
    """True unless the action provably revealed nothing to anyone: conservative on purpose."""
    if action.kind not in UNDOABLE or after.stage == STAGE_OVER:
        return True
    if any(e.kind in REVEALING for e in events):
        return True
    if _fingerprint(before) != _fingerprint(after):
        return True
    # no card may reach another seat's hand (they would have seen it)
    return any(
        h.seat != action.seat and h.hand != h0.hand
        for h, h0 in zip(after.heroes, before.heroes, strict=False)
    )


@dataclass
class LocalStore:
    """Runs a game in this process: hot-seat humans plus bots."""

    engine: Engine
    state: State
    seats: tuple[Seat, ...]
    bot_delay: float = 0.4  # seconds between computer actions; 0 in tests
    log: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    origin: State | None = None  # the first state; None: ``engine.new_game`` from the seed
    from_seed: bool = False  # the game began with ``engine.new_game(seats, state.seed)``
    packs: tuple[str, ...] = ()  # content packs in play (names under seeds/packs), for the save header
    content_note: str = ""  # a loaded game: its content, for players (saves.describe_content)
    _listeners: list[Listener] = field(default_factory=list)
    _bots: dict[int, Bot] = field(default_factory=dict)
    _viewer: int = 0
    _task: asyncio.Task[None] | None = None
    _undo: list[_Undo] = field(default_factory=list)
    _redo: list[Action] = field(default_factory=list)
    _buffer: saves.ActionBuffer = field(default_factory=saves.ActionBuffer)
    _start_bytes: bytes | None = None
    _saver: saves.AutoSaver | None = None
    _last_good: bytes | None = None  # the last autosave's bytes: a complete, consistent game
    _busy: int = 0  # > 0 while an action or an undo is half-way
    _lines: dict[int, list[LogLine]] = field(default_factory=dict)
    _lines_at: dict[int, int] = field(default_factory=dict)
    reasons: list[Reason] = field(default_factory=list)  # the computer players' last reasons, oldest first

    def __post_init__(self) -> None:
        for i, seat in enumerate(self.seats):
            if seat.kind not in PEOPLE:
                self._bots[i] = make_bot(seat.kind, seed=self.state.seed * 31 + i)
        if self.origin is None and not self.from_seed:
            if self.actions:
                self.from_seed = True  # a log without its first state: it can only have begun at the seed
            else:
                self.origin = copy_state(self.state)
        if self.origin is not None:
            self._start_bytes = saves.encode_state(self.origin)
        self._viewer = self._human_viewer()

    @property
    def cards(self) -> CardTable:
        return self.engine.cards

    @classmethod
    def new(cls, engine: Engine, seats: tuple[Seat, ...], seed: int, bot_delay: float = 0.4) -> LocalStore:
        state, events = engine.new_game([(s.name, s.colour) for s in seats], seed)
        return cls(engine, state, seats, bot_delay=bot_delay, log=list(events), from_seed=True)

    # -- reading ------------------------------------------------------------------------------------

    def _human_viewer(self) -> int:
        """The human seat whose eyes the screen shows: the one deciding, else the last one who did."""
        who = self.engine.deciding(self.state)
        if who >= 0 and self.seats[who].kind == HUMAN:
            return who
        if self.seats[self._viewer].kind == HUMAN:
            return self._viewer
        return next((i for i, s in enumerate(self.seats) if s.kind == HUMAN), 0)

    def _log_lines(self, seat: int) -> tuple[LogLine, ...]:
        at = self._lines_at.get(seat, 0)
        if at > len(self.log):  # the log was replaced behind our back
            self._lines.clear()
            self._lines_at.clear()
            at = 0
        lines = self._lines.setdefault(seat, [])
        lines.extend(line for e in self.log[at:] if (line := log_line(e, seat)))
        self._lines_at[seat] = len(self.log)
        return tuple(lines)

    def _log_cut(self, n: int) -> None:
        del self.log[n:]
        self._lines.clear()
        self._lines_at.clear()

    def snapshot(self, seat: int | None = None) -> Snapshot:
        """What ``seat`` sees (default: the human the screen shows). With an explicit seat, ``undo``
        and ``redo`` are that seat's own; by default, those of anyone at this terminal."""
        who = seat
        seat = self._viewer if seat is None else seat
        s = self.state
        deciding = self.engine.deciding(s)
        legal = tuple(self.engine.legal(s, seat)) if deciding == seat else ()
        return Snapshot(
            seat,
            view_for(s, seat),
            legal,
            deciding,
            self._log_lines(seat),
            s.n,
            s.stage == STAGE_OVER,
            undo=self.can_undo(who),
            redo=self.can_redo(who),
        )

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

    def apply(self, action: Action, *, _redoing: bool = False) -> list[Event]:
        before = copy_state(self.state)
        n_log = len(self.log)
        self._busy += 1  # the game is half-changed until the log has the action too
        try:
            try:
                events = self.engine.apply(self.state, action)
            except IllegalAction:
                raise
            except Exception:
                self.state = before  # an engine failure half-way must not leave a half-changed game
                raise
            self.actions.append(action)
            self.log.extend(events)
        finally:
            self._busy -= 1
        if not _redoing:
            self._redo.clear()
        if self._undo and self._undo[-1].action.seat != action.seat:
            self._undo.clear()  # someone else acted: nothing before this can be taken back
        if self.seats[action.seat].kind in PEOPLE and not _reveals(before, self.state, action, events):
            self._undo.append(_Undo(before, action, n_log))
            del self._undo[:-UNDO_DEPTH]
        else:
            self._undo.clear()
        self._changed()
        return events

    def _changed(self) -> None:
        self._viewer = self._human_viewer()
        if self._saver is not None:
            self._last_good = self.to_bytes()
            self._saver.submit(self._last_good)
        self._publish()

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
        self._play_bot(who, self._decide(who))
        return True

    def _decide(self, who: int) -> Choice:
        legal = self.engine.legal(self.state, who)
        return self._bots[who].choose(self.engine, view_for(self.state, who), who, list(legal))

    def _play_bot(self, who: int, choice: Choice) -> None:
        if choice.why and choice.action.kind in EXPLAINED_KINDS:
            self.reasons.append(Reason(self.state.round, who, choice.action, choice.why))
            del self.reasons[:-REASONS_KEPT]
        self.apply(choice.action)

    def _kick_bots(self) -> None:
        if self.bot_to_move() < 0 or (self._task is not None and not self._task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (tests, tools): the caller drives the bots with step_bot()
        self._task = loop.create_task(self.run_bots())

    async def run_bots(self) -> None:
        """Play the computer seats until a human must decide or the game ends."""
        while (who := self.bot_to_move()) >= 0:
            decided_on, choice = self.state, self._decide(who)
            await asyncio.sleep(self._pause_before(choice))
            if self.state is decided_on:  # (else the game moved on while we waited: decide again)
                self._play_bot(who, choice)

    def _pause_before(self, choice: Choice) -> float:
        """Seconds before a bot's action shows: the full delay where people follow the play, a
        quarter of it for routine steps (building a hero before the first turn, passing)."""
        if not self.bot_delay:
            return 0.0
        frame = self.state.frames[-1] if self.state.frames else None
        routine = (frame is not None and frame.kind == SETUP) or choice.action.kind in ("pass", "done")
        return self.bot_delay / 4 if routine else self.bot_delay

    def start(self) -> None:
        """Call once the event loop runs: lets the bots act if they are first."""
        self._kick_bots()

    # -- undo and redo ------------------------------------------------------------------------------

    def _mine(self, seat: int, who: int | None) -> bool:
        """Whether an action of ``seat`` belongs to ``who``; None: to anyone at this terminal (hot-seat
        players share the keyboard, so any of them may take back the last human action)."""
        return self.seats[seat].kind == HUMAN if who is None else seat == who

    def can_undo(self, seat: int | None = None) -> bool:
        """The last action can be taken back: it revealed nothing, no other seat has acted since, and
        it was ``seat``'s (default: any human at this terminal's)."""
        return (
            bool(self._undo)
            and self._mine(self._undo[-1].action.seat, seat)
            and self.state.stage != STAGE_OVER
        )

    def can_redo(self, seat: int | None = None) -> bool:
        """The action last taken back can be done again (by ``seat``; default: any human here)."""
        return bool(self._redo) and self._mine(self._redo[-1].seat, seat)

    def undo_now(self, seat: int | None = None) -> Action:
        """Take back the last action of ``seat`` (default: of any human here); returns it."""
        if not self.can_undo(seat):
            raise IllegalAction("there is nothing to take back: " + self._why_no_undo())
        entry = self._undo.pop()
        self._busy += 1
        try:
            self.state = entry.before
            self.actions.pop()
            what = next((e.text for e in self.log[entry.n_log :] if e.text), f"'{entry.action}'")
            self._log_cut(entry.n_log)
        finally:
            self._busy -= 1
        self._redo.append(entry.action)
        self.log.append(Event("undo", f"{self.seats[entry.action.seat].name} takes back: {what}"))
        self._changed()
        return entry.action

    def _why_no_undo(self) -> str:
        if self.state.stage == STAGE_OVER:
            return "the game is over"
        if not self._undo:
            return "the last action revealed something, or someone else has acted since"
        return "the last undoable action is another player's"

    def redo_now(self, seat: int | None = None) -> Action:
        """Do again the action last taken back by ``seat`` (default: by any human here); returns it."""
        if not self.can_redo(seat):
            raise IllegalAction("there is nothing to redo")
        action = self._redo.pop()
        # the undo line goes: the log reads as if the action had never been taken back
        if self.log and self.log[-1].kind == "undo":
            self._log_cut(len(self.log) - 1)
        try:
            self.apply(action, _redoing=True)
        except IllegalAction:
            self._redo.clear()
            raise
        return action

    async def undo(self) -> None:
        self.undo_now()

    async def redo(self) -> None:
        self.redo_now()
        self._kick_bots()

    # -- saving -------------------------------------------------------------------------------------

    def _seat_recs(self) -> list[saves.SeatRec]:
        return [saves.SeatRec(name=s.name, colour=s.colour, kind=s.kind) for s in self.seats]

    def to_bytes(self) -> bytes:
        """The game as a save file's bytes (fast: the log is encoded once per action)."""
        seats = self._seat_recs()
        header = saves.make_header(self.state, seats, len(self.actions), list(self.packs))
        return saves.encode_parts(
            header,
            self.state.seed,
            seats,
            self._buffer.sync(self.actions),
            self.state,
            self.log[-LOG_TAIL:],
            self._start_bytes,
            saves.defs.pack(self.engine.content)[1],
        )

    def save(self, path: Path | str, backups: int = saves.BACKUPS) -> None:
        """Save now, atomically (the previous versions become ``path.1``, ``path.2``)."""
        if self._saver is not None and Path(path) == self._saver.path:
            self._saver.write_now(self.to_bytes())
            if self._saver.error:
                raise saves.SaveError(self._saver.error)
            return
        try:
            saves.write_atomic(path, self.to_bytes(), backups)
        except OSError as exc:
            raise saves.SaveError(f"cannot save to {path}: {exc.strerror or exc}") from None

    def autosave_to(self, path: Path | str | None, backups: int = saves.BACKUPS) -> None:
        """Save to ``path`` after every change, on a background thread (None: stop autosaving)."""
        if self._saver is not None:
            if path is not None and Path(path) == self._saver.path:
                return
            self._saver.close()
            self._saver = None
        if path is not None:
            self._saver = saves.AutoSaver(path, backups)
            self._last_good = self.to_bytes()
            self._saver.submit(self._last_good)

    @property
    def autosave_error(self) -> str:
        """The last autosave's failure ("" if it worked or there is no autosave)."""
        return self._saver.error if self._saver is not None else ""

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the autosave has written the latest state; False on timeout."""
        return self._saver.flush(timeout) if self._saver is not None else True

    def save_now(self) -> None:
        """Write the autosave synchronously with the current state (quit, SIGHUP).

        Safe from a signal handler: if the signal interrupted an action half-way, the last complete
        state is written instead of the half-changed one.
        """
        if self._saver is None:
            return
        if self._busy:
            if self._last_good is not None:
                self._saver.write_now(self._last_good)
            return
        self._saver.write_now(self.to_bytes())

    def autosave(self) -> Path:
        """Save now where "Continue" looks: the autosave file if one is set, else the default one."""
        if self._saver is not None:
            self.save_now()
            if self._saver.error:
                raise saves.SaveError(self._saver.error)
            return self._saver.path
        path = saves.autosave_path()
        self.save(path)
        return path

    def close(self) -> None:
        """Final autosave, then stop the writer thread (call on quit)."""
        if self._saver is not None:
            self.save_now()
            self._saver.close()
            self._saver = None

    @classmethod
    def load(
        cls,
        path: Path | str,
        engine: Engine,
        bot_delay: float = 0.4,
        *,
        verify: bool = False,
        backups: bool = True,
    ) -> LocalStore:
        """A store resuming the save at ``path``. Raises :class:`~mqtui.saves.SaveError` (one line).

        The game goes on with the content it was made with (the save carries it): ``engine`` is the
        installed one, used when the save's content is the same (see :func:`mqtui.saves.engine_of`).

        ``verify`` replays the log and refuses the save unless it reproduces the snapshot. With
        ``backups``, a damaged file falls back to ``path.1``, ``path.2`` (the log says so).
        """
        if backups:
            data, used, why = saves.read_with_backups(path)
        else:
            data, used, why = saves.read(path), Path(path), ""
        installed = engine.content.version
        engine = saves.engine_of(data, engine)
        saves.validate(data, engine)
        if verify:
            saves.verify(data, engine)
        seats = tuple(Seat(p.name, p.colour, p.kind) for p in data.seats)
        try:
            store = cls(
                engine,
                data.state,
                seats,
                bot_delay=bot_delay,
                log=list(data.log),
                actions=list(data.actions),
                origin=data.start,
                from_seed=data.start is None,
                packs=tuple(data.header.packs),
                content_note=saves.describe_content(data, installed),
            )
        except (ValueError, ImportError) as exc:
            raise saves.SaveError(f"cannot resume: {exc}") from None
        if why:
            store.log.append(Event("save", f"{Path(path).name} was damaged ({why}); loaded {used.name}."))
        if engine.content.version != installed:  # the players learn that their old cards go on
            store.log.append(Event("save", store.content_note[:1].upper() + store.content_note[1:] + "."))
        return store


def install_signal_handlers(
    store: LocalStore,
    on_exit: Callable[[], None] | None = None,
    signals: Sequence[str] = ("SIGHUP", "SIGTERM"),
) -> Callable[[], None]:
    """Save at once on a dropped connection (SIGHUP: SSH gone, terminal closed) or SIGTERM.

    After saving, ``on_exit()`` is called (e.g. the app's ``exit``); without it the process exits with
    ``128 + signal``. Returns a function that puts the previous handlers back. Does nothing off the
    main thread, and for signals the platform lacks.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous: dict[int, object] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(Exception):
            store.save_now()
        if on_exit is not None:
            on_exit()
        else:
            raise SystemExit(128 + signum)

    for name in signals:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            previous[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):
            continue

    def restore() -> None:
        for sig, old in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(sig, old)  # type: ignore[arg-type]

    return restore
