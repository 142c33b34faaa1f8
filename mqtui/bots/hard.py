"""The hard bot (placeholder while the normal bot is being built)."""

from __future__ import annotations

from mqtui.bots import Choice
from mqtui.bots.normal import decide
from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.state import State


class HardBot:
    kind = "hard"
    needs_view = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        assert view is not None
        return decide(engine.cards, view, seat, legal)
