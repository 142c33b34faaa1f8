"""Hot seat through the app: whenever the seat at the screen changes, nothing the previous player
could see stays anywhere on screen (panes, log, card text, toasts), and a hand-off screen comes
first, also at the start of a game and after a load."""

from __future__ import annotations

from collections import Counter

import pytest
from screen_text import private_names, public_private_names, screen_text
from ui_helpers import local_app, make_app, perform, press, resize, settle, shows_latest, store_for, until

from mqtui.bots import make_bot
from mqtui.engine.view import view_for
from mqtui.store import LocalStore
from mqtui.ui.app import MQApp
from mqtui.ui.screens.charity import CharityDialog
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.handoff import HandoffScreen

PLAYERS = (("Ann", "human"), ("Bob", "human"))
SPACE_KINDS = ("done", "end", "pass")


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def game_screen(app: MQApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


def leaks(app: MQApp, store: LocalStore, seat: int) -> list[str]:
    text = screen_text(app)
    return sorted(name for name in private_names(store, seat) if name in text)


SIZES = ((80, 24), (120, 40))
BLOCK = 19  # hand-offs seen at one terminal size before it changes to the other


async def play_hot_seat_game(seed: int) -> dict[tuple[int, int], Counter[str]]:
    """Two people at one keyboard, the people's moves chosen by a script and sent
    through the app (space for ready/end/pass). Returns, for each terminal size, the hand-offs
    checked at it (``all``, and ``fight``: those in the middle of a fight).

    The terminal changes between 80x24 and 120x40 every ``BLOCK`` hand-offs (while the hand-off
    screen is up: the game screen behind it is laid out again for the new size), so that both sizes
    see hand-offs from every part of one game (at the start, in fights and out of them, late in the
    game) at the CPU of one game.

    It waits for each action's effect (no idle waits, no redraw forced); at each hand-off the screen
    is read whole, before and after Enter: the text of every widget, shown or not, once the app has
    handled all it was sent (what is read is what the widgets hold: drawing a frame changes none of
    it, and a frame per check was a quarter of the test's CPU)."""
    store = store_for(PLAYERS, seed=seed, setup_done=False)
    scripts = {seat: make_bot("normal", seed=seat) for seat in (0, 1)}
    app = local_app(store)
    seen: dict[tuple[int, int], Counter[str]] = {size: Counter() for size in SIZES}
    handoffs = steps = 0
    async with app.run_test(size=SIZES[0], notifications=True) as pilot:
        await settle(pilot, app)
        # a new hot-seat game opens on the hand-off screen, never on the first player's hand
        assert isinstance(app.screen, HandoffScreen)
        for _ in range(5000):
            await until(pilot, lambda: shows_latest(app) or isinstance(app.screen, GameOverScreen), "a step")
            if store.state.stage == "over" or isinstance(app.screen, GameOverScreen):
                break
            if isinstance(app.screen, HandoffScreen):
                size = SIZES[handoffs // BLOCK % len(SIZES)]
                if app.size != size:
                    await resize(pilot, size, lambda: app.screen.size == size, "the hand-off screen resized")  # noqa: B023
                shown = screen_text(app)
                assert not [n for n in public_private_names(store) if n in shown]
                screen = game_screen(app)
                await press(pilot, "enter", lambda: app.screen is screen, "the hand-off to end")  # noqa: B023
                await until(pilot, lambda: shows_latest(app), "the next seat's screen")
                handoffs += 1
                seat = screen.snapshot.seat
                assert app.screen is screen and seat == store.engine.deciding(store.state)
                assert screen.size == size and screen.has_class("-wide") == (size[0] >= 120)
                assert leaks(app, store, seat) == [], f"hand-off {handoffs} to seat {seat} at {size}"
                seen[size]["all"] += 1
                seen[size]["fight"] += screen.snapshot.view.combat is not None
                continue
            screen = game_screen(app)
            seat = store.engine.deciding(store.state)
            assert seat in scripts and screen.snapshot.seat == seat
            legal = list(store.engine.legal(store.state, seat))
            action = scripts[seat].choose(store.engine, view_for(store.state, seat), seat, legal).action
            steps += 1
            if action.kind in SPACE_KINDS and [a for a in legal if a.kind == action.kind] == [action]:
                n = store.state.n
                await press(pilot, "space", lambda: store.state.n != n, f"space to {action.kind}")  # noqa: B023
            else:
                await perform(pilot, app, screen, action)
        assert store.state.stage == "over", f"no winner after {steps} steps"
    print(f"{handoffs} hand-offs checked in {steps} scripted actions: {seen}")
    return seen


@pytest.mark.slow(seconds=4)
async def test_hot_seat_game_never_shows_another_seats_cards(monkeypatch) -> None:
    # frames at most once a second (nothing here reads the drawing)
    monkeypatch.setattr("textual.screen.UPDATE_PERIOD", 1.0)
    # seed 0: a whole game of about 250 actions and 75 changes of seat, every one checked (seed 1, 350
    # actions, took twice the CPU, mostly in redrawing the log at each hand-off; seed 0 plays every kind
    # of action seed 1 did (help asked and accepted, charity, curses, fleeing...) but a teleport, and
    # adds challenges and lost items. Seed 8, before the content tuning of issue 16, now meets a charity
    # dialog right after a hand-off, which this script does not drive). (It was played whole at each
    # size, twice the CPU; the sizes now take turns within the one game.)
    seen = await play_hot_seat_game(seed=0)
    for size, counts in seen.items():
        assert counts["all"] > 10 and counts["fight"] > 2, f"{size}: {counts}"


async def test_a_loaded_hot_seat_game_opens_on_the_hand_off(data) -> None:
    store = store_for(PLAYERS, seed=8)
    path = data / "hot.mqsave"
    store.save(path)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        assert app.open_file(path)
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)
        assert "Ann" in str(app.screen.query_one("#who").render())
        screen = game_screen(app)
        assert screen.snapshot is None  # nothing of anyone's hand is drawn behind it
        await press(pilot, "enter", lambda: app.screen is screen, "the hand-off to end")
        await settle(pilot, app)
        assert screen.snapshot.seat == 0


async def test_undo_across_a_hand_off_hands_the_keyboard_back() -> None:
    """Ann passes in her fight; the window goes to Bob (who could throw a flask); Bob's Ctrl+Z takes
    Ann's pass back: the screen hands off to Ann again, with nothing of Bob's hand on it."""
    from ui_helpers import add_monster, add_room, empty_hands, give, make_app

    store = store_for(PLAYERS, seed=3)
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "skeleton-intern", 0, -1, "red")
    give(store, 1, ["flask-of-bravado", "hard-hat"])
    app = make_app(store)  # (pass countdown off: Bob is asked)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        # the first hand-off, to Ann
        await press(pilot, "enter", lambda: app.screen is screen, "the hand-off to end")
        await settle(pilot, app)
        n = store.state.n
        await press(pilot, "shift+up", lambda: store.state.n != n, "the move into the fight")
        await settle(pilot, app)
        n = store.state.n
        await press(pilot, "space", lambda: store.state.n != n, "Ann's pass")  # Bob's window
        await settle(pilot, app)
        assert isinstance(app.screen, HandoffScreen)
        await press(pilot, "enter", lambda: app.screen is screen, "the hand-off to end")
        await settle(pilot, app)
        assert screen.snapshot.seat == 1 and "Flask of Bravado" in screen_text(app)
        n = store.state.n
        await press(pilot, "ctrl+z", lambda: store.state.n != n, "the undo")  # takes back Ann's pass
        await settle(pilot, app)
        assert store.engine.deciding(store.state) == 0
        assert isinstance(app.screen, HandoffScreen) and "Ann" in str(app.screen.query_one("#who").render())
        await press(pilot, "enter", lambda: app.screen is screen, "the hand-off to end")
        await settle(pilot, app)
        assert screen.snapshot.seat == 0
        assert leaks(app, store, 0) == [] and "Hard Hat" not in screen_text(app)


async def test_one_hand_off_per_change_of_player_and_it_shows_that_players_cards() -> None:
    """Two people and a computer (seed 1, keys pressed at random from a fixed seed): Bob's window in
    which he could only pass went by itself, the store's eyes stayed with him while the computer
    decided, and a hand-off to Bob came for nothing, then one more for his next decision; a hand-off
    to Bob once showed Ann's cards after Enter (the decision had gone on to her). Each hand-off now
    names a player other than the one before it, and Enter shows that player's cards."""
    import random

    store = store_for((("Ann", "human"), ("Bob", "human"), ("Cy", "random")), seed=1, setup_done=False)
    app = local_app(store)
    keys = random.Random(1)
    handed: list[str] = []
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        game = None
        for _ in range(300):  # the first 20 actions (the hand-offs to Bob for nothing came at 9 and 15)
            if store.state.n >= 20:
                break
            await settle(pilot, app)
            game = game or game_screen(app)
            if isinstance(app.screen, HandoffScreen):
                who = app.screen.player
                assert not handed or handed[-1] != who, f"a second hand-off to {who} in a row"
                handed.append(who)
                await press(pilot, "enter", lambda: not isinstance(app.screen, HandoffScreen))
                await settle(pilot, app)
                assert game.snapshot is not None and game.snapshot.view.heroes[game.snapshot.seat].name == who
                continue
            if isinstance(app.screen, CharityDialog):  # (random keys never mark the right count)
                dialog = app.screen
                for _ in range(dialog.n):
                    await pilot.press("space", "down")
                await press(pilot, "enter", lambda dialog=dialog: app.screen is not dialog)
                continue
            await pilot.press(keys.choice(["space", "space", "1", "2", "enter", "escape", "n", "y"]))
        assert store.state.n >= 20
    assert handed[:2] == ["Ann", "Bob"] and len(handed) >= 3
