"""The advisor in the app: the advice for the decision on screen, and how often the player took it.

The advice comes from :func:`mqtui.bots.advice.advise` on the snapshot's view, which is the seat's own
view (the same thing a computer player gets), on a blind engine of the seat's own, so it can never tell
the player anything the seat cannot see. The app asks :func:`advice_apart`, which works it out in a
low-priority child process (:mod:`mqtui.apart`): the app's loop and the host's other sessions never wait
for the look-ahead. The tally (advice offered, advice followed) lives beside the store for the length of the game, so
the game-over screen can read it with :func:`tally_for`.
"""

from __future__ import annotations

import contextlib
import weakref
from dataclasses import dataclass

from mqtui.apart import run_apart
from mqtui.bots.advice import Advice, advise
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.game import Engine
from mqtui.store import Snapshot
from mqtui.ui.describe import action_label


@dataclass
class AdviceTally:
    offered: int = 0  # decisions where the player saw the advice
    followed: int = 0  # ... and did what it said

    def record(self, advice: Advice, action: Action) -> None:
        self.offered += 1
        self.followed += advice.action == action

    def line(self) -> str:
        """For the game-over screen: empty when the advisor was never shown."""
        if not self.offered:
            return ""
        share = self.followed / self.offered
        return f"You took the advisor's advice {self.followed} of {self.offered} times ({share:.0%})."


_TALLIES: dict[int, AdviceTally] = {}  # by id(store), dropped when the store goes


def tally_for(store: object) -> AdviceTally:
    """The advice tally of the game in ``store`` (a new one the first time)."""
    key = id(store)
    tally = _TALLIES.get(key)
    if tally is None:
        tally = _TALLIES[key] = AdviceTally()
        with contextlib.suppress(TypeError):  # (a store that cannot be weakly referenced keeps its tally)
            weakref.finalize(store, _TALLIES.pop, key, None)
    return tally


_ENGINES: dict[int, dict[int, Engine]] = {}  # by id(cards): each seat's blind engine for the advisor


def _blind(cards: CardTable, seat: int) -> Engine:
    """The advisor's engine for ``seat``: blind, with caches of its own (see Engine.blind)."""
    key = id(cards)
    seats = _ENGINES.get(key)
    if seats is None:
        seats = _ENGINES[key] = {}
        weakref.finalize(cards, _ENGINES.pop, key, None)
    engine = seats.get(seat)
    if engine is None:
        engine = seats[seat] = Engine(cards.content, cards.private())
    engine.forget()
    return engine


APART_S = 10.0  # the most a look-ahead done apart may take on the clock (the machine may be busy)


def has_choice(snap: Snapshot) -> bool:
    """Whether the snapshot's seat has a real decision in front of it (something to advise on)."""
    return len(snap.legal) >= 2 and snap.deciding == snap.seat and not snap.over


def advice_for(snap: Snapshot, cards: CardTable) -> Advice | None:
    """The advice for the decision in front of the snapshot's seat; None when there is no real choice.
    (The hard bot's look-ahead: up to ``ADVICE_MS`` of CPU time.)"""
    if not has_choice(snap):
        return None
    return advise(
        _blind(cards, snap.seat),
        snap.view,
        snap.seat,
        list(snap.legal),
        lambda a: action_label(a, snap, cards, short=True),
    )


async def advice_apart(snap: Snapshot, cards: CardTable) -> Advice | None:
    """:func:`advice_for`, worked out in a low-priority child process (a thread where there is none).
    Raises ``TimeoutError`` after ``APART_S``, :class:`mqtui.apart.ApartFailed` if the look-ahead failed."""
    if not has_choice(snap):
        return None

    def job() -> list[object] | None:
        advice = advice_for(snap, cards)
        if advice is None or advice.action not in snap.legal:
            return None
        return [snap.legal.index(advice.action), advice.text]

    answer = await run_apart(job, APART_S)
    if answer is None:
        return None
    index, text = answer
    return Advice(snap.legal[int(index)], str(text))


__all__ = ["APART_S", "AdviceTally", "advice_apart", "advice_for", "has_choice", "tally_for"]
