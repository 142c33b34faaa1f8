"""Shared helpers for the engine tests: the engine, positions, actions by text, invariants.

Positions are built with the scenario builder (:func:`mqtui.engine.scenario.build`), from the same
tables a scenario file holds, so a test reads like a small scenario::

    s, ev = position(heroes=[{"level": 3, "hand": ["alleged-sword"]}, {}], rooms=[...])
    do(s, "0 equip {alleged-sword}")
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

from hypothesis import settings

from mqtui.engine.actions import Action, Event
from mqtui.engine.combat import hero_terms, monster_terms
from mqtui.engine.content import load_content
from mqtui.engine.defs import MonsterDef, TreasureDef
from mqtui.engine.game import Engine
from mqtui.engine.scenario import build, resolve_action
from mqtui.engine.state import HIDDEN, REWARD, State, cell_key, edge_key

PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Di", "yellow")]


@functools.cache
def engine() -> Engine:
    return Engine(load_content())


def position(**data: Any) -> tuple[State, list[Event]]:
    """A position from scenario tables (``heroes``, ``rooms``, ``monsters``, ``dice``, ``decks``...)."""
    return build(engine(), data)


def act(s: State, text: str) -> Action:
    """The action for a text in the notation; ``{card-id}`` names a card (see docs/scenarios.md)."""
    return resolve_action(engine(), s, text)


def do(s: State, *texts: str) -> list[Event]:
    """Apply actions by text; returns all their events."""
    events: list[Event] = []
    for text in texts:
        events += engine().apply(s, act(s, text))
    return events


def texts(events: list[Event]) -> str:
    """All public event texts, one per line (for ``in`` checks)."""
    return "\n".join(e.text for e in events)


def uid(card_id: str, n: int = 0) -> int:
    return engine().cards.by_id[card_id][n]


def names(uids: list[int]) -> list[str]:
    t = engine().cards
    return sorted(t.card_id(u) for u in uids)


def hero_at(s: State, seat: int) -> tuple[int, int]:
    h = s.heroes[seat]
    return h.x, h.y


def monster_at(s: State, card_id: str) -> tuple[int, int] | None:
    t = engine().cards
    for m in s.monsters:
        if t.card_id(m.card) == card_id:
            return m.x, m.y
    return None


def examples(n: int) -> int:
    """A Hypothesis test's number of examples: ``n`` in the default profile, as many times more in
    another profile as its ``max_examples`` is (the deep profile, ``pytest --deep``: ten times as many;
    the profiles are in conftest.py)."""
    return max(1, n * settings.default.max_examples // 100)


# -- invariants ------------------------------------------------------------------------------------


def held_cards(s: State) -> list[int]:
    """Every physical card in the state, once for each place that holds it."""
    cards: list[int] = []
    for h in s.heroes:
        cards += h.hand
        cards += h.equipped
        cards += h.belt
        cards += h.backpack
        cards += h.races
        cards += h.classes
        cards += [extra for extra in (h.half_breed, h.super_munchkin) if extra != HIDDEN]
    for room in s.rooms:
        for pile in room.piles:
            cards += pile
    for pile in (s.dxm, s.treasure, s.monster_deck, s.dxm_discard, s.treasure_discard, s.monster_discard):
        cards += pile
    cards += [m.card for m in s.monsters]
    if s.combat is not None and s.combat.boss_card != HIDDEN:
        cards.append(s.combat.boss_card)
    return cards


def card_places(s: State) -> Counter[int]:
    """How many places hold each physical card (every card must be in exactly one)."""
    return Counter(held_cards(s))


@functools.cache
def _every_card(e: Engine) -> set[int]:
    return set(range(len(e.cards.deck_of)))


_ENTRANCE = cell_key(0, 0)
_ENTRANCE_EDGES = tuple(edge_key(0, 0, d) for d in range(4))


def check_invariants(s: State, e: Engine | None = None) -> None:
    """Raise AssertionError when any rule that must always hold is broken (``e``: the engine of the
    game's content; default the base content's)."""
    e = e or engine()
    held = held_cards(s)
    every = _every_card(e)
    # the quick test: as many cards as there are, and every one of them (so each exactly once)
    if not (len(held) == len(every) and set(held) == every):
        places = Counter(held)
        assert set(places) == every, "a card is missing or unknown"
        doubled = [u for u, n in places.items() if n != 1]
        assert not doubled, f"cards in more than one place: {doubled}"
    for f in s.frames:
        if f.kind == REWARD:  # the cards being shared out: still with the winner, or given to the helper
            shared = s.heroes[s.active].hand + s.heroes[f.target].hand
            assert all(u in shared for u in f.options), "a reward frame names a card nobody holds"
    grid = s.grid
    for h in s.heroes:
        assert 1 <= h.level <= 10, f"{h.name} at Level {h.level}"
        assert 0 <= h.life <= h.max_life, f"{h.name} at {h.life} Life"
        assert h.gold >= 0, f"{h.name} has {h.gold} gold"
        assert h.moves >= 0, f"{h.name} has {h.moves} Moves"
        if not h.dead:
            assert cell_key(h.x, h.y) in grid, f"{h.name} stands outside the dungeon"
    for m in s.monsters:
        assert (m.x, m.y) != (0, 0), f"monster {m.id} is in the Entrance"
        assert cell_key(m.x, m.y) in grid
    edges = s.edges
    assert all(edges[k] == "passage" for k in _ENTRANCE_EDGES), "the Entrance's connections changed"
    assert grid[_ENTRANCE] == 0 and s.rooms[0].room == -1, "the Entrance moved"
    if s.stage != "over":
        who = e.deciding(s)
        assert who >= 0, "nobody must decide, but the game is not over"
        assert e.legal(s, who), f"no legal action for seat {who} ({s.frames[-1].kind})"


def random_game(
    seed: int, players: int = 4, max_rounds: int = 40, check: bool = False, rnd: random.Random | None = None
) -> tuple[State, list[Action]]:
    """Play a game with random legal choices; returns the final state and the actions taken."""
    e = engine()
    s, _ = e.new_game(PLAYERS[:players] if players <= 4 else _many(players), seed=seed)
    r = rnd or random.Random(seed)
    actions: list[Action] = []
    while s.stage != "over" and s.round <= max_rounds:
        seat = e.deciding(s)
        a = r.choice(e.legal(s, seat))
        e.apply(s, a)
        actions.append(a)
        if check:
            check_invariants(s)
    return s, actions


def _many(n: int) -> list[tuple[str, str]]:
    colours = ("red", "blue", "green", "yellow", "orange", "purple")
    return [(f"P{i}", colours[i]) for i in range(n)]


# -- content lookups (so that tests follow the content's numbers) -------------------------------------


def mdef(card_id: str) -> MonsterDef:
    return engine().cards.monster[uid(card_id)]


def tdef(card_id: str) -> TreasureDef:
    return engine().cards.treasure[uid(card_id)]


def rooms_with(*wants: dict[str, str], plain: bool = True) -> list[str]:
    """One room id per wish (colour -> arrow side, "" for no arrow), all on different tiles; ``plain``:
    rooms without rules of their own (a Deal is fine)."""
    out: list[str] = []
    tiles: set[int] = set()
    for want in wants:
        for r in engine().content.rooms:
            if r.tile in tiles or (plain and r.rules):
                continue
            if all(r.arrows.get(colour, "") == side for colour, side in want.items()):
                out.append(r.id)
                tiles.add(r.tile)
                break
        else:
            raise LookupError(f"no room with arrows {want}")
    return out


def plain_rooms(n: int) -> list[str]:
    """``n`` room ids on different tiles with no rules of their own (a Deal is fine)."""
    return rooms_with(*({} for _ in range(n)))


def strength_of(s: State) -> tuple[int, int]:
    """The two sides' strengths in the current combat, without dice."""
    t = engine().cards
    assert s.combat is not None
    return sum(v for _, v in hero_terms(t, s, s.combat)), sum(v for _, v in monster_terms(t, s, s.combat))


def fight(s: State, *dice: int) -> list[Event]:
    """Queue dice, then everyone passes through both combat windows (and nothing else)."""
    s.forced.extend(dice)
    e = engine()
    events: list[Event] = []
    while s.frames and s.frames[-1].kind == "window":
        events += e.apply(s, Action(e.deciding(s), "pass"))
    return events
