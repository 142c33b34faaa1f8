"""Many SSH sessions at once: memory per session, CPU per action per session, key press to screens.

    .venv/bin/python bench/net.py [--sizes 1,50,200] [--modes fork,spawn] [--table-actions 6] [--think 0]

For each size S, a lobby host (:class:`~mqtui.net.lobby.LobbyHost`) runs in this process on a loopback
port with S human seats spread over tables of four (one session: a table of one person and a computer
player). S SSH clients (asyncssh, in this process) sign in with their seats' join codes, each with an
80x24 terminal, so each session runs the full app in its own pty, either a fresh Python per session
(``spawn``, as before) or forked from the pre-imported fork server (``fork``). Then every table plays
``--table-actions`` actions at once (``--think S``: a pause before each): the deciding player's terminal gets ``a`` (the actions pane) and ``1``
(its first action). Figures:

- memory per session: proportional set size (PSS) of every session app, plus the fork server's, / S;
- CPU per action per session: the session apps' CPU time (user+system) during the actions, divided by
  the actions and by the sessions at each acting table (every session of a table redraws); then apart,
  per action, the acting player's app and each other app of that table (the redraw of a view that
  changed), read from /proc around each action (10 ms ticks, so only their means mean anything);
- key press to own screen / to the other players' screens: from the key until the last byte of the
  redraw that followed it reached that terminal (a terminal is done when it has been quiet 150 ms).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import asyncssh

from mqtui.net import lobbyproto as lp
from mqtui.net.limits import Limits
from mqtui.net.lobby import LobbyHost, seats_for
from mqtui.net.table import TableConfig
from mqtui.net.tables import Tables

QUIET = 0.15
TICK = os.sysconf("SC_CLK_TCK")


def smaps_kib(pid: int, *keys: str) -> int:
    """The sum of these fields of the process's memory summary (KiB)."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.split(":")[0] in keys:
                total += int(line.split()[1])
    except OSError:
        pass
    return total


def cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime, stime, and those of its children it has waited for (the advisor's look-ahead, done apart)
    return sum(int(f) for f in fields[11:15]) / TICK


def cpu_ticks() -> tuple[int, int]:
    """The machine's CPU time (busy, all) in clock ticks since boot, from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # (guest time is counted in user time already)
    return total - idle, total


def busy_since(then: tuple[int, int]) -> float:
    busy, total = cpu_ticks()
    return (busy - then[0]) / max(1, total - then[1])


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


@dataclass
class Session:
    process: Any
    conn: asyncssh.SSHClientConnection
    seat: int
    chunks: list[tuple[float, int]] = field(default_factory=list)
    seen: bytearray = field(default_factory=bytearray)
    task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    return
                self.chunks.append((time.perf_counter(), len(data)))
                if len(self.seen) < 200_000:
                    self.seen += data

    def last(self) -> float:
        return self.chunks[-1][0] if self.chunks else 0.0

    def last_between(self, t0: float, t1: float) -> float | None:
        times = [t for t, _ in self.chunks if t0 < t <= t1]
        return times[-1] if times else None


async def _connect(port: int, code: str, seat: int) -> Session:
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"code-{code}",
        known_hosts=None,
        client_keys=[],
        agent_path=None,
        config=[],
    )
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    s = Session(process, conn, seat)
    s.task = asyncio.get_running_loop().create_task(s.read())
    return s


async def _quiet(sessions: list[Session], since: float, limit: float = 5.0, heard: float = 0.0) -> float:
    """Wait until none of ``sessions`` got a byte for QUIET seconds (and, with ``heard``, until each
    got one after that time: on a loaded machine an app may not have run at all for a while); the time
    of that last byte."""
    while True:
        now = time.perf_counter()
        last = max([s.last() for s in sessions] + [since])
        waiting = heard and any(s.last() <= heard for s in sessions)
        if (now - last >= QUIET and not waiting) or now - since > limit:
            return last
        await asyncio.sleep(0.02)


@dataclass
class Figures:
    size: int
    mode: str
    tables: int
    start_s: float
    mem_mib: float
    uss_mib: float
    cpu_ms: float
    cpu_own_ms: float  # the acting player's app, per action
    cpu_others_ms: float  # each other app at the table, per action
    idle_pct: float
    own: list[float]
    others: list[float]
    actions: int
    stuck: int
    host_cpu_ms: float = float("nan")  # the host process's CPU per table action (where it is measured)
    clients_cpu_ms: float = float("nan")  # the bench's SSH clients' process, per table action
    busy: float = float("nan")  # the share of the machine's CPUs busy while the tables played


async def bench_host(
    tmp: Path, groups: list[int], tag: str, fork: bool = True, room: int = 0
) -> tuple[LobbyHost, Tables, list[Any]]:
    """A lobby host on a loopback port with tables of ``groups`` people each (one person: a table with a
    computer player), limits that only measure (``room`` sessions at least), apps forked or not."""
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0, rate=1e6, burst=1e6)
    tables = Tables(tmp / f"tables-{tag}", config, max_tables=10_000)
    await tables.load_all()
    made = []
    for i, people in enumerate(groups):
        others = [lp.OPEN] * (people - 1) if people > 1 else ["random"]
        a = await tables.create(seats_for(lp.Create(name="P0", others=others)), 100 + i, [])
        made.append(a)
    # the bench measures, not limits; a starved app on 2 cores is not a hung one
    room = max(room, 10 * sum(groups) + 10)
    limits = Limits(
        max_players=room,
        max_spectators=room,
        max_watchers=room,
        max_sessions=2 * room,
        max_unauthenticated=room,
        silent=120.0,
        max_signing_in_per_address=room,  # every client comes from 127.0.0.1
        max_idle=room,
        max_idle_per_address=room,
        max_sessions_per_address=2 * room,
    )
    host = LobbyHost(None, app="mqapp", tables=tables, name="bench", limits=limits)
    await host.listen("127.0.0.1", 0, tmp / "ssh_host_key")
    if fork:
        await host.start_forks()
    return host, tables, made


async def run_size(tmp: Path, size: int, mode: str, actions: int, think: float = 0.0) -> Figures:
    groups = [4] * (size // 4) + ([size % 4] if size % 4 else [])
    host, tables, made = await bench_host(tmp, groups, f"{mode}-{size}", mode == "fork")
    sessions: dict[str, list[Session]] = {}
    gate = asyncio.Semaphore(8)

    async def join(a: Any, seat: int) -> Session:
        async with gate:
            s = await _connect(host.port, a.codes_for(str(seat))[0], seat)
            while b"What you can do" not in s.seen:  # the app has drawn its first screen
                await asyncio.sleep(0.05)
            return s

    try:
        t0 = time.perf_counter()
        table_pids: dict[str, dict[int, int]] = {}  # table -> seat -> its app's pid
        for a in made:
            humans = [i for i, slot in enumerate(a.slots) if slot.human]
            before = set(host.children)
            sessions[a.game.game] = list(await asyncio.gather(*(join(a, i) for i in humans)))
            table_pids[a.game.game] = {host.children[p]: p for p in set(host.children) - before}
        start_s = time.perf_counter() - t0
        everyone = [s for group in sessions.values() for s in group]
        await _quiet(everyone, time.perf_counter(), 10.0)
        pids = list(host.children)
        shared = [host.forks.proc.pid] if host.forks is not None and host.forks.proc is not None else []
        mem = sum(smaps_kib(p, "Pss") for p in pids + shared) / 1024 / size
        uss = sum(smaps_kib(p, "Private_Clean", "Private_Dirty") for p in pids) / 1024 / size
        idle0, t_idle = sum(cpu_s(p) for p in pids), time.perf_counter()
        await asyncio.sleep(2.0)  # nothing happens: what do the apps cost while idle?
        idle = (sum(cpu_s(p) for p in pids) - idle0) / (time.perf_counter() - t_idle) / size
        cpu0 = sum(cpu_s(p) for p in pids)
        own: list[float] = []
        others: list[float] = []
        cpu_own: list[float] = []  # CPU of the acting player's app, per action
        cpu_others: list[float] = []  # CPU of each other app at that table, per action
        counted = [0, 0]  # actions, session-actions
        stuck = [0]

        async def play(a: Any) -> None:
            group = sessions[a.game.game]
            by_seat = {s.seat: s for s in group}
            apps = table_pids[a.game.game]
            for _ in range(actions):
                if think:
                    await asyncio.sleep(think)  # a player thinking: the table is not always acting
                who = a.engine.deciding(a.state)
                if who < 0:
                    return
                n = a.state.n
                if who not in by_seat:  # the computer's turn: its action is redrawn too
                    with contextlib.suppress(TimeoutError):
                        t_bot = time.perf_counter()
                        await asyncio.wait_for(_changed(a, n), 5.0)
                        await _quiet(group, time.perf_counter(), heard=t_bot)
                        counted[0] += 1
                        counted[1] += len(group)
                    continue
                me = by_seat[who]
                cpu_before = {seat: cpu_s(pid) for seat, pid in apps.items()}
                for keys in (b"a1", b"1", b" ", b"\x1b"):
                    t_key = time.perf_counter()  # the key that did it (a dialog may have asked for a second)
                    me.process.stdin.write(keys)
                    try:
                        await asyncio.wait_for(_changed(a, n), 2.0)
                        break
                    except TimeoutError:
                        stuck[0] += 1
                else:
                    continue
                end = await _quiet(group, time.perf_counter(), heard=t_key)
                counted[0] += 1
                counted[1] += len(group)
                for seat, pid in apps.items():
                    (cpu_own if seat == who else cpu_others).append(cpu_s(pid) - cpu_before[seat])
                for s in group:
                    last = s.last_between(t_key, end)
                    if last is not None:
                        (own if s is me else others).append(last - t_key)

        await asyncio.gather(*(play(a) for a in made))
        cpu = sum(cpu_s(p) for p in pids) - cpu0
        return Figures(
            size=size,
            mode=mode,
            tables=len(made),
            start_s=start_s,
            mem_mib=mem,
            uss_mib=uss,
            cpu_ms=cpu * 1e3 / max(1, counted[1]),
            cpu_own_ms=statistics.mean(cpu_own) * 1e3 if cpu_own else float("nan"),
            cpu_others_ms=statistics.mean(cpu_others) * 1e3 if cpu_others else float("nan"),
            idle_pct=idle * 100,
            own=own,
            others=others,
            actions=counted[0],
            stuck=stuck[0],
        )
    finally:
        for group in sessions.values():
            for s in group:
                s.conn.close()
        await tables.close()
        await host.close()


async def _changed(a: Any, n: int) -> None:
    while a.state.n == n:
        await asyncio.sleep(0.005)


def report(f: Figures) -> str:
    def ms(values: list[float]) -> str:
        if not values:
            return "n/a"
        return f"{statistics.median(values) * 1e3:6.0f} / {pct(values, 0.9) * 1e3:6.0f} ms"

    return (
        f"{f.size:>4} sessions  {f.mode:<5} {f.tables:>3} tables  start {f.start_s:6.1f} s  "
        f"PSS {f.mem_mib:5.1f} MiB/session (own {f.uss_mib:4.1f})  CPU {f.cpu_ms:5.1f} ms/action/session (acting {f.cpu_own_ms:.0f}, others {f.cpu_others_ms:.0f}; "
        f"idle {f.idle_pct:.1f}%)  "
        f"key->own {ms(f.own)}  key->others {ms(f.others)}  ({f.actions} actions, {f.stuck} retries)"
        + (
            f"  clients' CPU {f.clients_cpu_ms:.0f} ms/action, machine {f.busy:.0%} busy"
            if not math.isnan(f.busy)
            else ""
        )
    )


async def sessions_bench(
    tmp: Path, sizes: list[int], modes: list[str], actions: int, think: float = 0.0, log: TextIO = sys.stdout
) -> list[Figures]:
    """The figures; the lines for a person go to ``log`` (standard error when standard output is JSON)."""
    out: list[Figures] = []
    pace = f"{think:g} s between a table's actions" if think else "every table acting back to back"
    print(f"sessions over SSH (full app, 80x24, loopback, {pace}; median / p90):", file=log, flush=True)
    for size in sizes:
        for mode in modes:
            f = await run_size(tmp, size, mode, actions, think)
            print(report(f), file=log, flush=True)
            out.append(f)
    return out
