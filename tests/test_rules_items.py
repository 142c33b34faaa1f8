"""RULES.md §7: carrying items, and what happens to them (Bad Stuff, death, trading)."""

from __future__ import annotations

import pytest
from engine_helpers import act, do, engine, fight, names, plain_rooms, position, strength_of

from mqtui.engine.actions import IllegalAction
from mqtui.engine.defs import Effect
from mqtui.engine.heroes import apply_effect

(A,) = plain_rooms(1)


def ann(**hero):
    s, _ = position(heroes=[hero, {}])
    return s


def legal(s, text):
    return act(s, text) in engine().legal(s, 0)


def test_one_headgear_at_a_time():
    s = ann(hand=["hard-hat", "colander-helm"])
    do(s, "0 equip {hard-hat}")
    assert not legal(s, "0 equip {colander-helm}")
    with pytest.raises(IllegalAction, match="already wear head"):
        do(s, "0 equip {colander-helm}")


def test_one_armour_and_one_footgear():
    s = ann(equipped=["tinfoil-breastplate", "sensible-shoes"], hand=["chainmail-onesie", "fuzzy-slippers"])
    assert not legal(s, "0 equip {chainmail-onesie}")
    assert not legal(s, "0 equip {fuzzy-slippers}")


def test_two_hands_two_one_handed_items():
    s = ann(hand=["butter-knife", "sharp-spoon", "rubber-chicken"])
    do(s, "0 equip {butter-knife}", "0 equip {sharp-spoon}")
    assert not legal(s, "0 equip {rubber-chicken}")


def test_two_handed_item_needs_both_hands():
    s = ann(equipped=["butter-knife"], hand=["pool-noodle"])
    assert not legal(s, "0 equip {pool-noodle}")
    s = ann(hand=["pool-noodle", "butter-knife"])
    do(s, "0 equip {pool-noodle}")
    assert not legal(s, "0 equip {butter-knife}")


def test_any_number_of_trinkets():
    trinkets = ["rabbit-slipper", "participation-medal", "ring-of-vague-power", "dramatic-cape", "grudge-bag"]
    s = ann(hand=trinkets)
    for t in trinkets:
        do(s, f"0 equip {{{t}}}")
    assert len(s.heroes[0].equipped) == 5


def test_only_one_big_item():
    s = ann(equipped=["clanking-plate"], hand=["siege-ladle"])
    assert not legal(s, "0 equip {siege-ladle}")
    assert not legal(s, "0 stow {siege-ladle}")  # Big counts in the backpack too


def test_dwarf_carries_two_big_items():
    s = ann(race="dwarf-card", equipped=["clanking-plate"], hand=["siege-ladle", "extending-ladder"])
    do(s, "0 equip {siege-ladle}")
    assert not legal(s, "0 stow {extending-ladder}")


def test_backpack_holds_two_items_not_in_use():
    s = ann(hand=["hard-hat", "colander-helm", "sticker-helm"])
    do(s, "0 stow {hard-hat}", "0 stow {colander-helm}")
    assert not legal(s, "0 stow {sticker-helm}")
    assert names(s.heroes[0].backpack) == ["colander-helm", "hard-hat"]


def test_dwarf_backpack_holds_three():
    s = ann(race="dwarf-card", hand=["hard-hat", "colander-helm", "sticker-helm"])
    do(s, "0 stow {hard-hat}", "0 stow {colander-helm}", "0 stow {sticker-helm}")
    assert len(s.heroes[0].backpack) == 3


def test_items_move_between_use_and_backpack():
    s = ann(equipped=["hard-hat"], hand=["colander-helm"])
    do(s, "0 stow {hard-hat}", "0 equip {colander-helm}")
    assert not legal(s, "0 equip {hard-hat}")
    do(s, "0 stow {colander-helm}", "0 equip {hard-hat}")
    assert names(s.heroes[0].equipped) == ["hard-hat"]


def test_belt_holds_any_number_of_one_shots_only():
    s = ann(hand=["flask-of-bravado", "pocket-sand", "jar-of-bees", "banana-peel", "hard-hat"])
    for c in ("flask-of-bravado", "pocket-sand", "jar-of-bees", "banana-peel"):
        do(s, f"0 belt {{{c}}}")
    assert len(s.heroes[0].belt) == 4
    assert not legal(s, "0 belt {hard-hat}")


def test_restricted_items_only_for_their_race_or_class():
    s = ann(hand=["wand-of-inconvenience", "viking-helmet"])
    assert not legal(s, "0 equip {wand-of-inconvenience}")
    assert legal(s, "0 stow {wand-of-inconvenience}")
    s = ann(hand=["wand-of-inconvenience"], **{"class": "wizard-card"})
    assert legal(s, "0 equip {wand-of-inconvenience}")
    s = ann(race="elf-card", hand=["viking-helmet"])
    assert not legal(s, "0 equip {viking-helmet}")


def test_unusable_items_in_use_add_nothing():
    s, _ = position(
        heroes=[{"at": [1, 0], "equipped": ["wand-of-inconvenience"]}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "damp-squib", "at": [1, 0], "colour": "blue"}],
    )
    assert strength_of(s) == (1, 1)


def test_healing_and_moves_one_shots_outside_combat():
    s = ann(life=2, hand=["band-aid-of-paris", "energy-drink"])
    do(s, "0 play {band-aid-of-paris}", "0 play {energy-drink}")
    assert s.heroes[0].life == 3 and s.heroes[0].moves == 5


def test_healing_one_shot_not_at_full_life():
    s = ann(hand=["band-aid-of-paris"])
    assert not legal(s, "0 play {band-aid-of-paris}")


def test_bad_stuff_lose_slot_takes_the_item_in_that_slot():
    s = ann(equipped=["hard-hat", "sensible-shoes"])
    apply_effect(engine().cards, s, [], s.heroes[0], Effect(kind="lose_slot", slot="feet"), "test")
    assert names(s.heroes[0].equipped) == ["hard-hat"]


def test_bad_stuff_lose_item_lets_the_victim_choose_among_carried_items():
    s = ann(equipped=["hard-hat"], belt=["pocket-sand"], backpack=["generic-shield"], hand=["butter-knife"])
    apply_effect(engine().cards, s, [], s.heroes[0], Effect(kind="lose_item", amount=1), "test")
    engine().forget()
    choices = sorted(str(a) for a in engine().legal(s, 0))
    assert len(choices) == 3 and all(c.startswith("0 lose") for c in choices)


def test_death_drops_all_played_treasure_as_one_pile():
    s, _ = position(
        heroes=[{"at": [1, 0], "life": 1, "equipped": ["hard-hat"], "belt": ["pocket-sand"], "backpack": ["generic-shield"],
                 "race": "elf-card"}, {}],
        rooms=[{"id": A, "at": [1, 0]}],
        monsters=[{"card": "skeleton-intern", "at": [1, 0], "colour": "blue"}],
    )  # fmt: skip
    fight(s, 1, 6)
    assert [sorted(names(p)) for p in s.rooms[1].piles] == [["generic-shield", "hard-hat", "pocket-sand"]]
    assert len(s.heroes[0].races) == 1  # race and class cards are not dropped


def test_any_hero_may_pick_up_a_dead_heros_gear():
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}], rooms=[{"id": A, "at": [1, 0], "piles": [["hard-hat", "pocket-sand"]]}]
    )
    do(s, "0 pickup 0", "0 equip {hard-hat}", "0 belt {pocket-sand}")
    assert names(s.heroes[0].equipped) == ["hard-hat"]


def test_bad_stuff_lose_big_item_also_takes_it_from_the_backpack():
    s = ann(backpack=["siege-ladle"], equipped=["hard-hat"])
    apply_effect(engine().cards, s, [], s.heroes[0], Effect(kind="lose_slot", slot="big"), "test")
    assert s.heroes[0].backpack == [] and names(s.heroes[0].equipped) == ["hard-hat"]


def test_bad_stuff_lose_hand_item_takes_a_two_handed_one_too():
    s = ann(equipped=["pool-noodle"])
    apply_effect(engine().cards, s, [], s.heroes[0], Effect(kind="lose_slot", slot="hand"), "test")
    assert s.heroes[0].equipped == []
