"""A turn that flows: a whole game against computer players at default settings, played by a script
through the app, counting the keys the person had to press while it was not their turn."""

from __future__ import annotations

import os

import pytest
from ui_helpers import local_app, perform, press, settle, shows_latest, store_for, until

from mqtui.bots import make_bot
from mqtui.engine.state import STAGE_TURN
from mqtui.engine.view import view_for
from mqtui.store import LocalStore
from mqtui.ui.flow import could_stop_a_win
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.settings import Settings

PLAYERS = (("Ann", "human"), ("Bob", "normal"), ("Cy", "normal"), ("Dee", "normal"))
SEED = 21  # a whole game of 25 computer fights (seed 5, 48 fights, proved the same at twice the CPU)


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def game_screen(app) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def count_keys_off_turn(
    seed: int, size: tuple[int, int] = (80, 24), countdown: int | None = None
) -> dict[str, int]:
    """Play a whole game (Ann by a script, through the app); count what Ann had to press while another
    player's turn was on: ``passes`` (space only to let the play go on), ``boss waits`` (space in a
    boss fight of another hero, a window that never passes by itself), ``choices`` (a card she chose
    to play, an answer to a request for help), and the computer players' fights she was asked about."""
    store = store_for(PLAYERS, seed=seed, setup_done=False)
    script = make_bot("normal", seed=99)
    wait = Settings().pass_countdown if countdown is None else countdown  # default: the settings'
    app = local_app(store, pass_countdown=wait)
    counts = {"passes": 0, "choices": 0, "fights": 0, "boss waits": 0}
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        for _ in range(5000):
            # each step waits for its own effect: no idle waits, no forced redraw (none is checked here)
            await until(pilot, lambda: shows_latest(app) or isinstance(app.screen, GameOverScreen), "a step")
            if store.state.stage == "over" or isinstance(app.screen, GameOverScreen):
                break
            screen = game_screen(app)
            snap = screen.snapshot
            s = store.state
            n = s.n
            assert store.engine.deciding(s) == 0 and snap is not None and snap.legal and snap.n == n
            if screen.passing_by_itself():  # the app passes by itself: wait for it
                await until(pilot, lambda: store.state.n != n, "the pass without a key")  # noqa: B023
                continue
            legal = list(store.engine.legal(s, 0))
            action = script.choose(store.engine, view_for(s, 0), 0, legal).action
            off_turn = s.stage == STAGE_TURN and s.active != 0
            if action.kind == "pass":
                # (a window in another hero's boss fight waits for Ann on purpose: her card could stop
                # the win)
                counts["boss waits" if could_stop_a_win(snap) else "passes"] += off_turn
                await press(pilot, "space", lambda: store.state.n != n, "space to pass")  # noqa: B023
            else:
                counts["choices"] += off_turn
                await perform(pilot, app, screen, action)
        assert store.state.stage == "over"
    ann = store.seats[0].name
    counts["fights"] = sum(
        1
        for e in store.log
        if e.kind == "combat" and e.text.startswith("Combat in") and f"! {ann} " not in e.text
    )
    return counts


@pytest.mark.slow(seconds=6)
async def test_a_game_against_the_computer_needs_no_key_to_let_play_go_on(monkeypatch) -> None:
    """Default settings (the countdown at 3 steps), with the countdown's step made short for the test.
    Before the countdown and the auto-pass: 52 passes in 24 computer fights (seed 21; seed 5: 72 in 29)."""
    from mqtui.ui.flow import PassCountdown

    monkeypatch.setattr(PassCountdown, "TICK", 0.001)  # (the test polls for each pass while it counts down)
    monkeypatch.setattr("textual.screen.UPDATE_PERIOD", 1.0)  # frames: nothing here reads the drawing

    # The computer players' moves between two of Ann's decisions are made at once, so the screen shows
    # only the position Ann decides in (what the auto-pass and the countdown read; the game is the same:
    # 25 fights). Watching every computer move through the app is test_ui_fullgame's; here it was a
    # third of the CPU. (With the auto-pass and the countdown both off, this counts 52 passes.)
    async def all_at_once(store: LocalStore) -> None:
        while store.step_bot():
            pass

    monkeypatch.setattr(LocalStore, "run_bots", all_at_once)
    counts = await count_keys_off_turn(seed=SEED)
    print("keys off turn:", counts)
    assert counts["fights"] > 3
    assert counts["passes"] == 0


async def before_the_auto_pass() -> dict[str, int]:
    """The figure to compare with: every window asks (no auto-pass, no countdown), as before.
    Not a test (it measures): ``.venv/bin/python tests/test_ui_flow.py`` prints it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("mqtui.ui.screens.game.nothing_to_play", lambda snap: False)
        counts = await count_keys_off_turn(seed=SEED, countdown=0)
    assert counts["passes"] > counts["fights"] > 3
    return counts


async def test_computer_reasons_stay_out_of_the_log_and_shift_w_shows_them() -> None:
    from ui_helpers import make_app

    from mqtui.ui.screens.room import RoomScreen

    store = store_for(PLAYERS, seed=5, setup_done=False)
    script = make_bot("normal", seed=99)
    while not store.reasons and store.state.stage != "over" and len(store.actions) < 3000:
        if not store.step_bot():
            legal = list(store.engine.legal(store.state, 0))
            store.apply(script.choose(store.engine, view_for(store.state, 0), 0, legal).action)
    assert store.reasons, "no computer player explained anything"
    assert not [line for line in store.snapshot(0).log if "%" in line.text]
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await press(pilot, "W", lambda: isinstance(app.screen, RoomScreen))
        text = str(app.screen.details)
        assert store.reasons[-1].why in text and store.seats[store.reasons[-1].seat].name in text


if __name__ == "__main__":
    import asyncio
    import tempfile

    os.environ["MQTUI_DATA"] = tempfile.mkdtemp()
    print("keys off turn, before the auto-pass:", asyncio.run(before_the_auto_pass()))
