"""A whole game played to the end through the app, by computer players at full speed."""

from __future__ import annotations

import time

import pytest
from ui_helpers import local_app, store_for

from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.title import TitleScreen

TIME_CAP = 60.0  # seconds: a safety net only; a game takes a few hundred actions


@pytest.mark.slow
async def test_whole_game_between_computer_players() -> None:
    store = store_for((("Ann", "normal"), ("Bob", "normal"), ("Cy", "normal")), seed=3, setup_done=False)
    app = local_app(store)
    async with app.run_test(size=(100, 30)) as pilot:
        start = time.monotonic()
        while store.state.stage != "over" and time.monotonic() - start < TIME_CAP:
            await pilot.pause(0.05)
        assert store.state.stage == "over", f"no winner after {len(store.actions)} actions"
        # the deciding fight stays on screen, with its dice, until a key is pressed
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        for _ in range(20):
            await pilot.pause()
            if game.snapshot is not None and game.snapshot.over:
                break
        assert app.screen is game and game.snapshot.view.combat is not None
        assert game.snapshot.view.combat.boss and game.snapshot.view.combat.hero_die > 0
        await pilot.press("enter")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, GameOverScreen):
                break
        assert isinstance(app.screen, GameOverScreen)
        snap = game.snapshot
        assert snap.over and snap.view.winners
        winner = snap.view.heroes[snap.view.winners[0]].name
        assert any("wins the game" in line.text or "win the game" in line.text for line in snap.log)
        assert winner in str(app.screen.query_one("#banner").render())
        await pilot.press("t")  # back to the title screen; a finished game is not offered to continue
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        from mqtui.saves import slots
        from mqtui.ui.saving import latest_autosave

        assert latest_autosave() is None  # nothing left to continue ...
        kept = [g for g in slots.list_games() if g.finished]  # ... but the finished game is kept
        assert len(kept) == 1 and kept[0].entry.header.summary.winners == [winner]
