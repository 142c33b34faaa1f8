"""CPU of a hot-seat hand-off in the log pane: the whole log wrapped again for the new seat's eyes
(or, "kept per seat", that seat's lines as last wrapped taken back)
(prints figures, asserts nothing).

    .venv/bin/python bench/handoff.py [--actions 900] [--seed 5] [--handoffs 40] [--width 80]

A two-seat hot-seat game is played from here (both seats by the computer's "normal" script) for
``--actions`` actions (or to its end), then the full app (``MQApp``, headless) opens it and its log pane
is handed each seat's snapshot in turn, ``--handoffs`` times: every change of seat writes the pane
again. The figure is process CPU per hand-off, for the one-pass rewrite (``GameLog._rewrite``) and,
in the same run on the same logs, the old way (``GameLog._rewrite_each``: RichLog.write per entry),
and the pane's lines are checked to be the same both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import make_bot
from mqtui.engine.view import view_for
from mqtui.store import LocalStore
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.session import SeatSpec, new_store
from mqtui.ui.settings import Settings
from mqtui.ui.widgets.log import GameLog


def played(seed: int, actions: int) -> LocalStore:
    store = new_store([SeatSpec("Ann", "human"), SeatSpec("Bob", "human")], seed, bot_delay=0)
    scripts = {seat: make_bot("normal", seed=seat) for seat in (0, 1)}
    for _ in range(actions):
        if store.state.stage == "over":
            break
        seat = store.engine.deciding(store.state)
        legal = list(store.engine.legal(store.state, seat))
        store.apply(scripts[seat].choose(store.engine, view_for(store.state, seat), seat, legal).action)
    return store


async def measure(store: LocalStore, handoffs: int, width: int) -> None:
    app = MQApp(
        None, settings=Settings(pass_countdown=0, bot_delay=0.0), save_settings_file=False, bot_delay=0
    )
    app.call_later(lambda: app.open_game(store))  # type: ignore[arg-type]
    async with app.run_test(size=(width, 30)) as pilot:
        while not any(isinstance(s, GameScreen) for s in app.screen_stack):
            await pilot.pause()
        await pilot.pause()
        log = next(s for s in app.screen_stack if isinstance(s, GameScreen)).query_one(GameLog)
        snaps = [store.snapshot(seat) for seat in (0, 1)]
        entries = [len(s.log) for s in snaps]
        one_pass = log._rewrite
        figures: dict[str, list[float]] = {"one pass": [], "entry by entry": [], "kept per seat": []}
        shown: dict[tuple[str, int], list[str]] = {}
        seat = log._seat or 0
        ways = [("entry by entry", log._rewrite_each), ("one pass", one_pass), ("kept per seat", one_pass)]
        for _ in range(handoffs):
            ways.reverse()  # each way shows each seat in turn
            for way, rewrite in ways:
                log._rewrite = rewrite  # type: ignore[method-assign]
                if way != "kept per seat":
                    log._kept.clear()  # (each seat's lines as last wrapped: none to take back)
                seat = 1 - seat  # another seat's eyes: the pane is written again
                t0 = time.process_time()
                log.watch_snapshot(snaps[seat])
                figures[way].append((time.process_time() - t0) * 1000)
                shown[way, seat] = [strip.text for strip in log.lines]
        for seat in (0, 1):
            assert shown["one pass", seat] == shown["entry by entry", seat] == shown["kept per seat", seat], (
                "the two ways show different lines"
            )
        print(
            f"log entries per seat: {entries}, pane lines: {len(log.lines)}, terminal width {width} (pane {log.scrollable_content_region.width}), {handoffs} hand-offs"
        )
        base = statistics.median(figures["entry by entry"])
        for way, ms in figures.items():
            med = statistics.median(ms)
            print(
                f"{way:>15}: {med:7.2f} ms CPU per hand-off (median; mean {statistics.mean(ms):.2f}) x{med / base:.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=900)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--handoffs", type=int, default=40)
    parser.add_argument("--width", type=int, default=80)
    args = parser.parse_args()
    os.environ.setdefault("MQTUI_DATA", tempfile.mkdtemp(prefix="mqbench"))
    store = played(args.seed, args.actions)
    asyncio.run(measure(store, args.handoffs, args.width))


if __name__ == "__main__":
    main()
