"""Keys a player can change: a keymap in settings.json by binding id; a remapped key works, the help
lists the keys in force, and a bad entry is said and left out (the app still starts)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from screen_text import notes
from ui_helpers import local_app, make_app, notes_so_far, store_for, until

from mqtui.ui.keymap import check_keymap, key_label, known_bindings
from mqtui.ui.screens.help import HelpScreen
from mqtui.ui.settings import load_settings, save_settings
from mqtui.ui.widgets.hero_sheet import HeroSheet


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def text_of(renderable: object) -> str:
    out = io.StringIO()
    Console(width=120, file=out, color_system=None).print(renderable)
    return out.getvalue()


def test_every_game_key_has_an_id_the_keymap_can_name() -> None:
    known = known_bindings()
    for binding_id in ("game.search", "game.help", "game.heroes", "hand.equip", "map.home", "replay.next"):
        assert binding_id in known


def test_bad_entries_are_named_and_left_out() -> None:
    known = known_bindings()
    keymap, errors = check_keymap(
        {
            "game.serch": "j",
            "game.help": 5,
            "game.quit": "ctrl+",
            "game.undo": "hyperctrl+z",
            "game.save": "bogus_key",
            "game.heroes": " j ",
        },
        known,
    )
    assert keymap == {"game.heroes": "j"}
    assert len(errors) == 5
    assert "'game.serch' is no key binding (did you mean 'game.search'?)" in errors
    assert any(e.startswith("'game.help': give the keys as a string") for e in errors)
    assert any(e.startswith("'game.quit': a key is missing") for e in errors)
    assert any(e.startswith("'game.undo': 'hyperctrl' is not a modifier") for e in errors)
    assert any(e.startswith("'game.save': 'bogus_key' is not a key name") for e in errors)


def test_keys_shown_as_players_read_them() -> None:
    assert key_label("ctrl+j,f5") == "Ctrl+J / F5"
    assert key_label("question_mark") == "?"
    assert key_label("j") == "j"


@pytest.mark.parametrize("size", ((80, 24), (120, 40)))
async def test_a_remapped_key_works_and_the_help_shows_it(size: tuple[int, int]) -> None:
    store = store_for((("Ann", "human"), ("Bob", "random")))
    app = make_app(store, keymap={"game.heroes": "j", "game.help": "f5"})
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        sheet = app.screen.query_one(HeroSheet)
        assert sheet.shown == -1
        await pilot.press("o")  # the old key does nothing now
        await pilot.pause()
        assert sheet.shown == -1
        await pilot.press("j")  # the new one shows the next hero
        await pilot.pause()
        assert sheet.shown == 1
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = text_of(app.screen.details)
        rows = {line.split("  ")[0].strip(): line for line in shown.splitlines() if line.strip()}
        assert "show the next hero's sheet" in rows["j"]
        assert "this help" in rows["F5"]
        assert "search the room" in rows["s"]  # the keys not remapped are as they were
        assert "o" not in rows


async def test_a_bad_keymap_entry_is_said_not_a_crash() -> None:
    store = store_for((("Ann", "human"), ("Bob", "random")))
    app = make_app(store, keymap={"game.serch": "j", "game.heroes": "j"})
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(
            pilot, lambda: any("'game.serch' is no key binding" in note for note in notes(app)), "the note"
        )
        await pilot.press("j")  # the good entry still applies
        await pilot.pause()
        assert app.screen.query_one(HeroSheet).shown == 1


def test_the_keymap_is_read_from_the_settings_file(tmp_path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "mq-dark", "keymap": {"game.heroes": "j", "game.help": 5}}')
    settings = load_settings(path)
    assert settings.keymap == {"game.heroes": "j", "game.help": 5}  # (checked when the app starts)
    save_settings(settings, path)
    assert load_settings(path).keymap == settings.keymap


async def test_remapping_one_use_of_space_keeps_space_for_the_others() -> None:
    """Space is Ready, End phase and Pass: giving Pass another key leaves End phase on space (Textual
    alone would take space from all three), and that is no clash to report."""
    store = store_for((("Ann", "human"), ("Bob", "random")))
    app = make_app(store, keymap={"game.pass": "d"})
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert store.state.frames[-1].kind == "act" and store.state.active == 0
        await pilot.press("space")  # End phase, still on space
        await pilot.pause()
        assert not (store.state.frames and store.state.frames[-1].kind == "act" and store.state.active == 0)
        assert not [
            note for note in await notes_so_far(pilot, app) if note.startswith("Keymap in settings.json\n")
        ]


def test_a_key_given_twice_is_kept_for_the_siblings_only() -> None:
    keymap, errors = check_keymap({"game.done": "d"}, known_bindings())
    assert errors == []
    assert keymap == {"game.done": "d", "game.end": "space", "game.pass": "space"}


async def test_a_local_games_help_lists_saving_undo_and_the_tutorial() -> None:
    """(A session at a host lists none of them: tests/test_net_remote.py.)"""
    store = store_for((("Ann", "human"), ("Bob", "random")))
    app = local_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.game_store is store, "the game")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        shown = text_of(app.screen.details)
        rows = {line.split("  ")[0].strip(): line for line in shown.splitlines() if line.strip()}
        assert "save the game" in rows["Ctrl+S"]
        assert "undo / redo" in rows["Ctrl+Z / Ctrl+Y"]
        assert "the next step" in rows["Ctrl+N"]
        assert "quit to the title screen (the game is saved)" in rows["q"]


async def test_the_palette_names_the_remapped_key() -> None:
    """The palette's line under an action names the key that does the same: the keymap's, not the
    default (it said "key: s" while s no longer searched)."""
    from textual.command import CommandList
    from ui_helpers import add_room, empty_hands, hero
    from waiting import wait_until

    store = store_for((("Ann", "human"), ("Bob", "human")))
    empty_hands(store)
    add_room(store, "poster-corridor", 1, 0)
    hero(store, 0).x = 1
    store.engine.forget()
    app = local_app(store, handoff=False, keymap={"game.search": "j"})
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.game_store is store, "the game")
        await pilot.press("ctrl+p")
        await wait_until(
            lambda: app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count
        )
        await app.workers.wait_for_complete()
        await pilot.pause()
        hits = app.screen.query_one(CommandList)
        prompts = [str(hits.get_option_at_index(i).prompt) for i in range(hits.option_count)]
        search = [p for p in prompts if p.startswith("Search the room")]
        assert search and "key: j" in search[0], prompts
        ends = [p for p in prompts if "key: space" in p]  # the keys not remapped are as they were
        assert ends, prompts
