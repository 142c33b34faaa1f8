"""RULES.md §3.2 and §8: moving, connection costs, the spend-all rule, entering rooms."""

from __future__ import annotations

import pytest
from engine_helpers import act, do, engine, fight, hero_at, plain_rooms, position, texts

from mqtui.engine.actions import IllegalAction

A, B = plain_rooms(2)


def corridor(kind: str, moves: int = 3, **hero: object):
    """Ann in room A at (1,0) whose east side is ``kind``, leading to room B at (2,0)."""
    return position(
        heroes=[{"at": [1, 0], "moves": moves, **hero}, {}],
        rooms=[{"id": A, "at": [1, 0], "connections": {"E": kind}}, {"id": B, "at": [2, 0]}],
    )


@pytest.mark.parametrize(("kind", "cost"), [("passage", 1), ("door", 1), ("locked", 3), ("hidden", 3)])
def test_connection_costs(kind, cost):
    s, _ = corridor(kind)
    do(s, "0 move E")
    assert hero_at(s, 0) == (2, 0)
    assert s.heroes[0].moves == 3 - cost


def test_walls_cannot_be_passed():
    s, _ = corridor("wall")
    assert act(s, "0 move E") not in engine().legal(s, 0)
    with pytest.raises(IllegalAction, match="wall"):
        do(s, "0 move E")


def test_locked_door_costs_three_moves():
    s, _ = corridor("locked", moves=4)
    do(s, "0 move E")
    assert s.heroes[0].moves == 1


def test_spend_all_passes_a_costly_connection_with_all_moves_left():
    s, _ = corridor("hidden", moves=1)
    ev = do(s, "0 move E")
    assert hero_at(s, 0) == (2, 0) and s.heroes[0].moves == 0
    assert "through a hidden (1 Move)" in texts(ev)


def test_spend_all_is_gone_after_spending_a_move():
    s, _ = position(
        heroes=[{"moves": 3}, {}],
        rooms=[{"id": A, "at": [1, 0], "connections": {"E": "locked"}}, {"id": B, "at": [2, 0]}],
    )
    do(s, "0 move E")
    assert s.heroes[0].moves == 2 and s.heroes[0].moved
    assert act(s, "0 move E") not in engine().legal(s, 0)


def test_spend_all_is_gone_after_a_deal_or_search():
    s, _ = corridor("locked", moves=2)
    do(s, "0 search")  # A is a plain room; the search costs 1 Move
    assert act(s, "0 move E") not in engine().legal(s, 0)


def test_playing_cards_does_not_spend_the_spend_all_rule():
    s, _ = corridor("locked", moves=2, hand=["hard-hat", "secret-shortcut"])
    do(s, "0 equip {hard-hat}")
    assert act(s, "0 move E") in engine().legal(s, 0)


def test_no_moves_left_after_moving_means_no_more_movement():
    s, _ = corridor("passage", moves=0, moved=True)
    assert "move" not in {a.kind for a in engine().legal(s, 0)}


def test_a_hero_with_no_moves_who_has_not_moved_may_still_spend_all():
    s, _ = corridor("locked", moves=0)
    do(s, "0 move E")
    assert hero_at(s, 0) == (2, 0) and s.heroes[0].moved


def test_leaving_a_costly_room_adds_its_leave_cost():
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}],
        rooms=[
            {"id": "pit-of-despair", "at": [1, 0], "connections": {"E": "passage"}},
            {"id": B, "at": [2, 0]},
        ],
    )
    ev = do(s, "0 move E")
    assert "(3 Moves)" in texts(ev) and s.heroes[0].moves == 0


def test_heal_on_enter_rooms_heal_the_hero_who_walks_in():
    s, _ = position(heroes=[{"life": 2}, {}], rooms=[{"id": "hot-spring", "at": [1, 0]}])
    do(s, "0 move E")
    assert s.heroes[0].life == 3


def test_entering_a_room_with_a_monster_starts_combat_before_any_further_move():
    s, _ = position(
        heroes=[{}, {}],
        rooms=[{"id": A, "at": [1, 0], "connections": {"E": "passage"}}, {"id": B, "at": [2, 0]}],
        monsters=[{"card": "skeleton-intern", "at": [1, 0], "colour": "blue"}],
    )
    do(s, "0 move E")
    assert s.combat is not None and (s.combat.x, s.combat.y) == (1, 0)
    assert "move" not in {a.kind for a in engine().legal(s, 0)}


def test_starting_the_action_phase_in_a_monster_room_starts_combat():
    s, ev = position(
        phase="turn",
        heroes=[{"at": [1, 0]}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "skeleton-intern", "at": [1, 0], "colour": "blue"}],
    )
    assert s.combat is not None and "Combat in" in texts(ev)


def test_several_combats_in_one_turn():
    s, _ = position(
        heroes=[{"level": 5}, {}],
        rooms=[{"id": A, "at": [1, 0], "connections": {"E": "passage"}}, {"id": B, "at": [2, 0]}],
        monsters=[
            {"card": "damp-squib", "at": [1, 0], "colour": "blue"},
            {"card": "sock-gnome", "at": [2, 0], "colour": "blue"},
        ],
    )
    do(s, "0 move E")
    fight(s, 6, 1)
    assert s.combat is None and s.heroes[0].level == 6
    do(s, "0 move E")
    fight(s, 6, 1)
    assert s.heroes[0].level == 7 and not s.monsters


def test_moving_into_unexplored_space_with_no_rooms_left_is_impossible():
    s, _ = position(heroes=[{}, {}])
    s.tiles.clear()
    engine().forget()
    assert "move" not in {a.kind for a in engine().legal(s, 0)}
    with pytest.raises(IllegalAction, match="no rooms are left"):
        do(s, "0 move N")


def test_trading_with_a_hero_in_the_same_room_costs_nothing():
    s, _ = position(heroes=[{"equipped": ["hard-hat"]}, {}, {"at": [1, 0]}], rooms=[{"id": A, "at": [1, 0]}])
    assert act(s, "0 give {hard-hat} @1") in engine().legal(s, 0)
    assert act(s, "0 give {hard-hat} @2") not in engine().legal(s, 0)
    do(s, "0 give {hard-hat} @1")
    assert s.heroes[0].moves == 3 and not s.heroes[0].moved
