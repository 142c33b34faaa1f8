"""Safety rails (issue 29, item 2): a move line says what waits in the room and the odds from your own
view; a hopeless fight, a card given away and a card played for the other side are asked about once
(through the actions list, the palette and the keys), unless Settings turn the question off; the
palette and a card's "what now?" list put a harmful use after the helpful one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from endgame_helpers import game_until
from rich.text import Text
from screen_text import notes
from textual.command import CommandPalette
from textual.widgets import OptionList
from ui_helpers import (
    add_monster,
    add_room,
    empty_hands,
    give,
    hero,
    local_app,
    make_app,
    settle,
    store_for,
    until,
)

from mqtui.bots.ahead import action_ahead
from mqtui.bots.eval import p_win
from mqtui.engine.actions import Action
from mqtui.engine.heroes import HAND_LIMIT
from mqtui.store import LocalStore
from mqtui.ui.app import MQApp
from mqtui.ui.describe import action_label
from mqtui.ui.rails import harmful, helpful_first, risk
from mqtui.ui.screens.choose import ChooseAction
from mqtui.ui.screens.confirm import ConfirmAction
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.replay import ReplayScreen
from mqtui.ui.settings import Settings, load_settings, save_settings
from mqtui.ui.widgets.actions import ActionList

SIZE = (80, 24)
NORTH = Action(0, "move", 0)


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def hopeless_room() -> LocalStore:
    """Ann (Level 1, nothing in use) at the Entrance; north of her, in the Mirrors (monsters -2), a
    Level 11 Goblin Warlord that ignores nobody and a Level 12 Pit Fiend that ignores Level 4 or lower."""
    store = store_for()
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "goblin-warlord", 0, -1, "red")
    add_monster(store, "parking-warden-fiend", 0, -1, "blue")
    return store


def own_fight() -> LocalStore:
    """Ann in a fight with a Level 3 monster, holding a bonus potion (for either side) and a +5
    monster enhancer."""
    store = store_for()
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "goblin-middle-manager", 0, -1, "red")
    give(store, 0, ["suspicious-potion", "gym-membership"])
    store.apply(NORTH)
    assert store.state.combat is not None and store.engine.deciding(store.state) == 0
    return store


def snap_of(store: LocalStore):  # type: ignore[no-untyped-def]
    return store.snapshot(0)


async def dialog(pilot, app: MQApp) -> ConfirmAction:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: isinstance(app.screen, ConfirmAction), "the question")
    assert isinstance(app.screen, ConfirmAction)
    return app.screen


# -- the move line ---------------------------------------------------------------------------------


def test_a_move_line_names_the_monsters_waiting_there_and_the_odds() -> None:
    store = hopeless_room()
    snap = snap_of(store)
    long = action_label(NORTH, snap, store.cards)
    assert long.startswith("↑ Go to Mirrors (passage, 1 Move) · ")
    assert "Level 11 Goblin Warlord (Part-Time), 0% to win" in long
    assert "Level 12 Pit Fiend Parking Warden ignores you" in long
    short = action_label(NORTH, snap, store.cards, short=True)
    assert short == "↑ Mirrors (1 Move) ⚔0% vs L11"  # a narrow pane: the fight only, in few words
    # at Level 9 the Pit Fiend fights her too; alone against the Warlord (11, -2 in the Mirrors) the
    # odds are the fight as it would start: her Level against its, each side a d6
    hero(store, 0).level = 9
    ahead = action_ahead(store.cards, store.snapshot(0).view, 0, NORTH)
    assert ahead is not None and len(ahead.foes) == 2 and not ahead.ignoring
    store.state.monsters.pop()
    ahead = action_ahead(store.cards, store.state, 0, NORTH)  # (the whole state: no cards hidden here)
    assert ahead is not None and ahead.p == p_win(9 - (11 - 2)) and 0.3 < ahead.p < 0.5


def test_an_unexplored_room_says_nothing_it_cannot_know() -> None:
    store = store_for()
    snap = snap_of(store)
    for action in snap.legal:
        if action.kind == "move":
            label = action_label(action, snap, store.cards)
            assert "Explore" in label and "·" not in label and "%" not in label


async def test_the_move_line_fits_one_line_of_the_actions_pane_at_80x24() -> None:
    store = hopeless_room()
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one(ActionList)
        width = pane.scrollable_content_region.width
        i = next(i for i, entry in enumerate(pane.entries) if entry[0] == NORTH)
        pane.highlighted = i  # (the highlighted line shows its whole label: not cut)
        await pilot.pause()
        whole = pane.get_option_at_index(i).prompt
        assert isinstance(whole, Text)
        assert whole.plain.endswith("⚔0% vs L11") and whole.cell_len <= width, (whole.plain, width)


# -- the questions -----------------------------------------------------------------------------------


def test_risk_names_hopeless_fights_gifts_and_cards_for_the_other_side() -> None:
    store = hopeless_room()
    snap = snap_of(store)
    assert "0% to win" in risk(snap, store.cards, NORTH)
    assert risk(snap, store.cards, Action(0, "move", 1)) == ""  # unexplored: nothing known, nothing asked
    store = store_for()
    empty_hands(store)
    give(store, 0, ["free-level-coupon"])
    snap = snap_of(store)
    (gift,) = [a for a in snap.legal if a.kind == "give"]  # Bob stands in the Entrance too
    assert risk(snap, store.cards, gift).startswith("Give Coupon: One (1) Free Level to Bob?")
    store = own_fight()
    snap = snap_of(store)
    uses = [a for a in snap.legal if a.kind == "use"]
    (enhancer,) = [a for a in snap.legal if a.kind == "enhance"]
    assert [a.b for a in uses if risk(snap, store.cards, a)] == [1]  # the potion for the monsters only
    assert "for the monsters" in risk(snap, store.cards, enhancer)
    assert risk(snap, store.cards, Action(0, "pass")) == ""


async def test_a_hopeless_move_is_asked_about_and_no_undoes_nothing() -> None:
    store = hopeless_room()
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("shift+up")  # the keys
        box = await dialog(pilot, app)
        assert "0% to win" in box.question and "Enter/y" in str(box.query_one(".hint").render())
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmAction), "the question gone")
        assert (hero(store, 0).x, hero(store, 0).y) == (0, 0) and store.state.combat is None
        pane = app.screen.query_one(ActionList)  # the actions list
        i = next(i for i, entry in enumerate(pane.entries) if entry[0] == NORTH)
        await pilot.press(str(i + 1))
        await dialog(pilot, app)
        await pilot.press("enter")
        await until(pilot, lambda: store.state.combat is not None, "the fight started")
        assert (hero(store, 0).x, hero(store, 0).y) == (0, -1)


async def test_going_up_a_level_into_a_fight_is_asked_about() -> None:
    """Level 4 in a room with a monster that ignores Level 4 or lower: a bought level starts the fight."""
    store = store_for()
    empty_hands(store)
    add_monster(store, "parking-warden-fiend", 0, 0, "blue")
    hero(store, 0).level = 4
    hero(store, 0).gold = 1000
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("plus")
        box = await dialog(pilot, app)
        assert "Pit Fiend Parking Warden" in box.question
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmAction), "cancelled")
        assert hero(store, 0).level == 4 and store.state.combat is None
        await pilot.press("plus")
        await dialog(pilot, app)
        await pilot.press("y")
        await until(pilot, lambda: store.state.combat is not None, "the fight started")
        assert hero(store, 0).level == 5


async def palette_do(pilot, app: MQApp, query: str) -> None:  # type: ignore[no-untyped-def]
    """Open the palette, type ``query`` and take its first match."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    await pilot.press(*query)
    options = app.screen.query_one(OptionList)
    await until(pilot, lambda: options.option_count > 0, "a match")
    await pilot.press("enter")


async def test_giving_a_card_away_is_asked_about_from_the_palette() -> None:
    store = store_for()
    empty_hands(store)
    give(store, 0, ["free-level-coupon"])
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await palette_do(pilot, app, "give coupon")
        box = await dialog(pilot, app)
        assert box.what == "Give Coupon: One (1) Free Level to Bob"
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmAction | CommandPalette), "back")
        assert store.cards.by_id["free-level-coupon"][0] in hero(store, 0).hand


async def test_a_card_for_the_other_side_is_asked_about_from_the_hand() -> None:
    store = own_fight()
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        hand = app.screen.query_one("#hand", OptionList)
        gym = store.cards.by_id["gym-membership"][0]
        await until(pilot, lambda: hand.highlighted is not None, "a card highlighted")
        while hand.highlighted_option is None or hand.highlighted_option.id != f"card-{gym}":
            await pilot.press("down")
        await pilot.press("enter")  # one use: played at once, but asked about first
        box = await dialog(pilot, app)
        assert "for the monsters" in box.question
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmAction), "cancelled")
        assert gym in hero(store, 0).hand and not store.state.combat.mods  # type: ignore[union-attr]


async def test_the_settings_switch_turns_the_questions_off() -> None:
    store = hopeless_room()
    app = make_app(store, confirm_risky=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("shift+up")
        await until(pilot, lambda: store.state.combat is not None, "the fight started at once")
        assert not isinstance(app.screen, ConfirmAction)


async def test_the_switch_is_in_the_settings_dialog_and_kept_in_the_settings_file(tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await until(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "the settings")
        box = app.screen.query_one("#risky")
        assert "Ask before risky actions" in str(box.render()) and box.value  # type: ignore[attr-defined]
        box.value = False  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not app.settings.confirm_risky, "saved off")
    path = tmp_path / "s.json"
    save_settings(Settings(confirm_risky=False), path)
    assert load_settings(path).confirm_risky is False
    assert Settings().confirm_risky is True


# -- harmful uses rank last ----------------------------------------------------------------------------


def test_a_cards_uses_put_the_helpful_one_first() -> None:
    store = own_fight()
    snap = snap_of(store)
    potion = store.cards.by_id["suspicious-potion"][0]
    uses = [a for a in snap.legal if a.a == potion and a.kind == "use"]
    assert [a.b for a in helpful_first(reversed(uses), snap, store.cards)] == [0, 1]
    assert harmful(snap, store.cards, Action(0, "use", potion, 1))
    assert not harmful(snap, store.cards, Action(0, "use", potion, 0))


OTHERS_FIGHT = 132  # seed 7: Grizzlebeard fights; Ann holds Holy Water, to throw for either side


@pytest.mark.parametrize(
    ("make", "card", "queries", "first"),
    [
        (own_fight, "Suspicious Glow", ("suspicious", "potion", "glow"), "for the heroes"),
        (
            lambda: game_until(OTHERS_FIGHT),
            "Holy Water",
            ("holy water", "throw holy", "water"),
            "for the monsters",
        ),
    ],
    ids=["own fight", "another hero's fight"],
)
async def test_the_palette_ranks_the_helpful_use_first(
    make: Callable[[], LocalStore], card: str, queries: tuple[str, ...], first: str
) -> None:
    """Your own fight: the card for the heroes first; another hero's (a rival's win): for the monsters."""
    store = make()
    app = make_app(store, confirm_risky=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        for query in queries:
            await pilot.press("ctrl+p")
            await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
            await pilot.press(*query)

            def listed() -> list[str]:
                options = app.screen.query_one(OptionList)
                return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

            await until(pilot, lambda: sum(card in line for line in listed()) >= 2, "both uses")
            uses = [line for line in listed() if card in line]
            assert first in uses[0], (query, uses)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, CommandPalette), "closed")


async def test_charity_to_another_hero_is_asked_about_once_for_all_the_cards() -> None:
    """Ann (Level 3) ends her turn two cards over the limit: they go to Bob, the lowest hero; one
    question for both cards, then both are given."""
    store = store_for()
    empty_hands(store)
    hero(store, 0).level = 3
    uids = give(store, 0, ["suspicious-potion", "pocket-sand", "banana-peel", "jar-of-bees", "rage-scroll"])
    uids += give(store, 0, ["glitter-bomb", "chicken-soup"])
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("space")  # end the action phase: over the hand limit
        await until(pilot, lambda: type(app.screen).__name__ == "CharityDialog", "the charity dialog")
        n = len(hero(store, 0).hand) - HAND_LIMIT
        assert n == 2
        for _ in range(n):
            await pilot.press("space", "down")
        await pilot.press("enter")
        box = await dialog(pilot, app)
        assert set(hero(store, 0).hand) >= set(uids)  # nothing given before the answer
        assert box.question.startswith("Give ") and " to Bob? " in box.question
        assert box.question.count(",") == n - 1  # both cards in the one question
        await pilot.press("y")

        def gifts() -> list[str]:
            return [line.text for line in store.snapshot(0).log if line.kind == "charity"]

        await until(pilot, lambda: len(gifts()) >= n, "both cards given")
        assert all("Bob" in text for text in gifts())
        assert not isinstance(app.screen, ConfirmAction)


# -- the recap opens the replay at its moment ----------------------------------------------------------


async def test_a_recap_line_opens_the_replay_at_that_moment() -> None:
    """Ann ends her first turn; when her next begins, the recap tells what the computer players did,
    and R then Enter on a line opens the replay, through Ann's eyes, where that hero's tally changed."""
    store = game_until(16)  # seed 7: Ann's first turn begins
    app = local_app(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        start = len(store.actions)
        await pilot.press("space")  # Ann ends her turn; the others play theirs
        for _ in range(400):  # until Ann's next turn (passing and declining on the way)
            await pilot.pause()
            snap = game.snapshot
            assert snap is not None
            if store.state.round == 2 and store.state.active == 0 and snap.n == store.state.n:
                break
            if app.screen is game and snap.n == store.state.n and snap.legal:
                await pilot.press("n" if any(a.kind == "decline" for a in snap.legal) else "space")

        def recaps() -> list[str]:  # (each toast as shown: its title, a line break, the message)
            return [n.split("\n", 1)[1] for n in notes(app) if n.startswith("Since your last turn\n")]

        await until(pilot, lambda: bool(recaps()), "the recap's toast")
        assert recaps()[-1].endswith("R: see them in the replay")
        first = recaps()[-1].splitlines()[0]
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ChooseAction), "the recap's lines")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.eyes == 0
        name = first.split(":")[0].removeprefix("▲ ")
        seat = next(h.seat for h in store.state.heroes if h.name == name)
        t = replay.timeline

        def tally(i: int) -> tuple[int, int, int]:
            h = t.state(i).heroes[seat]
            return h.level, h.kills, h.deaths

        at = replay.at
        assert start < at < t.last and tally(at - 1) == tally(start) != tally(at)


async def test_walking_into_the_boss_fight_shows_its_odds_and_is_asked_about() -> None:
    """A Level 10 hero's move into the Entrance starts the boss fight (a Level 20 boss, whatever its
    card): the move line showed no odds and nothing was asked, even at 0%."""
    store = store_for()
    empty_hands(store)
    add_room(store, "poster-corridor", 1, 0)
    ann = hero(store, 0)
    ann.x, ann.y, ann.level = 1, 0, 10
    store.engine.forget()
    west = Action(0, "move", 3)
    snap = snap_of(store)
    assert west in snap.legal
    assert action_label(west, snap, store.cards).endswith("· the boss fight (Level 20), 0% to win")
    ahead = action_ahead(store.cards, snap.view, 0, west)
    assert ahead is not None and ahead.boss and ahead.p == p_win(10 - 20)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("shift+left")
        box = await dialog(pilot, app)
        assert "the boss fight" in box.question and "0% to win" in box.question
        await pilot.press("enter")
        await until(pilot, lambda: store.state.combat is not None, "the boss fight")
        assert store.state.combat.boss and (ann.x, ann.y) == (0, 0)
