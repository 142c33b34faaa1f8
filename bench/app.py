"""Benchmark of the Textual app (prints figures, asserts nothing).

    .venv/bin/python bench/app.py [--runs N] [--presses N]

1. Start-up to the first frame of the title screen, against a bare Textual app with the same number
   of panes, each in a fresh process (imports included), median of N runs of each, the two
   alternating; and the memory (RSS) of both at that point.
2. Key press to updated frame (median) on the game screen: map cursor moves, and game actions (a move
   into a known room and its undo, through the store).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def child(kind: str) -> None:
    """Run one app headless until its first frame; print seconds and RSS as JSON."""
    t0 = time.perf_counter()
    import asyncio

    from textual.app import App
    from textual.widgets import Footer, OptionList, Static

    if kind == "mqtui":
        from mqtui.ui.app import MQApp

        app: App[None] = MQApp(save_settings_file=False, bot_delay=0)
    else:

        class Bare(App[None]):
            def compose(self):  # the title screen's panes: logo, tagline, menu, footer
                yield Static("logo")
                yield Static("tagline")
                yield OptionList("New game", "Continue", "Load", "Rules", "Cards", "Settings", "Quit")
                yield Footer()

        app = Bare()

    first: list[float] = []

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            first.append(time.perf_counter() - t0)

    asyncio.run(run())
    print(json.dumps({"seconds": first[0], "rss": rss_mb()}))


def startup(runs: int) -> dict[str, tuple[float, float]]:
    """Median seconds and RSS per kind. The two kinds alternate (bare, mqtui, mqtui, bare, ...), so a
    busy moment on a shared machine falls on both alike."""
    env = dict(os.environ, MQTUI_DATA=tempfile.mkdtemp(prefix="mqbench"))
    secs: dict[str, list[float]] = {"bare": [], "mqtui": []}
    mems: dict[str, list[float]] = {"bare": [], "mqtui": []}
    for i in range(runs):
        for kind in ("bare", "mqtui") if i % 2 == 0 else ("mqtui", "bare"):
            res = subprocess.run(
                [sys.executable, __file__, "--child", kind], capture_output=True, text=True, env=env, cwd=ROOT
            )
            data = json.loads(res.stdout.strip().splitlines()[-1])
            secs[kind].append(data["seconds"])
            mems[kind].append(data["rss"])
    return {kind: (statistics.median(secs[kind]), statistics.median(mems[kind])) for kind in secs}


async def _press_to_frame(app, key: str) -> float:  # type: ignore[no-untyped-def]
    """Seconds from a key press to the next frame the driver writes (the screen updating)."""
    import asyncio

    stamps: list[float] = []
    original = app._display

    def display(screen, renderable) -> None:  # type: ignore[no-untyped-def]
        # headless apps skip the terminal output: build it here, as a real terminal would get it
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(app.console)
            stamps.append(time.perf_counter())
        original(screen, renderable)

    app._display = display
    try:
        t0 = time.perf_counter()
        app.simulate_key(key)
        while not stamps and time.perf_counter() - t0 < 2:
            await asyncio.sleep(0.0005)
        return (stamps[0] if stamps else time.perf_counter()) - t0
    finally:
        app._display = original


def keys(presses: int) -> dict[str, float]:
    import asyncio

    sys.path.insert(0, str(ROOT / "tests"))
    os.environ["MQTUI_DATA"] = tempfile.mkdtemp(prefix="mqbench")
    from ui_helpers import add_room, make_app, settle, store_for

    result: dict[str, float] = {}

    async def run() -> None:
        store = store_for((("Ann", "human"), ("Bob", "random"), ("Cy", "random"), ("Di", "random")), seed=3)
        add_room(store, "coat-check", 1, 0)
        add_room(store, "pawn-shop", -1, 0)
        app = make_app(store)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("m")
            times = []
            for i in range(presses):
                times.append(await _press_to_frame(app, "right" if i % 2 == 0 else "left"))
                await pilot.pause()
            result["map cursor move"] = statistics.median(times)
            times = []
            for i in range(presses):
                times.append(await _press_to_frame(app, "shift+right" if i % 2 == 0 else "ctrl+z"))
                await settle(pilot, app)
            assert store.state.heroes[0].x in (0, 1)
            result["game action (move / undo)"] = statistics.median(times)

    asyncio.run(run())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    start = startup(args.runs)
    (bare_s, bare_m), (mq_s, mq_m) = start["bare"], start["mqtui"]
    print(
        f"start-up to first frame (median of {args.runs} each, alternating fresh processes, imports included)"
    )
    print(f"  bare Textual app, same panes: {bare_s * 1000:7.0f} ms   RSS {bare_m:6.1f} MB")
    print(f"  mqtui title screen:           {mq_s * 1000:7.0f} ms   RSS {mq_m:6.1f} MB")
    print(f"  ratio mqtui / bare:           {mq_s / bare_s:7.2f} x     RSS {mq_m / bare_m:5.2f} x")
    print(f"key press to updated frame, game screen 120x40 (median of {args.presses})")
    for name, secs in keys(args.presses).items():
        print(f"  {name:28s} {secs * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
