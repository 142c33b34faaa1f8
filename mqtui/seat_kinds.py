"""Who can play a seat: a person, or a computer player of one of the kinds ``mqtui.bots`` makes.

A module of its own, below everything else, so that the save checks can tell a known kind from an
unknown one without importing the computer players themselves.
"""

from __future__ import annotations

PEOPLE_KINDS: tuple[str, ...] = ("human", "remote")  # at this terminal; over the network
BOT_KINDS: tuple[str, ...] = ("random", "easy", "normal", "hard")  # mqtui.bots.make_bot makes each of these
SEAT_KINDS = frozenset((*PEOPLE_KINDS, *BOT_KINDS))
