"""Where the session apps' CPU goes per snapshot, from the counts of bench/counters/sitecustomize.py.

    MQTUI_BENCH_COUNTERS=/tmp/counts .venv/bin/python bench/net.py --realistic --baseline --sizes 48
    .venv/bin/python bench/counters.py /tmp/counts [--skip 3]

For each tree (baseline, current) the apps' counts from their ``--skip``-th snapshot on (the start-up
left out: the first snapshots come with the screen's mounting), summed over the apps and divided by the
snapshots they showed: ms of process CPU per snapshot, in all and per part, and the part's calls per
snapshot. The parts overlap (a frame drawn inside a layout counts in both).

With ``MQTUI_BENCH_PROFILE=1`` as well, each app also writes a cProfile of itself (its first two
snapshots left out) to ``FOLDER/TREE_PID.pstats``; ``pstats.Stats(*files)`` adds them up."""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

SHOWN = "snapshot shown (panes' own code)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--skip", type=int, default=3)
    args = ap.parse_args()
    trees: dict[str, list[dict[str, object]]] = collections.defaultdict(list)
    for path in sorted(args.folder.glob("*.json")):
        trees[path.stem.rsplit("_", 1)[0]].append(json.loads(path.read_text()))
    for tree, apps in sorted(trees.items()):
        t: collections.Counter[str] = collections.Counter()
        n: collections.Counter[str] = collections.Counter()
        cpu = 0.0
        shown = 0
        used = 0
        for app in apps:
            marks = app["after_snapshots"]
            assert isinstance(marks, list)
            if len(marks) <= args.skip:
                continue
            start = marks[args.skip - 1]
            used += 1
            cpu += app["cpu"] - start["cpu"]  # type: ignore[operator]
            for key, value in app["t"].items():  # type: ignore[attr-defined]
                t[key] += value - start["t"].get(key, 0)
            for key, value in app["n"].items():  # type: ignore[attr-defined]
                n[key] += value - start["n"].get(key, 0)
        shown = n[SHOWN]
        if not shown:
            print(f"{tree}: no app showed more than {args.skip} snapshots")
            continue
        print(
            f"{tree}: {used} apps, {shown} snapshots after their {args.skip}th: {1e3 * cpu / shown:.1f} ms CPU each"
        )
        for key in sorted(t, key=lambda k: -t[k]):
            print(f"  {key:34s} {1e3 * t[key] / shown:7.2f} ms  {n[key] / shown:6.2f} calls per snapshot")


if __name__ == "__main__":
    main()
