"""The end of a local game: the deciding fight, found by replaying the game's log.

When a game ends, the engine has already cleared the fight that decided it. The game screen keeps
that fight on screen (its cards and dice) until the player moves on, and the game-over screen sums it
up; both get it from the game's :class:`~mqtui.timeline.Timeline` (a replay of a few hundred actions
takes a few tens of milliseconds). A game this program cannot replay (a networked one) shows the
result line from its log instead.
"""

from __future__ import annotations

import dataclasses

from mqtui.engine.game import copy_state
from mqtui.engine.state import State
from mqtui.store import Snapshot
from mqtui.timeline import Timeline, TimelineError


def timeline_of(store: object) -> Timeline | None:
    """The timeline of a local store's game, or None (a networked game, or a log that fails)."""
    try:
        return Timeline.from_store(store)
    except TimelineError:
        return None


def deciding_fight(timeline: Timeline | None) -> State | None:
    """The whole state just before a finished game's last fight was decided, or None."""
    if timeline is None:
        return None
    at = timeline.deciding_fight()
    return None if at is None else timeline.state(at)


def with_final_fight(snap: Snapshot, fight: State | None) -> Snapshot:
    """``snap`` (a finished game) with the deciding fight put back on the board, so that the fight
    pane shows its cards and dice; unchanged if there is no such fight."""
    if fight is None or fight.combat is None or snap.view.combat is not None:
        return snap
    view = copy_state(snap.view)
    before = copy_state(fight)
    view.combat, view.monsters = before.combat, before.monsters
    return dataclasses.replace(snap, view=view)
