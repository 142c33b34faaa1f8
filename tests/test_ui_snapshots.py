"""Snapshot tests of the game screen (80×24 and 120×40) and of the combat pane with several terms.

Update the stored pictures with ``pytest tests/test_ui_snapshots.py --snapshot-update`` after a
deliberate change, and look at them (``tests/__snapshots__/``) before committing.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList
from ui_helpers import (
    act,
    add_monster,
    add_room,
    empty_hands,
    give,
    make_app,
    past_hand_off,
    press,
    screenshot,
    settle,
    store_for,
)

from mqtui.engine.actions import Action
from mqtui.ui.screens.charity import CharityDialog
from mqtui.ui.screens.history import HistoryScreen
from mqtui.ui.widgets.hand import CardList

PLAYERS = (("Ann", "human"), ("Bob", "random"), ("Cy", "random"))


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def explored_game():
    """A fixed game: Ann has explored twice (over two turns) with a few rooms around."""
    store = store_for(PLAYERS, seed=11)
    give(store, 0, ["traffic-cone-helm"], "equipped")
    give(store, 0, ["flask-of-bravado"], "belt")
    add_room(store, "coat-check", 1, 0)
    add_room(store, "pawn-shop", -1, 0)
    add_room(store, "first-aid-closet", 0, 1)
    add_monster(store, "tax-goblin", -1, 0, "blue")
    return store


async def _move(pilot: Pilot[object]) -> None:
    await act(pilot, pilot.app, "shift+right")  # type: ignore[arg-type]


async def test_game_screen_80x24(svg_snapshot) -> None:
    assert svg_snapshot == await screenshot(make_app(explored_game()), (80, 24), _move)


async def test_game_screen_120x40(svg_snapshot) -> None:
    assert svg_snapshot == await screenshot(make_app(explored_game()), (120, 40), _move)


def combat_game():
    store = store_for((("Ann", "human"), ("Bob", "human")), seed=5)
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)  # monsters get -2 here
    add_monster(store, "goblin-middle-manager", 0, -1, "red")
    give(store, 0, ["traffic-cone-helm", "convenient-dagger"], "equipped")
    give(store, 0, ["suspicious-potion"], "belt")
    give(store, 0, ["gym-membership", "crooked-die"])
    store.state.forced = [4, 3]
    return store


async def _fight(pilot) -> None:
    app = pilot.app
    store = app.game_store
    await past_hand_off(pilot, app)  # the hand-off to Ann, first in a hot-seat game
    await act(pilot, app, "shift+up")  # the fight starts
    potion = store.state.heroes[0].belt[0]
    enhancer, _die_card = store.state.heroes[0].hand
    monster = store.state.monsters[0].id
    await app.screen.perform(Action(0, "use", potion, 0))
    await app.screen.perform(Action(0, "enhance", enhancer, monster))
    await settle(pilot, app)


async def test_combat_pane_with_modifiers(svg_snapshot) -> None:
    store = combat_game()
    app = make_app(store, confirm_risky=False)  # (the scripted fight plays an enhancer on her own)
    app.game_store = store
    assert svg_snapshot == await screenshot(app, (80, 24), _fight)


async def test_combat_pane_wide_after_the_dice(svg_snapshot) -> None:
    store = combat_game()
    app = make_app(store, confirm_risky=False)
    app.game_store = store

    async def fight_and_roll(pilot) -> None:
        await _fight(pilot)
        s = store.state
        await pilot.app.screen.perform(Action(0, "pass"))  # Ann passes
        await settle(pilot, pilot.app)  # Bob, with nothing to play, passes by himself: the dice roll
        assert s.combat is not None and s.combat.hero_die > 0
        die_card = s.heroes[0].hand[0]
        await pilot.app.screen.perform(Action(0, "dice", die_card, 0))
        await settle(pilot, pilot.app)

    assert svg_snapshot == await screenshot(app, (120, 40), fight_and_roll)


async def test_charity_dialog_80x24(svg_snapshot) -> None:
    """Far over the hand limit: one dialog to mark every card to give away (two marked here)."""
    store = store_for(PLAYERS, seed=11)
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    give(store, 0, ["pocket-sand", "cheese-grenade", "traffic-cone-helm", "convenient-dagger"])
    store.state.heroes[0].level = 3  # Bob and Cy are lower: the cards are discarded (a tie)
    app = make_app(store)

    async def to_charity(pilot) -> None:
        await act(pilot, app, "space")  # end the action phase with 9 cards
        dialog = app.screen
        assert isinstance(dialog, CharityDialog)
        cards = dialog.query_one(OptionList)
        await press(pilot, "space", lambda: len(dialog.marked) == 1)
        await press(pilot, "down", lambda: cards.highlighted == 1)
        await press(pilot, "down", lambda: cards.highlighted == 2)
        await press(pilot, "space", lambda: len(dialog.marked) == 2)

    assert svg_snapshot == await screenshot(app, (80, 24), to_charity)


async def test_message_history_80x24(svg_snapshot) -> None:
    """L: every log line the viewer may read, full screen."""
    app = make_app(explored_game())

    async def history(pilot) -> None:
        await _move(pilot)
        await press(pilot, "L", lambda: isinstance(app.screen, HistoryScreen))

    assert svg_snapshot == await screenshot(app, (80, 24), history)


async def test_game_screen_no_color_shows_the_selection(svg_snapshot, monkeypatch) -> None:
    """Under NO_COLOR the highlighted action and card are bold and underlined (no colour to tell them)."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(explored_game())

    async def hand_focused(pilot) -> None:
        await _move(pilot)
        hand = app.screen.query_one(CardList)
        # (the hand, focused, lights its first card: the row under its heading)
        await press(pilot, "h", lambda: app.focused is hand and hand.highlighted == 1)

    assert svg_snapshot == await screenshot(app, (80, 24), hand_focused)


async def test_hand_off_80x24(svg_snapshot) -> None:
    """A new hot-seat game opens on the hand-off: a centred box, nothing of anyone's hand."""
    app = make_app(store_for((("Ann", "human"), ("Bob", "human")), seed=5))
    assert svg_snapshot == await screenshot(app, (80, 24))
