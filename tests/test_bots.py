"""The bots: legal choices only, determinism, fairness (hidden cards never matter), and sound play.

Positions come from real games: random bots play a game, and every few decisions the position is kept.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from bot_helpers import ending, hidden_variants, legal_choices_everywhere, new_game, positions, same_games

from mqtui.bots import BOT_KINDS, Choice, make_bot
from mqtui.bots.easy import EasyBot
from mqtui.bots.eval import position_score
from mqtui.bots.hard import HardBot, demotion_risk
from mqtui.bots.knowledge import HAND_ODDS, card_sort, sample_state, unseen_cards, visible_cards
from mqtui.bots.normal import Ctx, NormalBot, Params, build, decide, distance_home, quick_plays
from mqtui.engine.cards import DXM, MONSTER, TREASURE
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import (
    ACT,
    CHARITY,
    DX,
    DY,
    HIDDEN,
    INVITE,
    LOSE_ITEM,
    REWARD,
    STAGE_OVER,
    WINDOW,
    Frame,
    State,
)
from mqtui.engine.view import view_for
from mqtui.sim import play_game

pytestmark = same_games


def quick_hard(seed: int) -> HardBot:
    # a small step budget; the wall-clock guard out of the way, so a loaded machine cannot cut a
    # decision short and make it differ
    return HardBot(seed, steps=40, samples=2, deadline_ms=60_000)


def ask(engine: Engine, bot: object, s: State) -> Choice:
    seat = engine.deciding(s)
    choice: Choice = bot.choose(engine, view_for(s, seat), seat, list(engine.legal(s, seat)))  # type: ignore[attr-defined]
    return choice


# -- legality ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_normal_bot_chooses_only_legal_actions_in_thousands_of_positions(engine: Engine) -> None:
    # eight random games and six of normal bots, one position in three (about 7,000 positions): the
    # sweep looks for a position where the bot's pick is not legal, which branch coverage cannot see
    games = (("random", range(1, 9)), ("normal", range(100, 106)))
    assert legal_choices_everywhere(engine, NormalBot, games, every=3) >= 6000


@pytest.mark.slow
def test_random_and_hard_bots_choose_only_legal_actions(engine: Engine) -> None:
    asked = 0
    for s in positions(engine, range(100, 106), every=5, drivers="normal"):
        seat = engine.deciding(s)
        legal = engine.legal(s, seat)
        for bot in (make_bot("random", asked), quick_hard(asked)):
            choice = bot.choose(engine, view_for(s, seat), seat, list(legal))
            assert choice.action in legal
        asked += 1
    assert asked >= 250


def test_every_bot_kind_can_be_made() -> None:
    for kind in BOT_KINDS:
        assert make_bot(kind, 1).kind == kind
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot("genius")


# -- determinism and fairness ---------------------------------------------------------------------------


@pytest.mark.slow
def test_same_view_and_seed_give_the_same_decision(engine: Engine) -> None:
    for s in positions(engine, range(100, 103), every=15, drivers="normal"):
        seat = engine.deciding(s)
        legal = list(engine.legal(s, seat))
        view = view_for(s, seat)
        for make in (lambda: NormalBot(7), lambda: quick_hard(7), lambda: EasyBot(7)):
            first = make().choose(engine, view, seat, legal)
            again = make().choose(engine, copy_state(view), seat, legal)
            assert first == again


@pytest.mark.slow
def test_hidden_cards_do_not_change_the_decision(engine: Engine) -> None:
    rnd = random.Random(3)
    checked = 0
    for s, seat, other in hidden_variants(engine, range(100, 106), every=6, rnd=rnd):
        view, other_view = view_for(s, seat), view_for(other, seat)
        legal = list(engine.legal(s, seat))
        other_legal = list(engine.legal(other, seat))
        assert NormalBot(1).choose(engine, view, seat, legal) == NormalBot(1).choose(
            engine, other_view, seat, other_legal
        )
        assert EasyBot(1).choose(engine, view, seat, legal) == EasyBot(1).choose(
            engine, other_view, seat, other_legal
        )
        if checked % 4 == 0:  # the hard bot samples the hidden cards itself: it must not see them either
            assert quick_hard(1).choose(engine, view, seat, legal) == quick_hard(1).choose(
                engine, other_view, seat, other_legal
            )
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("odds", [None, HAND_ODDS], ids=["uniform", "hand-odds"])
def test_a_sampled_state_looks_exactly_like_the_view(engine: Engine, odds: dict[str, float] | None) -> None:
    rnd = random.Random(5)
    t = engine.cards
    everything = sorted(range(len(t.deck_of)))
    for s in positions(engine, range(100, 103), every=25, drivers="normal"):
        seat = engine.deciding(s)
        view = view_for(s, seat)
        sample = sample_state(t, view, seat, rnd, odds)
        assert msgspec.msgpack.encode(view_for(sample, seat)) == msgspec.msgpack.encode(view)
        assert sorted(_all_cards(sample)) == everything  # every card exactly once
        for deck, pile in ((DXM, sample.dxm), (TREASURE, sample.treasure), (MONSTER, sample.monster_deck)):
            assert all(t.deck_of[u] == deck for u in pile)
        # what the seat sees is never resampled
        assert not visible_cards(view, seat) & set(unseen_cards(t, view, seat)[DXM])


def test_hand_odds_deal_what_players_really_hold(engine: Engine) -> None:
    """Players belt one-shots at once and keep dice tricks: dealt with HAND_ODDS, sampled hands hold
    fewer one-shots and more dice cards than a uniform deal gives them (and the piles the rest)."""
    t = engine.cards

    def held_in_hands(view: State, seat: int, odds: dict[str, float] | None) -> dict[str, int]:
        rnd = random.Random(9)
        held: dict[str, int] = {"oneshot": 0, "dice": 0}
        for _ in range(300):
            sample = sample_state(t, view, seat, rnd, odds)
            for h in sample.heroes:
                if h.seat != seat:
                    for u in h.hand:
                        sort = card_sort(t, u)
                        if sort in held:
                            held[sort] += 1
        return held

    # the first position (round 3 on) where a uniform deal gives the other hands one-shots at all
    for s in positions(engine, range(100, 120), every=40, drivers="normal"):
        if s.round < 3:
            continue
        seat = engine.deciding(s)
        view = view_for(s, seat)
        uniform = held_in_hands(view, seat, None)
        if uniform["oneshot"] >= 30:
            break
    assert uniform["oneshot"] >= 30
    weighted = held_in_hands(view, seat, HAND_ODDS)
    assert weighted["oneshot"] < 0.5 * uniform["oneshot"]
    assert weighted["dice"] > uniform["dice"]


def _all_cards(s: State) -> list[int]:
    cards: list[int] = []
    for h in s.heroes:
        cards += h.hand + h.equipped + h.belt + h.backpack + h.races + h.classes
        cards += [u for u in (h.half_breed, h.super_munchkin) if u != HIDDEN]
    for room in s.rooms:
        for pile in room.piles:
            cards += pile
    cards += [m.card for m in s.monsters]
    cards += s.dxm + s.treasure + s.monster_deck + s.dxm_discard + s.treasure_discard + s.monster_discard
    if s.combat is not None and s.combat.boss_card != HIDDEN:
        cards.append(s.combat.boss_card)
    return cards


# -- play ----------------------------------------------------------------------------------------------


def test_normal_bots_finish_their_games(engine: Engine) -> None:
    # the six pooled games the sweeps read (two to four players; 101 and 104 have four)
    for seed in range(100, 106):
        end = ending(engine, seed, "normal")
        assert end.stage == STAGE_OVER and end.winners


def test_normal_bot_beats_random_bots(engine: Engine) -> None:
    wins = sum(
        0 in play_game(engine, ["normal", "random", "random", "random"], seed).winners for seed in range(4)
    )
    assert wins >= 3


def _fight_position(engine: Engine, want: str) -> State:
    """A real position whose top frame is ``want`` (found by playing normal bots)."""
    for s in positions(engine, range(100, 140), every=1, drivers="normal", top=want):
        if s.frames and s.frames[-1].kind == want and len(s.heroes) == 4:
            return s
    raise AssertionError(f"no {want} position found")


def test_normal_bot_wont_help_a_player_one_level_from_winning(engine: Engine) -> None:
    s = _fight_position(engine, WINDOW)
    c = s.combat
    assert c is not None and not c.boss
    active = s.heroes[c.active]
    active.level = 9
    helper = next(h for h in s.heroes if h.seat != c.active)
    helper.level = 3
    c.invited.append(helper.seat)
    s.frames.append(Frame(kind=INVITE, seat=helper.seat, n=3, target=500))
    choice = ask(engine, NormalBot(1), s)
    assert choice.action.kind == "decline"
    assert "one level from winning" in choice.why


def test_normal_bot_loses_its_least_useful_item(engine: Engine) -> None:
    t = engine.cards
    s = new_game(engine, 5)
    hero = s.heroes[0]
    by_id = t.by_id
    good = by_id["alleged-sword"][0]  # +3, in use
    junk = by_id["participation-medal"][0]  # +1 trinket in the backpack... of lesser use
    hero.hand = []
    hero.equipped = [good]
    hero.backpack = [junk]
    s.frames.append(Frame(kind=LOSE_ITEM, seat=0, n=1))
    choice = ask(engine, NormalBot(1), s)
    assert choice.action.kind == "lose" and choice.action.a == junk


def test_normal_bot_gives_junk_to_charity_and_keeps_the_best(engine: Engine) -> None:
    t = engine.cards
    s = new_game(engine, 6)
    hero = s.heroes[0]
    level = t.by_id["free-level-coupon"][0]
    sword = t.by_id["alleged-sword"][0]
    spoon = t.by_id["sharp-spoon"][0]
    junk = [u for u in t.uids(DXM) if t.dxm[u].kind == "moves"][:3]
    hero.hand = [level, sword, spoon, *junk]
    hero.equipped = []
    s.frames.append(Frame(kind=CHARITY, seat=0, n=1, target=1))
    choice = ask(engine, NormalBot(1), s)
    assert choice.action.kind == "charity"
    assert choice.action.a in junk


def test_a_sample_keeps_the_shared_out_treasure_consistent(engine: Engine) -> None:
    """While a helper's reward is shared out, a third seat sees neither the cards nor whose they are."""
    rnd = random.Random(9)
    t = engine.cards
    found = 0
    for s in positions(engine, range(100, 190), every=1, drivers="normal", top=REWARD):
        f = s.frames[-1] if s.frames else None
        if f is None or f.kind != REWARD:
            continue
        third = next((h.seat for h in s.heroes if h.seat not in (s.active, f.target)), None)
        if third is None:
            continue
        view = view_for(s, third)
        assert all(u == HIDDEN for u in view.frames[-1].options)
        sample = sample_state(t, view, third, rnd)
        assert msgspec.msgpack.encode(view_for(sample, third)) == msgspec.msgpack.encode(view)
        options = sample.frames[-1].options
        assert set(options) <= set(sample.heroes[sample.active].hand)
        assert all(t.deck_of[u] == TREASURE for u in options)
        found += 1
        if found >= 3:
            break
    assert found >= 1


def _boss_window_with_interference(engine: Engine) -> State:
    """A boss fight, before the dice, where the deciding rival (below Level 10) throws a card in."""
    for s in positions(engine, range(100, 400), every=1, drivers="normal", top=WINDOW):
        c, f = s.combat, s.frames[-1] if s.frames else None
        if c is None or not c.boss or f is None or f.kind != WINDOW or f.stage != "pre":
            continue
        seat = engine.deciding(s)
        if seat in (c.active, c.helper) or s.heroes[seat].level >= 10:
            continue
        if ask(engine, NormalBot(1), s).action.kind != "pass":
            return s
    raise AssertionError("no boss fight with interference found")


def test_normal_bot_lets_the_leader_through_once_it_cannot_win_itself(engine: Engine) -> None:
    """With no fight left in the dungeon for a hero below Level 10 (no rooms to explore, no monsters,
    every room looted), stopping the boss fight only drags the game on: the bot passes."""
    s = _boss_window_with_interference(engine)
    c = s.combat
    assert c is not None
    s.tiles = []
    s.monsters = [m for m in s.monsters if m.id in c.monsters]
    for room in s.rooms:
        room.searched = 2
    choice = ask(engine, NormalBot(1), s)
    assert choice.action.kind == "pass"


def test_hard_bot_looks_ahead_on_dice_tricks_after_the_roll(engine: Engine) -> None:
    """After the roll the dice are known: the hard bot plays each dice trick out on them (the normal
    bot only asks whether one flips the result)."""
    t = engine.cards
    crooked = t.by_id["crooked-die"][0]
    for s in positions(engine, range(200, 260), every=2, drivers="normal"):
        f = s.frames[-1] if s.frames else None
        if f is None or f.kind != WINDOW or f.stage != "post":
            continue
        seat = f.seat
        s.heroes[seat].hand.append(crooked)
        legal = list(engine.legal(s, seat))
        dice = [a for a in legal if a.kind == "dice" and a.a == crooked]
        if not dice:
            continue
        bot = quick_hard(1)
        view = view_for(s, seat)
        base = decide(t, view, seat, legal, bot.params)
        menu = [c.action for c in bot.candidates(engine, view, seat, legal, base)]
        assert set(dice) <= set(menu)
        assert any(a.kind == "pass" for a in menu)
        assert bot.choose(engine, view, seat, legal).action in legal
        return
    raise AssertionError("no dice window found")


def test_the_hard_bot_values_its_fight_cards_above_their_face_value(engine: Engine) -> None:
    """Plus, minus and dice cards in the hard bot's own hand count double in its look-ahead's score, so
    it spends them only where the gain is clear; other cards count at face value."""
    t = engine.cards
    s = new_game(engine, 11)
    hero = s.heroes[0]
    plus = t.by_id["backup-dancers"][0]
    level = next(u for u in t.uids(DXM) if t.dxm[u].kind == "level")
    hero.hand = []
    bare = position_score(t, s, 0)

    def worth(card: int, hoard: float) -> float:
        hero.hand = [card]
        return position_score(t, s, 0, hoard) - bare

    assert worth(plus, 1.0) > 0
    assert worth(plus, 2.0) == pytest.approx(2 * worth(plus, 1.0))
    assert worth(level, 2.0) == pytest.approx(worth(level, 1.0))
    assert HardBot().hoard == 2.0


def test_the_hard_bot_values_a_win_alone_above_a_shared_one(engine: Engine) -> None:
    """A shared boss win counts for each winner, but the hard bot plays to win alone: in its score a
    shared win is worth nothing (neither a win nor a loss), far below a win alone and far above a loss."""
    t = engine.cards
    s = new_game(engine, 11)
    bot = HardBot()
    open_position = position_score(t, s, 0, bot.hoard, bot.shared)

    def worth(winners: list[int]) -> float:
        s.winners = winners
        return position_score(t, s, 0, bot.hoard, bot.shared)

    alone, shared, lost = worth([0]), worth([0, 1]), worth([1])
    assert alone == 50.0 and shared == 0.0 and lost == -50.0
    assert lost < open_position < alone and lost < shared < alone
    s.winners = [0, 1]
    assert position_score(t, s, 0) == 50.0  # by default (the rest of the code) a shared win is a win


def test_hard_bot_plays_a_moves_card_to_reach_the_boss_the_turn_it_hits_level_10(engine: Engine) -> None:
    """A Level 10 hero that cannot reach the Entrance this turn is open to the others' curses for a
    round; the hard bot's dash plays a Moves card that brings the Entrance in reach (the normal bot
    does not)."""
    assert HardBot().params.dash and not NormalBot().params.dash
    t = engine.cards
    rush = next(u for u in range(len(t.names)) if t.deck_of[u] == DXM and t.dxm[u].id == "caffeine-rush")
    for s in positions(engine, range(120, 200), every=3, drivers="normal"):
        f = s.frames[-1] if s.frames else None
        if f is None or f.kind != ACT or s.combat is not None or f.seat != s.active:
            continue
        me = s.heroes[s.active]
        if me.dead or me.explored or me.moved:
            continue
        s.monsters = []  # nothing in the way
        me.level = 10
        need = distance_home(Ctx(t, s, me.seat, [], Params()))
        if need != 3:
            continue
        me.moves = 1
        me.moved = True  # (no spend-all)
        me.hand.append(rush)
        legal = list(engine.legal(s, me.seat))
        ctx = Ctx(t, s, me.seat, legal, Params())
        if build(ctx) is not None or quick_plays(ctx) is not None:
            continue  # gear to sort out or a card to play first
        dash = decide(t, s, me.seat, legal, Params(boss_ready=0.0, dash=True))
        assert (dash.action.kind, dash.action.a) == ("play", rush)
        assert "reach the Entrance this turn" in dash.why
        plain = decide(t, s, me.seat, legal, Params(boss_ready=0.0))
        assert plain.action.a != rush
        return
    raise AssertionError("no position three Moves from the Entrance found")


def _level_10_next_to_the_entrance(engine: Engine) -> tuple[State, int]:
    """A position of a real game with the active hero at Level 10, one passage from the Entrance, with
    Moves to walk in and nothing in the way: the normal policy walks into the boss fight."""
    t = engine.cards
    for s in positions(engine, range(120, 200), every=3, drivers="normal"):
        f = s.frames[-1] if s.frames else None
        if f is None or f.kind != ACT or s.combat is not None or f.seat != s.active:
            continue
        me = s.heroes[s.active]
        if me.dead or me.explored or (me.x, me.y) == (0, 0):
            continue
        s.monsters = []
        me.level = 10
        me.moves = 3
        for o in s.heroes:
            o.level = min(o.level, 9) if o.seat != me.seat else 10
        others = [o for o in s.heroes if o.seat != me.seat]
        others[0].level = 9  # a rival close: the normal policy does not wait
        legal = list(engine.legal(s, me.seat))
        ctx = Ctx(t, s, me.seat, legal, Params())
        if distance_home(ctx) > 1 or build(ctx) is not None or quick_plays(ctx) is not None:
            continue
        return s, me.seat
    raise AssertionError("no position next to the Entrance found")


def test_the_hard_bot_waits_outside_the_entrance_when_its_boss_odds_are_poor(engine: Engine) -> None:
    """At Level 10, on the way into the boss fight, the hard bot plays the walk and the fight out on
    samples of the hidden cards; below its ``boss_floor`` odds it does not walk in (it gathers
    strength or ends the turn outside), at or above them it goes as the normal policy does."""
    s, seat = _level_10_next_to_the_entrance(engine)
    view = view_for(s, seat)
    legal = list(engine.legal(s, seat))
    normal = decide(engine.cards, view, seat, legal, HardBot().params)
    assert normal.action.kind == "move" and "Entrance" in normal.why

    def hard(floor: float) -> HardBot:
        bot = HardBot(3, steps=300, samples=8, deadline_ms=60_000)
        bot.boss_floor = floor
        return bot

    picky = hard(1.01)  # no odds are good enough
    waits = picky.choose(engine, view, seat, legal)
    assert picky.last_boss is not None and picky.last_boss[1] > 0  # the boss fight was played out
    assert waits.action != normal.action and "waits" in waits.why
    me = s.heroes[seat]
    if waits.action.kind == "move":
        assert (me.x + DX[waits.action.a], me.y + DY[waits.action.a]) != (0, 0)
    assert hard(1.01).choose(engine, view, seat, legal) == waits  # deterministic
    bold = hard(0.001)  # any win at all is good enough, or none was seen: then it goes
    goes = bold.choose(engine, view, seat, legal)
    assert bold.last_boss is not None
    won, fought = bold.last_boss
    assert (goes.action == normal.action) == (won > 0 or 2 * fought < bold.samples)
    assert HardBot().boss_floor == 0.0  # measured, not kept (docs/bots.md): the hard bot goes as normal


def test_the_risk_of_a_level_losing_curse_comes_from_the_unseen_cards_only(engine: Engine) -> None:
    """``demotion_risk``: the chance a rival holds or draws a curse that costs a Level. Nil when every
    such curse is in sight (here: in the seat's own hand); otherwise it grows with the rivals' hands."""
    t = engine.cards
    s, seat = _level_10_next_to_the_entrance(engine)
    demoted = [
        u
        for u in t.uids(DXM)
        if t.dxm[u].kind == "curse" and any(e.kind == "lose_levels" for e in t.dxm[u].effects)
    ]
    assert demoted

    def risk(state: State) -> float:
        view = view_for(state, seat)
        return demotion_risk(Ctx(t, view, seat, list(engine.legal(state, seat)), Params()))

    open_risk = risk(s)
    assert 0.0 < open_risk < 1.0
    bigger = copy_state(s)
    rival = next(h for h in bigger.heroes if h.seat != seat)
    drawn = [u for u in bigger.dxm if u not in demoted][-3:]
    bigger.dxm = [u for u in bigger.dxm if u not in drawn]
    rival.hand = [*rival.hand, *drawn]  # three more cards in a rival's hand: likelier to hold one
    assert len(drawn) == 3 and risk(bigger) > open_risk
    safe = copy_state(s)
    for h in safe.heroes:
        h.hand = [u for u in h.hand if u not in demoted]
    for pile in (safe.dxm, safe.dxm_discard):
        pile[:] = [u for u in pile if u not in demoted]
    safe.heroes[seat].hand = [*safe.heroes[seat].hand, *demoted]
    assert risk(safe) == 0.0
