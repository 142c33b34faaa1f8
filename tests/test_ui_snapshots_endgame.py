"""Snapshot tests at 80×24 of the game-over screen and the replay view (a fixed game, seed 7).

Update with ``pytest tests/test_ui_snapshots_endgame.py --snapshot-update`` and look at the pictures
in ``tests/__snapshots__/test_ui_snapshots_endgame/`` before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from endgame_helpers import finished_game, game_until, replay_to_round_3
from ui_helpers import local_app, press, screenshot

from mqtui.saves import slots
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.settings import Settings


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    monkeypatch.setattr(slots, "new_game_id", lambda now=None: "20261130-170000-snap")
    return tmp_path


async def _results(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await press(pilot, "enter", lambda: isinstance(app.screen, GameOverScreen), "the results")


async def test_game_over_80x24(svg_snapshot) -> None:  # type: ignore[no-untyped-def]
    assert svg_snapshot == await screenshot(local_app(game_until(-1)), (80, 24), _results)


async def test_replay_80x24(svg_snapshot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / f"finished{slots.SUFFIX}"
    finished_game().save(path)
    app = MQApp(settings=Settings(), save_settings_file=False, bot_delay=0, replay=path)
    assert svg_snapshot == await screenshot(app, (80, 24), replay_to_round_3)
