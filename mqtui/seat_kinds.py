"""Who can play a seat: a person, or a computer player of one of the kinds ``mqtui.bots`` makes.

A module of its own, below everything else, so that the save checks can tell a known kind from an
unknown one without importing the computer players themselves.
"""

from __future__ import annotations

from enum import StrEnum


class SeatKind(StrEnum):
    """The kind of a seat. Each is the string saves, messages and the command line spell it with."""

    HUMAN = "human"  # a person at this terminal
    REMOTE = "remote"  # a person over the network
    RANDOM = "random"  # the computer players, weakest first but for random (mqtui.bots.make_bot)
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


HUMAN, REMOTE = SeatKind.HUMAN, SeatKind.REMOTE
PEOPLE_KINDS: tuple[SeatKind, ...] = (HUMAN, REMOTE)  # seats played by a person: their actions can be undone
BOT_KINDS: tuple[SeatKind, ...] = (SeatKind.RANDOM, SeatKind.EASY, SeatKind.NORMAL, SeatKind.HARD)
SEAT_KINDS = frozenset(SeatKind)
