"""Styling done once, not again and again: the component styles the app's stylesheet remembers
(:mod:`mqtui.ui.stylesheet`) are the ones Textual works out, whatever the focus, the theme, the
classes and the CSS; a screen is styled once as it opens (:class:`~mqtui.ui.screens.steady.StyledAtMount`).
(Two apps in all: each step below needs the one before it.)"""

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
from mqtui.ui.screens.title import TitleScreen
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


class Probe(Widget):
    """A widget whose CSS arrives after the game screen's: it restyles the actions' highlight."""

    SCOPED_CSS = False
    DEFAULT_CSS = "GameScreen #actions:focus > .option-list--option-highlighted { background: #123456; }"


async def test_component_styles_are_textuals_whatever_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    app = local_app(store_for())
    async with running(app, size=(100, 30)) as pilot:
        assert isinstance(app.stylesheet, SharedStylesheet) and isinstance(app.screen, GameScreen)
        # the focus (a pseudo class) and the theme: the highlighted action's colour depends on both
        # (two dark themes, then a light one): remembered styles that ignored either would show an
        # earlier colour again
        seen = []
        for key, theme in (("m", "mq-dark"), ("a", "mq-dark"), ("a", "mq-colourblind"), ("a", "mq-light")):
            app.theme = theme
            await pilot.press(key)  # the map, then the actions have the focus
            await pilot.pause()
            assert shown_parts(app) == textual_parts(app), (key, theme)
            seen.append(highlight(app))
        assert len(set(seen)) == 4

        # a class of a node above (app.tcss: with the app's -no-color, the highlight is underlined)
        seen = []
        actions = app.screen.query_one("#actions")
        for no_color in (True, False):
            app.set_class(no_color, "-no-color")
            assert shown_parts(app) == textual_parts(app), no_color
            seen.append(actions.get_component_styles("option-list--option-highlighted").text_style)
        assert seen[0] != seen[1]

        # a second restyle works out no component node: all are remembered (Textual works out every
        # one again, the map's 18 and the log's 14, on each focus change)
        sheet = app.stylesheet
        nodes = list(app.screen.walk_children(with_self=True))
        worked_out: list[DOMNode] = []
        plain_apply = sheet.apply

        def apply(node: DOMNode, **kwargs: Any) -> None:
            if type(node) is DOMNode:
                worked_out.append(node)
            plain_apply(node, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(sheet, "apply", apply)
            sheet.update_nodes(nodes)
        assert sum(len(node._get_component_classes()) for node in nodes) > 40
        assert worked_out == []

        # CSS that arrives later (a widget of a new kind) is followed
        before = highlight(app)
        await app.screen.mount(Probe())
        await pilot.pause()
        assert shown_parts(app) == textual_parts(app)
        assert highlight(app) != before


async def test_each_screen_is_styled_once_as_it_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its widgets are styled as they mount; its first showing restyles none of them again (Textual
    restyles the whole screen then: the screen and each of its widgets a second time). Opening the
    settings previews no theme: its theme list highlights its first theme as it is built, then the
    current one, and each preview would restyle every screen (moving in the list previews:
    test_ui_title.py)."""
    app = make_app(None)
    async with running(app) as pilot:
        title = app.screen
        assert isinstance(title, TitleScreen)
        styled: list[DOMNode] = []
        refreshed: list[str] = []
        plain_apply = app.stylesheet.apply

        def apply(node: DOMNode, **kwargs: Any) -> None:
            styled.append(node)
            plain_apply(node, **kwargs)

        monkeypatch.setattr(app.stylesheet, "apply", apply)
        monkeypatch.setattr(app, "refresh_css", lambda animate=True: refreshed.append(app.theme))
        for open_it in ("title_new", "show_help", "title_settings", "show_rules"):
            getattr(app, open_it)()
            await pilot.pause()
            await settle(pilot, app)
            screen = app.screen
            assert screen is not title and isinstance(screen, StyledAtMount)
            assert styled.count(screen) == 1, open_it
            if isinstance(screen, SettingsScreen):
                assert screen.query_one("#themes", OptionList).highlighted_option.id == app.theme
            app.pop_screen()
            await settle(pilot, app)
        assert refreshed == []
