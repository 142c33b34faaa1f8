"""Frames that draw less still show what a whole drawing shows; a pane key draws its pane focused.

A player acting by keys changes the actions and hand panes, the footer (its lines kept by the keys
shown), the log and its scroll bar, and the focus. After each
frame the terminal must hold, cell for cell, a full drawing of the screen (the terminal and the full
drawing are those of tests/test_ui_frames.py).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from endgame_helpers import PLAYERS, SEED, game_actions
from rich.text import Text
from test_ui_frames import Cell, Terminal, drawn_whole, to_terminal
from textual.pilot import Pilot
from textual.screen import Screen
from ui_helpers import local_app, press, redraw, settle, store_for

from mqtui.engine.actions import Action
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.widgets.actions import ActionList
from mqtui.ui.widgets.hand import CardList
from mqtui.ui.widgets.hero_sheet import HeroSheet
from mqtui.ui.widgets.kept import looks
from mqtui.ui.widgets.log import GameLog
from mqtui.ui.widgets.map import MapView
from mqtui.ui.widgets.room_info import RoomInfo

W, H = 80, 24


def wrong_cells(screen: Screen[object], terminal: Terminal) -> list[tuple[int, int]]:
    """The cells the terminal shows otherwise than the whole screen drawn now (the log's scroll bar
    drawn afresh, not from its cache: ``refresh``, so it is also sent again in the next frame; the
    hand and actions panes have none)."""
    log = screen.query_one(GameLog)
    if log.show_vertical_scrollbar and (bar := log.vertical_scrollbar).display:
        bar.refresh()
    whole = drawn_whole(screen)
    return [(x, y) for y in range(H) for x in range(W) if whole[y][x] != terminal.cells[y][x]]


@pytest.mark.slow(seconds=3)
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
        for step in range(50):  # (50 steps reach every line and branch of mqtui/ui that 60 did; see the note)
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
            if app.screen is not screen:  # a dialog opened by itself (charity): "later", back to the game
                await press(pilot, "escape", lambda: app.screen is screen)
                await settle(pilot, app)
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


@pytest.mark.slow
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
        await until_drawn(pilot, app, frames)  # (the scroll bars wrong_cells drew afresh are sent again)
        before = frames[0]
        await press(pilot, "a", lambda: app.focused is actions)
        await settle(pilot, app)
        assert frames[0] == before  # nothing changed: nothing drawn


async def scroll_the_log(pilot: Pilot[object], app: MQApp, terminal: Terminal, frames: list[int]) -> None:
    """A new scroll position draws the log's lines again, not its scroll bar (it draws itself when it
    looks different): after each key the terminal still equals a whole drawing."""
    screen = app.screen
    log = screen.query_one(GameLog)
    assert log.max_scroll_y >= 8  # (a log longer than its pane)
    await press(pilot, "l", lambda: app.focused is log)
    end = log.scroll_y
    for key, moved in (("up", 1), ("up", 2), ("pageup", None), ("down", None), ("end", 0)):
        before, drawn = log.scroll_y, frames[0]

        def scrolled(b: float = before) -> bool:  # (the keys scroll smoothly: to the end of it)
            return log.scroll_y != b and not app.animator.is_being_animated(log, "scroll_y")

        await press(pilot, key, scrolled, key)
        if moved is not None:
            assert log.scroll_y == end - moved
        await settle(pilot, app)
        assert frames[0] > drawn
        wrong = wrong_cells(screen, terminal)
        assert not wrong, f"after {key}: {len(wrong)} cells differ, the first at {wrong[0]}"


@pytest.mark.slow
async def test_a_pane_given_the_text_it_shows_already_is_not_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hero sheet and the room lines are made again when what they come from changes (the hero's
    hand, which the compact sheet does not show...): a text drawn as the one on show (``Kept``) does not
    draw the pane again; a new one does, and the terminal shows it. Then the log, long by now, is
    scrolled by keys (:func:`scroll_the_log`: the same game, not a second one)."""
    terminal = Terminal()
    frames = to_terminal(monkeypatch, terminal)
    redrawn: Counter[str] = Counter()  # each pane's own redraws
    made: Counter[str] = Counter()  # texts made for each pane (each made one is given to its update)
    for pane in (HeroSheet, RoomInfo):
        refresh, update = pane.refresh, pane.update

        def counting(self: Any, *regions: Any, refresh: Any = refresh, **kwargs: Any) -> Any:
            redrawn[type(self).__name__] += 1
            return refresh(self, *regions, **kwargs)

        def updating(self: Any, content: Any = "", *, update: Any = update, **kwargs: Any) -> None:
            made[type(self).__name__] += 1
            update(self, content, **kwargs)

        monkeypatch.setattr(pane, "refresh", counting)
        monkeypatch.setattr(pane, "update", updating)
    store = store_for((("Ann", "human"), ("Bob", "random")), seed=2, setup_done=False)
    app = local_app(store)  # (one pair of eyes)
    rng = random.Random(2)
    kept, new = Counter[str](), Counter[str]()  # texts made again the same, and other texts
    async with app.run_test(size=(W, H)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        actions = screen.query_one(ActionList)
        panes = {"HeroSheet": screen.query_one(HeroSheet), "RoomInfo": screen.query_one(RoomInfo)}
        for step in range(40):
            before = {name: shown(pane) for name, pane in panes.items()}
            styled = {name: (pane.size, frozenset(pane.classes)) for name, pane in panes.items()}
            counts = redrawn.copy(), made.copy()
            n = store.state.n
            if actions.entry_count and app.screen is screen:
                await press(
                    pilot, "1", lambda n=n: store.state.n != n or app.screen is not screen, "action 1"
                )
            if app.screen is not screen:
                await press(pilot, "escape", lambda: app.screen is screen)
            if store.state.n == n:  # (the computer's moves too: the app shows them through Ann's eyes)
                who = store.engine.deciding(store.state)
                store.apply(rng.choice(list(store.engine.legal(store.state, who))))
            await settle(pilot, app)
            for name, pane in panes.items():
                if made[name] != counts[1][name] + 1:  # (made once: not changed and changed back)
                    continue
                if styled[name] != (pane.size, frozenset(pane.classes)):
                    continue  # (restyled, a fight's smaller sheet: Textual draws a restyled pane again)
                if shown(pane) == before[name]:
                    kept[name] += 1
                    assert redrawn[name] == counts[0][name], f"step {step}: {name} drawn again, unchanged"
                else:
                    new[name] += 1
                    assert redrawn[name] > counts[0][name]
            if app.screen is screen:  # (not under a dialog that opened by itself: the charity...)
                wrong = wrong_cells(screen, terminal)
                assert not wrong, f"step {step}: {len(wrong)} cells differ, the first at {wrong[0]}"
        if app.screen is not screen:
            await press(pilot, "escape", lambda: app.screen is screen)
        await scroll_the_log(pilot, app, terminal, frames)
    assert all(kept[name] and new[name] for name in panes) and frames[0] > 40, (kept, new)


async def test_room_lines_hidden_in_a_fight_show_the_map_cursor_room_once_settled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80x24 a fight hides the room lines. The map cursor moves meanwhile (it follows the hero whose
    turn it is) and tells the room lines by a message that goes up to the screen, which hands it on.
    Shown again, they draw the cursor room; once the app has settled after a move, the terminal shows
    it as a whole drawing does (not the lines of the room before)."""
    terminal = Terminal()
    to_terminal(monkeypatch, terminal)
    app = local_app(store_for(seed=3))
    async with app.run_test(size=(W, H)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        room_lines, map_view = screen.query_one(RoomInfo), screen.query_one(MapView)
        home, row = room_lines.cell, room_lines.region.y
        room_lines.add_class("-fighting")  # (what a fight does at 80x24)
        await settle(pilot, app)
        assert not room_lines.display
        for move, cell, name in (
            (lambda: map_view.action_cursor(1), (home[0] + 1, home[1]), "Unexplored space"),  # hidden
            (lambda: room_lines.remove_class("-fighting"), (home[0] + 1, home[1]), "Unexplored space"),
            (map_view.action_home, home, "The Entrance"),  # the cursor back on the hero's room
        ):
            move()
            await redraw(pilot)  # (nothing changed in the game: all of settle but its first drains)
            assert room_lines.cell == cell
            if room_lines.display:
                wrong = wrong_cells(screen, terminal)
                assert not wrong, f"{name}: {len(wrong)} cells differ, the first at {wrong[0]}"
                assert name in "".join(char for char, _ in terminal.cells[row])


def shown(pane: HeroSheet | RoomInfo) -> tuple[object, ...]:
    """What the pane shows: its text (all that makes how it is drawn), its size and title."""
    content = pane.content
    assert isinstance(content, Text)
    return looks(content), pane.size, pane.border_title


def first_fight(actions: list[Action]) -> int:
    """The index of the recorded game's first action that starts a fight."""
    store = store_for(tuple((name, "human") for name, _ in PLAYERS), seed=SEED, setup_done=False)
    for i, action in enumerate(actions):
        store.apply(action)
        if store.state.combat is not None:
            return i
    raise AssertionError("no fight in the recorded game")


async def test_a_fight_lays_the_screen_out_once_as_it_starts_and_once_as_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80x24 a fight moves the panes: the room lines go, the hero sheet shrinks, the actions take
    their few rows, the hand more, the card's text shows. Textual lays the whole screen out again for
    every pane the layout resized whose scrollable size changed (a container, a scroll bar), each
    time one more frame, the player's screen finished later (and the CPU of a served session spent
    twice). The fight's start and its end are each one layout; the terminal then holds the whole
    drawing, and the hand says in words which of its cards are out of view (no scroll bar)."""
    terminal = Terminal()
    to_terminal(monkeypatch, terminal)
    actions = list(game_actions(SEED))
    start = first_fight(actions)
    store = store_for(tuple((name, "human") for name, _ in PLAYERS), seed=SEED, setup_done=False)
    for action in actions[:start]:
        store.apply(action)
    app = local_app(store, handoff=False)
    async with app.run_test(size=(W, H)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        layouts: list[object] = []
        screen.screen_layout_refresh_signal.subscribe(screen, layouts.append)
        for moment in ("start", "end"):
            fighting = moment == "end"
            while (store.state.combat is not None) == fighting:
                # the next recorded action (the app passes by itself for a player with nothing to play)
                layouts.clear()
                store.apply(actions[len(store.actions)])
                await settle(pilot, app)
            assert len(layouts) == 1, f"the fight's {moment}: {len(layouts)} layouts"
            wrong = wrong_cells(screen, terminal)
            assert not wrong, f"the fight's {moment}: {len(wrong)} cells differ, the first at {wrong[0]}"
        hand = screen.query_one(CardList)
        assert not hand.show_vertical_scrollbar
        below = hand.scroll_y < hand.max_scroll_y
        assert ("↓" in str(hand.border_subtitle)) == below, hand.border_subtitle
