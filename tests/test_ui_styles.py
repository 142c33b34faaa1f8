"""Styling done once, not again and again: a screen is styled once as it opens
(:class:`~mqtui.ui.screens.steady.StyledAtMount`)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.dom import DOMNode
from textual.widgets import OptionList
from ui_helpers import make_app, running, settle
from waiting import wait_until

from mqtui.ui.screens.settings import SettingsScreen
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.screens.title import TitleScreen


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
            screen = app.screen  # (pushed at once; it mounts its widgets from here)
            assert screen is not title and isinstance(screen, StyledAtMount)
            # until it has mounted them all, then until what that posted is handled (settle: without
            # Pilot.pause's 30 s ceiling, which a loaded machine passes while the screen mounts)
            await wait_until(lambda s=screen: s.is_mounted, what=f"the screen of {open_it} mounted")
            await settle(pilot, app)
            assert app.screen is screen
            assert styled.count(screen) == 1, open_it
            if isinstance(screen, SettingsScreen):
                assert screen.query_one("#themes", OptionList).highlighted_option.id == app.theme
            app.pop_screen()
            await settle(pilot, app)
        assert refreshed == []
