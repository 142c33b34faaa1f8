"""One seat's share of a game at one moment: the one place a seat's view and its legal actions are put
together, for the local store, the network authority, the replay timeline and ``mqtui hint``."""

from __future__ import annotations

from typing import NamedTuple

from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER, State
from mqtui.engine.view import view_for


class SeatView(NamedTuple):
    """What ``seat`` may know now (a spectator is seat -1): the state as it sees it (``view_for``),
    what it may do (empty unless it decides now), who decides, the state number, whether it is over."""

    seat: int
    view: State
    legal: tuple[Action, ...]
    deciding: int
    n: int
    over: bool


def seat_view(engine: Engine, s: State, seat: int, with_legal: bool = True) -> SeatView:
    """``seat``'s share of ``s``; ``with_legal=False`` leaves out the legal actions (a replay acts on
    nothing)."""
    deciding = engine.deciding(s)
    legal = tuple(engine.legal(s, seat)) if with_legal and seat >= 0 and deciding == seat else ()
    return SeatView(seat, view_for(s, seat), legal, deciding, s.n, s.stage == STAGE_OVER)
