"""RULES.md §5: Level 10, the boss fight at the Entrance, and winning the game."""

from __future__ import annotations

import pytest
from engine_helpers import act, do, engine, fight, names, plain_rooms, position, strength_of, texts

from mqtui.engine.actions import Action, IllegalAction

A, B = plain_rooms(2)
GEAR = [
    "self-esteem-tiara",
    "tinfoil-breastplate",
    "rollerblades-of-regret",
    "siege-ladle",
    "ring-of-vague-power",
]


def at_level_10(*, life=4, equipped=(), others=None, **extra):
    """Ann, Level 10, next to the Entrance; a boss card on top of the Monster deck."""
    heroes = [{"level": 10, "life": life, "at": [1, 0], "equipped": list(equipped)}, *(others or [{}])]
    data = {
        "heroes": heroes,
        "rooms": [{"id": A, "at": [1, 0]}],
        "decks": {"monster": ["sock-gnome"]},
        **extra,
    }
    s, _ = position(**data)
    return s


def test_level_10_only_by_a_kill():
    s, _ = position(
        heroes=[{"level": 9, "at": [1, 0]}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "damp-squib", "at": [1, 0], "colour": "blue"}],
    )
    fight(s, 6, 1)
    assert s.heroes[0].level == 10


def test_a_kill_never_takes_a_hero_above_level_10():
    s, _ = position(
        heroes=[{"level": 9, "at": [1, 0]}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": m, "at": [1, 0], "colour": "blue"} for m in ("damp-squib", "sock-gnome")],
    )
    fight(s, 6, 1)
    assert s.heroes[0].level == 10


def test_helping_never_gives_levels():
    s, _ = position(
        heroes=[{"level": 5, "at": [1, 0]}, {"level": 9, "at": [1, 0]}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "damp-squib", "at": [1, 0], "colour": "green"}],
    )
    do(s, "0 invite @1 t0 g0", "1 accept")
    fight(s, 6, 1)
    assert s.heroes[1].level == 9


def test_boss_fight_starts_when_a_level_10_hero_enters_the_entrance():
    s = at_level_10()
    assert s.combat is None
    ev = do(s, "0 move W")
    assert s.combat is not None and s.combat.boss
    assert "the boss fight begins" in texts(ev)
    assert strength_of(s) == (10, 20)  # whatever the card says, a Level 20 boss


def test_boss_fight_at_the_start_of_the_turn_in_the_entrance():
    s, _ = position(phase="turn", heroes=[{"level": 10}, {}], decks={"monster": ["sock-gnome"]})
    assert s.combat is not None and s.combat.boss


def test_enhancers_still_apply_to_the_boss():
    s = at_level_10(others=[{"hand": ["gym-membership"]}])
    do(s, "0 move W", "0 pass", "1 enhance {gym-membership} m0")
    assert strength_of(s) == (10, 25)


def test_no_wandering_monsters_join_the_boss():
    s = at_level_10(others=[{"hand": ["uninvited-guest"]}])
    do(s, "0 move W", "0 pass")
    assert not any(a.kind == "wander" for a in engine().legal(s, 1))


def test_only_level_10_heroes_may_help_against_the_boss():
    s = at_level_10(others=[{"level": 9}, {"level": 10}])
    do(s, "0 move W")
    legal = engine().legal(s, 0)
    assert act(s, "0 invite @1 t0 g0") not in legal
    assert act(s, "0 invite @2 t0 g0") in legal
    with pytest.raises(IllegalAction, match="only Level-10 heroes"):
        do(s, "0 invite @1 t0 g0")


def test_beating_the_boss_wins_the_game_for_the_winning_side():
    s = at_level_10(equipped=GEAR, others=[{"level": 10}, {}])
    do(s, "0 move W", "0 invite @1 t0 g0", "1 accept")
    ev = fight(s, 6, 1)
    assert s.stage == "over" and s.winners == [0, 1]
    assert "Ann and Bob win the game!" in texts(ev)
    assert engine().deciding(s) == -1 and engine().legal(s, 0) == []
    with pytest.raises(IllegalAction, match="game is over"):
        engine().apply(s, Action(0, "end"))


def test_losing_the_boss_fight_costs_a_life_and_a_level_and_discards_the_boss():
    s = at_level_10()
    do(s, "0 move W")
    ev = fight(s, 1, 6)
    h = s.heroes[0]
    assert (h.level, h.life) == (9, 3)
    assert "sock-gnome" in names(s.monster_discard)
    assert s.stage != "over" and s.frames[-1].kind == "act"
    assert "Ann falls to Level 9 (lost to the boss)" in texts(ev)


def test_next_boss_fight_flips_a_new_card():
    s = at_level_10(decks={"monster": ["sock-gnome", "damp-squib"]})
    do(s, "0 move W")
    fight(s, 1, 6)
    s.heroes[0].level = 10
    do(s, "0 move E", "0 move W")  # out and back in: Moves 2 -> 0
    assert engine().cards.card_id(s.combat.boss_card) == "damp-squib"


def test_death_in_the_boss_fight_costs_both_levels():
    s = at_level_10(life=1, equipped=["hard-hat"])
    do(s, "0 move W")
    fight(s, 1, 6)
    h = s.heroes[0]
    assert h.dead and h.level == 8 and h.life == 4
    assert names(s.rooms[0].piles[0]) == ["hard-hat"]  # dropped in the Entrance
    assert s.active == 1


def test_bonuses_against_a_kind_count_against_a_boss_of_that_kind():
    """The boss is the card it was flipped as, at Level 20: a Dragon-slaying lance, garlic against the
    Undead and the Cleric's power all count against an Undead Dragon boss (our rule), a one-shot used
    in the fight too."""
    ann = {
        "level": 10,
        "at": [1, 0],
        "class": "cleric-card",
        "equipped": ["dragon-be-gone-lance", "garlic-necklace"],
        "hand": ["tap-holy-water"],
    }
    s, _ = position(
        heroes=[ann, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        decks={"monster": ["accounts-receivable-dracolich"]},
    )
    do(s, "0 move W")
    assert s.combat is not None and s.combat.boss
    assert strength_of(s) == (10 + (2 + 4) + 3 + 3, 20)  # level, lance (+4 Dragons), garlic, Cleric
    ev = do(s, "0 use {tap-holy-water} heroes")
    assert "for the heroes: +5" in texts(ev) and strength_of(s) == (22 + 2 + 3, 20)
