"""Styling done once, not again and again: the component styles the app's stylesheet remembers
(:mod:`mqtui.ui.stylesheet`) are the ones Textual works out, whatever the focus and the theme."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import OptionList
from ui_helpers import local_app, make_app, running, settle, store_for

from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.settings import SettingsScreen
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.stylesheet import SharedStylesheet


def textual_parts(app: MQApp) -> dict[tuple[str, str], dict[str, Any]]:
    """Each component's rules on the game screen as Textual itself works them out (its own apply, on
    a new node per component: nothing remembered)."""
    sheet = app.stylesheet
    found = {}
    for node in app.screen.walk_children(with_self=True):
        for component in sorted(node._get_component_classes()):
            virtual = DOMNode(classes=component)
            virtual._attach(node)
            Stylesheet.apply(sheet, virtual)
            found[(str(node.id), component)] = dict(virtual.styles.base._rules)
    return found


def shown_parts(app: MQApp) -> dict[tuple[str, str], dict[str, Any]]:
    """The component rules the game screen's widgets draw with, after two restyles of the screen (the
    second one from what the stylesheet remembers)."""
    nodes = list(app.screen.walk_children(with_self=True))
    for _ in range(2):
        app.stylesheet.update_nodes(nodes)
    return {
        (str(node.id), component): dict(node.get_component_styles(component).base._rules)
        for node in nodes
        for component in sorted(node._get_component_classes())
    }


def highlight(app: MQApp) -> object:
    return app.screen.query_one("#actions").get_component_styles("option-list--option-highlighted").background


async def test_component_styles_follow_the_focus_and_the_theme() -> None:
    app = local_app(store_for())
    async with running(app, size=(100, 30)) as pilot:
        assert isinstance(app.stylesheet, SharedStylesheet) and isinstance(app.screen, GameScreen)
        seen = []
        for key, theme in (("m", "mq-dark"), ("a", "mq-dark"), ("a", "mq-colourblind"), ("a", "mq-light")):
            app.theme = theme
            await pilot.press(key)  # the map, then the actions have the focus
            await pilot.pause()
            assert shown_parts(app) == textual_parts(app)
            seen.append(highlight(app))
        # the highlighted action's colour depends on the focus and on the theme (two dark ones, then a
        # light one): remembered styles that ignored either would show an earlier one again
        assert len(set(seen)) == 4


async def test_component_styles_follow_the_classes_of_the_nodes_above() -> None:
    """(app.tcss: with the app's ``-no-color`` class, the highlighted line is in reverse video.)"""
    app = local_app(store_for())
    async with running(app, size=(100, 30)):
        seen = []
        for no_color in (False, True, False):
            app.set_class(no_color, "-no-color")
            assert shown_parts(app) == textual_parts(app)
            seen.append(highlight(app))
        assert seen[0] != seen[1] and seen[0] == seen[2]


class Probe(Widget):
    """A widget whose CSS arrives after the game screen's: it restyles the actions' highlight."""

    SCOPED_CSS = False
    DEFAULT_CSS = "GameScreen #actions:focus > .option-list--option-highlighted { background: #123456; }"


async def test_component_styles_follow_css_that_arrives_later() -> None:
    app = local_app(store_for())
    async with running(app, size=(100, 30)) as pilot:
        assert shown_parts(app) == textual_parts(app)
        before = highlight(app)
        await app.screen.mount(Probe())
        await pilot.pause()
        assert shown_parts(app) == textual_parts(app)
        assert highlight(app) != before


async def test_a_widget_restyled_again_takes_its_component_styles_as_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(Fails when the stylesheet works every component out again, as Textual does: the map's 18 and
    the log's 14 on each focus change.)"""
    app = local_app(store_for())
    async with running(app, size=(100, 30)):
        sheet = app.stylesheet
        nodes = list(app.screen.walk_children(with_self=True))
        sheet.update_nodes(nodes)
        worked_out: list[DOMNode] = []
        plain_apply = sheet.apply

        def apply(node: DOMNode, **kwargs: Any) -> None:
            if type(node) is DOMNode:
                worked_out.append(node)
            plain_apply(node, **kwargs)

        monkeypatch.setattr(sheet, "apply", apply)
        sheet.update_nodes(nodes)
        assert sum(len(node._get_component_classes()) for node in nodes) > 40
        assert worked_out == []


@pytest.mark.parametrize("open_it", ["title_new", "show_help", "title_settings", "show_rules"])
async def test_a_screen_is_styled_once_as_it_opens(monkeypatch: pytest.MonkeyPatch, open_it: str) -> None:
    """Its widgets are styled as they mount; its first showing restyles none of them again (Textual
    restyles the whole screen then: the screen and each of its widgets a second time)."""
    app = make_app(None)
    async with running(app) as pilot:
        title = app.screen
        styled: list[DOMNode] = []
        plain_apply = app.stylesheet.apply

        def apply(node: DOMNode, **kwargs: Any) -> None:
            styled.append(node)
            plain_apply(node, **kwargs)

        monkeypatch.setattr(app.stylesheet, "apply", apply)
        getattr(app, open_it)()
        await pilot.pause()
        await settle(pilot, app)
        screen = app.screen
        assert screen is not title and isinstance(screen, StyledAtMount)
        assert styled.count(screen) == 1


async def test_opening_the_settings_previews_no_theme(monkeypatch: pytest.MonkeyPatch) -> None:
    """The theme list highlights its first theme as it is built, then the current one: neither is a
    preview (each would restyle every screen); moving in the list previews (test_ui_title.py)."""
    app = make_app(None)
    async with running(app) as pilot:
        themes: list[str] = []
        monkeypatch.setattr(app, "refresh_css", lambda animate=True: themes.append(app.theme))
        app.title_settings()
        await pilot.pause()
        await settle(pilot, app)
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.query_one("#themes", OptionList).highlighted_option.id == app.theme
        assert themes == []
