"""A game's timeline: every state of a saved or finished game, for the replay view and the end screen.

The log is played again once from the game's first state (the engine is deterministic), keeping a
copy of the state every ``EVERY`` actions and every action's events. Any position is then a copy of
the nearest earlier checkpoint plus at most ``EVERY - 1`` actions. Position 0 is the first state,
position ``i`` the state after the ``i``-th action; ``len(timeline) - 1`` is the last.

What a seat sees at a position is :meth:`Timeline.snapshot`: the seat's own view (hidden cards
hidden) and the log lines that seat could read, the same :class:`~mqtui.store.Snapshot` the game
screen shows; ``open_hands`` shows every hand (for finished games only: the callers decide).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from mqtui.engine.actions import Action, Event
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import STAGE_OVER, STAGE_SETUP, State
from mqtui.hosting import seat_view
from mqtui.saves.check import LogStops, play_log
from mqtui.seat_kinds import SeatKind
from mqtui.store import LogLine, Seat, Snapshot

EVERY = 16  # actions between two kept states


class TimelineError(Exception):
    """The log does not replay (one line saying where)."""


@dataclass(frozen=True)
class Mark:
    """Where a position is in the game."""

    round: int
    active: int
    stage: str
    fight: bool  # a fight is going on


@dataclass
class Timeline:
    engine: Engine
    seats: tuple[Seat, ...]
    actions: list[Action]
    packs: tuple[str, ...] = ()
    _checkpoints: list[State] = field(default_factory=list)
    _events: list[list[Event]] = field(default_factory=list)  # per position: the events that led there
    _marks: list[Mark] = field(default_factory=list)
    _cache: tuple[int, State] | None = None
    _lines: dict[tuple[int, bool], tuple[list[LogLine], list[int]]] = field(default_factory=dict)

    # -- building -------------------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        engine: Engine,
        seats: Sequence[Seat],
        actions: Sequence[Action],
        start: State | None,
        seed: int,
        packs: Sequence[str] = (),
    ) -> Timeline:
        """Replay ``actions`` from ``start`` (None: a new game from ``seed``); raises TimelineError."""
        t = cls(engine, tuple(seats), list(actions), tuple(packs))

        def keep(i: int, action: Action | None, events: list[Event], s: State) -> None:
            t._events.append(list(events))
            t._mark(s)
            if (i + 1) % EVERY == 0:  # the first state too (i = -1)
                t._checkpoints.append(copy_state(s))

        names = [(p.name, p.colour) for p in seats]
        try:
            s = play_log(engine, names, seed, start, t.actions, keep)
        except LogStops as stop:
            if stop.action is None:
                raise TimelineError(f"cannot start the game again: {stop.cause}") from None
            raise TimelineError(
                f"the log does not replay at action {stop.index + 1} ({stop.action!r}): {stop.cause}"
            ) from None
        t._cache = (len(t.actions), s)
        return t

    @classmethod
    def from_store(cls, store: object) -> Timeline:
        """The timeline of a local store's game (``LocalStore``: its actions and first state)."""
        from mqtui.store import LocalStore

        if not isinstance(store, LocalStore):
            raise TimelineError("only a game played on this computer can be replayed here")
        start = None if store.from_seed else store.origin
        return cls.build(store.engine, store.seats, store.actions, start, store.state.seed, store.packs)

    @classmethod
    def from_file(cls, path: object, installed: Engine | None = None) -> Timeline:
        """The timeline of a save file, with the content the save carries (``installed``: the installed
        engine, used when the content is the same); raises TimelineError (one line) if it cannot be
        read or replayed."""
        from pathlib import Path

        from mqtui import saves

        try:
            data = saves.read(Path(str(path)))
            engine = saves.engine_of(data, installed)
            saves.validate(data, engine)
        except saves.SaveError as exc:
            raise TimelineError(str(exc)) from None
        seats = [Seat(p.name, p.colour, SeatKind(p.kind)) for p in data.seats]  # (checked: validate)
        return cls.build(engine, seats, data.actions, data.start, data.seed, data.header.packs)

    def _mark(self, s: State) -> None:
        self._marks.append(Mark(s.round, s.active, s.stage, s.combat is not None))

    # -- reading --------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.actions) + 1

    @property
    def last(self) -> int:
        return len(self.actions)

    def mark(self, i: int) -> Mark:
        return self._marks[i]

    @property
    def over(self) -> bool:
        return self._marks[-1].stage == STAGE_OVER

    def action(self, i: int) -> Action | None:
        """The action that led to position ``i`` (None at the start)."""
        return self.actions[i - 1] if i > 0 else None

    def events(self, i: int) -> list[Event]:
        """The events that led to position ``i`` (all of them, private ones too: not a seat's view)."""
        return self._events[i]

    def state(self, i: int) -> State:
        """The whole state at position ``i`` (shared with the timeline's cache: do not change it)."""
        if not 0 <= i < len(self):
            raise IndexError(i)
        if self._cache is not None and self._cache[0] == i:
            return self._cache[1]
        if self._cache is not None and self._cache[0] < i and i - self._cache[0] < EVERY:
            at, s = self._cache[0], copy_state(self._cache[1])
        else:
            at = (i // EVERY) * EVERY
            s = copy_state(self._checkpoints[i // EVERY])
        for action in self.actions[at:i]:
            self.engine.apply(s, action)
        self._cache = (i, s)
        return s

    def turn_starts(self) -> list[int]:
        """The positions where a turn begins (a new round or a new active player, after setting up)."""
        out = []
        prev: tuple[int, int] | None = None
        for i, m in enumerate(self._marks):
            key = (m.round, m.active)
            if m.stage != STAGE_SETUP and key != prev:
                out.append(i)
                prev = key
        return out

    def next_turn(self, i: int) -> int:
        starts = self.turn_starts()
        k = bisect.bisect_right(starts, i)
        return starts[k] if k < len(starts) else self.last

    def previous_turn(self, i: int) -> int:
        starts = self.turn_starts()
        k = bisect.bisect_left(starts, i)
        return starts[k - 1] if k > 0 else 0

    @property
    def rounds(self) -> int:
        return self._marks[-1].round

    def round_start(self, r: int) -> int:
        """The first position of round ``r`` (after setting up); the last position if it never came."""
        for i, m in enumerate(self._marks):
            if m.round >= r and m.stage != STAGE_SETUP:
                return i
        return self.last

    def deciding_fight(self) -> int | None:
        """The position just before a finished game's last fight was decided (its dice rolled, every
        card played): the last position with a fight going on; None if the game is not over."""
        if not self.over:
            return None
        for i in range(self.last, -1, -1):
            if self._marks[i].fight:
                return i
        return None

    # -- what a seat sees -----------------------------------------------------------------------------

    def _seat_lines(self, seat: int, open_hands: bool) -> tuple[list[LogLine], list[int]]:
        """Every log line ``seat`` may read (all, with private ones named, for open hands), and per
        position how many of them had been written by then."""
        key = (seat, open_hands)
        if key not in self._lines:
            names = [s.name for s in self.seats]
            lines: list[LogLine] = []
            upto: list[int] = []
            for events in self._events:
                for e in events:
                    if open_hands and e.private and 0 <= e.seat < len(names):
                        seen = f"[{names[e.seat]} sees: {e.private}]"
                        text = f"{e.text} {seen}" if e.text else seen
                    else:
                        text = e.for_seat(seat)
                    if text:
                        lines.append(LogLine(e.kind, text, e.fight))
                upto.append(len(lines))
            self._lines[key] = (lines, upto)
        return self._lines[key]

    def written(self, seat: int, line: LogLine, after: int = 0) -> int | None:
        """The first position after ``after`` at which ``line`` is in ``seat``'s log (None: never)."""
        lines, upto = self._seat_lines(seat, False)
        for k in range(upto[max(0, min(after, self.last))], len(lines)):
            if lines[k] == line:
                return bisect.bisect_right(upto, k)  # (the first position with more than k lines)
        return None

    def log(self, i: int, seat: int, open_hands: bool = False) -> tuple[LogLine, ...]:
        lines, upto = self._seat_lines(seat, open_hands)
        return tuple(lines[: upto[i]])

    def snapshot(self, i: int, seat: int, open_hands: bool = False) -> Snapshot:
        """What ``seat`` saw at position ``i`` (``open_hands``: and every other hand too)."""
        s = self.state(i)
        share = seat_view(self.engine, s, seat, with_legal=False)
        if open_hands:
            for hero, real in zip(share.view.heroes, s.heroes, strict=True):
                hero.hand = list(real.hand)
        return Snapshot(
            seat, share.view, (), share.deciding, self.log(i, seat, open_hands), share.n, share.over
        )
