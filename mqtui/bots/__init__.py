"""Computer players. A bot sees only its seat's view and chooses among the legal actions.

``make_bot(kind, seed)`` builds one; every bot has ``choose(engine, view, seat, legal) -> Choice``.
``engine`` is the seat's own :meth:`~mqtui.engine.game.Engine.blind` engine, which has seen no state
but the ones this seat's bot asked it about, and ``view`` the seat's view: nothing a bot is handed
leads to another seat's hand or the deck order (:meth:`mqtui.hosting.Host.decide` asks the bots of a
game; tests/test_blind.py walks everything a bot is handed). ``seat_bot`` is the bot of a seat of a
seeded game, the same in the app, on a server and in ``mqtui sim``.
A new kind goes into ``BOT_KINDS`` in :mod:`mqtui.seat_kinds` (which the save checks read) and here.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple, Protocol

from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.state import State
from mqtui.seat_kinds import BOT_KINDS as BOT_KINDS  # the list of kinds lives below the saves

ADVISOR = "advisor"  # a seat that takes the advisor's suggestion: for measuring it in ``mqtui sim`` only


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
    if kind == ADVISOR:
        from mqtui.bots.advice import AdvisorBot

        return AdvisorBot(seed)
    raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the computer player of ``seat`` in the game dealt from ``game_seed``.

    A hash, not arithmetic: the game seed decides the deal, so a bot's seed must not give it away."""
    key = f"{game_seed}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8, person=b"mqtui.bot").digest(), "big")


def seat_bot(kind: str, game_seed: int, seat: int) -> Bot:
    """The computer player of ``kind`` for ``seat`` of the game with ``game_seed`` (raises ValueError)."""
    return make_bot(kind, bot_seed(game_seed, seat))
