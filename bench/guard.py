"""The guards of a served game, measured: what write-before-tell costs, what a flood does to the other
players, what a huge window costs, and whether kill -9 after a confirmation loses anything.

    .venv/bin/python bench/guard.py [--actions 200] [--kills 10] [--json]

- **write before you tell**: an action's round trip (``act`` until its ``result``) for a protocol client
  of an in-process authority that saves to a temporary folder, with the wait for the fsync (as served)
  and without it (the baseline, in the same run);
- **kill -9**: a real ``mqtui serve --socket`` process is killed with SIGKILL the moment a client has
  the confirmation of its action, then the save is read: how many confirmed actions were lost;
- **flood** (with ``ssh`` installed): one player's reply time (keystroke in a real ``ssh`` until the new
  state is on that player's terminal) while another session gets 1 MiB of random bytes and a 10 MiB
  paste, against the same player's reply time with no flood, in the same run;
- **window**: the resident memory of a session's app asked for 10000x10000 (clamped) against 150x45.
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
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mqtui.engine.actions import to_text  # noqa: E402
from mqtui.engine.content import load_content  # noqa: E402
from mqtui.engine.game import Engine  # noqa: E402
from mqtui.net import persist  # noqa: E402
from mqtui.net.authority import Authority  # noqa: E402
from mqtui.net.identity import Claim, KeyTable  # noqa: E402
from mqtui.net.netstore import NetStore  # noqa: E402
from mqtui.net.table import TableConfig, parse_new_spec, safe_choice  # noqa: E402


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def _figures(xs: list[float]) -> dict[str, float]:
    return {"median_ms": statistics.median(xs) * 1000, "p90_ms": _pct(xs, 0.9) * 1000}


async def _until(pred, limit: int = 2000) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if pred():
            return
        await asyncio.sleep(0.01)
    raise RuntimeError("condition not met")


# -- write before you tell ----------------------------------------------------------------------------


async def round_trips(engine: Engine, folder: Path, actions: int, durable: bool) -> list[float]:
    """Seconds from act to result, both seats played by protocol clients over socket pairs."""
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0, rate=1000.0, burst=1000.0)
    a = Authority.new(engine, parse_new_spec("2"), 7, folder / f"rt-{durable}.mqsave", config, KeyTable(None))
    if not durable:
        a.durable = None
    await a.start()
    stores = []
    for seat in (0, 1):
        ours, theirs = socket.socketpair()
        a.attach(ours, Claim(seat, f"bench{seat}", f"bench {seat}"))
        stores.append(await NetStore.open_socket(engine, theirs, name=f"b{seat}"))
    times: list[float] = []
    try:
        for _ in range(actions):
            if a.engine.deciding(a.state) < 0:
                break
            who = a.engine.deciding(a.state)
            store = stores[who]
            await _until(lambda store=store: store.snapshot().n == a.state.n)
            action = safe_choice(a.engine.legal(a.state, who))
            t0 = time.perf_counter()
            await store.send(action)
            times.append(time.perf_counter() - t0)
    finally:
        for store in stores:
            await store.close()
        await a.close()
    return times


# -- kill -9 ------------------------------------------------------------------------------------------


async def kills(engine: Engine, folder: Path, rounds: int) -> tuple[int, int]:
    """(confirmed actions lost, rounds)."""
    env = dict(os.environ, MQTUI_DATA=str(folder / "data"))
    save, sock = folder / "kill.mqsave", str(folder / "kill.sock")
    from test_net_ssh import serve_process

    proc, _, codes = await serve_process(
        env, "--new", "Ann,Bob", "--seed", "3", "--save", str(save), "--socket", sock, ssh=False
    )
    lost = 0
    try:
        for _ in range(rounds):
            state = persist.load(save)[0].state
            seat = engine.deciding(state)
            store = await NetStore.open_unix(engine, sock, code=codes[str(seat)], name="bench")
            await store.send(safe_choice(engine.legal(state, seat)))
            proc.kill()
            await proc.wait()
            await store.close()
            lost += persist.load(save)[0].state.n != state.n + 1
            proc, _, _ = await serve_process(env, "--load", str(save), "--socket", sock, ssh=False)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return lost, rounds


# -- flood and window (real ssh) ----------------------------------------------------------------------


async def over_ssh(engine: Engine, folder: Path, moves: int) -> dict[str, object]:
    from test_net_guard import _feed, _rss_kib, _states
    from test_net_ssh import ssh_term

    from mqtui.net.limits import Limits
    from mqtui.net.sshserver import SSHHost

    os.environ["MQTUI_DATA"] = str(folder / "data")
    os.environ["MQTUI_NET_APP"] = "standin"
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(engine, parse_new_spec("Ann,bot"), 21, folder / "ssh.mqsave", config, KeyTable(None))
    await a.start()
    host = SSHHost(a, app="standin", limits=Limits())
    await host.listen("127.0.0.1", 0, folder / "host_key")
    code, watch = a.codes_for("0")[0], a.codes_for("watch")[0]
    terms = []
    out: dict[str, object] = {}
    try:
        ann = ssh_term(host.port, f"code-{code}")
        terms.append(ann)
        await _until(lambda: bool(re.search(r"state 0 ", ann.text())))

        async def replies(count: int) -> list[float]:
            times = []
            for _ in range(count):
                await _until(lambda: a.engine.deciding(a.state) == 0)
                n = a.state.n
                ann.type(to_text(safe_choice(a.engine.legal(a.state, 0))) + "\r")
                t0 = time.perf_counter()
                await _until(lambda n=n: max(_states(ann), default=0) > n)
                times.append(time.perf_counter() - t0)
            return times

        quiet = await replies(moves)
        jam = ssh_term(host.port, f"code-{watch}", "-e", "none")
        terms.append(jam)
        await _until(lambda: "spectator - state" in jam.text())
        rng = random.Random(14)
        noise = bytes(rng.getrandbits(8) for _ in range(1 << 20)).replace(b"\x11", b"q")
        paste = (b"the quick brown fox jumps over the lazy dog " * 250_000)[: 10 << 20]
        flood = asyncio.ensure_future(_feed(jam, noise + paste))
        flooded = await replies(moves)
        await asyncio.wait_for(flood, 300)
        out["reply_quiet"] = _figures(quiet)
        out["reply_during_flood"] = _figures(flooded)
        out["flood_bytes"] = sum(s.bytes_from_client for s in host.stats)
        small_pids = set(host.children)
        big = ssh_term(host.port, f"code-{watch}", size=(10_000, 10_000))
        terms.append(big)
        await _until(lambda: "size 400x150" in big.text())
        (big_pid,) = set(host.children) - small_pids
        ann_pid = next(pid for pid, seat in host.children.items() if seat == 0)
        out["rss_150x45_mib"] = _rss_kib(ann_pid) / 1024
        out["rss_10000x10000_clamped_mib"] = _rss_kib(big_pid) / 1024
    finally:
        for term in terms:
            term.close()
        await host.close()
        await a.close()
    return out


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--actions", type=int, default=200)
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--moves", type=int, default=10, help="reply times measured with and without a flood")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    engine = Engine(load_content())
    result: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="mqtui-guard-") as tmp:
        folder = Path(tmp)
        plain = await round_trips(engine, folder, args.actions, durable=False)
        durable = await round_trips(engine, folder, args.actions, durable=True)
        result["act_to_result_no_wait"] = _figures(plain)
        result["act_to_result_write_before_tell"] = _figures(durable)
        result["write_before_tell_ratio"] = statistics.median(durable) / statistics.median(plain)
        lost, rounds = await kills(engine, folder, args.kills)
        result["kill9_confirmed_lost"] = f"{lost} of {rounds}"
        if shutil.which("ssh"):
            result.update(await over_ssh(engine, folder, args.moves))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for key, value in result.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v:.2f}" for k, v in value.items())
        elif isinstance(value, float):
            value = f"{value:.2f}"
        print(f"{key:<36} {value}")


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    asyncio.run(main())
