#!/usr/bin/env python3
"""The replay view's costs: building a game's timeline, and stepping through it.

A whole four-player game between normal computer players (to its win) is replayed into a
:class:`~mqtui.timeline.Timeline`. Baselines measured in the same run on the same log: playing the
log again once with no states kept (``saves.replay``), and copying one state. Prints medians.

Usage: ``.venv/bin/python bench/replay.py [--seed 7] [--repeat 20]``
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.saves import median_ms  # noqa: E402
from mqtui import saves  # noqa: E402
from mqtui.engine.game import copy_state  # noqa: E402
from mqtui.store import LocalStore, Seat  # noqa: E402
from mqtui.timeline import EVERY, Timeline  # noqa: E402
from mqtui.ui.session import engine  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    eng = engine()
    names = (("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Di", "yellow"))
    store = LocalStore.new(eng, tuple(Seat(n, c, "normal") for n, c in names), args.seed, bot_delay=0)
    while store.step_bot():
        pass
    data = saves.decode(store.to_bytes())
    n = len(store.actions)
    build = median_ms(lambda: Timeline.from_store(store), args.repeat)
    plain = median_ms(lambda: saves.replay(data, eng), args.repeat)
    copy = median_ms(lambda: copy_state(store.state), args.repeat * 10)
    t = Timeline.from_store(store)
    rng = random.Random(1)
    jumps = [rng.randrange(len(t)) for _ in range(200)]

    def jump() -> None:
        for i in jumps:
            t.state(i)

    def forward() -> None:
        for i in range(len(t)):
            t.state(i)

    jump_ms = median_ms(jump, 5) / len(jumps)
    step_ms = median_ms(forward, 5) / len(t)
    snap_ms = median_ms(lambda: [t.snapshot(i, 0) for i in jumps[:50]], 5) / 50
    print(f"game: {n} actions, {t.rounds} rounds, a state kept every {EVERY} actions")
    print(f"build the timeline      {build:8.2f} ms   ({build / plain:.2f}x replaying the log once)")
    print(f"jump to any position    {jump_ms:8.3f} ms   ({jump_ms / copy:.1f}x copying one state)")
    print(f"step forward by one     {step_ms:8.3f} ms   ({step_ms / copy:.1f}x copying one state)")
    print(f"a seat's snapshot       {snap_ms:8.3f} ms   (view and log at a random position)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
