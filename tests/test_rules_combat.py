"""RULES.md §4 (combat) and the combat points of §8."""

from __future__ import annotations

import pytest
from engine_helpers import (
    act,
    do,
    engine,
    fight,
    hero_at,
    mdef,
    monster_at,
    names,
    plain_rooms,
    position,
    strength_of,
    tdef,
    texts,
    uid,
)

from mqtui.engine.actions import IllegalAction
from mqtui.engine.combat import fight_text

A, B, C = plain_rooms(3)


def battle(monsters=("skeleton-intern",), ann=None, bob=None, cy=None, rooms=None, **extra):
    """Ann (red) fights in room A at (1,0); Bob (blue) waits in the Entrance next door; Cy (green) is two
    rooms away at (-1,0)."""
    data = {
        "heroes": [
            {"colour": "red", "at": [1, 0], **(ann or {})},
            {"colour": "blue", **(bob or {})},
            {"colour": "green", "at": [-1, 0], **(cy or {})},
        ],
        "rooms": [*(rooms or [{"id": A, "at": [1, 0]}]), {"id": C, "at": [-1, 0]}],
        "monsters": [{"card": m, "at": [1, 0], "colour": "yellow"} for m in monsters],
    }
    data.update(extra)
    s, _ = position(**data)
    assert s.combat is not None
    return s


strength = strength_of


def test_strength_is_level_plus_equipment_against_monster_levels():
    s = battle(("skeleton-intern", "damp-squib"), ann={"level": 2, "equipped": ["alleged-sword", "hard-hat"]})
    assert strength(s) == (
        2 + tdef("alleged-sword").bonus + tdef("hard-hat").bonus,
        mdef("skeleton-intern").level + mdef("damp-squib").level,
    )


def test_hero_wins_only_with_a_greater_total():
    s = battle(ann={"level": 3})
    fight(s, 5, 4)
    assert not s.monsters and s.heroes[0].level == 4


def test_tie_goes_to_monsters():
    s = battle(ann={"level": 3})
    ev = fight(s, 4, 4, 6)
    assert "(ties go to the monsters)" in texts(ev)
    assert s.monsters and s.heroes[0].life == 3


def test_warrior_wins_ties():
    s = battle(ann={"level": 2, "class": "warrior-card"})  # 2 + 1 against 3
    ev = fight(s, 4, 4)
    assert "(a tie, won by power)" in texts(ev) and not s.monsters


def test_the_result_carries_the_fight_as_data():
    """Each side's terms, die and total and the outcome travel with the result, and its words are
    written from them (a pane reads the data, never the words)."""
    s = battle(ann={"level": 2, "class": "warrior-card"})
    (result,) = [e for e in fight(s, 4, 4) if e.kind == "result"]
    f = result.fight
    assert f is not None and f.heroes == ("Ann",) and f.won and f.ties_win
    assert (
        f.hero_terms[0] == ("Ann level", 2) and sum(v for _, v in f.hero_terms) + f.hero_die == f.hero_total
    )
    assert sum(v for _, v in f.monster_terms) + f.monster_die == f.monster_total == f.hero_total
    assert (f.hero_die, f.monster_die) == (4, 4)
    assert result.text == fight_text(f)
    assert fight_text(f, terms=False).startswith("Ann (… = 7) beats ")
    s = battle(ann={"level": 3})
    (lost,) = [e.fight for e in fight(s, 4, 4, 6) if e.kind == "result"]
    assert lost is not None and not lost.won and not lost.ties_win
    assert lost.hero_total == lost.monster_total


def test_winning_kills_every_monster_and_gives_levels_and_treasures():
    s = battle(("skeleton-intern", "damp-squib"), ann={"level": 9})
    fight(s, 6, 1)
    assert not s.monsters
    assert s.heroes[0].level == 10  # 9 + 2 capped at 10, by a kill
    assert len(s.heroes[0].hand) == mdef("skeleton-intern").treasures + mdef("damp-squib").treasures
    assert {engine().cards.card_id(u) for u in s.monster_discard} == {"skeleton-intern", "damp-squib"}


def test_killing_a_monster_of_your_own_colour_draws_a_dxm_card():
    s, _ = position(
        heroes=[{"colour": "red", "at": [1, 0], "level": 5}, {"colour": "blue"}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "damp-squib", "at": [1, 0], "colour": "red"}],
        decks={"dxm": ["montage"], "treasure": ["hard-hat"]},
    )
    ev = fight(s, 6, 1)
    assert "Ann killed a monster hunting them" in texts(ev)
    assert names(s.heroes[0].hand) == ["hard-hat", "montage"]


def test_losing_costs_a_life_then_an_escape_roll_per_monster():
    s = battle(("skeleton-intern", "damp-squib"), ann={"hand": ["hard-hat", "butter-knife", "sharp-spoon"]})
    ev = fight(s, 1, 6, 5, 4)
    lines = texts(ev)
    assert "Ann escapes Skeleton Intern (d6 5, 5 needed)" in lines
    assert "Ann fails to escape Damp Squib (d6 4, 5 needed)" in lines
    assert s.heroes[0].life == 3
    assert s.heroes[0].gold == 300 - 100  # the squib's Bad Stuff
    assert len(s.heroes[0].hand) == 3  # the skeleton's (discard cards) was escaped


def test_escape_bonus_of_an_elf_and_of_the_room():
    rooms = [{"id": "lost-and-found", "at": [1, 0]}]  # +1 to run away here
    s = battle(("damp-squib",), ann={"race": "elf-card"}, rooms=rooms)
    ev = fight(s, 1, 6, 3)
    assert "Ann escapes Damp Squib (d6 3 +2, 5 needed)" in texts(ev)


def test_wizard_d10_escape_avoids_all_bad_stuff():
    s = battle(("damp-squib",), ann={"class": "wizard-card", "level": 1})
    ev = fight(s, 1, 6, 1)  # d10 1 <= Level 1
    assert "vanishing trick: d10 1 vs Level 1: works" in texts(ev)
    assert s.heroes[0].gold == 300 and s.heroes[0].life == 3


def test_loser_flees_to_an_adjacent_room_for_free():
    s = battle(("damp-squib",))
    fight(s, 1, 6, 6)
    assert hero_at(s, 0) == (0, 0) and s.heroes[0].moves == 3  # the only way out: no choice needed
    assert monster_at(s, "damp-squib") == (1, 0)  # monsters stay


def test_loser_chooses_among_several_ways_out_but_never_into_unexplored_space():
    rooms = [{"id": A, "at": [1, 0], "connections": {"N": "locked", "E": "door"}}, {"id": B, "at": [1, -1]}]
    s = battle(("damp-squib",), rooms=rooms, cy={"at": [0, 0]})
    fight(s, 1, 6, 6)
    assert s.frames[-1].kind == "flee"
    assert sorted(str(a) for a in engine().legal(s, 0)) == ["0 flee N", "0 flee W"]
    do(s, "0 flee N")  # a locked door costs nothing when fleeing
    assert hero_at(s, 0) == (1, -1) and s.heroes[0].moves == 3


def test_nowhere_to_flee_stays_and_ends_the_action_phase():
    rooms = [{"id": A, "at": [1, 1], "connections": {"E": "passage"}}]
    s, _ = position(
        heroes=[{"at": [1, 1]}, {}],
        rooms=rooms,
        monsters=[{"card": "sock-gnome", "at": [1, 1], "colour": "blue"}],
    )
    ev = fight(s, 1, 6, 6)
    assert "Ann has nowhere to run and stays put." in texts(ev)
    assert s.active == 1 and hero_at(s, 0) == (1, 1)


def test_helper_may_come_from_the_same_or_an_adjacent_room_only():
    s = battle()
    legal = engine().legal(s, 0)
    assert act(s, "0 invite @1 t0 g0") in legal
    assert act(s, "0 invite @2 t0 g0") not in legal


def test_helper_terms_cover_treasures_first_pick_and_gold():
    s = battle(("skeleton-intern", "damp-squib"), ann={"gold": 250})
    invites = {str(a) for a in engine().legal(s, 0) if a.kind == "invite"}
    assert {"0 invite @1 t2 g0", "0 invite @1 t2! g200", "0 invite @1 t0 g100"} <= invites
    assert "0 invite @1 t3 g0" not in invites  # only 2 treasures to share
    assert "0 invite @1 t0 g500" not in invites  # Ann has 250 gold


def test_accepted_helper_moves_in_gets_paid_and_adds_level_and_gear():
    s = battle(ann={"gold": 300}, bob={"level": 2, "equipped": ["hard-hat"], "gold": 0})
    do(s, "0 invite @1 t0 g200", "1 accept")
    assert hero_at(s, 1) == (1, 0)
    assert (s.heroes[0].gold, s.heroes[1].gold) == (100, 200)
    assert strength(s) == (1 + 2 + 1, 3)


def test_declined_helper_stays_and_cannot_be_asked_again():
    s = battle()
    do(s, "0 invite @1 t0 g0", "1 decline")
    assert hero_at(s, 1) == (0, 0) and s.combat.helper == -1
    assert act(s, "0 invite @1 t0 g0") not in engine().legal(s, 0)


def test_heroes_in_the_room_do_not_join_without_an_invitation():
    s = battle(bob={"at": [1, 0], "level": 5})
    assert strength(s) == (1, 3)


def test_helper_reward_active_player_chooses_by_default():
    s = battle(ann={"level": 5}, bob={"at": [1, 0]}, decks={"treasure": ["hard-hat"]})
    do(s, "0 invite @1 t1 g0", "1 accept")
    fight(s, 6, 1)
    assert s.frames[-1].kind == "reward" and engine().deciding(s) == 0
    do(s, "0 take {hard-hat}")
    assert names(s.heroes[1].hand) == ["hard-hat"] and s.heroes[0].hand == []
    assert s.heroes[1].level == 1 and s.heroes[0].level == 6  # only the active hero gains levels


def test_a_helpers_reward_is_one_line_in_every_log():
    s = battle(ann={"level": 5}, bob={"at": [1, 0]}, decks={"treasure": ["hard-hat"]})
    do(s, "0 invite @1 t1 g0", "1 accept")
    fight(s, 6, 1)
    ev = do(s, "0 take {hard-hat}")
    for seat, line in (
        (0, "Bob receives a Treasure card from Ann"),
        (1, "You receive Hard Hat"),
        (2, "Bob rec"),
    ):
        lines = [e.for_seat(seat) for e in ev if e.kind == "reward" and e.for_seat(seat)]
        assert len(lines) == 1 and lines[0].startswith(line), (seat, lines)


def test_helper_with_first_pick_chooses():
    s = battle(ann={"level": 5}, bob={"at": [1, 0]})
    do(s, "0 invite @1 t1! g0", "1 accept")
    fight(s, 6, 1)
    assert engine().deciding(s) == 1


def test_helper_stays_in_the_combat_room_after_a_win():
    s = battle(ann={"level": 5})
    do(s, "0 invite @1 t0 g0", "1 accept")
    fight(s, 6, 1)
    assert hero_at(s, 1) == (1, 0)


def test_both_losers_lose_life_and_the_active_hero_flees_first():
    rooms = [{"id": A, "at": [1, 0], "connections": {"E": "door"}}, {"id": B, "at": [2, 0]}]
    s = battle(("damp-squib",), rooms=rooms)
    do(s, "0 invite @1 t0 g0", "1 accept")
    fight(s, 1, 6, 6, 6)
    assert (s.heroes[0].life, s.heroes[1].life) == (3, 3)
    assert engine().deciding(s) == 0 and s.frames[-1].kind == "flee"
    do(s, "0 flee E")
    assert engine().deciding(s) == 1 and s.frames[-1].kind == "flee"
    do(s, "1 flee W")
    assert (hero_at(s, 0), hero_at(s, 1)) == ((2, 0), (0, 0))


def test_no_help_in_a_no_help_room():
    s = battle(rooms=[{"id": "solo-queue", "at": [1, 0]}])
    assert "invite" not in {a.kind for a in engine().legal(s, 0)}


def test_interference_window_goes_round_in_seat_order_from_the_active_player():
    s = battle(turn=0)
    seen = []
    while s.frames[-1].kind == "window" and s.frames[-1].stage == "pre":
        seen.append(engine().deciding(s))
        do(s, f"{seen[-1]} pass")
    assert seen == [0, 1, 2]


def test_window_closes_only_after_everyone_passes_in_a_row():
    s = battle(cy={"hand": ["gym-membership"]})
    do(s, "0 pass", "1 pass", "2 enhance {gym-membership} {skeleton-intern}")
    assert engine().deciding(s) == 2  # the player who played keeps the window
    do(s, "2 pass", "0 pass")
    assert s.frames[-1].stage == "pre"
    do(s, "1 pass")
    assert s.frames[-1].stage == "post"


def test_enhancers_may_be_played_from_anywhere():
    s = battle(cy={"hand": ["gym-membership"], "at": [-1, 0]})
    do(s, "0 pass", "1 pass", "2 enhance {gym-membership} {skeleton-intern}")
    assert strength(s) == (1, 3 + 5)


def test_no_monster_goes_below_level_1():
    s = battle(("damp-squib",), bob={"hand": ["fun-sized", "monday-morning"]})
    do(s, "0 pass", "1 enhance {fun-sized} {damp-squib}", "1 enhance {monday-morning} {damp-squib}")
    assert strength(s) == (1, 1)


def test_enhancer_extra_treasures():
    s = battle(("damp-squib",), ann={"level": 9}, bob={"hand": ["bad-reviews"]})
    do(s, "0 pass", "1 enhance {bad-reviews} {damp-squib}")
    fight(s, 6, 1)
    assert len(s.heroes[0].hand) == 1 + 1


def test_thrown_items_from_an_adjacent_room_for_either_side():
    s = battle(bob={"hand": ["pocket-sand", "suspicious-potion"]}, cy={"hand": ["glitter-bomb"]})
    do(s, "0 pass")
    legal = engine().legal(s, 1)
    assert act(s, "1 use {pocket-sand} heroes") in legal and act(s, "1 use {pocket-sand} monsters") in legal
    assert act(s, "1 use {suspicious-potion} heroes") not in legal
    with pytest.raises(IllegalAction, match="only thrown items"):
        do(s, "1 use {suspicious-potion} heroes")
    do(s, "1 use {pocket-sand} monsters")
    assert strength(s) == (1, 5)
    do(s, "1 pass")
    assert act(s, "2 use {glitter-bomb} heroes") not in engine().legal(s, 2)


def test_one_shots_from_the_combat_room_hand_or_belt():
    s = battle(ann={"hand": ["suspicious-potion"], "belt": ["liquid-courage"]})
    do(s, "0 use {suspicious-potion} heroes", "0 use {liquid-courage} heroes")
    assert strength(s) == (1 + 2 + 3, 3)
    assert s.heroes[0].belt == []


def test_wandering_monster_joins_the_fight():
    s = battle(bob={"hand": ["uninvited-guest"]}, decks={"monster": ["damp-squib"]}, dice=[1])
    do(s, "0 pass", "1 wander {uninvited-guest}")
    assert len(s.combat.monsters) == 2
    assert strength(s) == (1, 3 + 1)


def test_dice_cards_only_after_the_roll():
    s = battle(ann={"hand": ["lucky-bounce"]})
    assert act(s, "0 dice {lucky-bounce} heroes") not in engine().legal(s, 0)
    s.forced.extend([3, 4])
    do(s, "0 pass", "1 pass", "2 pass")
    assert act(s, "0 dice {lucky-bounce} heroes") in engine().legal(s, 0)
    ev = do(s, "0 dice {lucky-bounce} heroes", "0 pass", "1 pass", "2 pass")
    assert "Ann (1 +die 5 = 6) loses to Skeleton Intern (3 +die 4 = 7)" in texts(ev)


def test_room_monster_dice_rule_rolls_two_dice():
    s = battle(("damp-squib",), ann={"level": 5}, rooms=[{"id": "casino", "at": [1, 0]}])
    ev = fight(s, 3, 2, 2)
    # yellow is nobody's colour: the player after Ann rolls for it (a name in every fight, the boss's too)
    assert "Dice: Ann rolls 3 for the heroes; Bob rolls 2+2 for the monsters." in texts(ev)
    assert "Damp Squib (1 +die 4 = 5)" in texts(ev)


def test_room_bonuses_apply_to_monsters_and_heroes():
    s = battle(rooms=[{"id": "monster-gym", "at": [1, 0]}])
    assert strength(s) == (1, 3 + 2)
    s = battle(ann={"class": "warrior-card"}, rooms=[{"id": "training-yard", "at": [1, 0]}])
    assert strength(s) == (1 + 1 + 2, 3)


def test_monster_bonus_against_a_race():
    s = battle(("tax-goblin",), ann={"race": "halfling-card"})
    assert strength(s) == (1, 2 + 2)


def test_item_bonus_against_a_monster_tag_and_cleric_power():
    s = battle(ann={"class": "cleric-card"})  # the skeleton is undead
    assert strength(s) == (1 + 3, 3)


def test_death_drops_gear_loses_a_level_draws_four_and_refills_life():
    s = battle(ann={"level": 3, "life": 1, "equipped": ["hard-hat"], "belt": ["pocket-sand"]})
    fight(s, 1, 6)
    a = s.heroes[0]
    assert a.dead and a.level == 2 and a.life == 4 and len(a.hand) == 4
    assert a.equipped == [] and a.belt == []
    assert sorted(names(s.rooms[1].piles[0])) == ["hard-hat", "pocket-sand"]
    assert s.active == 1  # death ends the action phase


def test_dead_hero_returns_at_the_entrance_on_their_next_turn():
    s = battle(ann={"life": 1})
    fight(s, 1, 6)
    for seat in (1, 2):
        do(s, f"{seat} end")
    assert s.active == 0 and not s.heroes[0].dead and hero_at(s, 0) == (0, 0)


def test_dead_hero_cannot_help_or_be_cursed():
    s, _ = position(heroes=[{"hand": ["curse-demotion"]}, {"dead": True}, {}])
    assert act(s, "0 curse {curse-demotion} @1") not in engine().legal(s, 0)
    assert act(s, "0 curse {curse-demotion} @2") in engine().legal(s, 0)


def test_challenge_only_for_monsters_that_ignore_you():
    s, _ = position(
        heroes=[{"at": [1, 0], "level": 2}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "wandering-wight", "at": [1, 0], "colour": "blue"}],
    )
    assert s.combat is None
    do(s, "0 challenge {wandering-wight}")
    assert s.combat is not None and strength(s) == (2, 10)


def test_thief_d10_treasure_after_a_win_against_the_new_level():
    s = battle(("damp-squib",), ann={"class": "thief-card", "level": 2})
    ev = fight(s, 6, 1, 3)
    assert "treasure sense: d10 3 vs Level 3: works" in texts(ev)
    assert len(s.heroes[0].hand) == mdef("damp-squib").treasures + 1


def test_a_wandering_monster_that_ignores_the_fighting_hero_stays_out_of_the_fight():
    """Every other way in leaves a monster that ignores the hero's Level out of the fight; the card's
    text says so too."""
    s = battle(bob={"hand": ["uninvited-guest"]}, decks={"monster": ["wandering-wight"]}, dice=[1])
    ev = do(s, "0 pass", "1 wander {uninvited-guest}")  # the Wight ignores Level 2 or lower; Ann is 1
    assert len(s.combat.monsters) == 1 and strength(s) == (1, 3)
    assert any(
        m.card == uid("wandering-wight") and (m.x, m.y) == (s.combat.x, s.combat.y) for m in s.monsters
    )
    assert "Wandering Wight ignores Ann (Level 1): it stays out of the fight." in texts(ev)
