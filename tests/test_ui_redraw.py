"""Frames that draw less still show what a whole drawing shows; a pane key draws its pane focused.

A player acting by keys changes the actions and hand panes (redrawn row by row: ``rows_only`` in
mqtui/ui/widgets/options.py), the footer (its lines kept by the keys shown), the log and its scroll
bar (drawn when it looks different: ``QuietBar`` in mqtui/ui/widgets/steady.py) and the focus. After each
frame the terminal must hold, cell for cell, a full drawing of the screen (the terminal and the full
drawing are those of tests/test_ui_frames.py).
"""

from __future__ import annotations

import random

import pytest
from test_ui_frames import Cell, Terminal, drawn_whole, to_terminal
from textual.pilot import Pilot
from textual.screen import Screen
from ui_helpers import local_app, press, settle, store_for

from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.widgets.actions import ActionList
from mqtui.ui.widgets.hand import CardList
from mqtui.ui.widgets.log import GameLog

W, H = 80, 24


def wrong_cells(screen: Screen[object], terminal: Terminal) -> list[tuple[int, int]]:
    for pane in (GameLog, CardList, ActionList):  # their scroll bars drawn afresh, not from their caches
        bar = screen.query_one(pane)._vertical_scrollbar
        if bar is not None and bar.display:
            bar._styles_cache.clear()
            bar._set_dirty()
    whole = drawn_whole(screen)
    return [(x, y) for y in range(H) for x in range(W) if whole[y][x] != terminal.cells[y][x]]


async def test_playing_by_keys_leaves_the_terminal_as_the_screen_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = Terminal()
    frames = to_terminal(monkeypatch, terminal)
    store = store_for((("Ann", "human"), ("Bob", "human"), ("Cy", "human")), seed=5, setup_done=False)
    app = local_app(store, handoff=False)  # (each decision shown through its player's eyes)
    rng = random.Random(5)
    pressed = 0
    async with app.run_test(size=(W, H)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        hand, actions, log = (
            screen.query_one(CardList),
            screen.query_one(ActionList),
            screen.query_one(GameLog),
        )
        for step in range(45):  # (45 steps reach every path of the frames that 60 did; see the note)
            assert app.screen is screen
            if step % 7 == 3:  # the hand, then back to the actions: the focus moves
                await press(pilot, "h", lambda: app.focused is hand)
                await press(pilot, "a", lambda: app.focused is actions)
            if step % 11 == 5:  # the log (its scroll bar drawn only when it looks different)
                await press(pilot, "l", lambda: app.focused is log)
                await press(pilot, "up", lambda: log.scroll_y < log.max_scroll_y or not log.max_scroll_y)
                await press(pilot, "a", lambda: app.focused is actions)
            n = store.state.n
            if actions.entry_count:
                await press(
                    pilot, "1", lambda n=n: store.state.n != n or app.screen is not screen, "action 1"
                )
                pressed += 1
            if app.screen is not screen:  # a dialog asks how: the game plays on from here
                await press(pilot, "escape", lambda: app.screen is screen)
            if store.state.n == n:
                who = store.engine.deciding(store.state)
                store.apply(rng.choice(list(store.engine.legal(store.state, who))))
            await settle(pilot, app)  # (ends with a frame)
            wrong = wrong_cells(screen, terminal)
            assert not wrong, f"step {step}: {len(wrong)} cells differ, the first at {wrong[0]}"
    assert pressed > 20 and frames[0] > 60


async def until_drawn(pilot: Pilot[object], app: MQApp, frames: list[int]) -> None:
    """Settle until a redraw draws nothing more (what a layout resizes is drawn in the frames after it)."""
    for _ in range(10):
        drawn = frames[0]
        await settle(pilot, app)
        if frames[0] == drawn:
            return
    raise AssertionError("the screen kept drawing")


def border(cells: list[list[Cell]], screen: GameScreen, pane_id: str) -> Cell:
    """The top left corner of a pane's border, as drawn."""
    region = screen.query_one(f"#{pane_id}").region
    return cells[region.y][region.x]


async def test_a_pane_key_shows_that_pane_focused_and_draws_nothing_when_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = Terminal()
    frames = to_terminal(monkeypatch, terminal)
    store = store_for((("Ann", "human"), ("Bob", "random")), seed=3)
    app = local_app(store)
    async with app.run_test(size=(W, H)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        hand, actions = screen.query_one(CardList), screen.query_one(ActionList)
        assert app.focused is actions  # (where the game screen puts the focus)
        await press(pilot, "h", lambda: hand.has_focus and not actions.has_focus)  # (styled as such)
        await settle(pilot, app)
        hand_lit = border(terminal.cells, screen, "hand")
        assert hand_lit[0] == "╭" and hand_lit != border(terminal.cells, screen, "actions")
        await press(pilot, "a", lambda: actions.has_focus and not hand.has_focus)
        await settle(pilot, app)
        assert border(terminal.cells, screen, "actions") == hand_lit  # drawn as the focused pane
        assert border(terminal.cells, screen, "hand") != hand_lit
        await until_drawn(pilot, app, frames)
        assert not wrong_cells(screen, terminal)
        before = frames[0]
        await press(pilot, "a", lambda: app.focused is actions)
        await settle(pilot, app)
        assert frames[0] == before  # nothing changed: nothing drawn
