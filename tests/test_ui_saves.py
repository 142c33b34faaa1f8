"""Save, quit (autosaved), continue; load dialog; resizing below the minimum size and back."""

from __future__ import annotations

from pathlib import Path

import pytest
from screen_text import notes
from textual.widgets import Input, Label
from ui_helpers import act, local_app, press, resize, running, settle, store_for, until

from mqtui import saves
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
        await act(pilot, app, "shift+right")  # explore east: something to remember
        n = store.state.n
        rooms = len(store.state.rooms)
        assert rooms == 2
        await press(pilot, "ctrl+s", lambda: isinstance(app.screen, SaveDialog) and app.screen.query("#name"))
        app.screen.query_one("#name").value = "my game"
        saved = saves_dir() / "my game.mqsave"
        await press(pilot, "enter", saved.is_file, "the named save")
        assert not isinstance(app.screen, SaveDialog)
        await press(pilot, "q", lambda: isinstance(app.screen, TitleScreen))  # quit to the title: autosaved
        assert latest_autosave() is not None
    # a new run of the app: Continue picks the game up where it was
    app = plain_app()
    async with running(app) as pilot:
        assert isinstance(app.screen, TitleScreen)
        await press(pilot, "c", lambda: isinstance(app.screen, GameScreen), "the game continued")
        await settle(pilot, app)
        resumed = app.game_store
        assert resumed.state.n == n and len(resumed.state.rooms) == rooms
        await press(pilot, "q", lambda: isinstance(app.screen, TitleScreen))
        # and the named save is in the load dialog
        await press(pilot, "l", lambda: isinstance(app.screen, LoadDialog))
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
        await pilot.press("ctrl+q")  # (the app ends: nothing on screen to wait for)
    assert latest_autosave() is not None


async def test_continue_is_disabled_without_a_save() -> None:
    app = plain_app()
    async with running(app) as pilot:
        await pilot.press("c")  # (a key that does nothing: Pilot.press waits for the app to be idle)
        assert isinstance(app.screen, TitleScreen)


async def test_a_bad_file_is_refused_with_a_reason(tmp_path) -> None:
    bad = tmp_path / "bad.mqsave"
    bad.write_bytes(b"not a save at all")
    app = plain_app()
    async with running(app, notifications=True) as pilot:
        assert app.open_file(bad) is False
        await until(pilot, lambda: any("Cannot load\n" in note for note in notes(app)), "a notification")
        assert isinstance(app.screen, TitleScreen)


async def test_resize_below_the_minimum_and_back() -> None:
    store = store_for()
    app = local_app(store)
    async with running(app) as pilot:
        game = app.screen
        assert isinstance(game, GameScreen)

        def says(size: str) -> bool:
            screen = app.screen
            return isinstance(screen, TooSmallScreen) and any(
                size in str(m.render()) for m in screen.query("#message")
            )

        await resize(pilot, (60, 20), lambda: says("60×20"), "the too-small screen")
        await resize(pilot, (79, 30), lambda: says("79×30"), "the too-small screen, 79×30")
        await resize(
            pilot, (120, 40), lambda: app.screen is game and game.has_class("-wide"), "the game, wide"
        )
        assert game.has_class("-tall")
        await resize(
            pilot, (80, 24), lambda: app.screen is game and game.has_class("-narrow"), "the game, narrow"
        )


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


async def test_a_save_name_with_a_path_is_refused_and_says_why(tmp_path, monkeypatch) -> None:
    """The dialog says where saves go; a name with "/" would have been a path from the working folder
    (folders made there, the save missing from Load): it is refused, the dialog says what a name holds."""
    monkeypatch.chdir(tmp_path)
    app = local_app(store_for())
    async with running(app) as pilot:
        await press(pilot, "ctrl+s", lambda: isinstance(app.screen, SaveDialog) and app.screen.query("#name"))
        dialog = app.screen
        name = dialog.query_one("#name", Input)
        name.value = ""
        await pilot.press(*"sub/dir", "enter")
        hint = dialog.query_one("#save-hint", Label)
        await until(pilot, lambda: "not a save name" in str(hint.render()), "the refusal")
        assert app.screen is dialog and "letters, digits, spaces and _.+-" in str(hint.render())
        assert not (tmp_path / "sub").exists() and not list(saves_dir().glob("sub*"))
        name.value = "sub-dir"
        await pilot.press("enter")
        await until(pilot, (saves_dir() / "sub-dir.mqsave").is_file, "the save in the saves folder")


def _saves_cannot_be_written(app: MQApp, tmp_path: Path) -> Path:
    """The game's autosave file, moved under a file where a folder should be: every write fails
    (even as root, unlike a read-only folder)."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the saves folder should be")
    store = app.game_store
    assert store is not None
    app.autosave_file = blocker / "auto.mqsave"
    store.autosave_to(app.autosave_file)  # type: ignore[attr-defined]
    return blocker


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quitting_a_game_that_cannot_be_saved_says_so_and_stays(key: str, tmp_path: Path) -> None:
    """The help says q and Ctrl+Q save the game: when that fails, the first quit says so and stays in
    the game; the second leaves it unsaved; after the folder is fixed, the quit saves and leaves."""
    store = store_for()
    app = local_app(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        blocker = _saves_cannot_be_written(app, tmp_path)
        await pilot.press(key)
        await until(pilot, lambda: any("NOT saved" in n for n in notes(app)), "why")
        assert isinstance(app.screen, GameScreen) and app.is_running
        assert not (blocker / "auto.mqsave").exists()
        blocker.unlink()
        blocker.mkdir()  # space again: the next quit saves the game, and leaves
        await pilot.press(key)
        await until(pilot, lambda: not app.is_running or isinstance(app.screen, TitleScreen), "left")
        assert saves.read(blocker / "auto.mqsave").state == store.state


async def test_quitting_again_leaves_a_game_that_cannot_be_saved(tmp_path: Path) -> None:
    store = store_for()
    app = local_app(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        blocker = _saves_cannot_be_written(app, tmp_path)
        await pilot.press("q")
        await until(pilot, lambda: any("NOT saved" in n for n in notes(app)), "why")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")  # the player was told: leave it unsaved
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        assert not (blocker / "auto.mqsave").exists()
        assert not any(n.startswith("Saved\n") for n in notes(app))  # (no "Game saved" on the way out)
