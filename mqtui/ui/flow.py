"""A turn that flows: fight windows pass by themselves when the person at the screen has nothing that
could change the fight, and after a short visible countdown when they have (any key stops it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.timer import Timer
from textual.widget import Widget

from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.legal import nothing_to_play as engine_nothing_to_play
from mqtui.engine.state import WINDOW
from mqtui.store import Snapshot

COUNTDOWNS = (0, 2, 3, 5)  # the choices in Settings (0: always ask)


def in_window(snap: Snapshot) -> bool:
    """The viewer is to decide in a fight window of another player's turn (in their own fight the
    player's space rolls the dice and ends the fight: that stays theirs to press)."""
    frames = snap.view.frames
    return (
        bool(snap.legal)
        and snap.deciding == snap.seat
        and snap.view.active != snap.seat
        and bool(frames)
        and frames[-1].kind == WINDOW
    )


def nothing_to_play(snap: Snapshot) -> bool:
    """Passing is all the viewer can do in another player's fight (the engine's rule: a host passes
    for its players at once, so a served app seldom sees one)."""
    return snap.deciding == snap.seat and engine_nothing_to_play(snap.view, snap.seat, snap.legal)


def could_stop_a_win(snap: Snapshot) -> bool:
    """A fight the viewer is not fighting in where a card played now may stop another hero winning:
    the boss fight, or the fight of a Level 9 hero, whose kill (every kill gives a level) is the
    Level 10 that sends them to the boss (a hero reaches Level 10 only by a kill)."""
    combat = snap.view.combat
    if combat is None or snap.seat in (combat.active, combat.helper):
        return False
    return combat.boss or snap.view.heroes[combat.active].level >= MAX_LEVEL - 1


def counts_down(snap: Snapshot) -> bool:
    """Another player's fight, and the viewer could play a card in it: pass unless they stop the clock
    (never in a fight that could lead another hero to win: that window waits for the viewer)."""
    return in_window(snap) and any(a.kind == "pass" for a in snap.legal) and not could_stop_a_win(snap)


class PassCountdown:
    """The clock of one fight window: ``on_tick(seconds_left)`` each second (0: stopped or done), then
    ``on_pass()`` unless ``stop()`` was called."""

    TICK = 1.0  # seconds per step (tests make it short)

    def __init__(
        self, owner: Widget, on_tick: Callable[[int], None], on_pass: Callable[[], Awaitable[None]]
    ) -> None:
        self.owner = owner
        self.on_tick = on_tick
        self.on_pass = on_pass
        self.left = 0
        self.n = -1  # the state number the clock was started for
        self._timer: Timer | None = None

    @property
    def running(self) -> bool:
        return self._timer is not None

    def start(self, seconds: int, n: int) -> None:
        if self.running and self.n == n:
            return
        self.stop()
        self.left, self.n = seconds, n
        self.on_tick(seconds)
        self._timer = self.owner.set_interval(self.TICK, self.tick)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            self.on_tick(0)

    async def tick(self) -> None:
        """One step of the clock (its timer's, each ``TICK`` seconds): the time left told, or the pass."""
        self.left -= 1
        if self.left > 0:
            self.on_tick(self.left)
            return
        self.stop()
        await self.on_pass()
