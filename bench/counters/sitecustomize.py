"""Where a served session app's CPU goes, counted inside each app (bench only; see bench/counters.py).

With ``MQTUI_BENCH_COUNTERS`` set to a folder, ``bench/net_baseline.py`` puts this folder on the hosts'
``PYTHONPATH``: Python imports this module at start in the host, its fork server and so in every session
app forked from it, which then counts the process CPU of a few of the app's parts and writes the counts
to ``FOLDER/TREE_PID.json`` after each snapshot it shows (and after each frame), with the counts as they
stood after each snapshot (so that a report can leave the start-up out). Its own cost is a few
``process_time`` calls per part. It wraps methods of Textual (private ones among them) and of mqtui by
name, so it follows one Textual version (8.2.8); a name that is missing is skipped, and said."""

from __future__ import annotations

import collections
import functools
import gc
import json
import os
import sys
import time
from typing import Any

FOLDER = os.environ.get("MQTUI_BENCH_COUNTERS", "")
TAG = os.environ.get("MQTUI_BENCH_TREE", "tree")
T: collections.Counter[str] = collections.Counter()  # seconds of process CPU per part
N: collections.Counter[str] = collections.Counter()  # calls per part
_inside: collections.Counter[str] = collections.Counter()
_after_snapshots: list[dict[str, Any]] = []


PROFILE = os.environ.get("MQTUI_BENCH_PROFILE", "")  # also profile each session app (cProfile)
_profiler: Any = None


def _start_profile() -> None:
    global _profiler
    import cProfile

    _profiler = cProfile.Profile()
    _profiler.enable()


def _dump(snapshot: bool) -> None:
    if snapshot and _profiler is not None and len(_after_snapshots) == 2:
        _profiler.clear()  # (the start-up left out, as bench/counters.py leaves it out)
    elif snapshot and _profiler is not None and len(_after_snapshots) % 5 == 4:
        _profiler.dump_stats(os.path.join(FOLDER, f"{TAG}_{os.getpid()}.pstats"))  # (this stops it)
        _profiler.enable()
    times = os.times()
    now = {"t": dict(T), "n": dict(N), "cpu": times.user + times.system}
    if snapshot:
        _after_snapshots.append(now)
    with open(os.path.join(FOLDER, f"{TAG}_{os.getpid()}.json"), "w") as f:
        json.dump({**now, "after_snapshots": _after_snapshots}, f)


def _count(owner: Any, name: str, part: str, snapshot: bool = False) -> None:
    method = getattr(owner, name, None)
    if method is None:
        print(f"bench counters: no {owner.__name__}.{name}", file=sys.stderr)
        return

    @functools.wraps(method)
    def counted(*args: Any, **kwargs: Any) -> Any:
        N[part] += 1
        if _inside[part]:  # (a part inside itself counts once)
            return method(*args, **kwargs)
        _inside[part] += 1
        t0 = time.process_time()
        try:
            return method(*args, **kwargs)
        finally:
            T[part] += time.process_time() - t0
            _inside[part] -= 1
            _dump(snapshot)

    setattr(owner, name, counted)


def _gc(phase: str, info: dict[str, int], started: list[float] = [0.0]) -> None:  # noqa: B006
    if phase == "start":
        started[0] = time.process_time()
    else:
        T[f"gc {info['generation']}"] += time.process_time() - started[0]
        N[f"gc {info['generation']}"] += 1


if FOLDER:
    import textual._compositor
    import textual.css.stylesheet
    import textual.screen

    import mqtui.ui.screens.game as game

    gc.callbacks.append(_gc)
    if PROFILE:
        os.register_at_fork(after_in_child=_start_profile)  # (the fork server forks each session's app)
    _count(textual.screen.Screen, "_refresh_layout", "layout")
    _count(textual.screen.Screen, "_compositor_refresh", "frame (draw and write)")
    _count(textual._compositor.Compositor, "render_full_update", "whole screen drawn")
    _count(textual._compositor.Compositor, "render_partial_update", "changed regions drawn")
    _count(textual.css.stylesheet.Stylesheet, "update_nodes", "restyle")
    _count(textual.css.stylesheet.Stylesheet, "parse", "CSS parse")
    _count(game.GameScreen, "_receive", "snapshot shown (panes' own code)", snapshot=True)
    if hasattr(game, "advice_for"):
        _count(game, "advice_for", "advisor")
