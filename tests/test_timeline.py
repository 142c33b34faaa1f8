"""The timeline behind the replay view and the end screen: every position of a game, as each seat saw it."""

from __future__ import annotations

import itertools
import random

import pytest
from endgame_helpers import PLAYERS, finished_game, game_actions, game_until

from mqtui.engine.actions import Event
from mqtui.engine.game import copy_state
from mqtui.engine.state import HIDDEN, STAGE_OVER
from mqtui.timeline import EVERY, Timeline, TimelineError


@pytest.fixture(scope="module")
def timeline() -> Timeline:
    return Timeline.from_store(finished_game())


def test_every_position_is_the_state_the_game_was_in(timeline: Timeline) -> None:
    """Positions reached from checkpoints, forwards, backwards and at random, are the states the game
    passed through (checked against a game played again action by action)."""
    store = game_until(0)
    actions = game_actions()
    assert len(timeline) == len(actions) + 1 and timeline.last == len(actions)
    rng = random.Random(1)
    order = [timeline.last, 0, EVERY - 1, EVERY, EVERY + 1, *rng.sample(range(len(actions) + 1), 40)]
    order += list(range(300, 280, -1))  # stepping back one at a time
    wanted = set(order)  # (only the states looked at are kept)
    game = store.engine.new_game([(s.name, s.colour) for s in store.seats], store.state.seed)[0]
    states = {0: copy_state(game)}
    for i, action in enumerate(actions, 1):
        store.engine.apply(game, action)
        if i in wanted:
            states[i] = copy_state(game)
    for i in order:
        assert timeline.state(i) == states[i], i
    assert timeline.over and timeline.state(timeline.last).stage == STAGE_OVER


def test_a_seat_sees_no_other_hand_and_no_other_seat_s_private_lines(timeline: Timeline) -> None:
    full = timeline.state(200)
    for seat in range(len(PLAYERS)):
        snap = timeline.snapshot(200, seat)
        for hero, real in zip(snap.view.heroes, full.heroes, strict=True):
            if hero.seat == seat:
                assert hero.hand == real.hand
            else:
                assert set(hero.hand) <= {HIDDEN} and len(hero.hand) == len(real.hand)
        assert all(u == HIDDEN for u in snap.view.dxm + snap.view.treasure)
        # the private lines in the log are this seat's own, one for each of its private events
        events = [e for i in range(201) for e in timeline.events(i) if e.private]
        mine = [e.private for e in events if e.seat == seat]
        assert len(events) > len(mine) > 0
        assert [line.text for line in snap.log if line.text.startswith("You ")] == [
            p for p in mine if p.startswith("You ")
        ]
        assert snap.legal == ()


def test_every_hand_open_shows_each_hand_and_names_whose_eyes_a_private_line_was_for(
    timeline: Timeline,
) -> None:
    full = timeline.state(200)
    snap = timeline.snapshot(200, 0, open_hands=True)
    assert [h.hand for h in snap.view.heroes] == [h.hand for h in full.heroes]
    draws = [line.text for line in snap.log if "sees: You draw" in line.text]
    assert {line.split(" ")[0] for line in draws} >= {"Ann", "Grizzlebeard"}


def test_turns_rounds_and_the_deciding_fight(timeline: Timeline) -> None:
    starts = timeline.turn_starts()
    assert starts == sorted(starts) and len(starts) >= timeline.rounds * len(PLAYERS) - len(PLAYERS)
    marks = [timeline.mark(i) for i in starts]
    assert all((a.round, a.active) != (b.round, b.active) for a, b in itertools.pairwise(marks))
    assert timeline.next_turn(starts[3]) == starts[4] and timeline.previous_turn(starts[4]) == starts[3]
    assert timeline.previous_turn(starts[4] + 1) == starts[4]
    r3 = timeline.round_start(3)
    assert timeline.mark(r3).round == 3 and timeline.mark(r3 - 1).round == 2
    fight = timeline.deciding_fight()
    assert fight == timeline.last - 1
    c = timeline.state(fight).combat
    assert c is not None and c.boss and c.hero_die > 0 and c.monster_dice


def test_a_game_in_progress_has_no_deciding_fight() -> None:
    t = Timeline.from_store(game_until(300))
    assert not t.over and t.deciding_fight() is None and t.last == 300


def test_a_log_that_does_not_replay_is_one_line() -> None:
    store = game_until(40)
    store.actions[10] = store.actions[10].__class__(3, "search")
    with pytest.raises(TimelineError, match="action 11"):
        Timeline.from_store(store)
    with pytest.raises(TimelineError, match="this computer"):
        Timeline.from_store(object())
    assert Event  # (the module's own event type is what the log holds)
