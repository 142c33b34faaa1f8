"""The guided first game: the tutorial file loads and checks, every lesson's steps happen in play in
their order, and a player at an 80×24 terminal plays it from the title screen to the boss, skips, leaves
and starts it again."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from screen_text import private_names, screen_text, widget_text
from ssh_helpers import Term
from test_ui_nocolor import COLOUR
from textual.pilot import Pilot
from textual.widgets import OptionList
from ui_helpers import make_app, notes, settle, until

from mqtui.engine.actions import Action
from mqtui.engine.scenario import resolve_action
from mqtui.engine.state import State
from mqtui.saves import slots
from mqtui.store import LocalStore
from mqtui.tutorial import TEXT_MAX, Guide, Lesson, TutorialError, lesson_store, load
from mqtui.ui.app import MQApp
from mqtui.ui.describe import CARD_KINDS
from mqtui.ui.saving import latest_autosave
from mqtui.ui.screens.charity import CharityDialog
from mqtui.ui.screens.choose import ChooseAction
from mqtui.ui.screens.confirm import ConfirmAction
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.screens.tutorial import TutorialPanel, TutorialScreen
from mqtui.ui.session import engine
from mqtui.ui.widgets.actions import ActionList
from mqtui.ui.widgets.hand import CardList

PANEL_WIDTH = 78  # the panel's text at 80 columns (its padding takes one column each side)


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


# what each lesson really did to the game, checked at its end (the learner is seat 0)
def lesson_effects(n: int, s: State, store: LocalStore) -> None:
    ann, cards = s.heroes[0], store.cards
    if n == 0:
        assert [cards.card(u).id for u in ann.races] == ["elf-card"]
        assert [cards.card(u).id for u in ann.classes] == ["warrior-card"]
        assert ann.level == 2 and ann.kills == 1 and (ann.x, ann.y) == (1, 0)
        assert "hard-hat" in [cards.card(u).id for u in ann.equipped]
    elif n == 1:
        assert ann.level == 4 and ann.kills == 1
        grizzle = [cards.card(u).id for u in s.heroes[1].hand]
        assert "glitter-bomb" in grizzle and "butter-knife" in grizzle
        assert any(e.kind == "colour" and "monster phase" in e.text for e in store.log)
    elif n == 2:
        assert any(e.kind == "curse" and "curses Ann" in e.text for e in store.log)
        assert ann.moves == 4 - 2  # an Elf's Moves less the Stubbed Toe's 2, on her next turn
        assert s.heroes[1].level == 3 and s.heroes[1].kills == 0  # Grizzlebeard lost his fight
    elif n == 3:
        assert ann.deaths == 1 and not ann.dead and (ann.x, ann.y) == (0, 0) and ann.level == 3
    elif n == 4:
        assert s.stage == "over" and s.winners == [0]


def test_the_tutorial_loads_and_its_texts_fit_two_lines_at_80_columns() -> None:
    tutorial = load(engine=engine())
    assert len(tutorial.lessons) == 5
    assert tutorial.lessons[0].steps[0].text.startswith("Welcome, hero!")
    console = Console(width=PANEL_WIDTH)
    for lesson in tutorial.lessons:
        for step in lesson.steps:
            assert len(step.text) <= TEXT_MAX
            assert len(Text(step.text).wrap(console, PANEL_WIDTH)) <= 2, step.text


def test_a_broken_tutorial_names_the_file_and_the_entry(tmp_path: Path) -> None:
    bad = tmp_path / "tutorial.toml"
    bad.write_text(
        '[[lesson]]\ntitle = "Oops"\n[[lesson.hero]]\n[[lesson.hero]]\n[[lesson.step]]\ntext = "Hi"\nevent = "explode"\n'
    )
    with pytest.raises(TutorialError, match=r"tutorial\.toml.*lesson\[0\]\.step\[0\]\.event"):
        load(bad)
    bad.write_text(
        '[[lesson]]\ntitle = "Oops"\n[[lesson.hero]]\nhand = ["no-such-card"]\n[[lesson.hero]]\n[[lesson.step]]\ntext = "Hi"\n'
    )
    with pytest.raises(TutorialError, match=r"tutorial\.toml: lesson\[0\] \(Oops\): .*no-such-card"):
        load(bad, engine())
    bad.write_text(
        f'[[lesson]]\ntitle = "Long"\n[[lesson.hero]]\n[[lesson.hero]]\n[[lesson.step]]\ntext = "{"x" * 200}"\n'
    )
    with pytest.raises(TutorialError, match=r"lesson\[0\] \(Long\): step\[0\]: the text"):
        load(bad)
    bad.write_text(
        '[[lesson]]\ntitle = "Who"\nscript = ["0 accept"]\n[[lesson.hero]]\n[[lesson.hero]]\n'
        '[[lesson.step]]\ntext = "Hi"\n'
    )
    with pytest.raises(TutorialError, match=r"lesson\[0\] \(Who\): script: '0 accept'"):
        load(bad)


def _bots(store: LocalStore) -> None:
    while store.step_bot():
        pass


@pytest.mark.parametrize("n", range(5))
def test_each_lesson_plays_its_steps_in_order(n: int) -> None:
    """The walk of each step (what a learner does) completes that step and no later one: the computer
    players' script and the stacked decks make the lesson happen as its text says."""
    e = engine()
    tutorial = load()
    lesson = tutorial.lessons[n]
    store = lesson_store(e, lesson, bot_delay=0)
    guide = Guide(tutorial, lesson=n)
    _bots(store)
    guide.follow(store.log)
    for i, step in enumerate(lesson.steps):
        assert guide.step == i, f"step {i} began with {guide.step} completed"
        for text in step.walk:
            _bots(store)
            store.apply(resolve_action(e, store.state, text))
        _bots(store)
        guide.follow(store.log)
        if not step.event:
            guide.skip()
            guide.follow(store.log)
        assert guide.step > i, f"step {i} ({step.text[:40]}…) not completed by its walk"
    assert guide.lesson_over
    lesson_effects(n, store.state, store)


# -- at the terminal -------------------------------------------------------------------------------------

MOVE = {0: "shift+up", 1: "shift+right", 2: "shift+down", 3: "shift+left"}
SPACE_KINDS = ("pass", "done", "end")


def _tutorial(app: MQApp) -> TutorialScreen:
    """The lesson's screen (under a dialog, if one is open)."""
    screen = next((s for s in reversed(app.screen_stack) if isinstance(s, TutorialScreen)), None)
    assert screen is not None, type(app.screen).__name__
    return screen


async def _choose(pilot: Pilot[object], app: MQApp, action: Action) -> None:
    await until(pilot, lambda: isinstance(app.screen, ChooseAction), "the choice of uses")
    dialog = app.screen
    assert isinstance(dialog, ChooseAction)
    i = [a for _, a in dialog.choices].index(action)
    await pilot.press(str(i + 1))


async def _highlight(pilot: Pilot[object], options: OptionList, option_id: str) -> None:
    for _ in range(options.option_count * 2):
        if options.highlighted_option is not None and options.highlighted_option.id == option_id:
            return
        await pilot.press("down")
    raise AssertionError(f"{option_id} never highlighted")


async def player_does(pilot: Pilot[object], app: MQApp, action: Action) -> None:
    """Do ``action`` by the keys a player presses: Space, Shift+arrows, the hand and Enter, the number of
    an action or of a use, the charity dialog."""
    store = app.game_store
    assert isinstance(store, LocalStore)
    await until(pilot, lambda: action in store.snapshot().legal, f"{action} legal")
    await settle(pilot, app)
    n = store.state.n
    screen = _tutorial(app)
    if action.kind in SPACE_KINDS:
        await pilot.press("space")
    elif action.kind in ("move", "flee"):
        await pilot.press(MOVE[action.a])
    elif action.kind == "invite":
        await pilot.press("v")
        await _choose(pilot, app, action)
    elif action.kind == "charity":
        await until(pilot, lambda: isinstance(app.screen, CharityDialog), "the charity dialog")
        dialog = app.screen
        assert isinstance(dialog, CharityDialog)
        await until(pilot, lambda: bool(dialog.query(OptionList)), "the charity dialog's cards")
        await _highlight(pilot, dialog.query_one(OptionList), f"card-{action.a}")
        await pilot.press("space", "enter")
    elif action.kind in CARD_KINDS:
        hand = screen.query_one(CardList)
        await pilot.press("h")
        await until(pilot, lambda: app.focused is hand, "the hand focused")
        await _highlight(pilot, hand, f"card-{action.a}")
        await pilot.press("enter")
        await until(
            pilot,
            lambda: store.state.n != n or isinstance(app.screen, ChooseAction | ConfirmAction),
            "played",
        )
        if isinstance(app.screen, ChooseAction):
            await _choose(pilot, app, action)
    else:  # the actions pane: the action's number
        entries = screen.query_one(ActionList).entries
        i = next(i for i, acts in enumerate(entries) if action in acts)
        await pilot.press(str(i + 1))
        if len(entries[i]) > 1:
            await _choose(pilot, app, action)
    await until(pilot, lambda: store.state.n != n or isinstance(app.screen, ConfirmAction), f"{action} sent")
    if isinstance(
        app.screen, ConfirmAction
    ):  # the safety rails ask (a gift, a card for the other side): meant
        await pilot.press("y")
    await until(pilot, lambda: store.state.n != n, f"{action} done")


def panel_text(app: MQApp) -> str:
    return " ".join(widget_text(_tutorial(app).query_one(TutorialPanel)).split())


async def play_lesson(pilot: Pilot[object], app: MQApp, n: int, lesson: Lesson) -> None:
    screen = _tutorial(app)
    store = screen.store
    assert isinstance(store, LocalStore)
    guide = screen.guide
    assert guide.lesson == n
    panel = screen.query_one(TutorialPanel)
    for i, step in enumerate(lesson.steps):
        await until(pilot, lambda i=i: guide.step == i, f"lesson {n} step {i}")
        await settle(pilot, app)
        assert step.text in panel_text(app)
        assert panel.region.height <= 3 and panel.region.width == 80
        for pane in ("#actions", "#hand"):  # the panel covers neither, and they keep their room
            region = screen.query_one(pane).region
            assert not region.overlaps(panel.region) and screen.region.contains_region(region), pane
            assert region.height >= 3, pane
        shown = screen_text(app)  # hidden information holds: no card of another hand is named
        assert not [name for name in private_names(store, 0) if name in shown]
        for text in step.walk:
            await player_does(pilot, app, resolve_action(store.engine, store.state, text))
        if not step.event:
            await pilot.press("ctrl+n")
        await until(pilot, lambda i=i: guide.step > i, f"lesson {n} step {i} completed")
        if step.event:  # completed in play: the event is in the game's log
            assert any(step.met_by(e) for e in store.log)
    await until(pilot, lambda: guide.lesson_over, "the lesson over")
    await settle(pilot, app)
    lesson_effects(n, store.state, store)


@pytest.mark.slow(seconds=10)  # (CPU seconds: five lessons played by keys)
async def test_the_guided_first_game_from_the_title_screen_to_the_boss() -> None:
    tutorial = load()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "Learn to play" in widget_text(app.screen.query_one("#menu"))
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TutorialScreen), "the tutorial")
        for n, lesson in enumerate(tutorial.lessons):
            await play_lesson(pilot, app, n, lesson)
            if n < len(tutorial.lessons) - 1:
                assert "Lesson done" in panel_text(app)
                old = app.screen
                await pilot.press("ctrl+n")
                await until(
                    pilot,
                    lambda old=old: app.screen is not old and isinstance(app.screen, TutorialScreen),
                    "the next lesson",
                )
        assert "That is the whole game" in panel_text(app)
        await pilot.press("enter")  # the results, as after any game, then back to the title
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the results")
        assert "Ann" in widget_text(app.screen.query_one("#banner"))
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        assert latest_autosave() is None and slots.list_games() == []  # a lesson is no game to keep


@pytest.mark.slow(seconds=2)
async def test_skipping_leaving_and_starting_again_from_the_title() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TutorialScreen), "the tutorial")
        screen = _tutorial(app)
        first = screen.guide.current.steps
        await settle(pilot, app)
        assert first[0].text in panel_text(app)
        await pilot.press("ctrl+n")  # skip: the second step's text, nothing done in the game
        await until(pilot, lambda: first[1].text in panel_text(app), "the second step")
        assert screen.guide.done == []
        for _ in range(len(first) - 1):
            await pilot.press("ctrl+n")
        await until(pilot, lambda: "Lesson done" in panel_text(app), "the lesson skipped")
        await pilot.press("ctrl+n")
        await until(
            pilot, lambda: app.screen is not screen and isinstance(app.screen, TutorialScreen), "lesson 2"
        )
        assert _tutorial(app).guide.lesson == 1
        await settle(pilot, app)
        assert "Lesson 2/5" in panel_text(app)
        await pilot.press("ctrl+x")
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        await pilot.press("t")  # again: from the first lesson
        await until(pilot, lambda: isinstance(app.screen, TutorialScreen), "the tutorial again")
        await settle(pilot, app)
        assert _tutorial(app).guide.lesson == 0 and first[0].text in panel_text(app)


@pytest.mark.slow  # a real app process: a few seconds
async def test_the_tutorial_under_no_color(tmp_path: Path) -> None:
    """Under NO_COLOR the panel is there, its first step whole, and no colour code is sent."""
    env = dict(os.environ, TERM="xterm-256color", MQTUI_DATA=str(tmp_path), NO_COLOR="1")
    term = Term([sys.executable, "-m", "mqtui"], size=(80, 24), env=env)
    try:
        await term.expect(r"Learn to play", 60)
        term.type("t")
        await term.expect(r"Lesson 1/5: A hero is born", 60)
        await term.expect(r"pick the Elf", 20)
        found = COLOUR.findall(bytes(term.raw))
        assert not found, f"{len(found)} colour codes sent under NO_COLOR, e.g. {found[:3]}"
        assert not re.search(r"Traceback", term.text())
    finally:
        term.close()


async def test_a_broken_tutorial_is_said_on_the_title_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "tutorial.toml"
    bad.write_text('[[lesson]]\ntitle = "Oops"\n[[lesson.hero]]\nlevel = "high"\n')
    monkeypatch.setattr("mqtui.tutorial.tutorial_file", lambda: bad)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await until(pilot, lambda: notes(app), "a notification")
        assert isinstance(app.screen, TitleScreen)
        (note,) = notes(app)
        assert note.startswith("The tutorial cannot start") and "lesson[0].hero[0].level" in note
