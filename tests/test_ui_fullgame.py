"""A whole game played to the end through the app, by computer players at full speed."""

from __future__ import annotations

import pytest
from ui_helpers import local_app, press, settle, store_for, until

from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.title import TitleScreen


@pytest.mark.slow(seconds=3)
async def test_whole_game_between_computer_players(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("textual.screen.UPDATE_PERIOD", 1.0)  # frames: drawn when checked (settle)
    # seed 19: a whole game of 429 actions to a boss fight won with the dice in round 8 (seed 3, 687
    # actions, proved the same at 1.6 times the CPU)
    store = store_for((("Ann", "normal"), ("Bob", "normal"), ("Cy", "normal")), seed=19, setup_done=False)
    app = local_app(store)
    async with app.run_test(size=(100, 30)) as pilot:
        # the computer players play on by themselves: wait for the end, bounded by a count of actions
        # (a game takes a few hundred); the clock is a safety net against a hang only
        await until(pilot, lambda: store.state.stage == "over" or len(store.actions) > 3000, "the end", 600)
        assert store.state.stage == "over", f"no winner after {len(store.actions)} actions"
        # the deciding fight stays on screen, with its dice, until a key is pressed
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        await until(pilot, lambda: game.snapshot is not None and game.snapshot.over, "the last snapshot")
        await settle(pilot, app)
        assert app.screen is game and game.snapshot.view.combat is not None
        assert game.snapshot.view.combat.boss and game.snapshot.view.combat.hero_die > 0
        await press(pilot, "enter", lambda: isinstance(app.screen, GameOverScreen), "the game-over screen")
        snap = game.snapshot
        assert snap.over and snap.view.winners
        winner = snap.view.heroes[snap.view.winners[0]].name
        assert any("wins the game" in line.text or "win the game" in line.text for line in snap.log)
        assert winner in str(app.screen.query_one("#banner").render())
        await press(pilot, "t", lambda: isinstance(app.screen, TitleScreen), "the title screen")
        assert isinstance(app.screen, TitleScreen)
        from mqtui.saves import slots
        from mqtui.ui.saving import latest_autosave

        assert latest_autosave() is None  # nothing left to continue ...
        kept = [g for g in slots.list_games() if g.finished]  # ... but the finished game is kept
        assert len(kept) == 1 and kept[0].entry.header.summary.winners == [winner]
