"""The code before against the code after, in one run: the realistic-pace load of ``bench/net_paced.py``
against the host of a baseline revision and the host of this tree, each host in a child process.

    .venv/bin/python bench/net.py --realistic --baseline [REV] [--sizes 50,100,200] [--think 5]
        [--table-actions 6] [--repeat 1] [--json]

The baseline tree is ``git worktree add --detach`` of REV in a temporary folder (removed at the end, also
on an error or Ctrl+C); its host runs as ``python bench/net_host.py`` with ``PYTHONPATH`` and the working
folder set to that tree and this venv's Python (the host reports the ``mqtui`` it imported, checked
against the tree). This tree's host runs the same way from this checkout (what is on disk, committed or
not), so both are measured alike.

The default REV, 26047a8, is main just before the first work on issue 28: the first commit of that work,
454efdf "write before tell when writing fails" (2026-12-01 16:38), is on the branch 'host' that left main
at 26047a8 and came back in cc60dee "merge host: write before tell, connection budgets...". (The earlier
merge 744467d "Merge branch 'host' (early)" on 2026-11-30 is another branch of that name: the log's event
kinds. Main before it, 2ebff04, is also before the redraw work of 'perf' to 'perf8', and its session app
costs about three times today's CPU per action: give ``--baseline 2ebff04`` to see that.)

For each number of players S (tables of four: S // 4 tables): the same client process
(``net_paced.py --client``), the same seed of the tables' random offsets and the same games' seeds
against each host, in the order baseline, current (``--repeat 2``: baseline, current, current, baseline;
the next repeats take the next seed), so that the machine's drift hits both. Per run a row (the load
average before and after it); per size the runs of a tree pooled and the ratios current / baseline:
key to own screen (median, p90), key to the others' screens, CPU of the session apps per table action
per session (acting, each other), the host process's CPU per table action, PSS per session (every app and
the fork server), the bench's SSH clients' CPU per table action (they share the machine) and the share
of the machine's CPUs busy while the tables played. With ``MQTUI_BENCH_ADVISOR=off`` both hosts'
sessions play with the advisor off (the host's settings, which served sessions keep); with
``MQTUI_BENCH_ADVISOR=off-current`` only this tree's (``--baseline HEAD``: the advisor's own cost). ``--json``:
standard output is the figures alone (the rows go to standard error).

The games are not the same move for move when the engines differ (the same seed may deal otherwise):
each table plays ``--table-actions`` actions of whatever comes (the deciding player's first action).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent))

from net_paced import Clients, JsonChild, PacedTable, load, play_paced
from net_sessions import Figures, pct

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_BASELINE = "26047a8"  # main just before the first work on issue 28 (see above)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


@contextlib.contextmanager
def baseline_tree(rev: str) -> Iterator[Path]:
    """A detached worktree of ``rev`` in a temporary folder, removed afterwards whatever happens."""
    folder = Path(tempfile.mkdtemp(prefix="mqtui-baseline-"))
    tree = folder / "tree"
    try:
        git("worktree", "add", "--detach", "--quiet", str(tree), rev)
        yield tree
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(folder, ignore_errors=True)
        with contextlib.suppress(subprocess.CalledProcessError):
            git("worktree", "prune")


class HostProc(JsonChild):
    """A lobby host of one tree in a child process (``bench/net_host.py``)."""

    async def start(self, tree: Path, folder: Path, players: int) -> None:
        folder.mkdir(parents=True)
        env = dict(os.environ, PYTHONPATH=str(tree), MQTUI_DATA=str(folder / "data"))
        current = tree.resolve() == HERE.parent.resolve()
        advisor = os.environ.get("MQTUI_BENCH_ADVISOR")
        if advisor == "off" or (
            advisor == "off-current" and current
        ):  # (the host's settings: every session's)
            (folder / "data").mkdir()
            (folder / "data" / "settings.json").write_text('{"advisor": false}')
        if os.environ.get("MQTUI_BENCH_COUNTERS"):  # the apps count where their CPU goes (bench/counters.py)
            Path(os.environ["MQTUI_BENCH_COUNTERS"]).mkdir(parents=True, exist_ok=True)
            env["PYTHONPATH"] += os.pathsep + str(HERE / "counters")
            env["MQTUI_BENCH_TREE"] = "current" if current else "baseline"
        await self.spawn(
            sys.executable, str(HERE / "net_host.py"), "--folder", str(folder), "--players", str(players),
            cwd=str(tree), env=env,  # (``python -m`` puts the working folder first: the fork server's too)
        )  # fmt: skip
        hello = await asyncio.wait_for(self.said.get(), 180)
        want = (tree / "mqtui").resolve()
        if Path(hello["mqtui"]) != want:
            raise SystemExit(f"the host imported {hello['mqtui']}, not {want}")
        self.port: int = hello["port"]
        self.pid: int = hello["pid"]
        self.forks: int = hello["forks"]
        self.made = [
            self._table(t["id"], {int(s): c for s, c in t["codes"].items()}) for t in hello["tables"]
        ]

    def _table(self, tid: str, codes: dict[int, str]) -> PacedTable:
        async def state() -> tuple[int, int]:
            got = await self.ask("state", table=tid)
            return int(got["n"]), int(got["deciding"])

        async def changed(n: int, limit: float) -> bool:
            return bool((await self.ask("changed", table=tid, n=n, limit=limit))["changed"])

        return PacedTable(tid, codes, state, changed)

    async def children(self) -> dict[int, int]:
        return {int(pid): int(seat) for pid, seat in (await self.ask("children"))["children"]}

    async def close(self) -> None:
        if self.proc.returncode is None and self.proc.stdin is not None:
            with contextlib.suppress(Exception):
                self.proc.stdin.write(b'{"op": "close", "rid": 0}\n')
        await self.stop(30.0)


async def run_child(
    tree: Path, folder: Path, size: int, actions: int, think: float, seed: int, warmup: int = 0
) -> Figures:
    """The paced run against the host of ``tree``."""
    host, clients = HostProc(), Clients()
    try:
        await host.start(tree, folder, size)
        await clients.start()
        return await play_paced(
            clients, host.port, host.made, host.children, [host.forks], 4 * (size // 4), actions, think,
            seed, host_pid=host.pid, warmup=warmup,
        )  # fmt: skip
    finally:
        if hasattr(clients, "proc"):
            await clients.close()
        if hasattr(host, "proc"):
            await host.close()


def pooled(runs: list[Figures]) -> dict[str, float]:
    """The runs of one tree at one size as one: latencies pooled, CPU weighted by the actions."""
    own = [x for f in runs for x in f.own]
    others = [x for f in runs for x in f.others]
    actions = sum(f.actions for f in runs)

    def per_action(name: str) -> float:
        return sum(getattr(f, name) * f.actions for f in runs) / actions if actions else math.nan

    def median(values: list[float]) -> float:
        return statistics.median(values) * 1e3 if values else math.nan

    return {
        "runs": len(runs),
        "actions": actions,
        "own_median_ms": median(own),
        "own_p90_ms": pct(own, 0.9) * 1e3,
        "others_median_ms": median(others),
        "others_p90_ms": pct(others, 0.9) * 1e3,
        "cpu_ms": per_action("cpu_ms"),
        "cpu_own_ms": per_action("cpu_own_ms"),
        "cpu_others_ms": per_action("cpu_others_ms"),
        "host_cpu_ms": per_action("host_cpu_ms"),
        "clients_cpu_ms": per_action("clients_cpu_ms"),
        "busy": statistics.mean(f.busy for f in runs),
        "pss_mib": statistics.mean(f.mem_mib for f in runs),
        "start_s": statistics.mean(f.start_s for f in runs),
    }


ROWS = [  # (label, key) of the pooled figures, in the order printed
    ("key->own median", "own_median_ms"),
    ("p90", "own_p90_ms"),
    ("key->others median", "others_median_ms"),
    ("p90", "others_p90_ms"),
    ("CPU/action/session", "cpu_ms"),
    ("acting", "cpu_own_ms"),
    ("others", "cpu_others_ms"),
    ("host CPU/action", "host_cpu_ms"),
    ("clients' CPU/action", "clients_cpu_ms"),
    ("machine busy", "busy"),
    ("PSS/session", "pss_mib"),
]


def _row(name: str, p: dict[str, float]) -> str:
    return (
        f"    {name:<8} ({p['runs']} run{'s' if p['runs'] > 1 else ''}, {p['actions']} actions)  "
        f"key->own {p['own_median_ms']:5.0f} / {p['own_p90_ms']:5.0f} ms  "
        f"key->others {p['others_median_ms']:5.0f} / {p['others_p90_ms']:5.0f} ms  "
        f"CPU {p['cpu_ms']:5.1f} ms/action/session (acting {p['cpu_own_ms']:.0f}, others {p['cpu_others_ms']:.0f})  "
        f"host CPU {p['host_cpu_ms']:.0f} ms/action  clients' CPU {p['clients_cpu_ms']:.0f} ms/action  "
        f"machine {p['busy']:.0%} busy  PSS {p['pss_mib']:.1f} MiB/session"
    )


def ratios(new: dict[str, float], old: dict[str, float]) -> dict[str, float]:
    return {key: new[key] / old[key] if old[key] else math.nan for _, key in ROWS}


def _clean(value: Any) -> Any:
    """NaN as null (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


async def baseline_bench(
    tmp: Path,
    rev: str,
    sizes: list[int],
    actions: int,
    think: float,
    repeat: int,
    log: TextIO = sys.stdout,
    warmup: int = 0,
) -> dict[str, Any]:
    """Every size against both trees; the figures (also as JSON: NaN as null)."""
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    here = git("describe", "--always", "--dirty", "--abbrev=12")
    print(
        f"before / after at a realistic pace (clients in a child process, tables offset at random, one action "
        f"per table every {think:g} s, {actions} per table counted after {warmup} not; full app, 80x24, forked apps; each host in a child "
        f"process): baseline {git('log', '-1', '--format=%h %s', commit)[:90]}  against  current {here} "
        f"({ROOT}); median / p90:",
        file=log,
        flush=True,
    )
    main = asyncio.current_task()
    assert main is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)  # (Ctrl+C cancels it too)
    result: dict[str, Any] = {
        "baseline": commit,
        "current": here,
        "think": think,
        "actions": actions,
        "warmup": warmup,
    }
    runs: list[dict[str, Any]] = []
    sizes_out: list[dict[str, Any]] = []
    with baseline_tree(commit) as old_tree:
        trees = {"baseline": old_tree, "current": ROOT}
        for size in sizes:
            got: dict[str, list[Figures]] = {"baseline": [], "current": []}
            for r in range(repeat):
                for which in ("baseline", "current") if r % 2 == 0 else ("current", "baseline"):
                    before = load()
                    f = await run_child(
                        trees[which],
                        tmp / f"{which}-{size}-{r}",
                        size,
                        actions,
                        think,
                        seed=5 + r,
                        warmup=warmup,
                    )
                    after = load()
                    print(f"  [{before}]\n{_run_line(which, f)}\n  [{after}]", file=log, flush=True)
                    got[which].append(f)
                    runs.append(
                        {"tree": which, "players": f.size, "repeat": r, "seed": 5 + r, "load_before": before,
                         "load_after": after, **pooled([f]),
                         "own_ms": [round(x * 1e3, 1) for x in f.own],
                         "others_ms": [round(x * 1e3, 1) for x in f.others]}
                    )  # fmt: skip
            old, new = pooled(got["baseline"]), pooled(got["current"])
            ratio = ratios(new, old)
            print(f"  {4 * (size // 4)} players, pooled:", file=log)
            print(_row("baseline", old), file=log)
            print(_row("current", new), file=log)
            print(
                "    current / baseline: " + ", ".join(f"{label} {ratio[key]:.2f}x" for label, key in ROWS),
                file=log,
                flush=True,
            )
            sizes_out.append({"players": 4 * (size // 4), "baseline": old, "current": new, "ratio": ratio})
    result |= {"runs": runs, "sizes": sizes_out}
    return _clean(result)  # type: ignore[no-any-return]


def _run_line(which: str, f: Figures) -> str:
    p = pooled([f])
    return (
        f"{f.size:>4} players  {which:<8} {f.tables:>3} tables  start {f.start_s:5.1f} s  "
        f"key->own {p['own_median_ms']:5.0f} / {p['own_p90_ms']:5.0f} ms  "
        f"key->others {p['others_median_ms']:5.0f} / {p['others_p90_ms']:5.0f} ms  "
        f"CPU {f.cpu_ms:5.1f} ms/action/session (acting {f.cpu_own_ms:.0f}, others {f.cpu_others_ms:.0f})  "
        f"host CPU {f.host_cpu_ms:.0f} ms/action  clients' CPU {f.clients_cpu_ms:.0f} ms/action  "
        f"machine {f.busy:.0%} busy  PSS {f.mem_mib:.1f} MiB/session  ({f.actions} actions)"
    )
