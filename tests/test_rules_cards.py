"""RULES.md §3.2 "Play cards": races, classes, curses, level and Moves cards, dungeon cards, gold for
levels; and §1: decks that run out are reshuffled from their discards."""

from __future__ import annotations

import pytest
from engine_helpers import act, do, engine, hero_at, monster_at, names, plain_rooms, position, texts

from mqtui.engine.board import draw
from mqtui.engine.cards import DXM
from mqtui.engine.state import edge_key

A, B, C = plain_rooms(3)


def legal(s, text, seat=0):
    return act(s, text) in engine().legal(s, seat)


def test_a_race_card_replaces_the_old_race():
    s, _ = position(heroes=[{"race": "elf-card", "hand": ["dwarf-card"]}, {}])
    do(s, "0 play {dwarf-card}")
    t = engine().cards
    assert [t.dxm[u].race for u in s.heroes[0].races] == ["dwarf"]
    assert "elf-card" in {t.card_id(u) for u in s.dxm_discard}


def test_the_same_race_twice_is_not_playable():
    s, _ = position(heroes=[{"race": "elf-card", "hand": ["elf-card"]}, {}])
    assert not legal(s, "0 play {elf-card}")


def test_half_breed_keeps_two_races_and_losing_race_loses_both():
    s, _ = position(
        heroes=[
            {"race": "elf-card", "hand": ["mixed-heritage", "dwarf-card"]},
            {"hand": ["curse-identity-crisis"]},
        ]
    )
    do(s, "0 play {mixed-heritage}", "0 play {dwarf-card}")
    assert len(s.heroes[0].races) == 2
    do(s, "0 end", "1 curse {curse-identity-crisis} @0")
    assert s.heroes[0].races == [] and s.heroes[0].half_breed == -1


def test_super_munchkin_keeps_two_classes():
    s, _ = position(heroes=[{"class": "warrior-card", "hand": ["double-major", "thief-card"]}, {}])
    do(s, "0 play {double-major}", "0 play {thief-card}")
    t = engine().cards
    assert sorted(t.dxm[u].klass for u in s.heroes[0].classes) == ["thief", "warrior"]


@pytest.mark.parametrize(
    ("curse", "check"),
    [
        ("curse-surprise-audit", lambda h: h.gold == 0),
        ("curse-demotion", lambda h: h.level == 2),
        ("curse-stubbed-toe", lambda h: h.lose_moves == 2),
        ("curse-paper-cut", lambda h: h.life == 3),
        ("curse-wrong-turn", lambda h: (h.x, h.y) == (0, 0)),
        ("curse-hat-thief", lambda h: h.equipped == []),
        ("curse-spilled-coffee", lambda h: len(h.hand) == 0),
        ("curse-career-change", lambda h: h.classes == []),
    ],
)
def test_curses(curse, check):
    s, _ = position(
        heroes=[
            {"hand": [curse]},
            {"level": 3, "at": [1, 0], "equipped": ["hard-hat"], "hand": ["sharp-spoon", "jar-of-bees"], "class": "thief-card"},
        ],
        rooms=[{"id": A, "at": [1, 0]}],
    )  # fmt: skip
    do(s, f"0 curse {{{curse}}} @1")
    assert check(s.heroes[1])
    assert s.active == 0 and s.heroes[0].moves == 3


def test_curse_never_takes_a_hero_below_level_1():
    s, _ = position(heroes=[{"hand": ["curse-demotion"]}, {"level": 1}])
    do(s, "0 curse {curse-demotion} @1")
    assert s.heroes[1].level == 1


def test_curse_can_kill():
    s, _ = position(heroes=[{"hand": ["curse-paper-cut"]}, {"life": 1}])
    do(s, "0 curse {curse-paper-cut} @1")
    assert s.heroes[1].dead and s.active == 0


def test_curses_only_on_others_outside_combat():
    s, _ = position(heroes=[{"hand": ["curse-demotion"]}, {}])
    assert not legal(s, "0 curse {curse-demotion} @0")


def test_level_cards_raise_a_level_up_to_9():
    s, _ = position(heroes=[{"level": 8, "hand": ["montage", "free-level-coupon"]}, {}])
    do(s, "0 play {montage}")
    assert s.heroes[0].level == 9
    assert not legal(s, "0 play {free-level-coupon}")


def test_moves_cards_add_moves_this_turn():
    s, _ = position(heroes=[{"hand": ["second-wind"]}, {}])
    do(s, "0 play {second-wind}")
    assert s.heroes[0].moves == 5


def test_buying_a_level_with_1000_gold():
    s, _ = position(heroes=[{"level": 4, "gold": 1200}, {}])
    do(s, "0 buylevel")
    assert (s.heroes[0].level, s.heroes[0].gold, s.heroes[0].moves) == (5, 200, 3)
    assert not legal(s, "0 buylevel")


def test_buying_never_reaches_level_10():
    s, _ = position(heroes=[{"level": 9, "gold": 5000}, {}])
    assert not legal(s, "0 buylevel")


def test_gold_never_buys_during_combat():
    s, _ = position(
        heroes=[{"at": [1, 0], "gold": 1000}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "damp-squib", "at": [1, 0], "colour": "blue"}],
    )
    assert not legal(s, "0 buylevel")


def test_wall_to_door():
    s, _ = position(
        heroes=[{"at": [1, 0], "hand": ["unpermitted-renovation"]}, {}], rooms=[{"id": A, "at": [1, 0]}]
    )
    assert not legal(s, "0 wall {unpermitted-renovation} W")  # the Entrance's passage is no wall
    do(s, "0 wall {unpermitted-renovation} N")
    assert s.edges[edge_key(1, 0, 0)] == "door"


def test_entrance_connections_never_change():
    s, _ = position(heroes=[{"hand": ["unpermitted-renovation"]}, {}])
    assert not any(a.kind == "wall" for a in engine().legal(s, 0))


def test_shove_a_monster_here_or_next_door_never_into_the_entrance():
    s, _ = position(
        heroes=[{"at": [1, 0], "hand": ["relocation-notice"]}, {}],
        rooms=[{"id": A, "at": [1, 0], "connections": {"E": "door"}}, {"id": B, "at": [2, 0], "connections": {"E": "passage"}},
               {"id": C, "at": [3, 0]}],
        monsters=[{"card": "sock-gnome", "at": [2, 0], "colour": "blue"}],
    )  # fmt: skip
    legal_dirs = {a.c for a in engine().legal(s, 0) if a.kind == "shove"}
    assert legal_dirs == {1, 3}  # E to C, W to Ann's room
    do(s, "0 shove {relocation-notice} {sock-gnome} E")
    assert monster_at(s, "sock-gnome") == (3, 0)


def test_shove_never_into_the_entrance():
    s, _ = position(
        heroes=[{"hand": ["relocation-notice"]}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "sock-gnome", "at": [1, 0], "colour": "blue"}],
    )
    assert not any(a.kind == "shove" for a in engine().legal(s, 0))


def test_teleport_to_any_placed_room():
    s, _ = position(heroes=[{"hand": ["faulty-teleporter"]}, {}], rooms=[{"id": A, "at": [5, 5]}])
    ev = do(s, "0 teleport {faulty-teleporter} 5 5")
    assert hero_at(s, 0) == (5, 5) and s.heroes[0].moves == 3
    assert "appears in" in texts(ev)


def test_discarding_from_hand_on_your_turn():
    s, _ = position(heroes=[{"hand": ["hard-hat"]}, {}])
    do(s, "0 discard {hard-hat}")
    assert s.heroes[0].hand == [] and names(s.treasure_discard) == ["hard-hat"]


def test_buy_dxm_deal():
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}],
        rooms=[{"id": "fortune-booth", "at": [1, 0]}],
        decks={"dxm": ["montage", "second-wind"]},
    )
    do(s, "0 deal")
    assert names(s.heroes[0].hand) == ["montage", "second-wind"] and s.heroes[0].gold == 0


def test_empty_deck_is_reshuffled_from_its_discards():
    s, _ = position(heroes=[{}, {}])
    t = engine().cards
    s.dxm_discard.extend(s.dxm)
    s.dxm.clear()
    top = draw(t, s, DXM)
    assert top is not None and t.deck_of[top] == DXM
    assert s.dxm_discard == [] and len(s.dxm) == len(t.uids(DXM)) - 1


def test_empty_deck_and_discards_draw_nothing():
    s, _ = position(heroes=[{}, {}])
    s.dxm.clear()
    assert draw(engine().cards, s, DXM) is None
