"""Snapshot tests of the game screen (80×24 and 120×40) and of the combat pane with several terms.

Update the stored pictures with ``pytest tests/test_ui_snapshots.py --snapshot-update`` after a
deliberate change, and look at them (``tests/__snapshots__/``) before committing.
"""

from __future__ import annotations

import pytest
from ui_helpers import add_monster, add_room, empty_hands, give, make_app, settle, store_for

from mqtui.engine.actions import Action

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


async def _move(pilot) -> None:
    app = pilot.app
    await settle(pilot, app)
    await pilot.press("shift+right")
    await settle(pilot, app)


def test_game_screen_80x24(snap_compare) -> None:
    assert snap_compare(make_app(explored_game()), terminal_size=(80, 24), run_before=_move)


def test_game_screen_120x40(snap_compare) -> None:
    assert snap_compare(make_app(explored_game()), terminal_size=(120, 40), run_before=_move)


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
    await settle(pilot, app)
    await pilot.press("shift+up")  # the fight starts
    await settle(pilot, app)
    potion = store.state.heroes[0].belt[0]
    enhancer, _die_card = store.state.heroes[0].hand
    monster = store.state.monsters[0].id
    await app.screen.perform(Action(0, "use", potion, 0))
    await app.screen.perform(Action(0, "enhance", enhancer, monster))
    await settle(pilot, app)


@pytest.mark.slow
def test_combat_pane_with_modifiers(snap_compare) -> None:
    store = combat_game()
    app = make_app(store)
    app.game_store = store
    assert snap_compare(app, terminal_size=(80, 24), run_before=_fight)


@pytest.mark.slow
def test_combat_pane_wide_after_the_dice(snap_compare) -> None:
    store = combat_game()
    app = make_app(store)
    app.game_store = store

    async def fight_and_roll(pilot) -> None:
        await _fight(pilot)
        s = store.state
        await pilot.app.screen.perform(Action(0, "pass"))  # Ann passes
        await settle(pilot, pilot.app)
        await pilot.press("enter")  # the hand-off to Bob
        await settle(pilot, pilot.app)
        await pilot.app.screen.perform(Action(1, "pass"))  # Bob passes: the dice roll
        await settle(pilot, pilot.app)
        await pilot.press("enter")  # back to Ann
        await settle(pilot, pilot.app)
        die_card = s.heroes[0].hand[0]
        await pilot.app.screen.perform(Action(0, "dice", die_card, 0))
        await settle(pilot, pilot.app)

    assert snap_compare(app, terminal_size=(120, 40), run_before=fight_and_roll)
