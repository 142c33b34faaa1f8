"""Text slips seen on screen: articles, the escape roll's target, the Pawn Shop's price, the hero
pane after `o` and after the movement, monsters' texts in the room inspector."""

from __future__ import annotations

import pytest
from ui_helpers import act, add_monster, add_room, empty_hands, give, hero, make_app, press, settle, store_for

from mqtui.engine.actions import Action
from mqtui.ui.describe import action_label
from mqtui.ui.widgets.hand import CardList
from mqtui.ui.widgets.hero_sheet import HeroSheet
from mqtui.ui.widgets.room_info import room_details


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def test_an_elf_not_a_elf() -> None:
    store = store_for()
    empty_hands(store)
    (elf,) = give(store, 0, ["elf-card"])
    events = store.apply(Action(0, "play", elf))
    assert any(e.text.startswith("Ann is now an Elf") for e in events)


def test_a_race_without_a_class_and_one_move_read_well() -> None:
    store = store_for()
    empty_hands(store)
    elf, shortcut = give(store, 0, ["elf-card", "secret-shortcut"])
    texts = [e.text for e in store.apply(Action(0, "play", elf))]
    assert "Ann is now an Elf with no class." in texts
    texts = [e.text for e in store.apply(Action(0, "play", shortcut))]
    assert any(t.startswith("Ann gains 1 Move: ") for t in texts)


def test_the_pawn_shop_says_the_price_it_pays() -> None:
    store = store_for()
    add_room(store, "pawn-shop", 0, 0)  # (the Entrance's place: Ann stands in the shop)
    (dagger,) = give(store, 0, ["convenient-dagger"])
    snap = store.snapshot(0)
    label = action_label(Action(0, "deal", dagger), snap, store.cards)
    gold = store.cards.treasure[dagger].gold
    assert label.startswith(f"Sell Dagger of Suspicious Convenience for {gold} gold") and "about" not in label


def test_monster_texts_in_the_inspector_are_one_a_line() -> None:
    store = store_for()
    add_room(store, "coat-check", 1, 0)
    add_monster(store, "skeleton-intern", 1, 0, "red")
    add_monster(store, "tax-goblin", 1, 0, "blue")
    text = room_details(store.cards, store.snapshot(0).view, 1, 0, full=True).plain
    assert (".; " not in text and "\nTax Goblin" in text) or "\nSkeleton Intern" in text


async def test_hero_pane_comes_back_to_you_and_moves_show_only_while_moving() -> None:
    from mqtui.ui.screens.charity import CharityDialog

    store = store_for()
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    give(store, 0, ["pocket-sand"])  # one over the limit at the end of the action phase
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        sheet = app.screen.query_one(HeroSheet)
        assert f"Moves {hero(store, 0).moves} " in str(sheet.content)
        await press(pilot, "o", lambda: sheet.shown == 1)  # Bob's sheet
        assert "Moves — " in str(sheet.content)  # not his turn
        await press(pilot, "o", lambda: sheet.shown == -1)  # and back to Ann's
        await act(pilot, app, "space")  # Ann ends her action phase: charity
        assert isinstance(app.screen, CharityDialog)
        assert "Moves — " in str(sheet.content)  # her movement is over: no Moves to spend
        game = app.screen_stack[-2]
        await press(pilot, "escape", lambda: app.screen is game)
        await press(pilot, "o", lambda: sheet.shown == 1)
        hand = game.query_one(CardList)
        await press(pilot, "h", lambda: app.focused is hand)
        await press(pilot, "enter", lambda: isinstance(app.screen, CharityDialog))  # the charity dialog again
        dialog = app.screen
        await press(pilot, "space", lambda: len(dialog.marked) == 1)
        await act(pilot, app, "enter")  # discard one; Bob plays his turn; Ann's again
        for _ in range(20):  # Ann answers whatever Bob asks of her in his turn
            if store.state.active == 0:
                break
            await act(pilot, app, "n" if store.state.frames[-1].kind == "invite" else "space")
        assert store.state.active == 0 and store.state.round == 2
        assert sheet.shown == -1 and "Your hero" in str(sheet.border_title)


async def test_after_a_card_goes_on_the_belt_the_cursor_stays_on_the_next_card() -> None:
    """The cursor keeps its place in the hand (the next card), not the card that moved: a second
    press of the same key is for the next card."""
    store = store_for()
    empty_hands(store)
    potion, flask, _bees = give(store, 0, ["suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        hand = app.screen.query_one(CardList)
        await press(pilot, "h", lambda: app.focused is hand)
        await press(pilot, "home", lambda: hand.current() >= 0 or hand.highlighted == 0)
        while hand.current() != potion:
            await pilot.press("down")
        await act(pilot, app, "b")
        assert potion in hero(store, 0).belt
        assert hand.current() == flask  # the card after it, where the potion was
        await act(pilot, app, "b")
        assert hero(store, 0).belt == [potion, flask]
