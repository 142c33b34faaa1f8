"""Saves that never surprise: one autosave per game, Continue picks the newest unfinished game, a new
game or a load never replaces another game's file, finished games are kept, ``mqtui saves`` lists all."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from endgame_helpers import finished_game, game_until
from ui_helpers import local_app, press, settle, store_for

from mqtui.cli import main
from mqtui.saves import slots
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.settings import Settings


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    monkeypatch.setenv("TERM", "xterm-256color")
    return tmp_path


def plain_app() -> MQApp:
    return MQApp(settings=Settings(pass_countdown=0), save_settings_file=False, bot_delay=0)


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.mqsave*"))} if folder.is_dir() else {}


def age(path: Path, seconds: float) -> None:
    t = path.stat().st_mtime - seconds
    os.utime(path, (t, t))


async def press_continue() -> tuple[Path | None, int]:
    """A new run of the app: Continue; returns the autosave file the game goes on with, and its seed."""
    app = plain_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await press(pilot, "c", lambda: isinstance(app.screen, GameScreen))
        await settle(pilot, app)
        return app.autosave_file, app.game_store.state.seed


async def play_and_quit(store, move: str = "shift+right") -> Path:  # type: ignore[no-untyped-def]
    """Open ``store`` in the app, explore once, quit to the title; returns its autosave file."""
    app = local_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        path = app.autosave_file
        n = store.state.n
        await press(pilot, move, lambda: store.state.n != n, f"{move} to move")
        await settle(pilot, app)
        await press(pilot, "q", lambda: isinstance(app.screen, TitleScreen))
    assert path is not None
    return path


def autosave_of(store) -> Path:  # type: ignore[no-untyped-def]
    """An unfinished game's autosave with a backup, as the app leaves it when the player quits (what
    ``play_and_quit`` does through the app, which test_each_game_has_its_own_autosave... checks):
    for the tests of what Continue and Load do with the files they find."""
    path = slots.new_autosave_path()
    store.save(path)
    store.save(path)  # (the first write becomes its backup)
    return path


async def test_each_game_has_its_own_autosave_and_a_new_game_replaces_none(data: Path) -> None:
    first = await play_and_quit(store_for(seed=3))
    before = files(slots.saves_dir())
    second = await play_and_quit(store_for(seed=3))  # even the same seed and players: another game
    assert first != second and slots.is_autosave(first) and slots.is_autosave(second)
    after = files(slots.saves_dir())
    assert {k: v for k, v in after.items() if k in before} == before  # the first game's files untouched
    assert second.name in after


async def test_continue_resumes_the_most_recent_unfinished_game(data: Path) -> None:
    older = autosave_of(store_for(seed=3))
    newer = autosave_of(store_for(seed=5))
    age(older, 60)
    # a finished game saved even more recently (e.g. the program was killed before filing it) is skipped
    done = slots.saves_dir() / f"autosave-finished-one{slots.SUFFIX}"
    finished_game().save(done)
    assert slots.latest_unfinished() == newer
    assert await press_continue() == (newer, 5)  # and it goes on saving where it was
    age(newer, 120)
    assert slots.latest_unfinished() == older


async def test_continue_still_finds_a_damaged_autosave_whose_backup_is_good(data: Path) -> None:
    path = autosave_of(store_for(seed=3))
    assert slots.backups_of(path)
    path.write_bytes(b"damaged")
    assert slots.latest_unfinished() == path
    assert await press_continue() == (path, 3)


async def test_loading_a_named_save_never_writes_over_it_or_another_game_s_autosave(data: Path) -> None:
    other = autosave_of(store_for(seed=5))
    named = slots.saves_dir() / f"my game{slots.SUFFIX}"
    game_until(120).save(named)
    before = files(slots.saves_dir())
    app = plain_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.open_file(named)
        await settle(pilot, app)
        mine = app.autosave_file
        assert mine is not None and mine not in (named, other) and slots.is_autosave(mine)
        await press(pilot, "q", lambda: isinstance(app.screen, TitleScreen))
    after = files(slots.saves_dir())
    for name in (named.name, other.name, f"{other.name}.1"):
        assert after.get(name) == before.get(name)
    assert mine.name in after


async def test_a_finished_game_is_kept_with_its_backups_and_never_deleted_by_a_key(data: Path) -> None:
    store = game_until(-1)  # a computer player makes the last move
    app = local_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        autosave = app.autosave_file
        assert store.state.stage == "over" and autosave is not None
        await press(pilot, "enter", lambda: isinstance(app.screen, GameOverScreen), "the results")
        await press(pilot, "escape", lambda: isinstance(app.screen, TitleScreen), "the title")
    assert not autosave.exists()
    kept = [g for g in slots.list_games() if g.finished]
    assert len(kept) == 1 and kept[0].path.parent == slots.history_dir()
    assert kept[0].path.name == f"finished-{slots.game_id(autosave)}{slots.SUFFIX}"
    assert kept[0].backups, "the autosave's backups went with it"
    assert kept[0].entry.header.summary.stage == "over"
    if os.name == "posix":  # the history is as private as the rest of the data folder
        assert slots.history_dir().stat().st_mode & 0o777 == 0o700
        assert all(p.stat().st_mode & 0o077 == 0 for p in [kept[0].path, *kept[0].backups])


def test_archiving_never_replaces_a_file_in_the_history(data: Path) -> None:
    folder = slots.saves_dir()
    folder.mkdir(parents=True)
    a = folder / f"autosave-20260101-120000-abcd{slots.SUFFIX}"
    a.write_bytes(b"game one")
    first = slots.archive(a)
    a.write_bytes(b"game two")  # (an id used twice)
    second = slots.archive(a)
    assert first != second and first.read_bytes() == b"game one" and second.read_bytes() == b"game two"


def test_mqtui_saves_lists_every_game_with_its_state_and_backups(data: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = slots.saves_dir()
    running = slots.new_autosave_path()
    store = game_until(60)
    store.save(running)
    store.save(running)  # the first write becomes running.1
    game_until(80).save(folder / f"named{slots.SUFFIX}")
    done = folder / f"autosave-20260101-120000-abcd{slots.SUFFIX}"
    finished_game().save(done)
    kept = slots.archive(done)
    assert main(["saves"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"saves in {folder}:"
    row = next(line for line in lines if running.stem in line)
    assert "autosave: 4 players" in row and "round" in row
    assert f"backup: {running.name}.1" in out
    assert next(line for line in lines if "named" in line and "saved:" in line)
    assert f"finished (in {slots.history_dir()})" in out
    assert re.search(
        r"game over after round \d+, won by \w+", next(line for line in lines if kept.stem in line)
    )
    assert main(["saves", "--json"]) == 0
    doc = {e["name"]: e for e in json.loads(capsys.readouterr().out)}
    assert doc[running.stem]["state"] == "in progress" and doc[running.stem]["backups"] == [f"{running}.1"]
    assert doc["named"]["state"] == "saved" and doc[kept.stem]["state"] == "finished"
