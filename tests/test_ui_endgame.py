"""The end of a game and the replay view, through the app at 80×24."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from endgame_helpers import PLAYERS, game_until
from rich.console import Console
from ui_helpers import local_app, press, settle, store_for, until

from mqtui.cli import main
from mqtui.engine.state import HIDDEN
from mqtui.saves import slots
from mqtui.timeline import Timeline
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.game_over import GameOverScreen
from mqtui.ui.screens.handoff import HandoffScreen
from mqtui.ui.screens.replay import OPEN, ReplayScreen
from mqtui.ui.screens.saves import LoadDialog
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.settings import Settings


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    monkeypatch.setenv("TERM", "xterm-256color")
    return tmp_path


def plain(renderable: object, width: int) -> list[str]:
    out = io.StringIO()
    Console(width=width, file=out, no_color=True, legacy_windows=False).print(renderable)
    return out.getvalue().rstrip("\n").splitlines()


async def open_replay(pilot, app: MQApp, first: str, then: type) -> ReplayScreen:  # type: ignore[no-untyped-def]
    """Press ``first`` (which opens a ``then`` screen), then ``r``: the replay view."""
    await press(pilot, first, lambda: isinstance(app.screen, then))
    await press(pilot, "r", lambda: replay_shown(app), "the replay")
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def replay_shown(app: MQApp) -> bool:
    """The replay view is on top and shows a step of the game."""
    return isinstance(app.screen, ReplayScreen) and app.screen.snapshot is not None


async def deciding_fight_then_results(pilot, app: MQApp, store) -> GameOverScreen:  # type: ignore[no-untyped-def]
    """A game just won: the deciding fight stays until Enter, then the results fit 80x24."""
    game = app.screen
    assert isinstance(game, GameScreen) and store.state.stage == "over"
    for _ in range(5):  # it waits for the player, however long
        await pilot.pause()
    assert app.screen is game
    c = game.snapshot.view.combat
    assert c is not None and c.boss and c.hero_die > 0  # the fight with its dice, still on screen
    assert game.query_one("#main").current == "combat-main"
    assert "31 vs 21 with the dice, heroes lead" in game.query_one("#combat-main").plain_text()
    assert any("wins the game" in line.text for line in game.snapshot.log)
    await pilot.press("space")  # not the key that moves on (it passes in fights)
    await pilot.pause()
    assert app.screen is game
    await press(pilot, "enter", lambda: isinstance(app.screen, GameOverScreen))
    over = app.screen
    banner = str(over.query_one("#banner").render())
    assert "Ann wins after 14 rounds" in banner
    width = over.query_one("#table").content_size.width
    rows = plain(over.query_one("#table").content, width)  # type: ignore[attr-defined]
    assert len(rows) == 1 + len(PLAYERS)  # a heading and one line per hero
    assert rows[1].startswith("★ Ann") and "…" not in "".join(rows)
    for name, _ in PLAYERS:
        assert sum(name in row for row in rows) == 1
    fight = "\n".join(plain(over.query_one("#fight").content, width))  # type: ignore[attr-defined]
    assert "The deciding fight (round 14, The Entrance)" in fight and "die" in fight
    assert "Cards played:" in fight and "Kept as finished-" in fight
    assert over.query_one("Vertical").region.height <= 24
    return over


@pytest.mark.slow(seconds=2)
async def test_the_deciding_fight_stays_until_enter_then_the_results_then_the_replay_of_the_game() -> None:
    """One game, won (the game until its last action, a computer player's), from the deciding fight to the
    results (:func:`deciding_fight_then_results`) to the replay from the results, stepped through by keys.
    (Two tests before, each playing the same game to its end and opening the app on it.)"""
    store = game_until(-1)
    app = local_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        over = await deciding_fight_then_results(pilot, app, store)
        await press(pilot, "r", lambda: replay_shown(app), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        t = replay.timeline
        assert replay.at == t.last and replay.eyes == OPEN  # a finished game: every hand open
        assert replay.snapshot.view.heroes[1].hand == t.state(t.last).heroes[1].hand
        await press(pilot, "left", lambda: replay.at == t.last - 1)
        await press(pilot, "left", lambda: replay.at == t.last - 2)
        assert replay.snapshot.n == t.state(t.last - 2).n
        await press(pilot, "home", lambda: replay.at == 0)
        turns = t.turn_starts()
        await press(pilot, "right_square_bracket", lambda: replay.at == turns[0])
        await press(pilot, "right_square_bracket", lambda: replay.at == turns[1])
        await press(pilot, "left_square_bracket", lambda: replay.at == turns[0])
        await press(pilot, "g", lambda: app.screen is not replay, "the round dialog")
        box = app.screen.query_one("#round")
        await press(pilot, "4", lambda: box.value == "4")  # type: ignore[attr-defined]
        # (the dialog's answer reaches the replay just after the dialog has closed)
        await press(pilot, "enter", lambda: app.screen is replay and replay.at == t.round_start(4))
        assert replay.snapshot.view.round == 4
        assert "Round 4" in str(replay.query_one("#status").render())
        # the deciding fight, on screen with its dice
        await press(pilot, "f", lambda: replay.at == t.deciding_fight())
        assert replay.query_one("#main").current == "combat"
        await press(pilot, "v", lambda: replay.eyes == 0)  # through Ann's eyes only
        assert set(replay.snapshot.view.heroes[1].hand) == {HIDDEN}
        await press(pilot, "escape", lambda: app.screen is over)


async def test_a_game_in_progress_replays_through_one_seat_s_eyes_from_the_load_dialog() -> None:
    store = game_until(300)
    path = slots.new_autosave_path()
    store.save(path)
    saved = path.read_bytes()
    app = MQApp(settings=Settings(pass_countdown=0), save_settings_file=False, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        replay = await open_replay(pilot, app, "l", LoadDialog)
        assert replay.eyes == 0 and replay.at == 300
        for at in (300, 150, 20):
            replay.action_jump(at)  # (the action of Home and End, to any step)
            await until(pilot, lambda: replay.snapshot.n == replay.timeline.state(at).n, "the step")  # noqa: B023
            view = replay.snapshot.view
            assert all(set(h.hand) <= {HIDDEN} for h in view.heroes[1:])
            assert not any("sees:" in line.text for line in replay.snapshot.log)
        # another seat's card actions are named by their kind only on the "where" line
        t = replay.timeline
        theirs = [
            i
            for i in range(1, 301)
            if t.action(i).seat != 0 and t.action(i).kind in ("equip", "give", "belt")
        ]
        assert theirs
        for i in theirs[:5]:
            replay.action_jump(i)
            await until(pilot, lambda: replay.at == i, "the step")  # noqa: B023
            name = t.engine.cards.names[t.action(i).a]
            where = str(replay.query_one("#where").render())
            assert name not in where and f": {t.action(i).kind}" in where
        await pilot.press("v")  # no other eyes for a game that is still going on
        assert replay.eyes == 0
        await press(pilot, "escape", lambda: isinstance(app.screen, TitleScreen))
    assert path.read_bytes() == saved  # looking at a game changes nothing


async def test_a_hot_seat_game_in_progress_asks_for_the_keyboard_before_its_replay(tmp_path: Path) -> None:
    store = store_for((("Ann", "human"), ("Bob", "human")), seed=3)
    while store.engine.deciding(store.state) == 0:  # Ann ends her turn: Bob decides next
        store.apply(store.engine.legal(store.state, 0)[0])
    path = tmp_path / f"hot seat{slots.SUFFIX}"
    store.save(path)
    app = MQApp(settings=Settings(), save_settings_file=False, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.open_replay(path)
        await until(pilot, lambda: isinstance(app.screen, HandoffScreen), "the hand-off")
        assert "Bob" in str(app.screen.query_one("#who").render())
        await press(pilot, "enter", lambda: replay_shown(app), "the replay")
        assert app.screen.eyes == 1  # type: ignore[attr-defined]


async def test_mqtui_replay_view_opens_the_replay(tmp_path: Path) -> None:
    path = tmp_path / f"game{slots.SUFFIX}"
    game_until(200).save(path)
    app = MQApp(settings=Settings(), save_settings_file=False, bot_delay=0, replay=path, replay_seat=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: replay_shown(app), "the replay")
        assert app.screen.eyes == 2 and app.screen.at == 200  # type: ignore[attr-defined]


def test_mqtui_replay_view_refuses_bad_input_in_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / f"bad{slots.SUFFIX}"
    bad.write_bytes(b"junk")
    assert main(["replay", str(bad), "--view"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    good = tmp_path / f"good{slots.SUFFIX}"
    game_until(50).save(good)
    assert main(["replay", str(good), "--view", "--seat", "7"]) == 2
    assert "no seat 7" in capsys.readouterr().err
    assert main(["replay", str(good), "--view", "--json"]) == 2
    assert capsys.readouterr().err.strip() == "mqtui replay: --view opens the app; it does not go with --json"
    assert Timeline.from_file(good).last == 50


async def test_the_replay_and_the_results_name_the_game_s_packs(tmp_path: Path) -> None:
    from mqtui.ui.session import SeatSpec, new_store

    store = new_store(
        [SeatSpec("Ann"), SeatSpec("Bob", "normal")], 5, bot_delay=0, packs=["standing-room-only"]
    )
    path = tmp_path / f"packs{slots.SUFFIX}"
    store.save(path)
    app = MQApp(settings=Settings(), save_settings_file=False, bot_delay=0, replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: replay_shown(app), "the replay")
        assert app.screen.timeline.packs == ("standing-room-only",)  # type: ignore[attr-defined]
        assert "packs: standing-room-only" in str(app.screen.query_one("#map").border_title)
        over = GameOverScreen(store.cards, store.seats, store.snapshot(0), packs=store.packs)
        await app.push_screen(over)
        await until(pilot, lambda: app.screen is over, "the results")
        assert "Packs: standing-room-only" in "\n".join(plain(over.query_one("#fight").content, 76))
