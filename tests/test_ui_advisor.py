"""The advisor in the app (key w, the fight pane's line, the setting, the tally for the game-over
screen) and the first game on easy (the title screen says so; the New Game screen remembers a change)."""

from __future__ import annotations

import pytest
from screen_text import notes
from textual.widgets import Select, Static
from ui_helpers import (
    act,
    add_monster,
    add_room,
    drain,
    empty_hands,
    give,
    make_app,
    notes_so_far,
    past_hand_off,
    press,
    running,
    settle,
    store_for,
    until,
)

from mqtui.bots import advice
from mqtui.bots.advice import Advice
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.store import LocalStore, Snapshot
from mqtui.ui.advisor import AdviceTally, tally_for
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.new_game import NewGameScreen
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.settings import Settings, load_settings
from mqtui.ui.widgets.combat import CombatPane


@pytest.fixture(autouse=True)
def _no_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisor's look-ahead ends on its step budget, not on a loaded machine's clock."""
    monkeypatch.setattr(advice, "ADVICE_MS", 600_000.0)


def fight_game() -> LocalStore:
    """Ann (Level 1, strength 5 with gear) next to a Level 3 monster she is unlikely to beat alone;
    Bob, a human at the same keyboard, could help."""
    store = store_for((("Ann", "human"), ("Bob", "human")), seed=5)
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "goblin-middle-manager", 0, -1, "red")
    give(store, 0, ["traffic-cone-helm", "convenient-dagger"], "equipped")
    give(store, 0, ["suspicious-potion"], "belt")
    give(store, 0, ["gym-membership"])
    return store


def advice_notes(app: MQApp) -> list[str]:
    """The messages of the advisor's toasts on show."""
    return [note.split("\n", 1)[1] for note in notes(app) if note.startswith("Advisor")]


def advisor_line(app: MQApp) -> str:
    pane = app.screen.query_one("#combat-main", CombatPane)
    return pane.advice


async def test_the_fight_pane_shows_the_advice_and_the_tally_counts_what_the_player_did() -> None:
    store = fight_game()
    app = make_app(store)
    app.game_store = store
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await past_hand_off(pilot, app)  # (a hot-seat game: the hand-off comes first)
        await act(pilot, app, "shift+up")  # into the fight
        assert isinstance(app.screen, GameScreen)
        line = advisor_line(app)
        assert "% to win now" in line and "escape on" in line
        assert "Advisor (w):" in app.screen.query_one("#combat-main", CombatPane).plain_text()
        await press(pilot, "w", lambda: advice_notes(app))
        assert advice_notes(app)[-1] == line
        snap = app.screen.snapshot
        assert snap is not None
        await app.screen.perform(Action(0, "pass"))
        await settle(pilot, app)
        tally = tally_for(store)
        assert tally.offered == 1
        assert tally.followed == (1 if line.split(";")[1].strip().startswith("pass") else 0)


async def test_the_fight_panes_line_is_worked_out_once_for_the_decision_on_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line comes after the screen has drawn the decision, for that decision only: a line worked
    out for a state never shows once another is on screen, and the key w gives the same advice without
    a second look-ahead."""
    import mqtui.ui.screens.game as game_screen

    asked: list[tuple[int, int]] = []  # (the state advised on, the state on screen then)
    real = game_screen.advice_for

    def counted(snap: Snapshot, cards: CardTable) -> Advice | None:
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.snapshot is not None
        asked.append((snap.n, screen.snapshot.n))
        return real(snap, cards)

    monkeypatch.setattr(game_screen, "advice_for", counted)
    store = fight_game()
    app = make_app(store)
    app.game_store = store
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await past_hand_off(pilot, app)
        await act(pilot, app, "shift+up")  # into the fight: Ann decides in its window
        await until(pilot, lambda: advisor_line(app), "the advisor's line")
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.snapshot is not None
        fight_n = screen.snapshot.n
        assert asked == [(fight_n, fight_n)]
        line = advisor_line(app)
        await press(pilot, "w", lambda: advice_notes(app))
        assert advice_notes(app)[-1] == line
        assert asked == [(fight_n, fight_n)]  # (w: the advice already worked out)
        await app.screen.perform(Action(0, "pass"))
        await settle(pilot, app)
        assert screen.snapshot is not None and screen.snapshot.n != fight_n
        # every look-ahead was for the state on screen when it ran, and the line on show is the
        # current decision's (or none)
        assert all(advised == shown for advised, shown in asked)
        assert advisor_line(app) != line or asked[-1][0] == screen.snapshot.n


async def test_the_advisor_can_be_turned_off() -> None:
    store = fight_game()
    app = make_app(store, advisor=False)
    app.game_store = store
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await past_hand_off(pilot, app)  # (a hot-seat game: the hand-off comes first)
        await act(pilot, app, "shift+up")
        assert advisor_line(app) == ""
        assert "Advisor" not in app.screen.query_one("#combat-main", CombatPane).plain_text()
        assert app.screen.check_action("advice", ()) is False
        await pilot.press("w")  # (a key that does nothing)
        assert not [note for note in await notes_so_far(pilot, app) if note.startswith("Advisor")]
        await app.screen.perform(Action(0, "pass"))
        await settle(pilot, app)
        assert tally_for(store).offered == 0


async def test_the_advisor_key_explains_the_action_phase() -> None:
    store = store_for((("Ann", "human"), ("Bob", "random")), seed=3)
    app = make_app(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await press(pilot, "w", lambda: advice_notes(app))
        message = advice_notes(app)[-1]
        assert message and "\n" not in message


def test_the_tally_line_says_how_often_the_advice_was_taken() -> None:
    tally = AdviceTally()
    assert tally.line() == ""
    advice = Advice(Action(0, "pass"), "pass")
    tally.record(advice, Action(0, "pass"))
    tally.record(advice, Action(0, "invite", 1, 1, 0))
    assert (tally.offered, tally.followed) == (2, 1)
    assert tally.line() == "You took the advisor's advice 1 of 2 times (50%)."


async def test_the_game_over_screen_shows_the_tally() -> None:
    store = store_for()
    app = make_app()  # (the title screen: the game-over screen needs the game's store, not its screen)
    async with running(app) as pilot:
        app.game_store = store
        advice = Advice(Action(0, "pass"), "pass")
        for taken in ("pass", "pass", "pass", "end"):
            tally_for(store).record(advice, Action(0, taken))
        app.game_over(None, store.snapshot())
        await until(pilot, lambda: app.screen.query("#advice-tally"), "the game-over screen")
        assert isinstance(app.screen, GameOverScreen)
        text = str(app.screen.query_one("#advice-tally", Static).render())
        assert "advice 3 of 4 times (75%)" in text


# -- first game on easy ----------------------------------------------------------------------------------


async def test_the_first_game_is_against_easy_players_and_the_title_says_so(data) -> None:
    app = MQApp(bot_delay=0)  # the settings of a machine that never played
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query("#opponents"), "the title screen")
        assert isinstance(app.screen, TitleScreen)
        line = str(app.screen.query_one("#opponents", Static).render())
        assert "easy" in line and "New game" in line
        await press(pilot, "n", lambda: app.screen.query("#kind-3"), "the new game screen")
        assert isinstance(app.screen, NewGameScreen)
        assert [app.screen.query_one(f"#kind-{i}", Select).value for i in range(1, 4)] == ["easy"] * 3
        await press(pilot, "enter", lambda: app.game_store is not None, "a game")
        await settle(pilot, app)
        store = app.game_store
        assert store is not None
        assert [s.kind for s in store.seats] == ["human", "easy", "easy", "easy"]
    assert load_settings().opponents == "easy"


@pytest.mark.slow
async def test_the_new_game_screen_remembers_another_level(data) -> None:
    app = MQApp(settings=Settings(), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query("#opponents"), "the title screen")
        await press(pilot, "n", lambda: app.screen.query("#kind-3"), "the new game screen")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        for i in range(1, 4):
            screen.query_one(f"#kind-{i}", Select).value = "normal"
        await drain(pilot)
        screen.action_start()
        await until(pilot, lambda: app.game_store is not None, "a game")
        await settle(pilot, app)
        assert [s.kind for s in app.game_store.seats][1:] == ["normal"] * 3
    assert load_settings().opponents == "normal"
    again = MQApp(bot_delay=0)
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: again.screen.query("#opponents"), "the title screen")
        assert "normal" in str(again.screen.query_one("#opponents", Static).render())
        await press(pilot, "n", lambda: again.screen.query("#kind-1"), "the new game screen")
        assert again.screen.query_one("#kind-1", Select).value == "normal"


def test_cli_new_without_players_uses_the_remembered_level(monkeypatch) -> None:
    from mqtui.cli import new as cli_new
    from mqtui.ui.settings import save_settings

    started: list[object] = []

    class FakeApp:
        return_code = 0  # what the real app ends with after a normal quit

        def run(self) -> None:
            started.append(True)

    def fake_make_app(args, **kwargs):  # type: ignore[no-untyped-def]
        started.append(kwargs["new_game"])
        return FakeApp()

    monkeypatch.setattr(cli_new, "make_app", fake_make_app)
    from mqtui.cli import main

    assert main(["new"]) == 0
    assert [s.kind for s in started[0]][1:] == ["easy"] * 3  # type: ignore[attr-defined]
    save_settings(Settings(opponents="hard"))
    started.clear()
    assert main(["new"]) == 0
    assert [s.kind for s in started[0]][1:] == ["hard"] * 3  # type: ignore[attr-defined]
