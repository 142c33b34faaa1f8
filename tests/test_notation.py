"""The action notation: every action kind round-trips through ``to_text``/``parse``; bad text raises."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqtui.engine.actions import SPECS, Action, NotationError, parse, to_text

EXAMPLES = {
    "done": "0 done",
    "end": "1 end",
    "pass": "2 pass",
    "search": "0 search",
    "accept": "3 accept",
    "decline": "3 decline",
    "buylevel": "0 buylevel",
    "move": "0 move N",
    "flee": "1 flee W",
    "pickup": "0 pickup 2",
    "deal": "0 deal",
    "equip": "0 equip #12",
    "stow": "0 stow #13",
    "belt": "0 belt #140",
    "discard": "0 discard #7",
    "give": "0 give #12 @2",
    "charity": "0 charity #99",
    "take": "1 take #150",
    "lose": "2 lose #151",
    "challenge": "0 challenge m4",
    "play": "0 play #3",
    "curse": "0 curse #30 @1",
    "enhance": "2 enhance #41 m3",
    "wander": "1 wander #44",
    "use": "1 use #140 monsters",
    "dice": "0 dice #50 heroes",
    "wall": "0 wall #45 E",
    "shove": "0 shove #46 m2 S",
    "teleport": "0 teleport #47 -3 5",
    "invite": "0 invite @1 t2! g100",
}


def test_every_action_kind_has_an_example():
    assert set(EXAMPLES) == set(SPECS)


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_every_action_kind_round_trips(kind):
    text = EXAMPLES[kind]
    action = parse(text)
    assert action.kind == kind
    assert to_text(action) == text
    assert parse(to_text(action)) == action
    assert str(action) == text


def test_optional_card_argument_of_deal():
    assert parse("0 deal") == Action(0, "deal")
    assert parse("0 deal #5") == Action(0, "deal", 5)
    assert to_text(Action(0, "deal", 5)) == "0 deal #5"


def test_invite_terms_encode_count_and_first_pick():
    assert parse("0 invite @1 t2! g100") == Action(0, "invite", 1, 12, 100)
    assert parse("0 invite @1 t0 g0") == Action(0, "invite", 1, 0, 0)


def test_directions_and_sides():
    assert [parse(f"0 move {d}").a for d in "NESW"] == [0, 1, 2, 3]
    assert parse("0 move s").a == 2
    assert parse("0 use #1 heroes").b == 0 and parse("0 use #1 monsters").b == 1


ARG = {
    "card": st.integers(0, 999),
    "seat": st.integers(0, 5),
    "mon": st.integers(0, 99),
    "dir": st.integers(0, 3),
    "side": st.integers(0, 1),
    "int": st.integers(-50, 50),
    "terms": st.sampled_from([0, 1, 2, 3, 10, 11, 12, 13]),
    "gold": st.sampled_from([0, 100, 200, 500]),
}


@st.composite
def actions(draw):
    kind = draw(st.sampled_from(sorted(SPECS)))
    args = [-1, -1, -1]
    for i, spec in enumerate(SPECS[kind]):
        if spec.endswith("?") and draw(st.booleans()):
            continue
        args[i] = draw(ARG[spec.rstrip("?")])
    return Action(draw(st.integers(0, 5)), kind, *args)


@given(actions())
def test_any_action_round_trips(action):
    assert parse(to_text(action)) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0",
        "end",
        "x end",
        "0 fly",
        "0 move Q",
        "0 move",
        "0 move N E",
        "0 end now",
        "0 equip 12",
        "0 equip #x",
        "0 give #12 2",
        "0 give #12",
        "0 challenge 4",
        "0 use #1 goblins",
        "0 invite @1 2 g0",
        "0 invite @1 t1 100",
        "0 teleport #1 a b",
    ],
)
def test_bad_text_raises_notation_error(text):
    with pytest.raises(NotationError):
        parse(text)
