"""Save, quit (autosaved), continue; load dialog; resizing below the minimum size and back."""

from __future__ import annotations

import pytest
from ui_helpers import local_app, running, settle, store_for
from waiting import wait_until

from mqtui.ui.app import MQApp
from mqtui.ui.saving import latest_autosave, saves_dir
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.saves import LoadDialog, SaveDialog
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.screens.too_small import TooSmallScreen
from mqtui.ui.settings import Settings


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def plain_app() -> MQApp:
    return MQApp(settings=Settings(pass_countdown=0), save_settings_file=False, bot_delay=0)


@pytest.mark.slow
async def test_save_quit_and_continue() -> None:
    store = store_for()
    app = local_app(store)
    async with running(app) as pilot:
        assert isinstance(app.screen, GameScreen)
        await pilot.press("shift+right")  # explore east: something to remember
        await settle(pilot, app)
        n = store.state.n
        rooms = len(store.state.rooms)
        assert rooms == 2
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveDialog)
        app.screen.query_one("#name").value = "my game"
        await pilot.press("enter")
        await pilot.pause()
        assert (saves_dir() / "my game.mqsave").is_file()
        await pilot.press("q")  # quit to the title screen: autosaved
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert latest_autosave() is not None
    # a new run of the app: Continue picks the game up where it was
    app = plain_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        await pilot.press("c")
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        resumed = app.game_store
        assert resumed.state.n == n and len(resumed.state.rooms) == rooms
        await pilot.press("q")
        await pilot.pause()
        # and the named save is in the load dialog
        await pilot.press("l")
        assert isinstance(app.screen, LoadDialog)
        names = [path.stem for path, *_ in app.screen.saves]
        assert "my game" in names
        app.screen.dismiss(next(p for p, *_ in app.screen.saves if p.stem == "my game"))
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen) and app.game_store.state.n == n


async def test_ctrl_q_autosaves() -> None:
    store = store_for()
    app = local_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert latest_autosave() is not None


async def test_continue_is_disabled_without_a_save() -> None:
    app = plain_app()
    async with running(app) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_a_bad_file_is_refused_with_a_reason(tmp_path) -> None:
    bad = tmp_path / "bad.mqsave"
    bad.write_bytes(b"not a save at all")
    app = plain_app()
    async with running(app) as pilot:
        assert app.open_file(bad) is False
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert app._notifications


@pytest.mark.slow
async def test_resize_below_the_minimum_and_back() -> None:
    store = store_for()
    app = local_app(store)
    async with running(app) as pilot:
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.resize_terminal(60, 20)
        await wait_until(lambda: isinstance(app.screen, TooSmallScreen), what="the too-small screen")
        await wait_until(lambda: "60×20" in str(app.screen.query_one("#message").render()))
        await pilot.resize_terminal(79, 30)
        await wait_until(lambda: "79×30" in str(app.screen.query_one("#message").render()))
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await wait_until(lambda: app.screen is game and game.has_class("-wide"), what="the game, wide")
        assert game.has_class("-tall")
        await pilot.resize_terminal(80, 24)
        await wait_until(lambda: app.screen is game and game.has_class("-narrow"), what="the game, narrow")


def test_title_screen_finds_the_autosave_where_the_saves_package_puts_it(data) -> None:
    """The title's quick look for a game to continue finds the newest autosave that mqtui.saves wrote."""
    import os

    from mqtui import saves
    from mqtui.ui import saving

    assert saving.saves_dir() == saves.saves_dir()
    assert saving.latest_autosave() is None
    older, newer = saves.autosave_path(), saves.saves_dir() / f"autosave-2{saves.SUFFIX}"
    older.parent.mkdir(parents=True, exist_ok=True)
    older.write_bytes(b"x")
    newer.write_bytes(b"x")
    os.utime(older, (1, 1))
    assert saving.latest_autosave() == saves.latest_autosave() == newer


def test_the_title_screen_starts_without_the_game_machinery() -> None:
    """Start-up loads the engine, store and saves only when a game starts (subprocess: clean imports)."""
    import subprocess
    import sys

    code = (
        "import asyncio, sys\n"
        "from mqtui.ui.app import MQApp\n"
        "async def main():\n"
        "    app = MQApp(save_settings_file=False, bot_delay=0)\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert type(app.screen).__name__ == 'TitleScreen', app.screen\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in sys.modules if m.startswith(('mqtui.engine', 'mqtui.store', 'mqtui.saves'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
