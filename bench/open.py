"""CPU the app spends opening: the title screen, and a game screen (prints figures, asserts nothing).

    .venv/bin/python bench/open.py [--opens 20] [--warm 2] [--base DIR] [--rounds 4] [--profile] [--json]

Each UI test opens the app (most open a game screen too), and so does a player's first screen over
SSH, a load and a hot-seat start. One "open", in this process, headless, as the UI tests do it
(``tests/ui_helpers.py``):

- ``title``: ``MQApp`` at 80x24 on its title screen, until idle (one ``pilot.pause()``), then closed;
- ``game``: the same app opening a two-seat local game (human and random) at once: title screen and
  game screen.

Process CPU time per open (the mean over ``--opens`` opens after ``--warm`` warm-up opens, which pay
the imports and the first-time caches), and the wall time.

``--base DIR``: the same figures for another checkout of mqtui (e.g. ``git worktree add /tmp/open-base
b8df870``) measured in the same run: child processes, ``--rounds`` of them per tree, alternating
between this tree and DIR (imported through ``PYTHONPATH``); the medians of the rounds are compared.
``--profile`` prints a cProfile of the game opens (top functions by cumulative time).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(os.environ.get("MQTUI_BENCH_TREE", ROOT))  # the checkout measured (--base: its children)
sys.path[:0] = [str(TREE), str(TREE / "tests")]

KINDS = ("title", "game")


async def open_once(kind: str) -> None:
    from ui_helpers import local_app, make_app, store_for

    app = make_app(None) if kind == "title" else local_app(store_for())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()


def measure(kind: str, opens: int, warm: int, prof: cProfile.Profile | None = None) -> dict[str, float]:
    """Mean CPU and wall milliseconds per open of ``kind``."""
    for _ in range(warm):
        asyncio.run(open_once(kind))
    cpu = wall = 0.0
    for _ in range(opens):
        c0, w0 = time.process_time(), time.perf_counter()
        if prof is not None:
            prof.enable()
        asyncio.run(open_once(kind))
        if prof is not None:
            prof.disable()
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
    return {"cpu_ms": 1000 * cpu / opens, "wall_ms": 1000 * wall / opens}


def here(args: argparse.Namespace, progress: Any) -> dict[str, dict[str, float]]:
    """Both kinds of open, in this process."""
    prof = cProfile.Profile() if args.profile else None
    out = {}
    for kind in KINDS:
        task = progress.add_task(kind, total=1)
        out[kind] = measure(kind, args.opens, args.warm, prof if kind == "game" else None)
        progress.advance(task)
    if prof is not None and not args.json:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    return out


def child(tree: Path, args: argparse.Namespace) -> dict[str, dict[str, float]]:
    env = dict(os.environ, MQTUI_BENCH_TREE=str(tree), PYTHONPATH=str(tree))
    cmd = [sys.executable, __file__, "--json", "--opens", str(args.opens), "--warm", str(args.warm)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(args: argparse.Namespace, progress: Any) -> dict[str, Any]:
    trees = {"this": ROOT, "base": Path(args.base).resolve()}
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"this": [], "base": []}
    task = progress.add_task("rounds", total=2 * args.rounds)
    for _ in range(args.rounds):
        for name in ("base", "this"):
            runs[name].append(child(trees[name], args))
            progress.advance(task)
    report: dict[str, Any] = {"trees": {k: str(v) for k, v in trees.items()}, "rounds": args.rounds}
    for name, results in runs.items():
        report[name] = {
            kind: {what: statistics.median(r[kind][what] for r in results) for what in ("cpu_ms", "wall_ms")}
            for kind in KINDS
        }
    return report


def show(name: str, figures: dict[str, dict[str, float]]) -> None:
    for kind in KINDS:
        f = figures[kind]
        print(f"  {name:5} {kind:5}: {f['cpu_ms']:6.1f} ms CPU, {f['wall_ms']:6.1f} ms wall per open")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opens", type=int, default=20, help="measured opens of each kind (default 20)")
    ap.add_argument("--warm", type=int, default=2, help="warm-up opens of each kind, not measured")
    ap.add_argument("--base", help="also measure this checkout, alternating (child processes)")
    ap.add_argument("--rounds", type=int, default=4, help="child processes per tree with --base")
    ap.add_argument("--profile", action="store_true", help="cProfile of the game opens (not with --base)")
    ap.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    args = ap.parse_args()
    os.environ.setdefault("MQTUI_DATA", tempfile.mkdtemp(prefix="mqbench"))
    from rich.progress import Progress

    with Progress(transient=True, disable=args.json or not sys.stdout.isatty()) as progress:
        report = compare(args, progress) if args.base else here(args, progress)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"app opens at 80x24, headless, mean of {args.opens} after {args.warm} warm-up opens:")
    if not args.base:
        show("", report)
        return 0
    print(
        f"(medians of {args.rounds} child processes per tree, alternating; base: {report['trees']['base']})"
    )
    show("base", report["base"])
    show("this", report["this"])
    for kind in KINDS:
        ratio = report["this"][kind]["cpu_ms"] / report["base"][kind]["cpu_ms"]
        print(f"  {kind}: this / base CPU = {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
