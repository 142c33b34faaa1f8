"""Network play, measured: how fast an action reaches every player, how many bytes a player gets, and
what a connected player costs in memory.

    .venv/bin/python bench/net.py [--sizes 1,50,200] [--modes fork,spawn] [--table-actions 6]
    .venv/bin/python bench/net.py --protocol [--actions 400] [--pings 400] [--no-ssh] [--json]
    .venv/bin/python bench/net.py --realistic [--sizes 50,100,200] [--think 5]   (see bench/net_paced.py)
    .venv/bin/python bench/net.py --realistic --baseline [REV] [--repeat 2]      (see bench/net_baseline.py)
    .venv/bin/python bench/net.py --watchers 10,100,1000                          (see bench/net_paced.py)

By default: many SSH sessions at once (see ``bench/net_sessions.py``): for each number of sessions,
memory per session, CPU per action per session and key press to the player's own screen and to the
other players' screens, with session apps forked from the fork server and (the baseline, as before)
started as fresh processes. With ``--protocol``, the figures below.

The authority runs as a real ``mqtui serve --no-ssh --socket PATH`` process with four human seats; four
protocol-level clients (:class:`~mqtui.net.netstore.NetStore`) join it with their join codes from this
process. For each action the deciding client sends, the figure is the time until *every* client has
received the new view; the baseline is a bare echo (ping/pong) round trip over the same sockets,
measured in the same run. With ``ssh`` installed it also serves two seats over SSH to real ``ssh``
clients and times an action from the keystroke to the new state on both terminals.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.net.netstore import NetStore
from mqtui.net.protocol import Snap

sys.path.insert(0, str(Path(__file__).resolve().parent))

from net_baseline import DEFAULT_BASELINE  # (the bench's own modules)

PY = sys.executable


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    """Proportional set size: shared library pages split between the processes sharing them."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return rss_kib(pid)


def ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20)
    return f"median {statistics.median(values) * 1e3:.3f} ms, p95 {q[18] * 1e3:.3f} ms"


SERVERS: list[asyncio.subprocess.Process] = []  # stopped at the end, whatever happens


async def stop_servers() -> None:
    for proc in SERVERS:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                await proc.wait()


async def start_server(
    tmp: Path, sock: str, extra: list[str]
) -> tuple[asyncio.subprocess.Process, list[str]]:
    env = dict(os.environ, MQTUI_DATA=str(tmp / "data"))
    proc = await asyncio.create_subprocess_exec(
        PY,
        "-m",
        "mqtui",
        "serve",
        "--socket",
        sock,
        "--seed",
        "7",
        "--timeout",
        "0",
        "--abandon",
        "0",
        "--bot-delay",
        "0",
        "--max-rate",
        "100000",  # the flood limit is not what is measured here
        *extra,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=env,
    )
    SERVERS.append(proc)
    assert proc.stdout is not None
    lines: list[str] = []
    while not any(line.startswith("Ctrl+C") for line in lines):
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        if not line:
            raise SystemExit("the server did not start:\n" + "".join(lines))
        lines.append(line)
    return proc, lines


async def protocol_bench(args: argparse.Namespace, tmp: Path, engine: Engine) -> dict[str, float]:
    sock = str(tmp / "game.sock")
    proc, banner = await start_server(tmp, sock, ["--no-ssh", "--new", "4"])
    codes = [m.group(1) for line in banner if (m := re.search(r"seat \d .*--code (\w+)", line))]
    assert len(codes) == 4, banner
    rss_idle = rss_kib(proc.pid)
    stores = [await NetStore.open_unix(engine, sock, code=c) for c in codes]
    await asyncio.sleep(0.2)
    rss_joined = rss_kib(proc.pid)
    arrivals: list[dict[int, float]] = [{} for _ in stores]
    for i, store in enumerate(stores):

        def hook(snap: Snap, t: float, i: int = i) -> None:
            arrivals[i].setdefault(snap.n, t)

        store.on_snap = hook

    # baseline: bare echo round trips over the same sockets
    pings: list[float] = []
    for k in range(args.pings):
        pings.append(await stores[k % 4].ping())

    # actions: the deciding seat picks a random legal action; time until every client has the new view
    rng = random.Random(3)
    latencies: list[float] = []
    bytes_before = [s.bytes_in for s in stores]
    turns, last_turn = 0, None
    t_start = time.perf_counter()
    for _ in range(args.actions):
        snap = stores[0].snapshot()
        if snap.over:
            break
        who = snap.deciding
        legal = stores[who].snapshot().legal
        target = snap.n + 1
        t0 = time.perf_counter()
        await stores[who].send(rng.choice(legal))
        while not all(target in a for a in arrivals):
            await asyncio.sleep(0)
        latencies.append(max(a[target] for a in arrivals) - t0)
        view = stores[0].snapshot().view
        turn = (view.round, view.active)
        if turn != last_turn:
            turns, last_turn = turns + 1, turn
    elapsed = time.perf_counter() - t_start
    got = [s.bytes_in - b for s, b in zip(stores, bytes_before, strict=True)]
    rss_end = rss_kib(proc.pid)
    for store in stores:
        await store.close()
    proc.send_signal(signal.SIGTERM)
    await asyncio.wait_for(proc.wait(), 10)
    n = len(latencies)
    print(f"protocol, 4 clients on a Unix socket, {n} actions in {elapsed:.2f} s ({n / elapsed:.0f}/s):")
    print(f"  baseline echo round trip:            {ms(pings)}")
    print(f"  action -> all 4 clients have it:     {ms(latencies)}")
    ratio = statistics.median(latencies) / statistics.median(pings)
    print(f"  = {ratio:.1f}x the echo round trip")
    per_action = statistics.mean(got) / n
    print(
        f"  bytes to a client: {per_action:.0f} per action, {statistics.mean(got) / max(1, turns):.0f} per turn"
    )
    print(f"  ({turns} turns; a view is the whole redacted state, sent after every change)")
    print(
        f"  server RSS: {rss_idle / 1024:.1f} MiB idle, +{(rss_joined - rss_idle) / 4:.0f} KiB per connected "
        f"client, {rss_end / 1024:.1f} MiB after the run"
    )
    return {
        "echo_median_ms": statistics.median(pings) * 1e3,
        "action_all_median_ms": statistics.median(latencies) * 1e3,
        "bytes_per_action": per_action,
        "bytes_per_turn": statistics.mean(got) / max(1, turns),
        "server_kib_per_client": (rss_joined - rss_idle) / 4,
    }


async def app_memory(tmp: Path, app: str) -> tuple[int, int]:
    """RSS and PSS (KiB) of one player's app process (what every SSH session runs), once it has drawn."""
    import pty

    sock = str(tmp / f"mem-{app}.sock")
    proc, banner = await start_server(tmp / app, sock, ["--no-ssh", "--new", "2"])
    code = next(m.group(1) for line in banner if (m := re.search(r"seat 0 .*--code (\w+)", line)))
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", MQTUI_NET_APP=app, MQTUI_DATA=str(tmp / app / "data"))
    child = subprocess.Popen(
        [PY, "-m", "mqtui.net.client", "--socket", sock, "--code", code, "--app", app],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    os.set_blocking(master, False)
    try:
        end = time.time() + 8
        while time.time() < end:  # let it draw (and drain its output)
            try:
                os.read(master, 65536)
            except BlockingIOError:
                pass
            except OSError:
                break
            await asyncio.sleep(0.05)
        if child.poll() is not None:
            raise RuntimeError(f"the app exited ({child.returncode})")
        rss, pss = rss_kib(child.pid), pss_kib(child.pid)
    finally:
        child.kill()
        child.wait()
        os.close(master)
    proc.send_signal(signal.SIGTERM)
    await asyncio.wait_for(proc.wait(), 10)
    return rss, pss


async def ssh_bench(tmp: Path, engine: Engine, rounds: int) -> dict[str, float]:
    """Two real ssh clients; keystroke -> new state visible on both terminals."""
    tests = Path(__file__).resolve().parent.parent / "tests"
    sys.path.insert(0, str(tests))
    import test_net_ssh as t  # the tests' terminal driver

    os.environ["MQTUI_DATA"] = str(tmp / "sshdata")
    os.environ["MQTUI_NET_APP"] = "standin"
    a, host = await t._start(engine, tmp / "ssh")
    srv = t.Server(a, host, host.port, Path(), Path(), tmp, [])
    try:
        terms = [srv.ssh(f"code-{srv.code('0')}"), srv.ssh(f"code-{srv.code('1')}")]
        await terms[0].expect("seat 0 Ann")
        await terms[1].expect("seat 1 Bob")
        lat: list[float] = []
        start_bytes = [len(x.raw) for x in terms]
        for _ in range(rounds):
            who = a.engine.deciding(a.state)
            n = a.state.n
            action = t.safe_choice(a.engine.legal(a.state, who))
            marks = [len(x.raw) for x in terms]
            want = f"state {n + 1} "
            t0 = time.perf_counter()
            terms[who].type(t.to_text(action) + "\r")
            seen = [False, False]
            while not all(seen):
                if time.perf_counter() - t0 > 10:
                    raise SystemExit("an action did not show on both terminals")
                await asyncio.sleep(0.001)
                for k, term in enumerate(terms):
                    seen[k] = seen[k] or want in t.ANSI.sub(b"", bytes(term.raw[marks[k] :])).decode(
                        "utf-8", "replace"
                    )
            lat.append(time.perf_counter() - t0)
        sent = [len(x.raw) - b for x, b in zip(terms, start_bytes, strict=True)]
        print(f"SSH, 2 real ssh clients (stand-in app), {rounds} actions:")
        print(f"  keystroke -> new state on both terminals: {ms(lat)}")
        print(f"  terminal bytes to a player: {statistics.mean(sent) / rounds:.0f} per action")
        return {"ssh_keystroke_both_median_ms": statistics.median(lat) * 1e3}
    finally:
        for term in srv.terms:
            term.close()
        await host.close()
        await a.close()


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--pings", type=int, default=400)
    parser.add_argument("--ssh-actions", type=int, default=20)
    parser.add_argument("--no-ssh", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--protocol", action="store_true", help="the protocol figures (one table)")
    parser.add_argument("--sizes", default="1,50,200", help="numbers of concurrent sessions")
    parser.add_argument("--modes", default="fork,spawn", help="fork (fork server), spawn (a process each)")
    parser.add_argument("--table-actions", type=int, default=6, help="actions each table plays")
    parser.add_argument("--think", type=float, default=None, help="seconds before each action of a table")
    parser.add_argument(
        "--warmup",
        type=int,
        default=5,
        help="with --realistic: actions each table plays first, not counted, the tables started one after "
        "another (5: the four players' set-up and the first turn's action, where every app lays out anew)",
    )
    parser.add_argument(
        "--realistic",
        action="store_true",
        help="paced tables, clients in a child process, beside the old way",
    )
    parser.add_argument(
        "--baseline",
        nargs="?",
        const=DEFAULT_BASELINE,
        metavar="REV",
        help="with --realistic: the same paced load against the host of REV and of this tree, each in a "
        f"child process (REV: {DEFAULT_BASELINE}, main just before issue 28's work)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --baseline: runs of each tree per size")
    parser.add_argument("--watchers", default="", help="numbers of watchers of one table (e.g. 10,100,1000)")
    args = parser.parse_args()
    if args.realistic or args.watchers:
        from net_paced import realistic_bench, watchers_bench

        with tempfile.TemporaryDirectory() as d:
            os.environ["MQTUI_DATA"] = str(Path(d) / "data")
            os.environ.pop("MQTUI_NET_APP", None)
            if args.watchers:
                counts = [int(x) for x in args.watchers.split(",")]
                await watchers_bench(Path(d), counts, args.table_actions)
            if args.realistic and args.baseline:
                from net_baseline import baseline_bench

                think = 5.0 if args.think is None else args.think
                log = sys.stderr if args.json else sys.stdout  # (standard output is the JSON alone)
                sizes = [int(x) for x in args.sizes.split(",")]
                got = await baseline_bench(
                    Path(d), args.baseline, sizes, args.table_actions, think, args.repeat, log, args.warmup
                )
                if args.json:
                    print(json.dumps(got, indent=2))
            elif args.realistic:
                sizes = [int(x) for x in args.sizes.split(",")]
                think = 5.0 if args.think is None else args.think
                await realistic_bench(Path(d), sizes, args.table_actions, think, warmup=args.warmup)
        return
    args.think = args.think or 0.0
    if not args.protocol:
        from net_sessions import sessions_bench

        with tempfile.TemporaryDirectory() as d:
            os.environ["MQTUI_DATA"] = str(Path(d) / "data")
            os.environ.pop("MQTUI_NET_APP", None)
            sizes = [int(x) for x in args.sizes.split(",")]
            modes = args.modes.split(",")
            log = sys.stderr if args.json else sys.stdout  # (standard output is the JSON alone)
            figures = await sessions_bench(Path(d), sizes, modes, args.table_actions, args.think, log)
        if args.json:
            print(json.dumps([vars(f) for f in figures], indent=2))
        return
    engine = Engine(load_content())
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as d:
        try:
            await run_all(args, Path(d), engine, results)
        finally:
            await stop_servers()
    if args.json:
        print(json.dumps(results, indent=2))


async def run_all(args: argparse.Namespace, tmp: Path, engine: Engine, results: dict[str, float]) -> None:
    results |= await protocol_bench(args, tmp, engine)
    print("memory of one player's app process (each SSH session runs one):")
    for app in ("standin", "mqapp"):
        try:
            rss, pss = await app_memory(tmp, app)
        except Exception as exc:  # the full app may not be there yet
            print(f"  {app}: not measured ({exc})")
            continue
        print(f"  {app:<8} RSS {rss / 1024:.1f} MiB, PSS {pss / 1024:.1f} MiB")
        results[f"{app}_rss_mib"] = rss / 1024
        results[f"{app}_pss_mib"] = pss / 1024
    if not args.no_ssh and shutil.which("ssh"):
        results |= await ssh_bench(tmp, engine, args.ssh_actions)


if __name__ == "__main__":
    asyncio.run(main())
