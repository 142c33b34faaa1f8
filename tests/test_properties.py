"""Properties of random games: invariants after every action, exact replays, and refusals."""

from __future__ import annotations

import random

import msgspec
import pytest
from engine_helpers import PLAYERS, check_invariants, engine, examples, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from mqtui.bots import make_bot
from mqtui.engine.actions import SPECS, Action, IllegalAction
from mqtui.engine.game import copy_state
from mqtui.engine.view import view_for


def encode(s) -> bytes:
    return msgspec.msgpack.encode(s)


@pytest.mark.slow
@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), choices=st.randoms(use_true_random=False))
def test_invariants_hold_after_every_action(seed, players, choices):
    """Every card in exactly one place; Levels 1-10; Life 0..max; gold >= 0; no monster in the Entrance;
    the Entrance unchanged; someone can always act until the game ends."""
    random_game(seed, players=players, max_rounds=12, check=True, rnd=choices)


@pytest.mark.parametrize("seed", range(6))
def test_replay_from_seed_and_actions_is_byte_identical(seed):
    s, actions = random_game(seed, players=2 + seed % 4, max_rounds=15)
    e = engine()
    players = PLAYERS[: len(s.heroes)] if len(s.heroes) <= 4 else None
    r, _ = e.new_game(players or [(h.name, h.colour) for h in s.heroes], seed=seed)
    for a in actions:
        e.apply(r, a)
    assert encode(r) == encode(s)


def test_copied_state_plays_on_identically():
    s, _ = random_game(3, max_rounds=5)
    c = copy_state(s)
    e = engine()
    r = random.Random(1)
    for _ in range(300):
        if s.stage == "over":
            break
        a = r.choice(e.legal(s, e.deciding(s)))
        e.apply(s, a)
        e.apply(c, a)
        assert encode(s) == encode(c)


def test_a_copy_shares_nothing_that_can_change():
    """``copy_state`` copies every list, dict and Struct (a fight with cards played in it, piles in the
    rooms...): the copy encodes to the same bytes, and no container of it is one of the original's."""
    e = engine()
    s, _ = e.new_game(PLAYERS[:3], seed=5)
    r = random.Random(5)
    while not (s.combat and s.combat.mods and s.combat.monster_dice and any(room.piles for room in s.rooms)):
        e.apply(s, r.choice(e.legal(s, e.deciding(s))))  # (124 actions)
    c = copy_state(s)
    assert encode(c) == encode(s) and c == s
    originals: dict[int, object] = {}

    def walk(value: object, keep: dict[int, object]) -> None:
        if isinstance(value, msgspec.Struct):
            keep[id(value)] = value
            for name in value.__struct_fields__:
                walk(getattr(value, name), keep)
        elif isinstance(value, list | dict):
            keep[id(value)] = value
            for item in value.values() if isinstance(value, dict) else value:
                walk(item, keep)

    walk(s, originals)
    copies: dict[int, object] = {}
    walk(c, copies)
    assert len(copies) == len(originals) > 50
    assert not set(copies) & set(originals)


@st.composite
def junk_actions(draw, seats: int):
    kind = draw(st.sampled_from([*SPECS, "fly"]))
    return Action(
        draw(st.integers(-1, seats)),
        kind,
        draw(st.integers(-2, 400)),
        draw(st.integers(-2, 6)),
        draw(st.integers(-2, 600)),
    )


@settings(max_examples=examples(60))
@given(seed=st.integers(0, 50), steps=st.integers(0, 150), data=st.data())
def test_apply_of_an_action_not_in_legal_raises_illegal_action(seed, steps, data):
    e = engine()
    s, _ = e.new_game(PLAYERS[:3], seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if s.stage == "over":
            break
        e.apply(s, r.choice(e.legal(s, e.deciding(s))))
    before = encode(s)
    for _ in range(10):
        a = data.draw(junk_actions(3))
        if s.stage != "over" and a in e.legal(s, e.deciding(s)):
            continue
        with pytest.raises(IllegalAction) as info:
            e.apply(s, a)
        assert str(info.value)
        assert encode(s) == before  # a refused action changes nothing


def test_junk_sides_and_directions_still_have_a_text():
    """A refused action is named in its explanation, whatever its numbers."""
    assert str(Action(0, "dice", -1, 2)) == "0 dice #-1 2"
    assert str(Action(1, "wall", 5, 6)) == "1 wall #5 6"
    assert str(Action(1, "use", 5, -1)) == "1 use #5 -1"


def test_stale_actions_are_refused():
    e = engine()
    s, _ = e.new_game(PLAYERS[:2], seed=1)
    with pytest.raises(IllegalAction, match="stale"):
        e.apply(s, Action(0, "done"), expect_n=s.n + 1)
    e.apply(s, Action(0, "done"), expect_n=s.n)
    assert s.n == 1


def test_state_number_counts_accepted_actions():
    s, actions = random_game(2, max_rounds=4)
    assert s.n == len(actions) == s.actions


@pytest.mark.slow
def test_a_hundred_random_games_run_without_errors():
    """Random games of 2 to 6 players, ten rounds each, end without an error and with the invariants.

    (Branch coverage saturates after a few dozen of these games; the rest are here for the
    combinations of state that coverage cannot see. The deep run, tests/test_deep.py, plays thousands
    more, with computer players, packs, saves and undo.)"""
    errors = []
    games = 100
    for seed in range(games):
        try:
            s, _ = random_game(1000 + seed, players=2 + seed % 5, max_rounds=10)
            check_invariants(s)
        except Exception as exc:  # collect them all
            errors.append(f"seed {1000 + seed}: {type(exc).__name__}: {exc}")
    assert not errors, "\n".join(errors[:10])


def test_random_games_use_every_action_kind_and_can_end():
    """Long random games reach every kind of decision; a game reaches the boss and is won.

    Random players seldom climb to Level 10 in the tuned dungeon (docs/balance.md), so the end is
    played by one normal player among random ones, with the invariants checked as it goes."""
    kinds: set[str] = set()
    for seed in range(40):
        s, actions = random_game(seed, players=2 + seed % 3, max_rounds=60)
        check_invariants(s)
        kinds.update(a.kind for a in actions)
        if kinds == set(SPECS):
            break
    assert kinds == set(SPECS), f"never played: {set(SPECS) - kinds}"
    e = engine()
    s, _ = e.new_game(PLAYERS[:3], seed=1)
    bots = [make_bot("normal", 1), make_bot("random", 2), make_bot("random", 3)]
    while s.stage != "over" and s.round <= 60:
        seat = e.deciding(s)
        e.apply(s, bots[seat].choose(e, view_for(s, seat), seat, list(e.legal(s, seat))).action)
        check_invariants(s)
    assert s.stage == "over" and s.winners


def test_the_invariant_check_finds_a_card_in_two_places_or_in_none():
    s, _ = random_game(3, max_rounds=3)
    check_invariants(s)
    s.dxm.append(s.treasure[0])
    with pytest.raises(AssertionError, match="more than one place"):
        check_invariants(s)
    s.dxm.pop()
    s.dxm.pop()
    with pytest.raises(AssertionError, match="missing"):
        check_invariants(s)
