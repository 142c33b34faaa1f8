"""Opening the app and a game screen: CSS parsed once per process, the panes styled and laid out for
the size the screen opens at (bench/open.py measures the cost)."""

from __future__ import annotations

import threading
from typing import Any

from ui_helpers import local_app, make_app, running, settle, store_for
from waiting import wait_until

from mqtui.store import LocalStore
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.widgets.actions import ActionList
from mqtui.ui.widgets.hand import CardList
from mqtui.ui.widgets.hero_sheet import HeroSheet


async def test_another_theme_gets_its_own_colours() -> None:
    apps = [make_app(None, theme=theme) for theme in ("mq-dark", "mq-light")]
    colours = []
    for app in apps:
        async with running(app):
            colours.append(app.screen.styles.background)
    assert colours[0] != colours[1]


def _compacts(screen: GameScreen) -> tuple[bool, bool, bool]:
    return (
        screen.query_one(HeroSheet).compact,
        screen.query_one(CardList).compact,
        screen.query_one(ActionList).compact,
    )


async def test_the_game_screen_opens_styled_for_its_size_and_follows_a_resize() -> None:
    """Its panes are styled as they mount, for the size it opens at: the whole screen is not styled
    again when it is first shown nor when its size arrives; a real resize still changes its layout."""
    app = local_app(store_for())
    restyled: list[int] = []
    update_nodes = app.stylesheet.update_nodes

    def counting(nodes: Any, animate: bool = False) -> None:
        nodes = list(nodes)
        if any(isinstance(node, GameScreen) for node in nodes):
            restyled.append(len(nodes))
        update_nodes(nodes, animate=animate)

    app.stylesheet.update_nodes = counting  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.has_class("-wide") and screen.has_class("-tall")
        assert _compacts(screen) == (False, False, False)
        assert all(n == 1 for n in restyled), restyled  # the screen's own classes only, not every pane
        await pilot.resize_terminal(80, 24)  # (the screen gets the new size after a short timer)
        await wait_until(lambda: screen.has_class("-narrow") and screen.has_class("-short"), what="narrow")
        assert _compacts(screen) == (True, True, True)  # set with the classes, as the panes read them
        await pilot.resize_terminal(120, 24)
        await wait_until(lambda: screen.has_class("-wide") and screen.has_class("-short"), what="wide, short")
        assert _compacts(screen) == (True, True, False)


async def test_a_closed_game_app_stops_its_autosave_writer() -> None:
    """The writer thread held the app's stderr (Textual's print capture), so every closed game app
    stayed in memory as long as the store lived; its last state is on disk all the same."""
    store = store_for()
    app = local_app(store)
    async with running(app):
        path = app.autosave_file
        assert path is not None
        (writer,) = (t for t in threading.enumerate() if t.name == f"autosave {path.name}")
        assert writer.is_alive()
    assert not writer.is_alive()
    assert LocalStore.load(path, store.engine).snapshot().n == store.snapshot().n
