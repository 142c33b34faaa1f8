"""Computer players. A bot sees only its seat's view and chooses among the legal actions.

``make_bot(kind, seed)`` builds one; every bot has ``choose(engine, view, seat, legal) -> Choice``.
A new kind goes into ``BOT_KINDS`` in :mod:`mqtui.seat_kinds` (which the save checks read) and here.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.state import State
from mqtui.seat_kinds import BOT_KINDS as BOT_KINDS  # the list of kinds lives below the saves


class Choice(NamedTuple):
    action: Action
    why: str = ""  # one line for the log, where the reason matters


class Bot(Protocol):
    kind: str
    needs_view: bool  # False: the bot ignores the view, and callers may pass None instead of building one

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice: ...


def make_bot(kind: str, seed: int = 0) -> Bot:
    if kind == "random":
        from mqtui.bots.random_bot import RandomBot

        return RandomBot(seed)
    if kind == "easy":
        from mqtui.bots.easy import EasyBot

        return EasyBot(seed)
    if kind == "normal":
        from mqtui.bots.normal import NormalBot

        return NormalBot(seed)
    if kind == "hard":
        from mqtui.bots.hard import HardBot

        return HardBot(seed)
    raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
