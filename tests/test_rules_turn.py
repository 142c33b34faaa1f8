"""RULES.md §3: the order of a turn (draw, act, charity, monster phase), and charity (§3.3)."""

from __future__ import annotations

import pytest
from engine_helpers import act, do, engine, names, position, texts

from mqtui.engine.actions import Action, IllegalAction

HAND7 = [
    "hard-hat",
    "butter-knife",
    "sharp-spoon",
    "jar-of-bees",
    "pocket-sand",
    "banana-peel",
    "glitter-bomb",
]


def test_turn_starts_by_drawing_one_dxm_card():
    s, ev = position(phase="turn", heroes=[{}, {}], decks={"dxm": ["montage"]})
    assert names(s.heroes[0].hand) == ["montage"]
    assert "Ann draws a DxM card" in texts(ev)
    assert s.frames[-1].kind == "act" and s.heroes[0].moves == 3


def test_turn_resets_moves_and_the_spend_all_flags():
    s, _ = position(phase="turn", heroes=[{"moves": 0, "moved": True, "explored": True}, {}])
    h = s.heroes[0]
    assert (h.moves, h.moved, h.explored) == (3, False, False)


def test_an_elf_gets_an_extra_move_each_turn():
    s, _ = position(phase="turn", heroes=[{"race": "elf-card"}, {}])
    assert s.heroes[0].moves == 4


def test_lost_moves_come_off_the_next_turn_only():
    s, _ = position(phase="turn", heroes=[{"lose_moves": 2}, {}])
    assert s.heroes[0].moves == 1 and s.heroes[0].lose_moves == 0


def test_lost_moves_never_go_below_zero_and_spend_all_still_moves_the_hero():
    s, _ = position(phase="turn", heroes=[{"lose_moves": 5}, {}])
    assert s.heroes[0].moves == 0
    moves = [a for a in engine().legal(s, 0) if a.kind == "move"]
    assert len(moves) == 4  # the spend-all rule: never unable to move (our rule: also with 0 Moves)
    engine().apply(s, moves[0])
    assert s.heroes[0].moved and s.heroes[0].moves == 0
    assert "move" not in {a.kind for a in engine().legal(s, 0)}


def test_end_of_action_phase_leads_to_monster_phase_then_next_seat():
    s, _ = position(heroes=[{}, {}, {}], dice=[6])
    ev = do(s, "0 end")
    lines = texts(ev)
    assert lines.index("Ann ends the action phase.") < lines.index("Colour die (monster phase): purple.")
    assert lines.index("Colour die (monster phase): purple.") < lines.index("Round 1: Bob's turn.")
    assert s.active == 1 and engine().deciding(s) == 1


def test_round_counts_up_after_the_last_seat():
    s, _ = position(heroes=[{}, {}], turn=1)
    do(s, "1 end")
    assert s.active == 0 and s.round == 2


def test_any_action_by_the_wrong_seat_is_illegal():
    s, _ = position(heroes=[{}, {}])
    with pytest.raises(IllegalAction, match="Ann's decision"):
        engine().apply(s, Action(1, "end"))


def test_charity_gives_extra_cards_to_the_single_lowest_player():
    s, _ = position(heroes=[{"level": 3, "hand": HAND7}, {"level": 1}, {"level": 2}])
    ev = do(s, "0 end")
    assert "Charity: Ann holds 7 cards (5 at most) and must give 2 to Bob." in texts(ev)
    f = s.frames[-1]
    assert (f.kind, f.seat, f.target) == ("charity", 0, 1)
    do(s, "0 charity {jar-of-bees}", "0 charity {hard-hat}")
    assert {"hard-hat", "jar-of-bees"} <= set(names(s.heroes[1].hand))
    assert len(s.heroes[0].hand) == 5


def test_charity_with_tied_lowest_players_discards():
    s, _ = position(heroes=[{"level": 3, "hand": HAND7}, {"level": 1}, {"level": 1}])
    do(s, "0 end")
    assert s.frames[-1].target == -1
    do(s, "0 charity {jar-of-bees}", "0 charity {hard-hat}")
    t = engine().cards
    assert {"jar-of-bees", "hard-hat"} <= {t.card_id(u) for u in s.treasure_discard}


def test_charity_when_you_are_the_lowest_discards():
    s, _ = position(heroes=[{"level": 1, "hand": HAND7}, {"level": 2}])
    do(s, "0 end")
    assert s.frames[-1].kind == "charity" and s.frames[-1].target == -1


def test_charity_when_you_tie_for_lowest_discards():
    s, _ = position(heroes=[{"level": 2, "hand": HAND7}, {"level": 2}, {"level": 5}])
    do(s, "0 end")
    assert s.frames[-1].target == -1


def test_charity_counts_only_cards_in_hand():
    gear = {"equipped": ["colander-helm", "tinfoil-breastplate"], "belt": ["flask-of-bravado"]}
    s, _ = position(heroes=[{"level": 3, "hand": HAND7[:5], **gear}, {"level": 1}])
    ev = do(s, "0 end")
    assert "Charity" not in texts(ev)
    assert s.active == 1


def test_charity_offers_every_card_in_hand_until_five_remain():
    s, _ = position(heroes=[{"level": 3, "hand": HAND7}, {"level": 1}])
    do(s, "0 end")
    legal = engine().legal(s, 0)
    assert sorted(a.a for a in legal) == sorted(s.heroes[0].hand)
    assert {a.kind for a in legal} == {"charity"}


def test_cleric_prayer_heals_only_when_hurt():
    s, ev = position(phase="turn", heroes=[{"class": "cleric-card"}, {}], dice=[1])
    assert "healing prayer" not in texts(ev) and s.forced == [1]


def test_cleric_prayer_heals_on_a_d10_at_most_the_level():
    s, _ = position(phase="turn", heroes=[{"class": "cleric-card", "level": 4, "life": 1}, {}], dice=[4])
    assert s.heroes[0].life == 2


@pytest.mark.parametrize(
    ("hero", "text", "reason"),
    [
        ({"level": 9, "gold": 1000}, "0 buylevel", "gold never buys Level 10"),
        ({"gold": 999}, "0 buylevel", "a level costs 1000 gold; you have 999"),
        ({}, "0 search", "the Entrance cannot be searched"),
        ({"moves": 0}, "0 search", "costs 1 Move and you have none left"),
        ({"level": 9, "hand": ["montage"]}, "0 play {montage}", "only a kill does"),
        ({}, "0 pass", "'pass' is not possible now (their action phase)"),
        ({"explored": True}, "0 move N", "exploring ended your movement"),
    ],
)
def test_illegal_actions_say_why(hero, text, reason):
    s, _ = position(heroes=[hero, {}])
    with pytest.raises(IllegalAction) as info:
        engine().apply(s, act(s, text))
    assert reason in str(info.value)
