"""The deep run (``pytest --deep``; ``.ci/run`` runs it after the default suite): thousands of random
games of 2 to 6 seats, with and without the content pack, computer players of every level beside
seats played by random legal choices, saves loaded back and actions taken back at random points, the
invariants checked after every action (``engine_helpers.check_invariants``).

Each game is made from its seed alone (``python -m pytest tests/test_deep.py --deep -k "[chunk]"``
plays one chunk again): the seats, the pack, every random choice, when to save and when to undo (the
hard computer player's search is a budget of rollout steps; its wall-clock cap is thirty seconds, far
above what it takes). The failure message names the seed and the action.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest
from engine_helpers import check_invariants

from mqtui.bots import BOT_KINDS
from mqtui.engine.state import STAGE_OVER
from mqtui.store import HUMAN, LocalStore
from mqtui.ui.session import SeatSpec, new_store

pytestmark = [pytest.mark.deep, pytest.mark.slow]

CHUNKS = 40  # spread over the workers
GAMES = 50  # per chunk: 2,000 games in all (about 550 CPU-seconds: 5 minutes on two cores)
ROUNDS = (4, 8)  # a game is played for 4 to 8 rounds (random seats seldom reach the end; the checks do)
PACKS = ((), ("standing-room-only",))
HARD_TABLES = 0.05  # the share of tables with a hard computer player (it thinks ten times as long)
SAVE_EVERY = 200  # on average, actions between two save-and-load round trips (each replays the log)
UNDO_EVERY = 8  # on average, actions of a person between two take-backs

encode = msgspec.msgpack.Encoder().encode


def _seats(rnd: random.Random) -> list[SeatSpec]:
    """2 to 6 seats, at least one played by random choices (the undo needs a person's action); the
    hard player is slow, so it sits at few tables."""
    n = rnd.randint(2, 6)
    kinds = [rnd.choice((HUMAN, "random", "easy", "normal")) for _ in range(n)]
    person = rnd.randrange(n)
    kinds[person] = HUMAN
    if rnd.random() < HARD_TABLES:
        kinds[(person + rnd.randrange(1, n)) % n] = "hard"
    assert set(kinds) <= {HUMAN, *BOT_KINDS}
    specs = [SeatSpec(f"P{i}", kind) for i, kind in enumerate(kinds)]
    return specs


def _reload(store: LocalStore, folder: Path) -> LocalStore:
    """The game saved and loaded back (replayed from its log: ``verify``); it must be the same game."""
    path = folder / "deep.mqsave"
    store.save(path, backups=0)
    loaded = LocalStore.load(path, store.engine, bot_delay=0, verify=True, backups=False)
    assert encode(loaded.state) == encode(store.state), "the loaded game differs from the saved one"
    assert loaded.seats == store.seats and loaded.packs == store.packs
    return loaded


def _person_acts(store: LocalStore, who: int, rnd: random.Random) -> None:
    """A random legal action of seat ``who``; now and then taken back (the state must be the one
    before it, exactly) and done again or replaced by another."""
    engine, before = store.engine, encode(store.state)
    store.apply(rnd.choice(engine.legal(store.state, who)))
    if rnd.randrange(UNDO_EVERY) or not store.can_undo(who):
        return
    after = encode(store.state)
    store.undo_now(who)
    assert encode(store.state) == before, "taking back an action did not restore the state before it"
    check_invariants(store.state, engine)
    if rnd.random() < 0.5 and store.can_redo(who):
        store.redo_now(who)
        assert encode(store.state) == after, "redoing an action gave another state"
    else:
        store.apply(rnd.choice(engine.legal(store.state, who)))


def deep_game(seed: int, folder: Path) -> int:
    """Play the deep game of ``seed``; returns the number of actions. Raises AssertionError (or the
    engine's exception) with what broke."""
    rnd = random.Random(seed)
    packs = rnd.choice(PACKS)
    store = new_store(_seats(rnd), seed, bot_delay=0, packs=packs)
    engine, rounds = store.engine, rnd.randint(*ROUNDS)
    while store.state.stage != STAGE_OVER and store.state.round <= rounds:
        if not store.step_bot():
            _person_acts(store, engine.deciding(store.state), rnd)
        check_invariants(store.state, engine)
        if not rnd.randrange(SAVE_EVERY):
            store = _reload(store, folder)
    return len(store.actions)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_deep_random_games_keep_every_invariant(chunk: int, tmp_path: Path) -> None:
    errors = []
    played = 0
    for seed in range(100_000 + chunk * GAMES, 100_000 + (chunk + 1) * GAMES):
        try:
            played += deep_game(seed, tmp_path)
        except Exception as exc:  # collect them all: each line names a seed that plays it again
            errors.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    assert not errors, f"{len(errors)} of {GAMES} games failed:\n" + "\n".join(errors[:10])
    assert played > GAMES * 100  # (the games were played, not ended at once)
