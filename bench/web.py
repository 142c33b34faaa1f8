"""Browser sessions beside SSH sessions, in the same run: memory per session and key press to the
player's own screen (median / p90).

    .venv/bin/python bench/web.py [--sizes 1,50] [--table-actions 5] [--think 0] [--ssh-modes fork]

For each size S: first S SSH sessions exactly as ``bench/net.py`` measures them (``bench/net_sessions.py``:
a lobby host in this process, tables of four, the full app at 80x24, asyncssh clients with their seats'
codes; ``--ssh-modes``: fork and/or spawn), then S browser sessions: the same host with its web front
door (:mod:`mqtui.net.web`), S clients that load each seat's ``/join/CODE`` page and speak the page's
websocket protocol (tests/web_helpers.py, as a browser's page does: what is timed is the last frame of
the redraw reaching the client, not xterm.js drawing it), each session running the full app in its own
process under Textual's web driver. Every table then plays ``--table-actions`` actions: the deciding
player's page sends ``a`` and ``1``. Memory: PSS of the session apps / S (browser sessions are started
afresh, not forked: the fork server gives its children a pty, and a web session's app talks over pipes).
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from net_sessions import Figures, _changed, _quiet, cpu_s, report, run_size, smaps_kib  # noqa: E402
from web_helpers import WebTerm  # noqa: E402

from mqtui.net import lobbyproto as lp  # noqa: E402
from mqtui.net.limits import Limits  # noqa: E402
from mqtui.net.lobby import LobbyHost, seats_for  # noqa: E402
from mqtui.net.table import TableConfig  # noqa: E402
from mqtui.net.tables import Tables  # noqa: E402
from mqtui.net.web import WebHost  # noqa: E402


async def run_web(tmp: Path, size: int, actions: int, think: float = 0.0) -> Figures:
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0, rate=1e6, burst=1e6)
    tables = Tables(tmp / f"tables-web-{size}", config, max_tables=10_000)
    await tables.load_all()
    groups = [4] * (size // 4) + ([size % 4] if size % 4 else [])
    made = []
    for i, people in enumerate(groups):
        others = [lp.OPEN] * (people - 1) if people > 1 else ["random"]
        made.append(await tables.create(seats_for(lp.Create(name="P0", others=others)), 100 + i, []))
    room = 10 * size + 10
    limits = Limits(max_players=room, max_sessions=2 * room, silent=120.0, max_sessions_per_address=2 * room)
    host = LobbyHost(None, app="mqapp", tables=tables, name="bench", limits=limits)
    web_host = WebHost(host, folder=tmp / f"web-{size}")
    await web_host.listen("127.0.0.1", 0)
    base = f"http://127.0.0.1:{web_host.port}"
    sessions: dict[str, list[tuple[int, WebTerm]]] = {}
    gate = asyncio.Semaphore(8)

    async def join(a: Any, seat: int) -> tuple[int, WebTerm]:
        async with gate:
            term = WebTerm(base)
            await term.open(f"/join/{a.codes_for(str(seat))[0]}", size=(80, 24))
            await term.expect("What you can do", timeout=600)
            return seat, term

    def pids() -> dict[tuple[str, int], int]:
        out = {}
        for s in web_host.sessions:
            live = host.live.get(s.sid)
            if s.app is not None and live is not None and live.seat is not None:
                out[(live.table, live.seat)] = s.app.process.pid
        return out

    try:
        t0 = time.perf_counter()
        for a in made:
            humans = [i for i, slot in enumerate(a.slots) if slot.human]
            sessions[a.game.game] = list(await asyncio.gather(*(join(a, i) for i in humans)))
        start_s = time.perf_counter() - t0
        everyone = [t for group in sessions.values() for _, t in group]
        await _quiet(everyone, time.perf_counter(), 10.0)  # type: ignore[arg-type]
        apps = pids()
        mem = sum(smaps_kib(p, "Pss") for p in apps.values()) / 1024 / size
        uss = sum(smaps_kib(p, "Private_Clean", "Private_Dirty") for p in apps.values()) / 1024 / size
        idle0, t_idle = sum(cpu_s(p) for p in apps.values()), time.perf_counter()
        await asyncio.sleep(2.0)
        idle = (sum(cpu_s(p) for p in apps.values()) - idle0) / (time.perf_counter() - t_idle) / size
        cpu0 = sum(cpu_s(p) for p in apps.values())
        own: list[float] = []
        others: list[float] = []
        counted = [0, 0]
        stuck = [0]

        async def play(a: Any) -> None:
            group = sessions[a.game.game]
            by_seat = dict(group)
            terms = [t for _, t in group]
            for _ in range(actions):
                if think:
                    await asyncio.sleep(think)
                who = a.engine.deciding(a.state)
                if who < 0:
                    return
                n = a.state.n
                if who not in by_seat:  # the computer's turn
                    try:
                        t_bot = time.perf_counter()
                        await asyncio.wait_for(_changed(a, n), 5.0)
                        await _quiet(terms, time.perf_counter(), heard=t_bot)  # type: ignore[arg-type]
                        counted[0] += 1
                        counted[1] += len(group)
                    except TimeoutError:
                        pass
                    continue
                me = by_seat[who]
                for keys in ("a1", "1", " ", "\x1b"):
                    t_key = time.perf_counter()
                    await me.type(keys)
                    try:
                        await asyncio.wait_for(_changed(a, n), 2.0)
                        break
                    except TimeoutError:
                        stuck[0] += 1
                else:
                    continue
                end = await _quiet(terms, time.perf_counter(), heard=t_key)  # type: ignore[arg-type]
                counted[0] += 1
                counted[1] += len(group)
                for t in terms:
                    last = t.last_between(t_key, end)
                    if last is not None:
                        (own if t is me else others).append(last - t_key)

        await asyncio.gather(*(play(a) for a in made))
        cpu = sum(cpu_s(p) for p in apps.values()) - cpu0
        nan = float("nan")
        return Figures(
            size=size,
            mode="web",
            tables=len(made),
            start_s=start_s,
            mem_mib=mem,
            uss_mib=uss,
            cpu_ms=cpu * 1e3 / max(1, counted[1]),
            cpu_own_ms=nan,
            cpu_others_ms=nan,
            idle_pct=idle * 100,
            own=own,
            others=others,
            actions=counted[0],
            stuck=stuck[0],
        )
    finally:
        for group in sessions.values():
            for _, term in group:
                await term.close()
        await web_host.close()
        await tables.close()
        await host.close()


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1,50", help="numbers of concurrent sessions")
    parser.add_argument("--table-actions", type=int, default=5, help="actions each table plays")
    parser.add_argument("--think", type=float, default=0.0, help="seconds before each action of a table")
    parser.add_argument("--ssh-modes", default="fork", help="the SSH sessions' way: fork, spawn, or both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        os.environ["MQTUI_DATA"] = str(Path(d) / "data")
        os.environ.pop("MQTUI_NET_APP", None)
        print("sessions over SSH and in browsers (full app, 80x24, loopback; median / p90):", flush=True)
        for size in (int(x) for x in args.sizes.split(",")):
            rows = [
                await run_size(Path(d), size, mode, args.table_actions, args.think)
                for mode in args.ssh_modes.split(",")
            ]
            rows.append(await run_web(Path(d), size, args.table_actions, args.think))
            for f in rows:
                print(report(f), flush=True)
            ssh, web = rows[0], rows[-1]
            if ssh.own and web.own:
                ratio = statistics.median(web.own) / statistics.median(ssh.own)
                print(
                    f"  browser / SSH ({ssh.mode}) at {size}: memory {web.mem_mib / ssh.mem_mib:.2f}x, "
                    f"key->own median {ratio:.2f}x",
                    flush=True,
                )


if __name__ == "__main__":
    asyncio.run(main())
