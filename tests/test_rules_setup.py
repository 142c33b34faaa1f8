"""RULES.md §1 (pieces) and §2 (setup)."""

from __future__ import annotations

import pytest
from engine_helpers import PLAYERS, act, card_places, do, engine, position

from mqtui.engine.cards import DXM, MONSTER, TREASURE
from mqtui.engine.defs import COLOURS
from mqtui.engine.state import edge_key


def new(n: int = 4, seed: int = 7):
    return engine().new_game(PLAYERS[:n], seed=seed)


def test_heroes_start_level_1_human_no_class_4_life_3_moves_300_gold():
    s, _ = new()
    for h in s.heroes:
        assert (h.level, h.life, h.max_life, h.moves, h.gold) == (1, 4, 4, 3, 300)
        assert h.races == [] and h.classes == []
        assert (h.x, h.y) == (0, 0)


def test_each_player_is_dealt_3_dxm_and_3_treasure():
    s, _ = new()
    t = engine().cards
    for h in s.heroes:
        decks = sorted(t.deck_of[u] for u in h.hand)
        assert decks == [DXM] * 3 + [TREASURE] * 3


def test_entrance_at_origin_with_a_passage_on_every_side():
    s, _ = new()
    assert s.rooms[0].room == -1 and (s.rooms[0].x, s.rooms[0].y) == (0, 0)
    assert [s.edges[edge_key(0, 0, d)] for d in range(4)] == ["passage"] * 4
    assert len(s.rooms) == 1


def test_decks_are_shuffled_by_the_seed():
    a, _ = new(seed=1)
    b, _ = new(seed=2)
    c, _ = new(seed=1)
    assert a.dxm != b.dxm and a.treasure != b.treasure and a.monster_deck != b.monster_deck
    assert a.tiles != b.tiles
    assert a.dxm == c.dxm and a.tiles == c.tiles


def test_every_card_starts_in_exactly_one_place():
    s, _ = new()
    places = card_places(s)
    assert set(places.values()) == {1}
    assert len(places) == len(engine().cards.deck_of)


def test_room_stack_holds_every_tile_once():
    s, _ = new()
    assert sorted(s.tiles) == sorted(t for t in engine().cards.tiles if t > 0)
    assert len(s.tiles) == 24


def test_deck_sizes_meet_the_minimums():
    t = engine().cards
    assert len(t.uids(DXM)) >= 50
    assert len(t.uids(TREASURE)) >= 80
    assert len(t.uids(MONSTER)) >= 60
    assert len(engine().content.rooms) == 48


def test_connection_bag_holds_73_pieces():
    bag = engine().content.tables.bag
    assert sum(bag.values()) == 73
    assert bag == {"passage": 22, "door": 26, "locked": 9, "hidden": 8, "wall": 8}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_to_six_players(n):
    players = [(f"P{i}", COLOURS[i]) for i in range(n)]
    s, _ = engine().new_game(players, seed=1)
    assert len(s.heroes) == n


@pytest.mark.parametrize("n", [1, 7])
def test_too_few_or_too_many_players_is_an_error(n):
    players = [(f"P{i}", COLOURS[i % 6]) for i in range(n)]
    with pytest.raises(ValueError):
        engine().new_game(players, seed=1)


def test_colours_must_differ_and_be_known():
    with pytest.raises(ValueError):
        engine().new_game([("A", "red"), ("B", "red")], seed=1)
    with pytest.raises(ValueError):
        engine().new_game([("A", "red"), ("B", "pink")], seed=1)


def test_setup_goes_round_in_seat_order_before_the_first_turn():
    s, _ = new(3)
    assert s.stage == "setup"
    assert engine().deciding(s) == 0
    do(s, "0 done")
    assert engine().deciding(s) == 1
    do(s, "1 done", "2 done")
    assert s.stage == "turn" and s.active == 0 and s.frames[-1].kind == "act"


def test_setup_allows_race_class_and_equipment_only():
    s, _ = position(
        phase="setup", heroes=[{"hand": ["elf-card", "hard-hat", "montage", "secret-shortcut"]}, {}]
    )
    legal = engine().legal(s, 0)
    assert act(s, "0 play {elf-card}") in legal
    assert act(s, "0 equip {hard-hat}") in legal
    assert act(s, "0 play {montage}") not in legal
    assert act(s, "0 play {secret-shortcut}") not in legal
    assert {a.kind for a in legal} == {"done", "play", "equip", "stow"}


def test_first_turn_starts_with_a_dxm_draw():
    s, _ = new(2)
    hand = len(s.heroes[0].hand)
    do(s, "0 done", "1 done")
    assert len(s.heroes[0].hand) == hand + 1
    assert len(s.heroes[1].hand) == hand
