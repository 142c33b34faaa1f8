"""The simulator (mqtui.sim) and ``mqtui sim``: reproducible games, seat rotation, the report's keys."""

from __future__ import annotations

import json

import pytest

from mqtui.cli import main
from mqtui.engine.game import Engine
from mqtui.sim import GameResult, play_game, run, seat_kinds, summarise

REPORT_KEYS = {
    "games",
    "finished",
    "capped",
    "errors",
    "decisions",
    "seconds",
    "decisions_per_s",
    "games_per_s",
    "mean_rounds",
    "median_rounds",
    "wins",
    "win_rate_by_seat",
    "win_rate_by_kind",
    "deaths",
    "boss_fights",
    "boss_wins",
    "decision_ms",
}


def test_a_game_replays_exactly_from_its_seed(engine: Engine) -> None:
    first = play_game(engine, ["normal", "random", "normal"], seed=3)
    again = play_game(engine, ["normal", "random", "normal"], seed=3)
    assert not first.error
    assert (first.decisions, first.winners, first.rounds, first.levels) == (
        again.decisions,
        again.winners,
        again.rounds,
        again.levels,
    )


def test_rotation_gives_every_kind_every_seat() -> None:
    bots = ("hard", "normal", "normal", "normal")
    seats = [seat_kinds(bots, g, rotate=True) for g in range(4)]
    assert [s.index("hard") for s in seats] == [0, 1, 2, 3]
    assert all(sorted(s) == sorted(bots) for s in seats)
    assert seat_kinds(bots, 3, rotate=False) == list(bots)


def test_summary_reports_wins_rounds_and_decision_times(engine: Engine) -> None:
    results, seconds = run(engine, 3, ["normal", "random"], seed=5, time_decisions=True, rotate=True)
    report = summarise(results, seconds)
    assert set(report) >= REPORT_KEYS
    assert report["games"] == 3 and report["errors"] == 0
    assert set(report["win_rate_by_kind"]) == {"normal", "random"}
    assert report["seats_by_kind"] == {"normal": 3, "random": 3}
    times = report["decision_ms"]["normal"]
    assert 0 < times["median"] <= times["p99"] <= times["max"]


def test_round_cap_stops_a_game(engine: Engine) -> None:
    result = play_game(engine, ["random", "random"], seed=1, round_cap=3)
    assert result.capped and not result.finished and result.rounds == 4


def test_cli_sim_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["sim", "--games", "2", "--players", "2", "--bots", "normal,random", "--json", "--times", "--rotate"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(out) >= REPORT_KEYS
    assert out["games"] == 2


def test_cli_sim_rejects_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "1", "--bots", "genius"]) == 2
    assert "--bots" in capsys.readouterr().err


def test_a_boss_won_together_counts_for_both_but_not_as_a_sole_win() -> None:
    bots = ("hard", "normal")
    results = [
        GameResult(seed=1, bots=bots, finished=True, winners=[0, 1]),
        GameResult(seed=2, bots=bots, finished=True, winners=[0]),
        GameResult(seed=3, bots=bots, finished=True, winners=[1]),
    ]
    report = summarise(results, 1.0)
    assert report["wins"] == [2, 2]
    assert report["shared_wins"] == 1
    assert report["win_rate_by_kind"] == {"hard": round(2 / 3, 3), "normal": round(2 / 3, 3)}
    assert report["sole_win_rate_by_kind"] == {"hard": round(1 / 3, 3), "normal": round(1 / 3, 3)}


def test_sim_and_the_app_play_the_same_game_from_the_same_seed_and_seats(engine: Engine) -> None:
    """One bot-seeding rule (mqtui.bots.seat_bot): the simulator's game is the one the app's store
    plays with the same seats and seed, decision for decision."""
    from mqtui.bots import bot_seed
    from mqtui.engine.defs import COLOURS
    from mqtui.sim import NAMES
    from mqtui.store import LocalStore, Seat

    kinds = ("normal", "easy", "random")
    result = play_game(engine, kinds, 21, round_cap=12)
    store = LocalStore.new(engine, tuple(Seat(NAMES[i], COLOURS[i], k) for i, k in enumerate(kinds)), 21, 0)
    while store.state.round <= 12 and store.step_bot():
        pass
    s = store.state
    assert not result.error and result.decisions == len(store.actions) > 300
    assert (result.rounds, result.levels, result.deaths) == (
        s.round,
        [h.level for h in s.heroes],
        [h.deaths for h in s.heroes],
    )
    assert len({bot_seed(21, seat) for seat in range(6)} | {bot_seed(22, 0)}) == 7
