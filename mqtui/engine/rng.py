"""The game's only source of chance: a SplitMix64 generator whose whole state is one integer kept in
the game state, so a seed plus the action list replays a game exactly and a save needs one number."""

from __future__ import annotations

from typing import Protocol, TypeVar

MASK = (1 << 64) - 1
T = TypeVar("T")


class HasRng(Protocol):
    rng: int
    forced: list[int]


def _next(holder: HasRng) -> int:
    z = holder.rng = (holder.rng + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def below(holder: HasRng, n: int) -> int:
    """A uniform integer in [0, n). Not used for dice, so forced results never touch shuffles."""
    return _next(holder) % n


def roll(holder: HasRng, sides: int) -> int:
    """A die roll 1..sides. Scenarios and tests may queue results in ``holder.forced``."""
    if holder.forced:
        return holder.forced.pop(0)
    return _next(holder) % sides + 1


def shuffle(holder: HasRng, items: list[T]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = _next(holder) % (i + 1)
        items[i], items[j] = items[j], items[i]


def seed_state(seed: int) -> int:
    return seed & MASK
