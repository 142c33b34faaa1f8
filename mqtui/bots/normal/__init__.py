"""The normal bot: a sound heuristic player that reads only its seat's view.

Every decision is one step of a plan made afresh from the view: build the hero (best legal gear, the
race and class that help), then spend Moves on what is worth most (a fight it can win, exploring, a
pile of loot, a Deal, a search), and end the turn when nothing useful remains. In fights it weighs the
odds from the dice (counting the interference it expects) against what winning and losing are worth;
it interferes only against players who threaten to win; it helps only when it pays.

The package follows the policy's parts: ``core`` (the knobs and the decision context), ``hero``
(building the hero), ``rivals`` (threat and hope), ``turn`` (the action phase), ``moves`` (movement
planning), ``fights`` (what a fight is worth), ``windows`` (combat windows) and ``frames`` (the small
frames). This module dispatches a decision to the part for the current frame.
"""

from __future__ import annotations

from collections.abc import Callable

from mqtui.bots import Choice
from mqtui.bots.normal.core import Ctx, Params
from mqtui.bots.normal.frames import charity, flee, invite, lose_item, reward, setup
from mqtui.bots.normal.hero import build
from mqtui.bots.normal.moves import distance_home, hostile_at, move_options
from mqtui.bots.normal.rivals import hope, threat
from mqtui.bots.normal.turn import act, quick_plays
from mqtui.bots.normal.windows import FightView, fight_view, helper_strength, window, would_accept
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.game import Engine
from mqtui.engine.state import ACT, CHARITY, FLEE, INVITE, LOSE_ITEM, REWARD, SETUP, WINDOW, State


class NormalBot:
    kind = "normal"
    needs_view = True

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        self.seed = seed
        self.params = params or Params()

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        assert view is not None, "the normal bot needs the seat's view"
        return decide(engine.cards, view, seat, legal, self.params)


def decide(t: CardTable, s: State, seat: int, legal: list[Action], params: Params | None = None) -> Choice:
    """The normal policy on a view (or on a sampled full state, inside the hard bot's rollouts)."""
    if len(legal) == 1:
        return Choice(legal[0])
    ctx = Ctx(t, s, seat, legal, params or Params())
    kind = s.frames[-1].kind
    handler = HANDLERS.get(kind)
    choice = handler(ctx) if handler else None
    if choice is None or choice.action not in legal:
        fallback = next((a for a in legal if a.kind in ("end", "pass", "done", "decline")), legal[0])
        return Choice(fallback)
    return choice


HANDLERS: dict[str, Callable[[Ctx], Choice | None]] = {
    SETUP: setup,
    ACT: act,
    WINDOW: window,
    INVITE: invite,
    REWARD: reward,
    LOSE_ITEM: lose_item,
    FLEE: flee,
    CHARITY: charity,
}

__all__ = [
    "Ctx",
    "FightView",
    "NormalBot",
    "Params",
    "build",
    "decide",
    "distance_home",
    "fight_view",
    "helper_strength",
    "hope",
    "hostile_at",
    "invite",
    "move_options",
    "quick_plays",
    "threat",
    "would_accept",
]
