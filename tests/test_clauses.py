"""Card clauses the engine once left out (issue 26, item 2), beyond the scenarios in seeds/scenarios/.

Each test plays a clause of a card, room or table in a position where it matters: the restriction of a
one-shot item, its bonus against a kind of monster, the order of Bad Stuff when a choice is asked, the
victim's choice among several items a slot effect could take, and a curse whose effects follow a choice.
"""

from __future__ import annotations

import msgspec
from engine_helpers import act, do, engine, position, strength_of, texts

from mqtui.engine.content import load_content
from mqtui.engine.defs import Effect
from mqtui.engine.game import Engine
from mqtui.engine.scenario import build, resolve_action
from mqtui.engine.state import BAD_STUFF, LOSE_ITEM, State

FIGHT = {
    "rooms": [{"id": "pawn-shop", "at": [1, 0]}],
    "monsters": [{"card": "skeleton-intern", "at": [1, 0], "colour": "blue"}],
}


def legal(s: State, *actions: str) -> bool:
    """Every one of these actions (in the notation, ``{card-id}`` allowed) is legal now."""
    return all(act(s, text) in engine().legal(s, act(s, text).seat) for text in actions)


def test_a_restricted_one_shot_is_usable_by_the_races_and_classes_it_names() -> None:
    for who in ({"race": "dwarf-card"}, {"class": "warrior-card"}):
        s, _ = position(heroes=[{"at": [1, 0], "hand": ["rage-scroll"], **who}, {}], **FIGHT)
        assert legal(s, "0 use {rage-scroll} heroes", "0 use {rage-scroll} monsters")


def test_a_one_shot_bonus_against_a_tag_is_not_given_to_the_monsters() -> None:
    s, _ = position(heroes=[{"at": [1, 0], "hand": ["tap-holy-water"]}, {}], **FIGHT)
    ev = do(s, "0 use {tap-holy-water} monsters")
    assert "for the monsters: +2." in texts(ev)
    assert strength_of(s) == (1, 5)  # 3 + 2


def test_a_one_shot_bonus_against_a_tag_needs_such_a_monster() -> None:
    fight = {**FIGHT, "monsters": [{"card": "gnoll-influencer", "at": [1, 0], "colour": "blue"}]}
    s, _ = position(heroes=[{"at": [1, 0], "hand": ["tap-holy-water"]}, {}], **fight)
    assert "for the heroes: +2." in texts(do(s, "0 use {tap-holy-water} heroes"))


def test_two_big_items_the_victim_chooses_which_one_and_the_rest_follows_the_choice() -> None:
    """The Teething Tarrasque: "lose your Big item and lose 1 more Life". A Dwarf with two Big items
    chooses; the Life is lost after the choice, in the card's order."""
    s, _ = position(
        heroes=[
            {
                "at": [1, 0],
                "level": 6,
                "race": "dwarf-card",
                "equipped": ["siege-ladle"],
                "backpack": ["extending-ladder"],
            },
            {},
        ],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],
        monsters=[{"card": "teething-tarrasque", "at": [1, 0], "colour": "blue"}],
        dice=[1, 6, 1],
    )
    do(s, "0 pass", "1 pass", "0 pass", "1 pass")
    assert s.frames[-1].kind == LOSE_ITEM and s.frames[-2].kind == BAD_STUFF
    assert legal(s, "0 lose {siege-ladle}", "0 lose {extending-ladder}")
    assert s.heroes[0].life == 3  # the fight's Life only, so far
    ev = do(s, "0 lose {extending-ladder}")
    assert texts(ev).index("loses Ladder") < texts(ev).index("loses 1 Life")
    hero = s.heroes[0]
    assert hero.life == 2 and hero.backpack == [] and len(hero.equipped) == 1


def test_the_fighting_heros_choice_comes_before_the_helpers_bad_stuff() -> None:
    s, _ = position(
        heroes=[{"at": [1, 0], "equipped": ["hard-hat"]}, {"at": [1, 0], "equipped": ["sensible-shoes"]}],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],
        monsters=[{"card": "gnoll-influencer", "at": [1, 0], "colour": "blue"}],
        dice=[1, 6, 1, 1],
    )
    do(s, "0 invite @1 t0 g0", "1 accept", "0 pass", "1 pass", "0 pass", "1 pass")
    assert s.frames[-1].kind == LOSE_ITEM and s.frames[-1].seat == 0
    assert s.heroes[1].life == 4  # the helper's part waits
    ev = do(s, "0 lose {hard-hat}")
    assert "Bob loses 1 Life" in texts(ev)
    assert s.frames[-1].kind == LOSE_ITEM and s.frames[-1].seat == 1


def test_a_curse_effect_after_a_choice_waits_for_the_choice() -> None:
    """No card of the base game has one yet; a pack's curse may ("lose 1 item, then 300 gold")."""
    base = load_content()
    dxm = tuple(
        msgspec.structs.replace(
            d, effects=(Effect(kind="lose_item", amount=1), Effect(kind="lose_gold", amount=300))
        )
        if d.id == "curse-butterfingers"
        else d
        for d in base.dxm
    )
    eng = Engine(msgspec.structs.replace(base, dxm=dxm))
    s, _ = build(eng, {"heroes": [{"hand": ["curse-butterfingers"]}, {"equipped": ["hard-hat"]}]})
    eng.apply(s, resolve_action(eng, s, "0 curse {curse-butterfingers} @1"))
    assert s.frames[-1].kind == LOSE_ITEM and s.heroes[1].gold == 300
    eng.apply(s, resolve_action(eng, s, "1 lose {hard-hat}"))
    assert s.heroes[1].gold == 0 and s.heroes[1].equipped == []
    assert eng.deciding(s) == 0 and [f.kind for f in s.frames] == ["act"]


def test_an_escape_roll_counts_the_bonuses_the_hero_has_when_rolling() -> None:
    """An Elf made Human by the Ghost of Paperwork's Bad Stuff rolls against the next monster without
    the Elf's +1 (docs/rules.md, Losing)."""
    s, _ = position(
        heroes=[{"at": [1, 0], "race": "elf-card"}, {}],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],
        monsters=[
            {"card": "ghost-of-paperwork", "at": [1, 0], "colour": "blue"},
            {"card": "damp-squib", "at": [1, 0], "colour": "blue"},
        ],
        dice=[1, 6, 1, 4],
    )
    ev = texts(do(s, "0 pass", "1 pass", "0 pass", "1 pass"))
    assert "fails to escape Ghost of Paperwork Past (d6 1 +1, 5 needed)" in ev
    assert "fails to escape Damp Squib (d6 4, 5 needed)" in ev
    assert s.heroes[0].races == [] and s.heroes[0].gold == 200
