"""Every word of the Bad Stuff and curse vocabulary does what its name says (one case per effect kind).

Rules-level tests elsewhere play these through curses and lost fights; this module guarantees that no
kind in ``EFFECT_KINDS`` is left without a check, and fails if a new kind is added without one.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_helpers import engine

from mqtui.engine.actions import Event
from mqtui.engine.cards import DXM, TREASURE
from mqtui.engine.defs import EFFECT_KINDS, Effect
from mqtui.engine.heroes import apply_effect, carried
from mqtui.engine.state import LOSE_ITEM, Hero, State


def _setup() -> tuple[State, Hero]:
    eng = engine()
    s, _ = eng.new_game([("Ann", "red"), ("Bob", "blue")], seed=3)
    hero = s.heroes[0]
    t = eng.cards
    hero.level, hero.gold, hero.x, hero.y = 5, 500, 0, 0
    races = [u for u in t.uids(DXM) if t.dxm[u].kind == "race"]
    classes = [u for u in t.uids(DXM) if t.dxm[u].kind == "class"]
    hero.races, hero.classes = [races[0]], [classes[0]]
    s.dxm = [u for u in s.dxm if u not in (races[0], classes[0])]
    heads = [u for u in s.treasure if t.treasure[u].kind == "equipment" and t.treasure[u].slot == "head"]
    hero.equipped = [heads[0]]
    s.treasure.remove(heads[0])
    return s, hero


CASES: dict[str, tuple[Effect, Callable[[State, Hero], bool]]] = {
    "lose_levels": (Effect(kind="lose_levels", amount=2), lambda s, h: h.level == 3),
    "lose_slot": (Effect(kind="lose_slot", slot="head"), lambda s, h: h.equipped == []),
    "lose_item": (Effect(kind="lose_item", amount=1), lambda s, h: s.frames[-1].kind == LOSE_ITEM),
    "lose_gold": (Effect(kind="lose_gold", amount=200), lambda s, h: h.gold == 300),
    "lose_race": (Effect(kind="lose_race"), lambda s, h: h.races == []),
    "lose_class": (Effect(kind="lose_class"), lambda s, h: h.classes == []),
    "lose_moves": (Effect(kind="lose_moves", amount=2), lambda s, h: h.lose_moves == 2),
    "discard_cards": (Effect(kind="discard_cards", amount=2), lambda s, h: len(h.hand) == 4),
    "lose_life": (Effect(kind="lose_life", amount=2), lambda s, h: h.life == 2),
    "to_entrance": (Effect(kind="to_entrance"), lambda s, h: (h.x, h.y) == (0, 0) and not h.dead),
    "death": (Effect(kind="death"), lambda s, h: h.dead and h.level == 4 and carried(h) == []),
}


def test_every_effect_kind_has_a_case() -> None:
    assert set(CASES) == set(EFFECT_KINDS)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_effect_kind_does_what_it_says(kind: str) -> None:
    s, hero = _setup()
    if kind == "to_entrance":
        hero.x, hero.y = 5, 5  # anywhere but the Entrance
    effect, holds = CASES[kind]
    ev: list[Event] = []
    apply_effect(engine().cards, s, ev, hero, effect, "a test")
    assert holds(s, hero), f"{kind}: {hero}"
    if kind not in ("lose_item",):
        assert ev, f"{kind} happened without a log line"


def test_effects_never_push_a_hero_below_level_one_or_below_zero_gold() -> None:
    s, hero = _setup()
    t = engine().cards
    ev: list[Event] = []
    apply_effect(t, s, ev, hero, Effect(kind="lose_levels", amount=50), "a test")
    apply_effect(t, s, ev, hero, Effect(kind="lose_gold", amount=5000), "a test")
    assert hero.level == 1
    assert hero.gold == 0
    assert all(t.deck_of[u] in (DXM, TREASURE) for u in hero.hand)
