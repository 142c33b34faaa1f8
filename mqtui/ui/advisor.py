"""The advisor in the app: the advice for the decision on screen, and how often the player took it.

The advice comes from :func:`mqtui.bots.advice.advise` on the snapshot's view, which is the seat's own
view (the same thing a computer player gets), on a blind engine of the seat's own, so it can never tell
the player anything the seat cannot see. The tally (advice offered, advice followed) lives beside the store for the length of the game, so
the game-over screen can read it with :func:`tally_for`.
"""

from __future__ import annotations

import contextlib
import weakref
from dataclasses import dataclass

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


def advice_for(snap: Snapshot, cards: CardTable) -> Advice | None:
    """The advice for the decision in front of the snapshot's seat; None when there is no real choice.
    (The hard bot's look-ahead: up to ``ADVICE_MS``.)"""
    if len(snap.legal) < 2 or snap.deciding != snap.seat or snap.over:
        return None
    return advise(
        _blind(cards, snap.seat),
        snap.view,
        snap.seat,
        list(snap.legal),
        lambda a: action_label(a, snap, cards, short=True),
    )


__all__ = ["AdviceTally", "advice_for", "tally_for"]
