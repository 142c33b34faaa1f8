"""Uniformly random legal actions: for tests, fuzzing and the simulator's baseline."""

from __future__ import annotations

import random

from mqtui.bots import Choice
from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.state import State


class RandomBot:
    kind = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        return Choice(self.random.choice(legal))
