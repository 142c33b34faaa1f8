"""Every screen and dialog whole at the smallest supported terminal (80×24) and at 120×40: no button,
no widget the focus can reach and no key hint lies outside what the screen shows.

What counts as shown is worked out from Textual's public geometry: a widget's ``region`` on the screen
must lie inside the screen's region and inside the ``scrollable_content_region`` of every container
around it (a container clips what does not fit in it). A widget the focus reaches (Tab) is checked
as it has the focus: a scrolling container scrolls it into view, a box that does not scroll cuts it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from endgame_helpers import SEED, game_actions, game_until
from screen_text import notes
from test_ui_rails import hopeless_room
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static
from ui_helpers import (
    empty_hands,
    give,
    local_app,
    make_app,
    settle,
    store_for,
    until,
)

from mqtui.saves import slots
from mqtui.store import LocalStore
from mqtui.ui.widgets.actions import FIGHT_ROWS, ActionList
from mqtui.ui.widgets.footer import QuietFooter
from mqtui.ui.widgets.hand import CardList

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def shown(widget: Widget) -> bool:
    """Whether the widget and every container around it are displayed and visible."""
    for node in (widget, *widget.ancestors):
        if isinstance(node, Widget) and not isinstance(node, Screen) and not (node.display and node.visible):
            return False
    return True


def visible_area(widget: Widget) -> Region:
    """The part of the screen where ``widget`` can be seen: the screen, cut by each container's
    content (less its borders, padding and scroll bars)."""
    area = widget.screen.region
    for node in widget.ancestors:
        # (a container the screen places no region for, as the command palette's, cuts nothing)
        if isinstance(node, Widget) and not isinstance(node, Screen) and node.region.area:
            area = area.intersection(node.scrollable_content_region)
    return area


def scrolls(widget: Widget) -> bool:
    """Whether a container around ``widget`` scrolls (what it cannot show can be scrolled to)."""
    return any(
        isinstance(node, Widget) and (node.allow_vertical_scroll or node.allow_horizontal_scroll)
        for node in widget.ancestors
    )


def cut_off(widget: Widget) -> str | None:
    """What is wrong with where ``widget`` is (None: it is shown whole)."""
    region = widget.region
    if not region.area:
        return f"{describe(widget)} takes no room"
    area = visible_area(widget)
    if area.contains_region(region):
        return None
    if (
        scrolls(widget)
        and region.overlaps(area)
        and (region.height > area.height or region.width > area.width)
    ):
        return None  # (a long text in a scrolling container: the part scrolled to is shown)
    return f"{describe(widget)} at {region} lies outside the shown {area}"


def describe(widget: Widget) -> str:
    label = getattr(widget, "label", None)
    return f"{type(widget).__name__}#{widget.id}" + (f" {str(label)!r}" if label is not None else "")


KEY_WORDS = re.compile(r"\b(Esc|Enter|Space|Tab|Ctrl\+\w+)\b|(^|· )[a-z0-9?]: ")


def names_keys(widget: Widget) -> bool:
    """A line of text that tells keys ("Enter: save · Esc: cancel", "r: replay · q: quit")."""
    if not isinstance(widget, Static):  # (Label is a Static)
        return False
    return bool(KEY_WORDS.search(str(widget.render())))


def key_hints(screen: Screen[object]) -> list[Widget]:
    """The screen's key hints: its footer (and each key of Textual's own footer), hint lines."""
    found: list[Widget] = []
    for widget in screen.walk_children():
        if not isinstance(widget, Widget) or not shown(widget):
            continue
        is_hint = widget.has_class("hint") or "hint" in (widget.id or "") or names_keys(widget)
        in_footer = any(isinstance(node, Footer) for node in widget.ancestors)  # (each key of Textual's)
        if isinstance(widget, QuietFooter | Footer) or in_footer or is_hint:
            found.append(widget)
    return found


async def check_whole(pilot: Pilot[object], where: str) -> None:
    """Fail unless every button, key hint and widget the focus reaches on the screen on top is whole
    (the focus is walked through the screen's focus chain, then given back)."""
    app = pilot.app
    screen = app.screen
    await pilot.pause()
    problems: list[str] = []
    buttons = [w for w in screen.query(Button) if shown(w)]
    for widget in [*buttons, *key_hints(screen)]:
        problem = cut_off(widget)
        if problem:
            problems.append(problem)
    first = app.focused
    if first is not None and (problem := cut_off(first)):
        problems.append(f"(focused) {problem}")
    for widget in screen.focus_chain:
        if widget is first or widget in buttons:
            continue
        widget.focus()
        await until(pilot, lambda w=widget: app.focused is w, f"{describe(widget)} focused")  # type: ignore[misc]
        await pilot.pause()
        if problem := cut_off(widget):
            problems.append(f"(Tab) {problem}")
    if first is not None and first in screen.focus_chain:
        first.focus()
        await pilot.pause()
    assert not problems, f"{where} at {tuple(app.size)}:\n" + "\n".join(problems)


Step = Callable[[Pilot[object]], Awaitable[object]]


async def on_top(pilot: Pilot[object], kind: type[Screen[object]] | str) -> None:
    app = pilot.app
    await until(
        pilot,
        lambda: type(app.screen).__name__ == kind if isinstance(kind, str) else isinstance(app.screen, kind),
        f"the {kind} screen",
    )


async def key_to(pilot: Pilot[object], key: str, screen: str) -> None:
    await pilot.press(key)
    await on_top(pilot, screen)


# -- the title screen and what it opens ---------------------------------------------------------------


TITLE_SCREENS: list[tuple[str, list[tuple[str, str]]]] = [
    ("title", []),
    ("new game", [("n", "NewGameScreen")]),
    ("tutorial", [("t", "TutorialScreen")]),
    ("settings", [("s", "SettingsScreen")]),
    ("rules", [("r", "RulesScreen")]),
    ("cards", [("k", "CardBrowserScreen")]),
    ("load", [("l", "LoadDialog")]),
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("where", "keys"), TITLE_SCREENS, ids=[w for w, _ in TITLE_SCREENS])
async def test_title_screens_are_whole(
    size: tuple[int, int], where: str, keys: list[tuple[str, str]]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        for key, screen in keys:
            await key_to(pilot, key, screen)
        await check_whole(pilot, where)


async def test_settings_say_their_keys_and_esc_says_nothing_was_saved() -> None:
    """At 80x24 the footer names Ctrl+S and Esc; Esc after a change puts the theme back and says the
    settings were not saved."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await key_to(pilot, "s", "SettingsScreen")
        footer = app.screen.query_one(QuietFooter)
        await until(pilot, lambda: "^s Save" in footer.line().plain, "the footer's keys")
        assert footer.line().plain.split() == ["^s", "Save", "esc", "Cancel"]
        never = app.screen.query_one("#countdown-0")
        assert never.region.width >= len("( ) Never: ask me")  # whole, not "Never: a…"
        before = app.theme
        await pilot.press("down")
        await until(pilot, lambda: app.theme != before, "the next theme previewed")
        await pilot.press("escape")
        await on_top(pilot, "TitleScreen")
        assert app.theme == before and app.settings.theme == before
        assert any(note.startswith("Settings not saved") for note in notes(app))


# -- the hand in a fight ----------------------------------------------------------------------------

OWN_FIGHT = 67  # seed 7: Ann fights a Cyclops; she may play Stubbed Its Claw or her Holy Water
OTHERS_FIGHT = 132  # seed 7: Grizzlebeard fights; Ann may play a card on either side


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_in_a_fight_the_actions_take_the_rows_they_need_and_give_them_back_after(
    size: tuple[int, int],
) -> None:
    """In a fight the actions pane is as tall as its few actions (3 to 8 rows with its borders: the hand
    keeps the rest), every one of them in view; once the fight is over it is as tall as in an app
    opened after the fight."""
    store = game_until(OWN_FIGHT)
    assert store.state.combat is not None
    app = local_app(store)
    least, most = FIGHT_ROWS
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        actions = app.screen.query_one(ActionList)
        rows = actions.virtual_size.height + actions.styles.gutter.height
        assert actions.outer_size.height == min(most, max(least, rows))
        assert rows > most or actions.max_scroll_y == 0  # (all of them in view)
        for action in game_actions(SEED)[OWN_FIGHT:]:
            if store.state.combat is None:
                break
            store.apply(action)
        assert store.state.combat is None
        await settle(pilot, app)
        after = actions.outer_size.height
    fresh = local_app(store)
    async with fresh.run_test(size=size) as pilot:
        await settle(pilot, fresh)
        assert fresh.screen.query_one(ActionList).outer_size.height == after


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    ("at", "warned"),
    [(OWN_FIGHT, False), (OTHERS_FIGHT, False), (OWN_FIGHT, True)],
    ids=["own fight", "others' fight", "own fight, a hero near winning"],
)
async def test_the_hand_is_usable_in_a_fight(size: tuple[int, int], at: int, warned: bool) -> None:
    """In a fight the hand keeps room for several lines (also when a race warning takes a line of its
    own: four heroes, one of them at Level 9); every card that can be played is reached by the arrow
    keys, shown in the pane as it is highlighted, its text whole under the list; Enter on one plays it
    (or asks how)."""
    store = game_until(at)
    if warned:
        store.state.heroes[3].level = 9  # "⚠ Snaggletooth is Level 9, …: one kill from Level 10"
    app = local_app(store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        hand = app.screen.query_one(CardList)
        box = app.screen.query_one("#card-box", VerticalScroll)
        await pilot.press("h")
        await until(pilot, lambda: app.focused is hand, "the hand focused")
        await pilot.pause()
        assert not warned or "⚠" in str(app.screen.query_one("#race", Static).render())
        assert hand.scrollable_content_region.height >= 5
        playable = [
            i for i in range(hand.option_count) if hand.get_option_at_index(i).prompt.plain.startswith("▶")
        ]
        assert playable
        reached = set()
        for _ in range(hand.option_count):
            i = hand.highlighted
            if i in playable and i not in reached:
                reached.add(i)
                await pilot.pause()
                # the card's lines are in view (an option takes a line per line of its prompt: two
                # at 120 columns, name and kind; so its first line is not its index)
                first = sum(len(hand.get_option_at_index(j).prompt.plain.splitlines()) for j in range(i))
                lines = len(hand.get_option_at_index(i).prompt.plain.splitlines())
                top = hand.scroll_offset.y
                assert top <= first and first + lines <= top + hand.scrollable_content_region.height
                assert box.region.height > 0 and box.max_scroll_y == 0, "the card's text is cut"
            await pilot.press("down")
        assert reached == set(playable)
        while hand.highlighted != playable[0]:
            await pilot.press("up")
        n = store.state.n
        await pilot.press("enter")
        await until(
            pilot,
            lambda: store.state.n != n or type(app.screen).__name__ in ("ChooseAction", "ConfirmAction"),
            "the card played (or its uses offered, or a card for the other side asked about)",
        )


# -- the game screen in each phase, and what it opens ---------------------------------------------------

# (a key, the screen it opens; then Esc back) from the game screen
GAME_DIALOGS = [
    ("question_mark", "HelpScreen"),
    ("r", "RulesScreen"),
    ("f2", "CardBrowserScreen"),
    ("L", "HistoryScreen"),
    ("i", "RoomScreen"),
    ("W", "RoomScreen"),
    ("ctrl+s", "SaveDialog"),
    ("ctrl+p", "CommandPalette"),
]

GAME_SCENES: dict[str, tuple[Callable[[], LocalStore], str, list[tuple[str, str]]]] = {
    "setup": (lambda: store_for(setup_done=False), "GameScreen", []),
    "action phase": (store_for, "GameScreen", GAME_DIALOGS),
    "a card's uses": (
        lambda: with_item(store_for()),
        "GameScreen",
        [("h", "GameScreen"), ("enter", "ChooseAction")],
    ),
    "own fight": (lambda: game_until(OWN_FIGHT), "GameScreen", []),
    "others' fight": (lambda: game_until(OTHERS_FIGHT), "GameScreen", [("W", "RoomScreen")]),
    "asked to help": (lambda: game_until(219), "GameScreen", []),
    "running away": (lambda: game_until(552), "GameScreen", []),
    "losing an item": (lambda: game_until(691), "GameScreen", []),
    "charity": (lambda: game_until(306), "CharityDialog", []),
    "hand-off": (lambda: store_for((("Ann", "human"), ("Bob", "human"))), "HandoffScreen", []),
    "a risky move asked about": (hopeless_room, "GameScreen", [("shift+up", "ConfirmAction")]),
    "game over": (lambda: game_until(-1), "GameScreen", [("enter", "GameOverScreen")]),
    "replay": (lambda: game_until(-1), "GameScreen", [("enter", "GameOverScreen"), ("r", "ReplayScreen")]),
    "replay round": (
        lambda: game_until(-1),
        "GameScreen",
        [("enter", "GameOverScreen"), ("r", "ReplayScreen"), ("g", "RoundDialog")],
    ),
}


def with_item(store: LocalStore) -> LocalStore:
    """Ann holds one item only, which she may equip, hang on her belt or stow: Enter asks how."""
    empty_hands(store)
    give(store, 0, ["colander-helm"])
    return store


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", list(GAME_SCENES))
async def test_game_screens_are_whole(size: tuple[int, int], scene: str) -> None:
    make, first, steps = GAME_SCENES[scene]
    app = local_app(make())
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await on_top(pilot, first)
        await check_whole(pilot, scene)
        if scene == "action phase":  # each dialog on its own, back to the game between them
            game = app.screen
            for key, screen in steps:
                await key_to(pilot, key, screen)
                await check_whole(pilot, f"{scene}, {screen} ({key})")
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is game, "back to the game")
            return
        for key, screen in steps:  # one after the other
            await key_to(pilot, key, screen)
            await check_whole(pilot, f"{scene}, {screen} ({key})")


# -- the tutorial's lessons ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lesson", [2, 4], ids=["others' fight", "the boss"])
async def test_the_tutorial_is_whole_in_a_fight(size: tuple[int, int], lesson: int) -> None:
    """A lesson's panel takes no room the fight needs: lesson 3 opens in a computer player's fight,
    lesson 5 walks into the boss fight."""
    from mqtui.tutorial import Guide, load
    from mqtui.ui.screens.tutorial import open_lesson

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        open_lesson(app, Guide(load(), lesson=lesson))
        await on_top(pilot, "TutorialScreen")
        await settle(pilot, app)
        store = app.game_store
        assert isinstance(store, LocalStore)
        if lesson == 4:
            await pilot.press("shift+left")
            await on_top(pilot, "ConfirmAction")  # (a fight this hopeless before any card is asked about)
            await pilot.press("enter")
            await until(pilot, lambda: store.state.combat is not None, "the boss fight")
            await settle(pilot, app)
        assert store.state.combat is not None
        await check_whole(pilot, f"lesson {lesson + 1}")


# -- a saved game to load, the packs of a new game, the lobby ------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_load_and_packs_dialogs_are_whole(size: tuple[int, int]) -> None:
    game_until(300).save(slots.new_autosave_path())
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await key_to(pilot, "l", "LoadDialog")
        await check_whole(pilot, "load, a game saved")
        await key_to(pilot, "escape", "TitleScreen")
        await key_to(pilot, "n", "NewGameScreen")
        app.screen.query_one("#packs", Button).focus()
        await key_to(pilot, "enter", "PackChooser")
        await check_whole(pilot, "packs")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_lobby_and_its_dialogs_are_whole(size: tuple[int, int]) -> None:
    from test_ui_lobby import FakeLink, listed

    from mqtui.net.lobbyclient import LobbyApp

    app = LobbyApp(FakeLink())  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        lobby = await listed(pilot)
        await check_whole(pilot, "lobby")
        for key, dialog in (("n", "NewTable"), ("t", "PickSeat"), ("c", "TypeCode")):
            await key_to(pilot, key, dialog)
            await check_whole(pilot, f"lobby, {dialog}")
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby, "back to the lobby")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_advisors_answer_covers_neither_the_hand_nor_the_actions(size: tuple[int, int]) -> None:
    app = local_app(game_until(OWN_FIGHT))
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.press("w")
        await until(pilot, lambda: app.screen.query("Toast"), "the advisor's answer")
        await pilot.pause()
        (toast,) = app.screen.query("Toast")
        for pane in ("#hand", "#actions", "#hero"):
            assert not toast.region.overlaps(app.screen.query_one(pane).region), pane
        await key_to(pilot, "question_mark", "HelpScreen")  # the help is read whole: no toast over it
        await pilot.pause()
        assert not app.screen.query("Toast")
