"""RULES.md §3.2 (exploring, Deals, clean-up) and §6 (the Search table)."""

from __future__ import annotations

import pytest
from engine_helpers import act, do, engine, monster_at, names, plain_rooms, position, tdef, texts

from mqtui.engine.actions import IllegalAction
from mqtui.engine.state import cell_key, edge_key

A, B = plain_rooms(2)


def explore_position(**extra):
    data = {
        "heroes": [{"colour": "red"}, {"colour": "blue"}],
        "decks": {"rooms": [A], "monster": ["skeleton-intern"], "dxm": ["montage", "second-wind"]},
        "dice": [2],
    }
    data.update(extra)
    return position(**data)


def test_exploring_draws_a_dxm_card_places_a_room_and_a_monster():
    s, _ = explore_position()
    ev = do(s, "0 move N")
    assert cell_key(0, -1) in s.grid
    assert engine().cards.room(s.rooms[-1].room).id == A
    assert monster_at(s, "skeleton-intern") == (0, -1)
    assert names(s.heroes[0].hand) == ["montage"]
    assert names(s.heroes[1].hand) == ["second-wind"]  # the monster's target draws
    assert "Ann explores north" in texts(ev)


def test_explored_room_gets_a_connection_on_every_side_but_keeps_existing_ones():
    s, _ = explore_position(decks={"rooms": [A], "bag": ["wall", "hidden", "locked"]})
    do(s, "0 move N")
    # the new room's S side is the Entrance's N passage; the others come from the bag in N, E, W order
    assert [s.edges[edge_key(0, -1, d)] for d in range(4)] == ["wall", "hidden", "passage", "locked"]
    assert s.edges[edge_key(0, 0, 0)] == "passage"


def test_exploring_ends_movement_but_keeps_the_moves():
    s, _ = explore_position(decks={"rooms": [A], "monster": ["wandering-wight"]})  # ignores Level <= 2
    do(s, "0 move N")
    h = s.heroes[0]
    assert h.explored and h.moves == 2 and s.combat is None
    kinds = {a.kind for a in engine().legal(s, 0)}
    assert "move" not in kinds and "search" in kinds
    with pytest.raises(IllegalAction, match="exploring ended your movement"):
        do(s, "0 move S")


def test_exploring_is_followed_by_combat_at_once():
    s, _ = explore_position()
    do(s, "0 move N")
    assert s.combat is not None and s.frames[-1].kind == "window"


def test_a_deal_costs_one_move_and_its_price():
    s, _ = position(heroes=[{"at": [1, 0], "gold": 350}, {}], rooms=[{"id": "coat-check", "at": [1, 0]}])
    do(s, "0 deal")
    h = s.heroes[0]
    assert (h.gold, h.moves, len(h.hand)) == (50, 2, 1)
    assert act(s, "0 deal") not in engine().legal(s, 0)


def test_heal_deal_only_when_hurt():
    s, _ = position(heroes=[{"at": [1, 0]}, {}], rooms=[{"id": "first-aid-closet", "at": [1, 0]}])
    assert act(s, "0 deal") not in engine().legal(s, 0)
    s, _ = position(heroes=[{"at": [1, 0], "life": 2}, {}], rooms=[{"id": "first-aid-closet", "at": [1, 0]}])
    do(s, "0 deal")
    assert (s.heroes[0].life, s.heroes[0].gold) == (3, 100)


def test_shrine_deal_only_for_its_race_or_class():
    room = [{"id": "shrine-pocketsworth", "at": [1, 0]}]
    s, _ = position(heroes=[{"at": [1, 0]}, {}], rooms=room)
    assert act(s, "0 deal") not in engine().legal(s, 0)
    s, _ = position(heroes=[{"at": [1, 0], "class": "thief-card"}, {}], rooms=room)
    do(s, "0 deal")
    assert len(s.heroes[0].hand) == 1 and s.heroes[0].gold == 100


def test_sell_deal_pays_the_gold_value():
    s, _ = position(
        heroes=[{"at": [1, 0], "hand": ["generic-shield"]}, {}], rooms=[{"id": "pawn-shop", "at": [1, 0]}]
    )
    do(s, "0 deal {generic-shield}")
    assert s.heroes[0].gold == 300 + tdef("generic-shield").gold


def test_swap_deal_trades_a_hand_card_for_a_dxm_card():
    s, _ = position(
        heroes=[{"at": [1, 0], "hand": ["hard-hat"]}, {}],
        rooms=[{"id": "swap-meet", "at": [1, 0]}],
        decks={"dxm": ["montage"]},
    )
    do(s, "0 deal {hard-hat}")
    assert names(s.heroes[0].hand) == ["montage"]


def test_pickup_takes_one_whole_pile_for_one_move():
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}],
        rooms=[{"id": A, "at": [1, 0], "piles": [["hard-hat", "butter-knife"], ["jar-of-bees"]]}],
    )
    do(s, "0 pickup 0")
    assert names(s.heroes[0].hand) == ["butter-knife", "hard-hat"]
    assert s.heroes[0].moves == 2 and len(s.rooms[1].piles) == 1


def test_search_costs_a_move_and_marks_the_room_ransacked():
    s, _ = position(heroes=[{"at": [1, 0]}, {}], rooms=[{"id": "pawn-shop", "at": [1, 0]}], dice=[4])
    ev = do(s, "0 search")
    assert s.rooms[1].searched == 1 and s.heroes[0].moves == 2
    assert s.heroes[0].gold == 400
    assert "Now Ransacked" in texts(ev)


def test_ransacked_room_searches_at_minus_two_then_is_looted_out():
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}], rooms=[{"id": "pawn-shop", "at": [1, 0], "searched": 1}], dice=[10]
    )
    ev = do(s, "0 search")
    assert "d10 10 -2 = 8" in texts(ev) and s.rooms[1].searched == 2
    with pytest.raises(IllegalAction, match="Looted out"):
        do(s, "0 search")


def test_in_a_complete_dungeon_a_searched_room_stays_ransacked():
    """Our rule: with no room left to draw, rooms never run dry (monsters can still be found)."""
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}], rooms=[{"id": "pawn-shop", "at": [1, 0], "searched": 1}], dice=[10, 10]
    )
    s.tiles.clear()
    ev = do(s, "0 search")
    assert s.rooms[1].searched == 1 and "Now Ransacked" in texts(ev)
    do(s, "0 search")  # and again
    assert s.heroes[0].moves == 1


def test_the_last_room_restocks_the_looted_rooms():
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}],
        rooms=[{"id": "pawn-shop", "at": [1, 0], "searched": 2, "connections": {"E": "passage"}}],
        decks={"rooms": plain_rooms(1)},
    )
    last = s.tiles[-1]
    s.tiles[:] = [last]
    ev = do(s, "0 move E")
    assert not s.tiles and len(s.rooms) == 3
    assert s.rooms[1].searched == 1
    assert "the dungeon is complete" in texts(ev) and "Ransacked again" in texts(ev)


def test_the_entrance_cannot_be_searched():
    s, _ = position(heroes=[{}, {}])
    with pytest.raises(IllegalAction, match="Entrance cannot be searched"):
        do(s, "0 search")


@pytest.mark.parametrize(
    ("roll", "gold", "treasures", "monster"),
    [(1, 0, 0, True), (2, 0, 0, False), (3, 0, 0, False), (4, 100, 0, False), (5, 100, 0, False),
     (6, 200, 0, False), (7, 200, 0, False), (8, 0, 1, False), (9, 300, 1, False), (10, 0, 2, False)],
)  # fmt: skip
def test_search_table(roll, gold, treasures, monster):
    s, _ = position(
        heroes=[{"at": [1, 0], "gold": 0, "level": 9}, {}],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],  # search modifier 0
        dice=[roll, 2],
        decks={"monster": ["damp-squib"]},
    )
    do(s, "0 search")
    h = s.heroes[0]
    assert h.gold == gold
    assert len(h.hand) == treasures
    assert (monster_at(s, "damp-squib") == (1, 0)) == monster


def test_search_modifiers_of_room_and_thief_add_up():
    s, _ = position(
        heroes=[{"at": [1, 0], "class": "thief-card"}, {}], rooms=[{"id": "casino", "at": [1, 0]}], dice=[1]
    )
    ev = do(s, "0 search")
    assert "d10 1 +4 = 5" in texts(ev)


def test_searched_wandering_monster_fights_at_once():
    s, _ = position(
        heroes=[{"at": [1, 0], "colour": "red"}, {"colour": "blue"}],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],
        dice=[1, 1],
        decks={"monster": ["skeleton-intern"]},
    )
    do(s, "0 search")
    assert s.combat is not None
