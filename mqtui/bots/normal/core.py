"""The normal bot's knobs and its decision context: the tuning constants, :class:`Params` and :class:`Ctx`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from mqtui.bots import Choice
from mqtui.bots.eval import best_loadout, card_value
from mqtui.bots.knowledge import unseen_cards
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.state import Hero, State

Cell = tuple[int, int]
T = TypeVar("T")
_MISSING = object()  # (a memoised fact may be None)

POWER_VALUES: dict[str, float] = {
    "combat_bonus": 0.45,  # per point
    "bonus_vs_tag": 0.1,
    "escape_bonus": 0.12,
    "win_ties": 0.3,
    "extra_moves": 0.35,
    "search_bonus": 0.05,
    "sell_bonus": 0.002,
    "carry_big": 0.12,
    "backpack": 0.1,
    "d10_escape": 0.25,
    "d10_heal": 0.3,
    "d10_treasure": 0.3,
}
FLAT_POWERS = ("win_ties", "d10_escape", "d10_heal", "d10_treasure")
LIFE_COST = {4: 0.25, 3: 0.35, 2: 0.6}  # losing one Life from this many (1: death, costed apart)
MOVE_COST = 0.06  # a Move spent on the way somewhere
TURN_DISCOUNT = 0.8  # a goal one turn further away is worth this much
TENTH_LEVEL = 4.0  # Level 10 opens the final fight: worth far more than a level
HOPE_MARGIN = 3  # a room's monsters count as a fight the hero could win up to this much stronger
HOPE_FIGHTS = 1.0  # fights left per hero that make a full hope
HOPE_POWER = 2.0  # hope falls off steeply as the fights run out
RIVAL_HOPE = 0.25  # a Level 9 rival with this much hope is close enough to hurry for the boss


@dataclass(frozen=True)
class Params:
    """Knobs of the heuristic (the hard bot and the tuning runs change them)."""

    fight_floor: float = 0.05  # least expected value for walking into a fight
    interfere: float = 1.0  # weight of an opponent's progress when deciding to interfere
    help_margin: float = 0.05  # least expected value for accepting to help
    leader_fear: float = 1.0  # how much interference the bot expects when it leads
    curse_floor: float = 0.15  # least value (to the bot) for playing a curse at once
    boss_ready: float = 0.7  # at Level 10, gather strength until the boss odds reach this (0: go at once)
    dash: bool = False  # keep Moves cards from Level 8 on, for reaching the Entrance the turn it hits 10


@dataclass
class Ctx:
    """One decision: the view, the seat, the legal actions, and memoised facts about the hero."""

    t: CardTable
    s: State
    seat: int
    legal: list[Action]
    p: Params
    me: Hero = field(init=False)
    by_kind: dict[str, list[Action]] = field(init=False)
    _loadout: frozenset[int] | None = None
    _unseen: dict[str, list[int]] | None = None
    _explore: float | None = None
    _treasure: float | None = None  # an unknown Treasure card's worth (fights.treasure_worth)
    memo: dict[object, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.me = self.s.heroes[self.seat]
        self.by_kind = {}
        for a in self.legal:
            self.by_kind.setdefault(a.kind, []).append(a)

    def has(self, kind: str) -> list[Action]:
        return self.by_kind.get(kind, [])

    @property
    def loadout(self) -> frozenset[int]:
        if self._loadout is None:
            self._loadout = best_loadout(self.t, self.me)[0]
        return self._loadout

    @property
    def unseen(self) -> dict[str, list[int]]:
        if self._unseen is None:
            self._unseen = unseen_cards(self.t, self.s, self.seat)
        return self._unseen

    def value(self, uid: int) -> float:
        return card_value(self.t, self.me, uid, self.loadout)

    def cached(self, key: object, make: Callable[[], T]) -> T:
        """Memoise a fact for the length of this decision."""
        value = self.memo.get(key, _MISSING)
        if value is _MISSING:
            value = self.memo[key] = make()
        return value  # type: ignore[return-value]

    def first(self, *steps: Callable[[Ctx], Choice | None]) -> Choice | None:
        """The choice of the first step that makes one (each step is asked in turn)."""
        for step in steps:
            choice = step(self)
            if choice is not None:
                return choice
        return None
