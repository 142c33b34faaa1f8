"""Hidden information: a seat's view shows no other hand, no deck order, no seed or generator, and
private event texts reach only their seat."""

from __future__ import annotations

import random

import msgspec
import pytest
from engine_helpers import PLAYERS, do, engine, fight, position, random_game

from mqtui.engine.actions import Event
from mqtui.engine.state import HIDDEN
from mqtui.engine.view import view_for


def events_for(events: list[Event], seat: int) -> list[str]:
    """The log lines one seat reads, in order (its private forms), as the store and the server give them."""
    return [line for e in events if (line := e.for_seat(seat))]


def game():
    s, ev = engine().new_game(PLAYERS[:3], seed=11)
    return s, ev


def test_view_shows_own_hand_only():
    s, _ = game()
    for seat in range(3):
        v = view_for(s, seat)
        for h in v.heroes:
            if h.seat == seat:
                assert h.hand == s.heroes[seat].hand
            else:
                assert h.hand == [HIDDEN] * len(s.heroes[h.seat].hand)


def test_view_hides_deck_order_room_stack_and_bag_but_keeps_sizes():
    s, _ = game()
    s.bag = ["door", "wall"]
    v = view_for(s, 0)
    for name in ("dxm", "treasure", "monster_deck", "tiles"):
        assert getattr(v, name) == [HIDDEN] * len(getattr(s, name))
    assert v.bag == ["?", "?"]
    assert v.faces == {}


def test_view_has_no_seed_generator_or_forced_dice():
    s, _ = game()
    s.forced = [6, 6]
    v = view_for(s, 1)
    assert (v.seed, v.rng, v.forced) == (0, 0, [])


def test_spectator_sees_no_hand():
    s, _ = game()
    v = view_for(s, -1)
    assert all(set(h.hand) <= {HIDDEN} for h in v.heroes)


def test_view_does_not_change_the_state():
    s, _ = game()
    before = msgspec.msgpack.encode(s)
    view_for(s, 0)
    assert msgspec.msgpack.encode(s) == before


def test_view_keeps_public_information():
    s, _ = random_game(3, players=3, max_rounds=6)
    v = view_for(s, 0)
    assert v.rooms == s.rooms and v.monsters == s.monsters and v.edges == s.edges
    assert v.dxm_discard == s.dxm_discard and v.treasure_discard == s.treasure_discard
    for hv, hs in zip(v.heroes, s.heroes, strict=True):
        assert (hv.equipped, hv.belt, hv.backpack, hv.races, hv.classes) == (
            hs.equipped,
            hs.belt,
            hs.backpack,
            hs.races,
            hs.classes,
        )
        assert (hv.level, hv.life, hv.gold, hv.x, hv.y) == (hs.level, hs.life, hs.gold, hs.x, hs.y)


def test_reward_cards_seen_only_by_the_two_heroes_sharing_them():
    s, _ = position(
        heroes=[{"level": 5, "at": [1, 0]}, {"at": [1, 0]}, {}],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],
        monsters=[{"card": "skeleton-intern", "at": [1, 0], "colour": "green"}],
    )
    do(s, "0 invite @1 t1 g0", "1 accept")
    fight(s, 6, 1)
    assert s.frames[-1].kind == "reward"
    opts = s.frames[-1].options
    assert view_for(s, 0).frames[-1].options == opts
    assert view_for(s, 1).frames[-1].options == opts
    assert view_for(s, 2).frames[-1].options == [HIDDEN] * len(opts)


def test_draws_are_named_only_to_the_drawer():
    s, ev = game()
    names = {engine().cards.names[u] for u in s.heroes[0].hand}
    mine = "\n".join(events_for(ev, 0))
    theirs = "\n".join(events_for(ev, 1))
    assert all(n in mine for n in names)
    assert not any(n in theirs for n in names)


def test_private_events_only_for_their_seat():
    s, _ = position(heroes=[{"hand": ["hard-hat"]}, {}, {}])
    ev = do(s, "0 give {hard-hat} @1")
    name = engine().cards.names[engine().cards.by_id["hard-hat"][0]]
    assert any(name in line for line in events_for(ev, 0))
    assert any(name in line for line in events_for(ev, 1))
    assert not any(name in line for line in events_for(ev, 2))
    assert not any(name in e.text for e in ev)


def test_events_in_a_random_game_never_name_hand_cards_publicly():
    e = engine()
    s, _ = e.new_game(PLAYERS, seed=5)
    r = random.Random(5)
    for _ in range(600):
        if s.stage == "over":
            break
        seat = e.deciding(s)
        ev = e.apply(s, r.choice(e.legal(s, seat)))
        for event in ev:
            if event.kind == "draw":
                assert "You draw" not in event.text and event.private.startswith("You draw")


def _public_cards(s) -> set[int]:
    out: set[int] = set()
    for h in s.heroes:
        out.update(h.equipped, h.belt, h.backpack, h.races, h.classes, (h.half_breed, h.super_munchkin))
    for room in s.rooms:
        for pile in room.piles:
            out.update(pile)
    out.update(s.dxm_discard, s.treasure_discard, s.monster_discard, (m.card for m in s.monsters))
    if s.combat is not None:
        out.add(s.combat.boss_card)
    return out


@pytest.mark.slow
def test_public_event_texts_never_name_a_hidden_card():
    e = engine()
    t = e.cards
    for seed in range(4):
        s, _ = e.new_game(PLAYERS, seed=seed)
        r = random.Random(seed)
        while s.stage != "over" and s.round <= 12:
            before = _public_cards(s)
            held = {u for h in s.heroes for u in h.hand}
            ev = e.apply(s, r.choice(e.legal(s, e.deciding(s))))
            played = held - {u for h in s.heroes for u in h.hand}  # shown when played, wherever they went
            public = before | _public_cards(s) | played
            public_names = {t.names[u] for u in public if u >= 0}
            hidden = {t.names[u] for h in s.heroes for u in h.hand} - public_names
            text = "\n".join(x.text for x in ev)
            leaked = [n for n in hidden if n in text]
            assert not leaked, (leaked, text)
