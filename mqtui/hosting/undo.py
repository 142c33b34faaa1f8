"""The undo rule: a player may take back their own last actions while they revealed nothing.

An action can be taken back when its kind is one a player may take back (:data:`UNDOABLE`), it
revealed nothing to anyone (:func:`reveals`: no revealing event, no draw, roll or placement, no card
into another seat's hand), it was played by a person, and nobody else has acted since. What was taken
back can be done again until someone acts anew.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mqtui.engine.actions import Action, ActionKind, EventKind
from mqtui.engine.state import STAGE_OVER, State
from mqtui.hosting.host import Step

UNDO_DEPTH = 64

# action kinds a player may take back (if they also revealed nothing, see ``reveals``) ...
UNDOABLE: frozenset[ActionKind] = frozenset(
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
REVEALING: frozenset[EventKind] = frozenset(
    ("draw", "dice", "room", "colour", "search", "monster", "explore", "boss", "death", "power", "win")
)


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


def reveals(step: Step, after: State) -> bool:
    """True unless the step provably revealed nothing to anyone: conservative on purpose."""
    action, before = step.action, step.before
    if action.kind not in UNDOABLE or after.stage == STAGE_OVER:
        return True
    if any(e.kind in REVEALING for e in step.events):
        return True
    if _fingerprint(before) != _fingerprint(after):
        return True
    # no card may reach another seat's hand (they would have seen it)
    return any(
        h.seat != action.seat and h.hand != h0.hand
        for h, h0 in zip(after.heroes, before.heroes, strict=False)
    )


@dataclass
class UndoHistory:
    """The steps that may still be taken back, newest last, and the actions that may be done again.

    ``person(seat)`` says whether a seat is played by a person (a computer's actions are never taken
    back); ``mine(seat, who)`` whether an action of ``seat`` belongs to ``who``.
    """

    person: Callable[[int], bool]
    mine: Callable[[int, int | None], bool]
    depth: int = UNDO_DEPTH
    _undo: list[Step] = field(default_factory=list)
    _redo: list[Action] = field(default_factory=list)

    def record(self, step: Step, after: State, *, redoing: bool = False) -> None:
        """Note an applied step: it may be taken back, or it ends what could be."""
        if not redoing:
            self._redo.clear()
        if self._undo and self._undo[-1].action.seat != step.action.seat:
            self._undo.clear()  # someone else acted: nothing before this can be taken back
        if self.person(step.action.seat) and not reveals(step, after):
            self._undo.append(step)
            del self._undo[: -self.depth]
        else:
            self._undo.clear()

    def can_undo(self, who: int | None, state: State) -> bool:
        """The last step can be taken back by ``who``: it revealed nothing, no other seat has acted
        since, it was ``who``'s, and the game goes on."""
        return bool(self._undo) and self.mine(self._undo[-1].action.seat, who) and state.stage != STAGE_OVER

    def can_redo(self, who: int | None) -> bool:
        return bool(self._redo) and self.mine(self._redo[-1].seat, who)

    def why_not(self, state: State) -> str:
        if state.stage == STAGE_OVER:
            return "the game is over"
        if not self._undo:
            return "the last action revealed something, or someone else has acted since"
        return "the last undoable action is another player's"

    def take_back(self) -> Step:
        """The step to take back (the caller checked :meth:`can_undo`); it may be done again."""
        step = self._undo.pop()
        self._redo.append(step.action)
        return step

    def redo_next(self) -> Action:
        """The action to do again (the caller checked :meth:`can_redo`)."""
        return self._redo.pop()

    def drop_redo(self) -> None:
        self._redo.clear()
