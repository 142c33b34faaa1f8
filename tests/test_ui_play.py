"""Playing turns by keys: a fight, a helper invitation, an item thrown from the next room, charity,
the monster phase, and the hot-seat hand-off that hides the previous hand."""

from __future__ import annotations

from typing import Any

import pytest
from screen_text import notes
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, OptionList
from ui_helpers import (
    act,
    add_monster,
    add_room,
    empty_hands,
    give,
    hero,
    local_app,
    make_app,
    press,
    running,
    settle,
    store_for,
    until,
)

from mqtui.engine.actions import Action
from mqtui.store import LocalStore
from mqtui.ui.app import MQApp
from mqtui.ui.screens import game
from mqtui.ui.screens.choose import ChooseAction
from mqtui.ui.screens.confirm import ConfirmAction
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.handoff import HandoffScreen
from mqtui.ui.widgets.combat import CombatPane
from mqtui.ui.widgets.hand import CardList


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def fight_position(players=(("Ann", "human"), ("Bob", "random")), dice: list[int] | None = None):
    """Ann (seat 0) in the Entrance, a Level 3 monster hunting her one room north (monsters -2 there);
    ``dice``: the rolls to come."""
    store = store_for(players)
    if dice is not None:
        store.state.forced = dice
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "skeleton-intern", 0, -1, "red")
    return store


async def walk_into_the_fight(pilot: Pilot[object], app: MQApp, store: LocalStore) -> None:
    """Ann walks north into the monster's room (see ``fight_position``): the fight starts."""
    await settle(pilot, app)
    if isinstance(app.screen, HandoffScreen):  # hot seat: the keyboard goes to Ann first
        await past_the_hand_off(pilot, app)
    await act(pilot, app, "shift+up")
    assert store.state.combat is not None


async def past_the_hand_off(pilot: Pilot[object], app: MQApp) -> None:
    """Enter on the hand-off screen: the game screen, for the player it named."""
    await press(pilot, "enter", lambda: isinstance(app.screen, GameScreen), "the game after the hand-off")
    await settle(pilot, app)


async def to_the_hand(pilot: Pilot[object], app: MQApp) -> CardList:
    """``h``: the hand pane has the keyboard."""
    hand = app.screen.query_one(CardList)
    await press(pilot, "h", lambda: app.focused is hand, "the hand focused")
    return hand


async def choose(pilot: Pilot[object], key: str = "enter") -> ChooseAction:
    """A key that opens the dialog to choose how to do something."""
    app = pilot.app
    await press(pilot, key, lambda: isinstance(app.screen, ChooseAction), "the choice dialog")
    assert isinstance(app.screen, ChooseAction)
    return app.screen


def hand_option(hand: CardList, uid: int) -> int:
    return next(i for i in range(hand.option_count) if hand.get_option_at_index(i).id == f"card-{uid}")


async def test_fight_by_keys_with_an_item_and_a_one_shot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game, "RESULT_SECONDS", 3600.0)  # the test fires that timer itself
    store = fight_position()
    give(store, 0, ["traffic-cone-helm"], "equipped")
    (potion,) = give(store, 0, ["suspicious-potion"], "belt")
    store.state.forced = [6, 1]  # hero die 6, monster die 1
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await act(pilot, app, "shift+up")  # into the monster's room: the fight starts
        assert store.state.combat is not None
        assert screen.query_one(ContentSwitcher).current == "combat-main"
        pane = screen.query_one("#combat-main", CombatPane)
        text = pane.plain_text()
        assert "Traffic Cone Helm" in text and "Skeleton Intern" in text and "room" in text
        # use the potion from the belt for the heroes
        hand = await to_the_hand(pilot, app)
        hand.highlighted = hand_option(hand, potion)
        await choose(pilot)
        await act(pilot, app, "1")  # for the heroes
        mods = store.state.combat.mods
        assert [(m.label, m.amount, m.side) for m in mods] == [("Potion of Suspicious Glow", 2, 0)]
        assert "Potion of Suspicious Glow" in pane.plain_text()
        await act(pilot, app, "space")  # pass; the bot passes; the dice roll
        assert store.state.combat is not None and store.state.combat.hero_die == 6
        assert "not rolled" not in pane.plain_text()
        await act(pilot, app, "space")  # pass after the dice
        assert store.state.combat is None
        assert hero(store, 0).level == 2
        log = [line.text for line in screen.snapshot.log]
        assert any("beats" in line and "Skeleton Intern" in line for line in log)
        assert "beats" in pane.plain_text()  # the last fight's result stays in the pane
        assert screen.query_one(ContentSwitcher).current == "combat-main"
        screen.back_to_map()  # ... for a moment (what its timer does, RESULT_SECONDS later)
        await pilot.pause()
        assert screen.query_one(ContentSwitcher).current == "map"


async def test_helper_invitation_hot_seat() -> None:
    store = fight_position((("Ann", "human"), ("Bob", "human")), dice=[6, 1])
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_into_the_fight(pilot, app, store)
        dialog = await choose(pilot, "v")  # ask for help: which terms?
        labels = [label for label, _ in dialog.choices]
        assert labels[0] == "Ask Bob to help, offering nothing but glory"
        assert any("1 Treasure" in label for label in labels)
        await act(pilot, app, "enter")
        # Bob must answer: the keyboard passes to him first
        assert isinstance(app.screen, HandoffScreen)
        await past_the_hand_off(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.snapshot.seat == 1
        await act(pilot, app, "y")
        for _ in range(6):  # hand-offs back and forth until the fight is over
            if isinstance(app.screen, HandoffScreen):
                await past_the_hand_off(pilot, app)
            elif store.state.combat is not None and any(a.kind == "pass" for a in screen.snapshot.legal):
                await act(pilot, app, "space")
        assert store.state.combat is None
        assert (hero(store, 1).x, hero(store, 1).y) == (0, -1)  # the helper joined the fight
        assert any("accepts and joins the fight" in line.text for line in screen.snapshot.log)
        assert any("Ann and Bob" in line.text and "beat" in line.text for line in screen.snapshot.log)


async def test_thrown_item_from_the_next_room() -> None:
    store = fight_position((("Ann", "human"), ("Bob", "human")))
    (flask,) = give(store, 1, ["flask-of-bravado"])
    store.state.forced = [6, 1]
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_into_the_fight(pilot, app, store)
        await act(pilot, app, "space")  # Ann passes; Bob (in the Entrance, next door) may throw
        assert isinstance(app.screen, HandoffScreen)
        await past_the_hand_off(pilot, app)
        screen = app.screen
        assert screen.snapshot.seat == 1
        assert (hero(store, 1).x, hero(store, 1).y) == (0, 0)
        hand = await to_the_hand(pilot, app)
        hand.highlighted = hand_option(hand, flask)
        assert "▶" in str(hand.get_option_at_index(hand.highlighted).prompt)
        dialog = await choose(pilot)
        # (in another hero's fight the use that helps Bob comes first: for the monsters; the other
        # is asked about, since it helps Ann win)
        assert [label for label, _ in dialog.choices] == [
            "Throw Flask of Bravado for the monsters",
            "Throw Flask of Bravado for the heroes",
        ]
        await press(pilot, "2", lambda: isinstance(app.screen, ConfirmAction), "the question")
        assert isinstance(app.screen, ConfirmAction) and "helps them win" in app.screen.question
        await act(pilot, app, "y")
        assert [(m.label, m.amount, m.side) for m in store.state.combat.mods] == [("Flask of Bravado", 3, 0)]
        assert any("Bob throws Flask of Bravado for the heroes" in line.text for line in screen.snapshot.log)


async def test_hand_off_hides_the_previous_hand() -> None:
    store = store_for((("Ann", "human"), ("Bob", "human")))
    empty_hands(store)
    give(store, 0, ["colander-helm"])
    give(store, 1, ["hard-hat"])
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)  # a hot-seat game opens on the hand-off
        assert "Ann" in str(app.screen.query_one("#who").render())
        await past_the_hand_off(pilot, app)
        screen = app.screen
        hand = screen.query_one(CardList)
        names = [str(hand.get_option_at_index(i).prompt) for i in range(hand.option_count)]
        assert any("Colander Helm" in n for n in names)
        await act(pilot, app, "space")  # Ann ends her action phase: Bob's turn (after the monster phase)
        assert isinstance(app.screen, HandoffScreen)
        assert "Bob" in str(app.screen.query_one("#who").render())
        # behind the hand-off screen, the panes still show Ann's view, and Bob's card is nowhere
        assert screen.snapshot.seat == 0
        assert not any(
            "Hard Hat" in str(hand.get_option_at_index(i).prompt) for i in range(hand.option_count)
        )
        await past_the_hand_off(pilot, app)
        assert app.screen is screen and screen.snapshot.seat == 1
        names = [str(hand.get_option_at_index(i).prompt) for i in range(hand.option_count)]
        assert any("Hard Hat" in n for n in names)
        assert not any("Colander Helm" in n for n in names)


async def test_charity_in_one_dialog() -> None:
    """Over the hand limit at the end of the turn: one dialog marks every card to give away at once;
    Enter with too few marked gives nothing; the footer names what Enter does."""
    from mqtui.ui.screens.charity import CharityDialog

    store = store_for()
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    give(store, 0, ["pocket-sand", "cheese-grenade"])
    hero(store, 0).level = 2  # Bob is the lowest: he gets the extra cards
    app = make_app(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        screen = app.screen
        await act(pilot, app, "space")  # end the action phase with 7 cards
        assert store.state.frames[-1].kind == "charity"
        await until(pilot, lambda: isinstance(app.screen, CharityDialog), "the charity dialog")  # by itself
        dialog = app.screen
        assert isinstance(dialog, CharityDialog)
        footer = [
            b.binding.description for b in dialog.active_bindings.values() if b.binding.show and b.enabled
        ]
        assert "Give marked" in footer and "Discard marked" not in footer
        await press(pilot, "space", lambda: len(dialog.marked) == 1)  # mark the first card
        await press(pilot, "enter", lambda: notes(app))  # one of two: nothing happens but a warning
        assert any("Mark exactly 2 cards first." in note for note in notes(app))
        assert app.screen is dialog and len(hero(store, 0).hand) == 7
        await press(pilot, "down", lambda: dialog.query_one(OptionList).highlighted == 1)
        await press(pilot, "space", lambda: len(dialog.marked) == 2)
        marked = list(dialog.marked)
        await press(pilot, "enter", lambda: isinstance(app.screen, ConfirmAction), "a gift: asked once")
        await act(pilot, app, "enter")
        assert app.screen is screen
        assert [a.kind for a in store.actions].count("charity") == 2
        assert all(
            uid not in hero(store, 0).hand for uid in marked
        )  # Bob (a random bot) may already have used them
        assert (
            sum(line.text.startswith("You give ") and "to Bob" in line.text for line in screen.snapshot.log)
            == 2
        )
        assert all(f.kind != "charity" for f in store.state.frames)


@pytest.mark.parametrize("dialog", ["charity", "history", "choose", "room"])
async def test_a_dialog_closed_before_it_has_opened_leaves_the_game_running(dialog: str) -> None:
    """The game closes its private dialogs when the game moves on (charity given elsewhere, a hand-off);
    that can come before a dialog just pushed has mounted (CI once crashed on it: NoMatches '#count')."""
    from mqtui.ui.screens.charity import CharityDialog
    from mqtui.ui.screens.history import HistoryScreen
    from mqtui.ui.screens.room import RoomScreen

    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.snapshot is not None
        opened = {
            "charity": lambda: CharityDialog(store.cards, list(hero(store, 0).hand), 1, ""),
            "history": lambda: HistoryScreen(screen.snapshot),  # type: ignore[arg-type]
            "choose": lambda: ChooseAction("Which?", [("End", Action(0, "end"))]),
            "room": lambda: RoomScreen("A room"),
        }[dialog]()
        app.push_screen(opened)
        screen.close_dialogs()  # in the same tick: the dialog has not mounted yet
        await settle(pilot, app)
        assert app.screen is screen and app.is_running
        hand = screen.query_one("#hand")
        await press(pilot, "h", lambda: screen.focused is hand, "the hand focused: the game still takes keys")


async def test_charity_dialog_can_wait_and_enter_in_the_hand_reopens_it() -> None:
    from mqtui.ui.screens.charity import CharityDialog

    store = store_for()
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    give(store, 0, ["pocket-sand"])  # one over; Ann and Bob both Level 1: it is discarded
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await act(pilot, app, "space")
        await until(pilot, lambda: isinstance(app.screen, CharityDialog), "the charity dialog")  # by itself
        await press(pilot, "escape", lambda: isinstance(app.screen, GameScreen), "the charity dialog closed")
        screen = app.screen
        hand = await to_the_hand(pilot, app)
        footer = [
            b.binding.description for b in screen.active_bindings.values() if b.binding.show and b.enabled
        ]
        assert "Discard…" in footer and "Play" not in footer
        await press(pilot, "enter", lambda: isinstance(app.screen, CharityDialog), "the charity dialog")
        assert len(hero(store, 0).hand) == 6 and hand.option_count > 0


async def test_watching_a_computer_over_the_hand_limit_opens_no_charity_dialog() -> None:
    """The charity dialog is for a person choosing their own cards: watching computer players, it never
    opens (a computer's answer used to close it while it was still opening, and the app crashed)."""
    from mqtui.ui.screens.charity import CharityDialog

    store = store_for((("Ann", "random"), ("Bob", "random")))
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    give(store, 0, ["pocket-sand", "cheese-grenade"])
    store.apply(Action(0, "end"))  # Ann (a computer) ends her action phase with 7 cards
    assert store.state.frames[-1].kind == "charity" and store.snapshot().seat == 0
    app = make_app(store)
    pushed: list[object] = []
    push_screen = app.push_screen

    def recording(screen: Any, *args: Any, **kwargs: Any) -> Any:
        pushed.append(screen)
        return push_screen(screen, *args, **kwargs)

    app.push_screen = recording  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))

        def shown_past_charity() -> bool:
            snap = screen.snapshot
            return snap is not None and all(f.kind != "charity" for f in snap.view.frames)

        await until(pilot, shown_past_charity, "the screen past Ann's charity")
        assert not any(isinstance(screen, CharityDialog) for screen in pushed)


def test_charity_terms_are_the_charity_seats_own() -> None:
    """Another seat's charity asks nothing of the viewer, however many cards the viewer holds."""
    from mqtui.ui.describe import charity_terms

    store = store_for((("Ann", "human"), ("Bob", "human")))
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado", "jar-of-bees"])
    give(store, 0, ["pocket-sand"])
    give(store, 1, ["convenient-dagger", "crooked-die", "gym-membership", "traffic-cone-helm", "elf-card"])
    give(store, 1, ["band-aid-of-paris"])  # Bob holds 6 cards too, outside his turn
    store.apply(Action(0, "end"))
    assert store.state.frames[-1].kind == "charity" and store.state.frames[-1].seat == 0
    assert charity_terms(store.snapshot(0))[0] == 1
    assert charity_terms(store.snapshot(1)) == (0, "")


def test_copies_of_one_card_are_one_line_with_a_count() -> None:
    from mqtui.engine.actions import Action
    from mqtui.ui.describe import labelled

    store = store_for()
    empty_hands(store)
    give(store, 0, ["colander-helm", "hard-hat", "suspicious-potion", "flask-of-bravado"])
    name = store.cards.names[give(store, 0, ["band-aid-of-paris"] * 3)[0]]
    hero(store, 0).level = 2
    store.apply(Action(0, "end"))  # end the action phase with 7 cards: charity
    snap = store.snapshot(0)
    labels = [label for label, _ in labelled(snap.legal, snap, store.cards)]
    assert len(labels) == len(set(labels)) == 5  # 7 cards, 5 different ones
    (copies,) = [label for label in labels if name in label]
    assert copies.endswith("(×3)")


async def test_monster_phase_moves_monsters() -> None:
    store = store_for()
    empty_hands(store)
    add_room(store, "coat-check", 1, 0)  # arrows: red points south
    add_room(store, "waiting-room", 1, 1)
    monster = add_monster(store, "skeleton-intern", 1, 0, "blue")
    store.state.forced = [1]  # the monster phase's colour die: red
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.screen
        await act(pilot, app, "space")
        log = [line.text for line in screen.snapshot.log]
        assert "Colour die (monster phase): red." in log
        assert "Skeleton Intern moves from The Coat Check of Holding to Waiting Room of Eternal Hold." in log
        # (the computer's turn may follow at once, with its own monster phase: the monster is where
        # its last move in the log took it)
        moves = [line for line in log if line.startswith("Skeleton Intern moves from ")]
        bob = [i for i, line in enumerate(log) if line == "Round 1: Bob's turn."]
        assert not bob or log.index(moves[0]) < bob[0]  # (the first one in Ann's monster phase)
        at = {"The Coat Check of Holding.": (1, 0), "Waiting Room of Eternal Hold.": (1, 1)}
        moved = [(m.x, m.y) for m in store.state.monsters if m.id == monster.id]  # (the store's state now)
        assert moved == [at[moves[-1].split(" to ", 1)[1]]]


async def test_a_key_that_cannot_be_used_says_why() -> None:
    """An illegal key (search with nothing to search) and a greyed move key each say why in a note."""
    store = store_for()
    hero(store, 0).moves = 0
    hero(store, 0).moved = True  # (with a Move unspent, the spend-all rule would let her go)
    app = make_app(store)
    async with running(app, notifications=True) as pilot:
        await press(pilot, "s", lambda: notes(app))  # nothing to search in the Entrance
        assert any("search" in n for n in notes(app))
        await press(pilot, "shift+up", lambda: len(notes(app)) == 2)
        assert notes(app)[-1].split("\n", 1)[1].startswith("Cannot go north: ")


async def test_undo_with_nothing_to_undo_says_why() -> None:
    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await act(pilot, app, "shift+right")  # an explore reveals a room: it cannot be taken back
        await press(pilot, "ctrl+z", lambda: notes(app))
        assert any(n.startswith("Nothing to undo\n") for n in notes(app))
        assert len(store.state.rooms) == 2


async def test_local_app_opens_over_title() -> None:
    store = store_for()
    app = local_app(store)
    async with running(app):
        assert isinstance(app.screen, GameScreen)


async def test_a_window_with_nothing_to_play_passes_by_itself() -> None:
    """Bob can only pass in Ann's fight: he is not even called to the keyboard."""
    store = fight_position((("Ann", "human"), ("Bob", "human")), dice=[6, 1])
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_into_the_fight(pilot, app, store)
        await act(pilot, app, "space")  # Ann passes
        assert not isinstance(app.screen, HandoffScreen)
        # Bob passed by himself: the dice are rolled, and Ann (whose fight it is) presses to go on
        assert store.state.combat is not None and store.state.combat.hero_die == 6
        assert store.state.frames[-1].seat == 0


@pytest.mark.parametrize("key", [None, "h"])
async def test_the_pass_countdown_passes_unless_a_key_is_pressed(monkeypatch, key: str | None) -> None:
    """Bob could throw a flask into Ann's fight: a countdown shows in the status line and passes for
    him; any key stops it, and then he decides."""
    from mqtui.ui.flow import PassCountdown
    from mqtui.ui.widgets.status import StatusBar

    monkeypatch.setattr(PassCountdown, "TICK", 3600.0)  # the test moves the clock itself
    clocks: list[PassCountdown] = []  # each clock started
    start = PassCountdown.start

    def started(clock: PassCountdown, seconds: int, n: int) -> None:
        clocks.append(clock)
        start(clock, seconds, n)

    monkeypatch.setattr(PassCountdown, "start", started)
    store = fight_position((("Ann", "human"), ("Bob", "human")))
    give(store, 1, ["flask-of-bravado"])
    store.state.forced = [6, 1]
    app = make_app(store, pass_countdown=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_into_the_fight(pilot, app, store)
        await act(pilot, app, "space")  # Ann passes; Bob (next door, with a flask) may throw
        assert isinstance(app.screen, HandoffScreen)
        await past_the_hand_off(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.snapshot.seat == 1 and screen.passing_by_itself()
        status = screen.query_one(StatusBar)
        assert "Passing in 3" in str(status.render())
        if key:
            await press(pilot, key, lambda: not screen.passing_by_itself(), "the countdown stopped")
            assert "Passing" not in str(status.render())
            assert store.state.frames[-1].seat == 1  # still Bob's to decide
            return
        clock = clocks[-1]
        await clock.tick()
        assert "Passing in 2" in str(status.render())
        await clock.tick()
        await clock.tick()  # time is up: Bob passes, the dice are rolled
        await settle(pilot, app)
        assert store.state.combat is not None and store.state.combat.hero_die == 6
        assert store.state.frames[-1].seat == 0


async def test_the_countdown_is_on_by_default() -> None:
    from mqtui.ui.settings import Settings

    assert Settings().pass_countdown == 3


async def test_side_combat_pane_is_up_to_date_when_the_screen_widens() -> None:
    """At 80 columns the fight has the main pane (the side pane is hidden and not kept up to date);
    wide, the side pane draws the fight as it is now, in the first frame it is shown."""
    store = fight_position(dice=[6, 1])
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_into_the_fight(pilot, app, store)
        screen = app.screen
        side = screen.query_one("#combat-side", CombatPane)
        assert not side.display

        async def drawn() -> str:
            await pilot.resize_terminal(120, 40)
            await settle(pilot, app)
            assert side.display
            lines = side.render_lines(Region(0, 0, *side.outer_size))
            return "\n".join(line.text for line in lines)

        text = await drawn()
        assert "Combat in" in text and "Skeleton Intern" in text and "not rolled" in text
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert not side.display
        await act(pilot, app, "space")  # pass; the bot passes; the dice roll
        assert store.state.combat is not None and store.state.combat.hero_die == 6
        text = await drawn()
        assert "Skeleton Intern" in text and "not rolled" not in text and "with the dice" in text
