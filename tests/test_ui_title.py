"""The title screen, a new game from it, settings, rules, cards and help."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from ui_helpers import make_app, settle

from mqtui.ui.app import MQApp
from mqtui.ui.screens.cards import CardBrowserScreen
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.help import HelpScreen
from mqtui.ui.screens.new_game import NewGameScreen
from mqtui.ui.screens.rules import RulesScreen
from mqtui.ui.screens.settings import SettingsScreen
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.settings import Settings, load_settings


@pytest.mark.slow
async def test_new_game_from_title_screen_with_enter() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")  # the default table: one human against three computers
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        store = app.game_store
        assert store is not None
        assert next(s.kind for s in store.seats) == "human"
        assert len(store.seats) == 4
        assert all(s.kind != "human" for s in store.seats[1:])
        snap = app.screen.snapshot
        assert snap is not None and snap.seat == 0
        # the human builds a hero first: "Ready" is on space
        assert any(a.kind == "done" for a in snap.legal)
        await pilot.press("space")
        await settle(pilot, app)
        snap = app.screen.snapshot
        assert snap.view.stage == "turn"
        assert any(a.kind == "end" for a in snap.legal)


async def new_game_screen(pilot: Pilot[object], app: MQApp) -> NewGameScreen:
    """From the title screen, N: the new game screen."""
    await pilot.press("n")
    assert isinstance(app.screen, NewGameScreen)
    return app.screen


@pytest.mark.slow
async def test_new_game_screen_changes_seats() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await new_game_screen(pilot, app)
        screen.query_one("#kind-2").value = "off"
        screen.query_one("#kind-3").value = "off"
        screen.query_one("#kind-1").value = "human"
        screen.query_one("#name-1").value = "Bob"
        screen.query_one("#seed").value = "42"
        await pilot.pause()
        screen.action_start()
        await settle(pilot, app)
        store = app.game_store
        assert [s.name for s in store.seats] == ["Ann", "Bob"]
        assert [s.kind for s in store.seats] == ["human", "human"]
        assert store.state.seed == 42


@pytest.mark.slow
async def test_new_game_screen_reports_a_bad_table() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await new_game_screen(pilot, app)
        screen.query_one("#colour-1").value = "red"  # the same colour as seat 1
        await pilot.pause()
        screen.action_start()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "colour" in str(screen.query_one("#error").render())


@pytest.mark.slow
async def test_settings_change_the_theme_and_remember_it(data) -> None:
    app = MQApp(settings=Settings(), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("down")  # preview the next theme
        await pilot.pause()
        chosen = app.theme
        assert chosen != "mq-dark"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
    assert load_settings().theme == chosen


async def test_palette_theme_command_switches_theme() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_theme("mq-contrast")
        await pilot.pause()
        assert app.theme == "mq-contrast"
        assert app.theme_variables["mq-red"] == "#FF3030"


@pytest.mark.slow
async def test_rules_cards_and_help_screens_open_and_close() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.press("k")
        assert isinstance(app.screen, CardBrowserScreen)
        await pilot.press("slash")
        await pilot.press(*"flask")
        await pilot.pause()
        screen = app.screen
        assert all("flask" in (e.name + e.text).lower() for e in screen.shown)
        assert screen.shown
        await pilot.press("escape")  # leave the search box
        await pilot.press("escape")
        assert isinstance(app.screen, TitleScreen)
        app.show_help()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, TitleScreen)


async def test_rules_screen_without_the_rules_file(monkeypatch, tmp_path) -> None:
    import mqtui.ui.screens.rules as rules

    monkeypatch.setattr(rules, "DOCS_DIR", tmp_path / "nowhere")
    assert "not installed" in rules.rules_markdown()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_rules()
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
