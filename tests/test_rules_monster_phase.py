"""RULES.md §3.4: the monster phase, and how monsters move."""

from __future__ import annotations

from engine_helpers import engine, monster_at, names, position, rooms_with, texts

from mqtui.engine.state import cell_key

RED_E, RED_E2, RED_E3, RED_W, RED_N = rooms_with(
    {"red": "E"}, {"red": "E"}, {"red": "E"}, {"red": "W"}, {"red": "N"}
)


def phase(rooms, monsters, heroes=None, dice=(1,), **extra):
    """Run the red (die 1) monster phase after Ann's turn on this map."""
    s, ev = position(
        phase="monsters",
        heroes=heroes or [{"colour": "red"}, {"colour": "blue"}],
        rooms=rooms,
        monsters=[{"colour": "blue", **m} for m in monsters],
        dice=list(dice),
        **extra,
    )
    return s, ev


def row(*ids, y=1, x0=1, joins="passage"):
    """Rooms in a row going east from (x0, y), joined by ``joins``; other sides are walls."""
    out = []
    for i, rid in enumerate(ids):
        conns = {"E": joins} if i < len(ids) - 1 else {}
        out.append({"id": rid, "at": [x0 + i, y], "connections": conns})
    return out


def test_colour_die_player_draws_a_dxm_card():
    s, _ = phase([], [], dice=[2], decks={"dxm": ["montage", "second-wind"]})
    assert names(s.heroes[1].hand) == ["montage", "second-wind"]  # the die's card, then the turn's


def test_colour_die_face_without_a_player_nobody_draws():
    s, ev = phase([], [], dice=[4])
    assert "Colour die (monster phase): yellow." in texts(ev)
    assert s.heroes[0].hand == [] and len(s.heroes[1].hand) == 1


def test_monster_follows_arrows_until_blocked():
    s, _ = phase(row(RED_E, RED_E2, RED_E3), [{"card": "skeleton-intern", "at": [1, 1]}])
    assert monster_at(s, "skeleton-intern") == (3, 1)  # the last room's E side is a wall


def test_stop_a_next_room_already_visited():
    s, _ = phase(row(RED_E, RED_W), [{"card": "skeleton-intern", "at": [1, 1]}])
    assert monster_at(s, "skeleton-intern") == (2, 1)


def test_stop_b_monster_reaches_its_target():
    s, _ = phase(
        row(RED_E, RED_E2, RED_E3),
        [{"card": "skeleton-intern", "at": [1, 1]}],
        heroes=[{"colour": "red"}, {"colour": "blue", "at": [2, 1]}],
    )
    assert monster_at(s, "skeleton-intern") == (2, 1)


def test_other_heroes_do_not_stop_a_monster():
    s, _ = phase(
        row(RED_E, RED_E2, RED_E3),
        [{"card": "skeleton-intern", "at": [1, 1]}],
        heroes=[{"colour": "red", "at": [2, 1]}, {"colour": "blue"}],
    )
    assert monster_at(s, "skeleton-intern") == (3, 1)


def test_monster_already_with_its_target_does_not_move():
    s, _ = phase(
        row(RED_E, RED_E2),
        [{"card": "passive-aggressive-slime", "at": [1, 1]}, {"card": "skeleton-intern", "at": [1, 1]}],
        heroes=[{"colour": "red"}, {"colour": "blue", "at": [1, 1]}],
    )
    assert monster_at(s, "skeleton-intern") == (1, 1)
    assert monster_at(s, "passive-aggressive-slime") == (1, 1)


def test_stop_c_no_arrow_of_that_colour():
    (none,) = rooms_with({"red": ""}, plain=False)
    s, _ = phase([{"id": none, "at": [1, 1], "connections": {"E": "passage"}}, {"id": RED_E, "at": [2, 1]}],
                 [{"card": "skeleton-intern", "at": [1, 1]}])  # fmt: skip
    assert monster_at(s, "skeleton-intern") == (1, 1)


def test_stop_d_locked_and_hidden_doors_and_walls_stop_monsters():
    for kind in ("locked", "hidden", "wall"):
        s, _ = phase(row(RED_E, RED_E2, joins=kind), [{"card": "skeleton-intern", "at": [1, 1]}])
        assert monster_at(s, "skeleton-intern") == (1, 1), kind


def test_monsters_pass_ordinary_doors():
    s, _ = phase(row(RED_E, RED_E2, joins="door"), [{"card": "skeleton-intern", "at": [1, 1]}])
    assert monster_at(s, "skeleton-intern") == (2, 1)


def test_arrow_into_unexplored_space_wraps_to_the_far_end_of_the_row():
    rooms = [
        {"id": RED_W, "at": [1, 1], "connections": {"W": "passage", "E": "passage"}},
        {"id": RED_E, "at": [2, 1], "connections": {"E": "passage"}},
        {"id": RED_N, "at": [3, 1]},
    ]
    s, _ = phase(rooms, [{"card": "skeleton-intern", "at": [1, 1]}])
    assert monster_at(s, "skeleton-intern") == (3, 1)


def test_arrow_into_unexplored_space_wraps_along_a_column():
    (red_s, red_n) = rooms_with({"red": "S"}, {"red": "N"})
    rooms = [
        {"id": red_s, "at": [3, 1], "connections": {"S": "door", "N": "passage"}},
        {"id": red_n, "at": [3, -1], "connections": {"S": "passage"}},
    ]
    s, _ = phase(rooms, [{"card": "skeleton-intern", "at": [3, 1]}])
    # south of (3,1) is unexplored: back in at the northernmost room of column 3, whose red arrow points N
    # at a wall... (3,-1)'s N side is a wall, so it stops there
    assert monster_at(s, "skeleton-intern") == (3, -1)


def test_monster_never_stops_in_the_entrance_it_passes_through():
    rooms = [{"id": RED_W, "at": [1, 0]}, {"id": RED_N, "at": [-1, 0]}]
    s, _ = phase(rooms, [{"card": "damp-squib", "at": [1, 0]}])  # slow: one room only
    assert monster_at(s, "damp-squib") == (-1, 0)


def test_monster_passing_the_entrance_into_unexplored_space_wraps():
    rooms = [{"id": RED_W, "at": [1, 0], "connections": {"E": "passage"}}, {"id": RED_N, "at": [2, 0]}]
    s, _ = phase(rooms, [{"card": "skeleton-intern", "at": [1, 0]}])
    assert monster_at(s, "skeleton-intern") == (2, 0)


def test_monster_whose_way_through_the_entrance_leads_back_turns_back():
    rooms = [
        {"id": RED_W, "at": [1, 0]}
    ]  # W into the Entrance, beyond it nothing: back to where it came from
    s, _ = phase(rooms, [{"card": "skeleton-intern", "at": [1, 0]}])
    assert monster_at(s, "skeleton-intern") == (1, 0)


def test_target_in_the_entrance_does_not_stop_a_monster_there():
    rooms = [{"id": RED_W, "at": [1, 0]}, {"id": RED_N, "at": [-1, 0]}]
    s, _ = phase(rooms, [{"card": "skeleton-intern", "at": [1, 0]}])
    assert monster_at(s, "skeleton-intern") == (-1, 0)


def test_fast_monster_takes_one_more_room():
    rooms = [*row(RED_E, RED_W), {"id": RED_N, "at": [3, 1]}]
    rooms[1]["connections"] = {"E": "door"}
    s, _ = phase(rooms, [{"card": "pigeon-of-ill-omen", "at": [1, 1]}])
    assert monster_at(s, "pigeon-of-ill-omen") == (3, 1)


def test_fast_monster_stopped_by_its_target_takes_no_extra_room():
    s, _ = phase(
        row(RED_E, RED_E2, RED_E3),
        [{"card": "pigeon-of-ill-omen", "at": [1, 1]}],
        heroes=[{"colour": "red"}, {"colour": "blue", "at": [2, 1]}],
    )
    assert monster_at(s, "pigeon-of-ill-omen") == (2, 1)


def test_slow_monster_moves_one_room():
    s, _ = phase(row(RED_E, RED_E2, RED_E3), [{"card": "damp-squib", "at": [1, 1]}])
    assert monster_at(s, "damp-squib") == (2, 1)


def test_lurking_monster_never_moves():
    s, _ = phase(row(RED_E, RED_E2), [{"card": "sock-gnome", "at": [1, 1]}])
    assert monster_at(s, "sock-gnome") == (1, 1)


def test_contrary_monster_first_steps_against_the_arrow():
    rooms = row(RED_W, RED_E, RED_N)  # the slime starts in the middle (red E): one step W first
    s, _ = phase(rooms, [{"card": "passive-aggressive-slime", "at": [2, 1]}])
    # W to (1,1), whose red arrow points W at a wall: it stops there
    assert monster_at(s, "passive-aggressive-slime") == (1, 1)


def test_contrary_monster_wraps_round_the_far_end():
    rooms = row(RED_E, RED_E2, RED_N)
    rooms[0]["connections"]["W"] = "passage"
    s, _ = phase(rooms, [{"card": "passive-aggressive-slime", "at": [1, 1]}])
    assert monster_at(s, "passive-aggressive-slime") == (3, 1)


def test_weird_hunter_steps_toward_its_target():
    rooms = [
        {"id": RED_W, "at": [1, 1], "connections": {"S": "door"}},
        {"id": RED_E, "at": [1, 2], "connections": {"S": "passage"}},
        {"id": RED_E2, "at": [1, 3]},
    ]
    s, _ = phase(
        rooms, [{"card": "ghost-of-paperwork", "at": [1, 1]}], heroes=[{}, {"colour": "blue", "at": [1, 3]}]
    )
    assert monster_at(s, "ghost-of-paperwork") == (1, 2)


def test_weird_blinker_jumps_to_another_placed_room_never_the_entrance():
    rooms = row(RED_E, RED_E2, RED_E3)
    for seed in range(8):
        s, _ = phase(rooms, [{"card": "feral-spellbook", "at": [1, 1]}], seed=seed)
        at = monster_at(s, "feral-spellbook")
        assert at in {(2, 1), (3, 1)}


def test_weird_follower_uses_the_previous_phase_colour():
    (red_e_blue_s,) = rooms_with({"red": "E", "blue": "S"})
    (blue_s_wall,) = [r for r in rooms_with({"blue": "S"}, {"blue": "S"}) if r != red_e_blue_s][:1]
    rooms = [
        {"id": red_e_blue_s, "at": [1, 1], "connections": {"E": "passage", "S": "passage"}},
        {"id": blue_s_wall, "at": [1, 2]},
    ]
    s, _ = phase(rooms, [{"card": "trenchcoat-ooze", "at": [1, 1]}], last_colour="blue")
    assert monster_at(s, "trenchcoat-ooze") == (1, 2)
    assert s.last_colour == "red"


def test_monster_reaching_a_hero_waits_for_that_heros_own_turn():
    s, _ = phase(
        row(RED_E, RED_E2),
        [{"card": "skeleton-intern", "at": [1, 1], "colour": "red"}],
        heroes=[{"colour": "red", "at": [2, 1]}, {"colour": "blue"}, {"colour": "green"}],
    )
    assert monster_at(s, "skeleton-intern") == (2, 1)
    assert s.combat is None and s.active == 1  # Bob's turn: no fight for Ann yet


def test_monsters_ignore_each_other():
    s, _ = phase(
        row(RED_E, RED_E2, RED_E3),
        [{"card": "skeleton-intern", "at": [1, 1]}, {"card": "sock-gnome", "at": [2, 1]}],
    )
    assert monster_at(s, "skeleton-intern") == (3, 1)


def test_monster_phase_never_leaves_a_monster_in_the_entrance():
    for colour in range(1, 7):
        rooms = [{"id": RED_W, "at": [1, 0]}, {"id": RED_E, "at": [-1, 0]}, {"id": RED_N, "at": [0, 1]}]
        s, _ = phase(rooms, [{"card": "skeleton-intern", "at": [1, 0]}, {"card": "pigeon-of-ill-omen", "at": [-1, 0]}],
                     dice=[colour])  # fmt: skip
        assert all((m.x, m.y) != (0, 0) for m in s.monsters)
        assert all(cell_key(m.x, m.y) in s.grid for m in s.monsters)
        assert engine().deciding(s) == 1
