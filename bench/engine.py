"""Engine speed and memory: random legal play on one core.

    .venv/bin/python bench/engine.py [--seconds 10] [--memory-games 2000] [--json]

Prints decisions per second and games per second for random play, and, in the same run, the same
figure for RLCard's UNO environment (the issue's yardstick) when `rlcard` is installed
(`pip install rlcard`), as a ratio. Memory: resident size sampled while playing many short games
(it should stay flat).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.sim import NAMES

COLOURS = ("red", "blue", "green", "yellow")


def random_play(engine: Engine, seconds: float, round_cap: int = 200) -> tuple[int, int, float]:
    decisions = games = 0
    started = time.perf_counter()
    seed = 0
    while time.perf_counter() - started < seconds:
        seed += 1
        rnd = random.Random(seed)
        state, _ = engine.new_game(list(zip(NAMES[:4], COLOURS, strict=True)), seed)
        while state.stage != STAGE_OVER and state.round <= round_cap:
            seat = engine.deciding(state)
            engine.apply(state, rnd.choice(engine.legal(state, seat)))
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - started


def uno_baseline(seconds: float) -> float | None:
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 1})
    rnd = random.Random(1)
    n = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rnd.choice(list(state["legal_actions"].keys())))
            n += 1
    return n / (time.perf_counter() - started)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def memory_run(engine: Engine, games: int, round_cap: int) -> list[float]:
    samples = []
    for g in range(games):
        rnd = random.Random(g)
        state, _ = engine.new_game(list(zip(NAMES[:4], COLOURS, strict=True)), g)
        while state.stage != STAGE_OVER and state.round <= round_cap:
            engine.apply(state, rnd.choice(engine.legal(state, engine.deciding(state))))
        if g % max(1, games // 10) == 0 or g == games - 1:
            samples.append(round(rss_mb(), 1))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--memory-games", type=int, default=2000)
    parser.add_argument("--memory-round-cap", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    engine = Engine(load_content())
    decisions, games, seconds = random_play(engine, args.seconds)
    uno = uno_baseline(args.seconds)
    memory = memory_run(engine, args.memory_games, args.memory_round_cap)
    report = {
        "decisions_per_s": round(decisions / seconds),
        "games_per_s": round(games / seconds, 3),
        "games": games,
        "uno_decisions_per_s": round(uno) if uno else None,
        "ratio_vs_uno": round(decisions / seconds / uno, 2) if uno else None,
        "rss_mb_samples": memory,
        "rss_growth_mb": round(memory[-1] - memory[0], 1) if memory else 0,
    }
    if args.json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
