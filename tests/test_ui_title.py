"""The title screen, a new game from it, settings, rules, cards and help."""

from __future__ import annotations

import pytest
from textual.css.stylesheet import Stylesheet
from textual.pilot import Pilot
from textual.widgets import MarkdownViewer
from ui_helpers import make_app, press, settle, textual_specs, until

from mqtui.ui.app import MQApp
from mqtui.ui.screens.cards import CardBrowserScreen
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.help import HelpScreen
from mqtui.ui.screens.new_game import NewGameScreen
from mqtui.ui.screens.rules import RulesScreen, RulesText, focus_styles_inside
from mqtui.ui.screens.settings import SettingsScreen
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.settings import Settings, load_settings
from mqtui.ui.widgets.footer import QuietFooter


async def footer_shows_the_screens_keys(pilot: Pilot[object], app: MQApp) -> None:
    """The screen's footer shows the keys Textual's own footer gives (all fit in 80 columns)."""
    footer = app.screen.query_one(QuietFooter)
    await until(pilot, lambda: footer.shown, "the footer's keys")
    assert [s.spec for s in footer.shown] == textual_specs(footer), app.screen


@pytest.mark.slow
async def test_new_game_from_title_screen_with_enter() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        await press(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
        await footer_shows_the_screens_keys(pilot, app)
        # the default table: one human against three computers
        await press(pilot, "enter", lambda: isinstance(app.screen, GameScreen))
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
        await press(pilot, "space", lambda: store.state.stage == "turn")
        await settle(pilot, app)
        snap = app.screen.snapshot
        assert snap.view.stage == "turn"
        assert any(a.kind == "end" for a in snap.legal)


async def new_game_screen(pilot: Pilot[object], app: MQApp) -> NewGameScreen:
    """From the title screen, N: the new game screen."""
    await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
    await press(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
    assert isinstance(app.screen, NewGameScreen)
    return app.screen


@pytest.mark.slow
async def test_new_game_screen_reports_a_bad_table_then_changes_seats() -> None:
    """A table the game refuses stays on the screen with the reason; put right and changed, it starts.
    (One app: the New Game screen takes ~0.4 CPU-s to open, its twelve Selects.)"""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await new_game_screen(pilot, app)
        colour = screen.query_one("#colour-1").value
        screen.query_one("#colour-1").value = "red"  # the same colour as seat 1
        screen.action_start()
        error = screen.query_one("#error")
        await until(pilot, lambda: "colour" in str(error.render()), "the error")
        assert isinstance(app.screen, NewGameScreen) and app.game_store is None
        screen.query_one("#colour-1").value = colour
        screen.query_one("#kind-2").value = "off"
        screen.query_one("#kind-3").value = "off"
        screen.query_one("#kind-1").value = "human"
        screen.query_one("#name-1").value = "Bob"
        screen.query_one("#seed").value = "42"
        screen.action_start()
        await until(pilot, lambda: app.game_store is not None, "the game")
        await settle(pilot, app)
        store = app.game_store
        assert [s.name for s in store.seats] == ["Ann", "Bob"]
        assert [s.kind for s in store.seats] == ["human", "human"]
        assert store.state.seed == 42


@pytest.mark.slow
async def test_settings_change_the_theme_and_remember_it(data) -> None:
    app = MQApp(settings=Settings(), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        await press(pilot, "s", lambda: isinstance(app.screen, SettingsScreen))
        assert app.theme == "mq-dark"
        await press(pilot, "down", lambda: app.theme != "mq-dark", "the next theme's preview")
        chosen = app.theme
        await press(pilot, "ctrl+s", lambda: isinstance(app.screen, TitleScreen))
    assert load_settings().theme == chosen


async def test_palette_theme_command_switches_theme() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_theme("mq-contrast")
        await until(pilot, lambda: app.theme == "mq-contrast", "the theme")
        assert app.theme_variables["mq-red"] == "#FF3030"


@pytest.mark.slow
async def test_rules_cards_and_help_screens_open_and_close() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        await press(pilot, "r", lambda: isinstance(app.screen, RulesScreen))
        # the rules text has the focus (its keys scroll it), and its focus restyles it alone
        viewer = app.screen.query_one(MarkdownViewer)
        await until(pilot, lambda: viewer.document.has_focus, "the rules text focused")
        assert not focus_styles_inside(app.stylesheet, viewer.document)
        await footer_shows_the_screens_keys(pilot, app)
        await press(pilot, "escape", lambda: isinstance(app.screen, TitleScreen))
        await press(pilot, "k", lambda: isinstance(app.screen, CardBrowserScreen))
        screen = app.screen
        assert isinstance(screen, CardBrowserScreen)
        await footer_shows_the_screens_keys(pilot, app)
        search = screen.query_one("#filter")
        await press(pilot, "slash", lambda: search.has_focus, "the search box")
        for n, key in enumerate("flask", 1):
            await press(pilot, key, lambda: search.value == "flask"[:n])  # noqa: B023
        await until(pilot, lambda: len(screen.shown) < len(screen.all), "the list filtered")
        assert all("flask" in (e.name + e.text).lower() for e in screen.shown)
        assert screen.shown
        # (Escape in the search box closes the browser: the Input has no binding of its own for it)
        await press(pilot, "escape", lambda: isinstance(app.screen, TitleScreen))
        app.show_help()
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        await press(pilot, "escape", lambda: isinstance(app.screen, TitleScreen))


def test_the_rules_text_is_styled_again_whole_on_focus_only_if_a_rule_asks() -> None:
    """Focusing the rules text restyles its ~400 blocks only when a rule styles them by its focus."""

    def sheet(css: str) -> Stylesheet:
        stylesheet = Stylesheet()
        stylesheet.add_source(css)
        stylesheet.parse()
        return stylesheet

    text = RulesText(classes="rules")
    for css in ("Markdown:focus MarkdownParagraph { color: red; }", ".rules:focus > * { color: red; }"):
        assert focus_styles_inside(sheet(css), text), css
    for css in (
        "Markdown:focus { color: red; }",  # the text itself (styled again on focus anyway)
        "OptionList:focus > .option-list--option-highlighted { color: red; }",  # another widget's
        "Markdown:hover MarkdownParagraph { color: red; }",
    ):
        assert not focus_styles_inside(sheet(css), text), css


async def test_rules_screen_without_the_rules_file(monkeypatch, tmp_path) -> None:
    import mqtui.ui.screens.rules as rules

    monkeypatch.setattr(rules, "DOCS_DIR", tmp_path / "nowhere")
    assert "not installed" in rules.rules_markdown()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_rules()
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules screen")
