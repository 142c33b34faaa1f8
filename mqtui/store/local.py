"""The local store: a game run in this process, hot-seat humans plus computer players.

:class:`LocalStore` implements the :class:`~mqtui.store.protocol.GameStore` protocol on top of the
hosting core (:mod:`mqtui.hosting`: the game applied with rollback, the undo rule, the computer
players' decisions, save encoding). What is its own: the screen's viewer, the listeners, the pace of
the computer players on the event loop, and the autosave (``save``, ``autosave_to``).

The autosave is honest: while its writes fail (a full disk, a read-only folder) the log says, in a
line of its own, that the game is not saved and that mqtui keeps trying, and says so again once a
write succeeds; :attr:`LocalStore.autosave_error` is the reason meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType

from mqtui import saves
from mqtui.bots import Bot, Choice, seat_bot
from mqtui.engine.actions import Action, Event, IllegalAction
from mqtui.engine.cards import CardTable
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import SETUP, State
from mqtui.hosting import Host, Hosted, SaveEncoder, UndoHistory, seat_view
from mqtui.seat_kinds import HUMAN, SeatKind
from mqtui.store.protocol import PEOPLE, Listener, LogLine, Reason, Seat, Snapshot, log_line

# Bot reasons stay out of the log (they read like debug output there): the last few are kept in
# ``LocalStore.reasons`` for a "why?" view, for the decisions whose why matters to the table.
EXPLAINED_KINDS = frozenset(
    ("invite", "accept", "decline", "enhance", "use", "wander", "dice", "curse", "challenge")
)
REASONS_KEPT = 30
LOG_TAIL = 150  # log events kept in a save, for the UI's scrollback after loading


class LocalStore(Hosted):
    """Runs a game in this process: hot-seat humans plus bots."""

    takes_back = True  # (a person's own last actions that revealed nothing: see UndoHistory)

    def __init__(
        self,
        engine: Engine,
        state: State,
        seats: tuple[Seat, ...],
        bot_delay: float = 0.4,  # seconds between computer actions; 0 in tests
        log: list[Event] | None = None,
        actions: list[Action] | None = None,
        origin: State | None = None,  # the first state; None: ``engine.new_game`` from the seed
        from_seed: bool = False,  # the game began with ``engine.new_game(seats, state.seed)``
        packs: tuple[str, ...] = (),  # content packs in play (names under seeds/packs), for the save header
        content_note: str = "",  # a loaded game: its content, for players (saves.describe_content)
    ) -> None:
        self.host = Host(
            engine, state, log if log is not None else [], actions if actions is not None else []
        )
        self.seats = seats
        self.bot_delay = bot_delay
        self.origin, self.from_seed = origin, from_seed  # how the game began
        self.packs, self.content_note = packs, content_note  # what it is played with
        self.reasons: list[Reason] = []  # the computer players' last reasons, oldest first
        self.history = UndoHistory(person=lambda seat: self.seats[seat].kind in PEOPLE, mine=self._mine)
        self._listeners: list[Listener] = []
        self._bots: dict[int, Bot] = {}
        self._viewer = 0
        self._task: asyncio.Task[None] | None = None
        self._encoder = SaveEncoder(engine.content, LOG_TAIL)
        self._saver: saves.AutoSaver | None = None
        self._save_failing = False  # the autosave's last write failed (the log said so)
        self._loop: asyncio.AbstractEventLoop | None = None  # where the autosave's reports are told
        self._last_good: bytes | None = None  # the last autosave's bytes: a complete, consistent game
        self._busy = 0  # > 0 while an action or an undo is half-way
        self._lines: dict[int, list[LogLine]] = {}
        self._lines_at: dict[int, int] = {}
        for i, seat in enumerate(self.seats):
            if seat.kind not in PEOPLE:
                self._bots[i] = seat_bot(seat.kind, self.state.seed, i)
        if self.origin is None and not self.from_seed:
            if self.actions:
                self.from_seed = True  # a log without its first state: it can only have begun at the seed
            else:
                self.origin = copy_state(self.state)
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
            self._lines_cut()
            at = 0
        lines = self._lines.setdefault(seat, [])
        lines.extend(line for e in self.log[at:] if (line := log_line(e, seat)))
        self._lines_at[seat] = len(self.log)
        return tuple(lines)

    def _lines_cut(self) -> None:
        """Forget the log lines made so far (the log was cut back)."""
        self._lines.clear()
        self._lines_at.clear()

    def snapshot(self, seat: int | None = None) -> Snapshot:
        """What ``seat`` sees (default: the human the screen shows). With an explicit seat, ``undo``
        and ``redo`` are that seat's own; by default, those of anyone at this terminal."""
        who = seat
        seat = self._viewer if seat is None else seat
        share = seat_view(self.engine, self.state, seat)
        return Snapshot(
            seat,
            share.view,
            share.legal,
            share.deciding,
            self._log_lines(seat),
            share.n,
            share.over,
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
        self._busy += 1  # the game is half-changed until the log has the action too
        try:
            step = self.host.apply(action)
        finally:
            self._busy -= 1
        self.history.record(step, self.state, redoing=_redoing)
        self._changed()
        return step.events

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

    def set_bot(self, seat: int, bot: Bot) -> None:
        """Let ``bot`` play the computer seat ``seat`` (a tutorial's scripted players)."""
        if seat not in self._bots:
            raise ValueError(f"seat {seat} is not a computer player")
        self._bots[seat] = bot

    def bot_to_move(self) -> int:
        who = self.engine.deciding(self.state)
        return who if who in self._bots else -1

    def step_bot(self) -> bool:
        """Let the deciding bot act once; False if no bot is to move."""
        who = self.bot_to_move()
        if who < 0:
            return False
        self._play_bot(who, self.decide(who))
        return True

    def decide(self, who: int) -> Choice:
        """What seat ``who``'s computer player would do now, and why (nothing is played)."""
        return self.host.decide(self._bots[who], who)

    def _play_bot(self, who: int, choice: Choice) -> None:
        if choice.why and choice.action.kind in EXPLAINED_KINDS:
            self.reasons.append(Reason(self.state.round, who, choice.action, choice.why))
            del self.reasons[:-REASONS_KEPT]
        self.apply(choice.action)

    @property
    def bots_running(self) -> bool:
        """The computer players are playing now (their task has not ended)."""
        return self._task is not None and not self._task.done()

    async def bots_stopped(self) -> None:
        """Until the computer players have stopped (a human must decide, or the game is over); raises
        what stopped them if that was an error (a bot that played an illegal action, say)."""
        while (task := self._task) is not None and not task.done():  # (a run may start the next one)
            await asyncio.shield(task)
        if task is not None:
            task.result()

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
            decided_on, choice = self.state, self.decide(who)
            await asyncio.sleep(self.pause_before(choice))
            if self.state is decided_on:  # (else the game moved on while we waited: decide again)
                self._play_bot(who, choice)

    def pause_before(self, choice: Choice) -> float:
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

    # -- undo and redo (the rule: mqtui.hosting.undo) ----------------------------------------------

    def _mine(self, seat: int, who: int | None) -> bool:
        """Whether an action of ``seat`` belongs to ``who``; None: to anyone at this terminal (hot-seat
        players share the keyboard, so any of them may take back the last human action)."""
        return self.seats[seat].kind == HUMAN if who is None else seat == who

    def can_undo(self, seat: int | None = None) -> bool:
        """The last action can be taken back: it revealed nothing, no other seat has acted since, and
        it was ``seat``'s (default: any human at this terminal's)."""
        return self.history.can_undo(seat, self.state)

    def can_redo(self, seat: int | None = None) -> bool:
        """The action last taken back can be done again (by ``seat``; default: any human here)."""
        return self.history.can_redo(seat)

    def undo_now(self, seat: int | None = None) -> Action:
        """Take back the last action of ``seat`` (default: of any human here); returns it."""
        if not self.can_undo(seat):
            raise IllegalAction("there is nothing to take back: " + self.history.why_not(self.state))
        step = self.history.take_back()
        self._busy += 1
        try:
            what = next((e.text for e in self.log[step.n_log :] if e.text), f"'{step.action}'")
            self.host.restore(step)
            self._lines_cut()
        finally:
            self._busy -= 1
        self.log.append(Event("undo", f"{self.seats[step.action.seat].name} takes back: {what}"))
        self._changed()
        return step.action

    def redo_now(self, seat: int | None = None) -> Action:
        """Do again the action last taken back by ``seat`` (default: by any human here); returns it."""
        if not self.can_redo(seat):
            raise IllegalAction("there is nothing to redo")
        action = self.history.redo_next()
        # the undo line goes: the log reads as if the action had never been taken back
        if self.log and self.log[-1].kind == "undo":
            del self.log[-1]
            self._lines_cut()
        try:
            self.apply(action, _redoing=True)
        except IllegalAction:
            self.history.drop_redo()
            raise
        return action

    async def undo(self) -> None:
        self.undo_now()

    async def redo(self) -> None:
        self.redo_now()
        self._kick_bots()

    # -- saving -------------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The game as a save file's bytes (fast: the log is encoded once per action)."""
        return self._encoder.encode(self.state, self.seats, self.actions, self.log, self.packs, self.origin)

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
            with contextlib.suppress(RuntimeError):
                self._loop = asyncio.get_running_loop()
            self._saver = saves.AutoSaver(path, backups, self._save_heard)
            self._last_good = self.to_bytes()
            self._saver.submit(self._last_good)

    def _save_heard(self, tag: int, error: str) -> None:
        """The writer's report after each write (on its thread): the log says when saving starts to
        fail and when it works again."""
        if bool(error) == self._save_failing:
            return
        self._save_failing = bool(error)
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # no event loop to tell anyone on (autosave_error still says why)
        text = (
            f"The game is NOT saved: {error}. mqtui keeps trying; free some space (or fix the folder) "
            "before you quit."
            if error
            else "The game is saved again."
        )
        with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile)
            loop.call_soon_threadsafe(self._save_note, text)

    def _save_note(self, text: str) -> None:
        self.log.append(Event("save", text))
        self._publish()

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
        seats = tuple(Seat(p.name, p.colour, SeatKind(p.kind)) for p in data.seats)  # (checked: validate)
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
        except ValueError as exc:  # (an unknown seat kind: seat_bot says which)
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
