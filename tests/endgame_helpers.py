"""Helpers for the end-of-game, replay and save-slot tests: whole games played by computer players
(seat 0, a person, plays with the normal bot's choices), fixed seeds, so every run is the same game."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import msgspec
from ui_helpers import press, store_for, until

from mqtui.bots import make_bot
from mqtui.engine.actions import Action
from mqtui.engine.view import view_for
from mqtui.store import LocalStore

PLAYERS = (
    ("Ann", "human"),
    ("Grizzlebeard", "normal"),
    ("Dame Pointy", "normal"),
    ("Snaggletooth", "normal"),
)
SEED = 7  # Ann beats the boss in round 14, after 1265 actions
RECORDED = Path(__file__).parent / "fixtures" / f"game-seed{SEED}.json"


def play_game(seed: int = SEED) -> tuple[Action, ...]:
    """Every action of a whole game at this seed, to the win, as the computer players play it."""
    store = store_for(PLAYERS, seed=seed, setup_done=False)
    ann = make_bot("normal", seed=1)
    while store.state.stage != "over":
        if not store.step_bot():
            legal = store.engine.legal(store.state, 0)
            store.apply(ann.choose(store.engine, view_for(store.state, 0), 0, list(legal)).action)
    return tuple(store.actions)


@lru_cache(maxsize=4)
def game_actions(seed: int = SEED) -> tuple[Action, ...]:
    """Every action of a whole game at this seed, to the win: for ``SEED`` the game recorded in
    ``RECORDED`` (the computer players take 0.4 s of CPU per test worker to play it), which
    ``game_until`` checks against the engine as it replays it (every action must be legal, the last
    one must win). ``python tests/endgame_helpers.py`` records it again, after a change of content."""
    if seed == SEED:
        return tuple(msgspec.json.decode(RECORDED.read_bytes(), type=list[Action]))
    return play_game(seed)


def game_until(n: int, seed: int = SEED) -> LocalStore:
    """The game after its first ``n`` actions (negative: all but the last ``-n``); each action
    checked legal by the engine, and the whole game checked to end."""
    actions = game_actions(seed)
    store = store_for(PLAYERS, seed=seed, setup_done=False)
    upto = n if n >= 0 else len(actions) + n
    for action in actions[:upto]:
        store.apply(action)
    assert (store.state.stage == "over") == (upto == len(actions)), f"{RECORDED}: record it again"
    return store


def finished_game(seed: int = SEED) -> LocalStore:
    return game_until(len(game_actions(seed)), seed)


def last_action(seed: int = SEED) -> Action:
    return game_actions(seed)[-1]


async def replay_to_round_3(pilot) -> None:  # type: ignore[no-untyped-def]
    """In the replay view: go to round 3 (``g``) and three actions on (for pictures of it)."""
    from mqtui.ui.screens.replay import ReplayScreen

    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.snapshot, "the replay")
    replay = app.screen
    await press(pilot, "g", lambda: app.screen is not replay, "the round dialog")
    box = app.screen.query_one("#round")
    await press(pilot, "3", lambda: box.value == "3")
    await press(pilot, "enter", lambda: app.screen is replay and replay.snapshot.view.round == 3)
    start = replay.at
    for n in (1, 2, 3):
        await press(pilot, "right", lambda: replay.at == start + n)  # noqa: B023
    await pilot.pause()  # (the picture is taken once the app is idle)


if __name__ == "__main__":
    played = play_game(SEED)
    RECORDED.write_bytes(b"[\n" + b",\n".join(msgspec.json.encode(a) for a in played) + b"\n]\n")
    print(f"{RECORDED}: {len(played)} actions")
