"""Many SSH sessions at a realistic pace, their SSH clients in a process of their own; and many watchers.

    .venv/bin/python bench/net.py --realistic [--sizes 50,100,200] [--think 5] [--table-actions 6]
    .venv/bin/python bench/net.py --watchers 10,100,1000 [--table-actions 6]
    .venv/bin/python bench/net.py --realistic --baseline [REV]   (the code before and after: bench/net_baseline.py)

``--realistic``: for each number of players S, two runs side by side (ratios printed):

- *old*: the way ``bench/net.py`` measured before: the SSH clients (asyncssh) in the bench's own
  process, every table acting at the same instant, back to back;
- *paced*: the SSH clients in a child process (``python bench/net_paced.py --client``: asyncssh, one
  connection per session, 80x24), each table's first action at a random offset within ``--think``
  seconds, then one action every ``--think`` seconds (default 5) per table.

The host is the same in both (a lobby host in the bench process, tables of four people, session apps
forked from the fork server). Figures as ``bench/net_sessions.py`` (key to own screen median / p90, CPU
of the session apps per table action per session), and the load average before and after.

``--watchers N,...``: one table of four players and N watchers (watch code, 80x24, in the client
process), shared views on (one app for all of them) and, for the smaller N, off (an app each, as
before); per table action: the CPU of the session apps and of the host process (which copies the shared
view's bytes to each watcher and encrypts them), memory (PSS of the apps and the fork server, and what
the host process grew by), key to the watchers' screens. The figure to compare with is 10 players: a
first run with no watchers gives the four players' own cost, and each row says what its watchers cost
above that, in players.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from net_sessions import (
    QUIET,
    Figures,
    Session,
    _changed,
    bench_host,
    busy_since,
    cpu_s,
    cpu_ticks,
    pct,
    report,
    run_size,
    smaps_kib,
)

# -- the client process --------------------------------------------------------------------------------------


async def _client() -> None:
    import asyncssh

    from mqtui.net.sshserver import raise_file_limit

    raise_file_limit()  # (a thousand connections)

    sessions: dict[int, Session] = {}  # (their times: CLOCK_MONOTONIC, the bench's clock too)
    tasks: set[asyncio.Task[None]] = set()  # (kept until done)
    loop = asyncio.get_running_loop()

    def keep(task: asyncio.Task[None]) -> None:
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout
    gate = asyncio.Semaphore(16)

    def reply(rid: int, **fields: Any) -> None:
        out.write(json.dumps({"re": rid, **fields}) + "\n")
        out.flush()

    async def join(msg: dict[str, Any]) -> None:
        async with gate:
            conn = await asyncssh.connect(
                "127.0.0.1", msg["port"], username=msg["user"], known_hosts=None,
                client_keys=[], agent_path=None, config=[],
            )  # fmt: skip
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(msg["cols"], msg["rows"]), encoding=None
            )
        s = sessions[msg["id"]] = Session(process, conn, 0)
        keep(loop.create_task(s.read()))
        want = msg["until"].encode()
        while want not in s.seen:
            await asyncio.sleep(0.05)
        reply(msg["rid"])

    async def quiet(msg: dict[str, Any]) -> None:
        group = [sessions[i] for i in msg["ids"]]
        heard, since = msg["heard"], time.perf_counter()
        while True:  # until none got a byte for QUIET s, each having got one since ``heard``
            now = time.perf_counter()
            last = max([s.last() for s in group] + [since])
            waiting = any(s.last() <= heard for s in group)
            if (now - last >= QUIET and not waiting) or now - since > msg["limit"]:
                break
            await asyncio.sleep(0.02)
        reply(msg["rid"], end=last, last=[s.last_between(heard, last) for s in group])

    async def handle(msg: dict[str, Any]) -> None:
        op = msg["op"]
        if op == "join":
            await join(msg)
        elif op == "key":
            t = time.perf_counter()
            sessions[msg["id"]].process.stdin.write(msg["keys"].encode())
            reply(msg["rid"], t=t)
        elif op == "quiet":
            await quiet(msg)
        elif op == "chunks":  # (times and sizes of what each session got since ``since``: timelines)
            reply(
                msg["rid"],
                chunks=[[c for c in sessions[i].chunks if c[0] >= msg["since"]] for i in msg["ids"]],
            )
        elif op == "bytes":
            reply(msg["rid"], total=sum(n for i in msg["ids"] for _, n in sessions[i].chunks))
        elif op == "close":
            for s in sessions.values():
                s.conn.close()
            reply(msg["rid"])

    async def answer(msg: dict[str, Any]) -> None:  # (a failure is told, not left for the bench to wait on)
        try:
            await handle(msg)
        except Exception as exc:
            print(f"client: {msg['op']} failed: {exc!r}", file=sys.stderr, flush=True)
            reply(msg["rid"], error=repr(exc))

    while line := await reader.readline():
        keep(loop.create_task(answer(json.loads(line))))


class JsonChild:
    """A child process spoken to in JSON lines: a request ``{"op": ..., "rid": N, ...}`` on its standard
    input, its reply ``{"re": N, ...}`` on its standard output; other JSON lines wait in :attr:`said`,
    and lines that are not JSON go on to the bench's standard error."""

    async def spawn(self, *argv: str, **options: Any) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 22, **options
        )
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.rid = 0
        self.said: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reading = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            if not line.startswith(b"{"):
                sys.stderr.write(line.decode("utf-8", "replace"))
                continue
            msg = json.loads(line)
            if "re" not in msg:
                self.said.put_nowait(msg)
                continue
            fut = self.waiting.pop(msg["re"], None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        for fut in self.waiting.values():  # it ended: nobody waits 600 s for a reply that cannot come
            if not fut.done():
                fut.set_exception(EOFError(f"the child process {self.proc.pid} ended"))

    async def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        if self.reading.done():
            raise EOFError(f"the child process {self.proc.pid} ended")
        self.rid += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.rid] = fut
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"op": op, "rid": self.rid, **fields}) + "\n").encode())
        got = await asyncio.wait_for(fut, 600)
        if "error" in got:
            raise RuntimeError(f"the client process: {op} failed: {got['error']}")
        return got

    async def stop(self, grace: float = 20.0) -> None:
        """Its standard input closed, then its end awaited (killed after ``grace`` s)."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), grace)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        self.reading.cancel()


class Clients(JsonChild):
    """The bench's handle on its client process."""

    async def start(self) -> None:
        await self.spawn(sys.executable, __file__, "--client")
        self.count = 0

    async def join(self, port: int, code: str, until: str, size: tuple[int, int] = (80, 24)) -> int:
        self.count += 1
        sid = self.count
        await self.ask(
            "join", id=sid, port=port, user=f"code-{code}", cols=size[0], rows=size[1], until=until
        )
        return sid

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ask("close"), 20)
        await self.stop()


# -- one paced run -------------------------------------------------------------------------------------------


@dataclass
class PacedTable:
    """One table as the paced run sees it, wherever its host runs (this process or bench/net_host.py)."""

    id: str
    codes: dict[int, str]  # human seat -> its join code
    state: Callable[[], Awaitable[tuple[int, int]]]  # (the state number, the seat deciding)
    changed: Callable[[int, float], Awaitable[bool]]  # (n, limit): the state number is no longer n


def local_table(a: Any) -> PacedTable:
    """A table of a host in this process."""

    async def state() -> tuple[int, int]:
        return a.state.n, a.engine.deciding(a.state)

    async def changed(n: int, limit: float) -> bool:
        try:
            await asyncio.wait_for(_changed(a, n), limit)
            return True
        except TimeoutError:
            return False

    codes = {i: a.codes_for(str(i))[0] for i, slot in enumerate(a.slots) if slot.human}
    return PacedTable(a.game.game, codes, state, changed)


async def act(clients: Clients, table: PacedTable, sid: int, n: int) -> float | None:
    """The deciding player's terminal gets ``a`` (the actions pane) and ``1`` (its first action), or the
    keys that get past a dialog (Enter: "are you sure?" before a fight; space, Down and Enter: charity's
    cards over the limit, marked one by one); the time of the key that did it (None: the action never
    came)."""
    down = "\x1b[B"
    for keys in ("a1", "\r", " \r", f"{down} \r", f"{down} \r", f"{down} \r", "1", " ", "\x1b"):
        t_key = float((await clients.ask("key", id=sid, keys=keys))["t"])
        if await table.changed(n, 2.0):
            return t_key
    return None


WARMUP_GAP = 0.4  # s between the tables' first warm-up actions
WARMUP_SETTLE = 3.0  # s after the last warm-up action, before the counted play


async def warm(clients: Clients, t: PacedTable, by_seat: dict[int, int], actions: int, delay: float) -> None:
    """``actions`` of table ``t``, one a second after ``delay`` s, each once its screens are quiet."""
    await asyncio.sleep(delay)
    group = list(by_seat.values())
    for _ in range(actions):
        n, who = await t.state()
        if who not in by_seat:
            return
        t_key = await act(clients, t, by_seat[who], n)
        if t_key is not None:
            await clients.ask("quiet", ids=group, heard=t_key, limit=5.0)
        await asyncio.sleep(1.0)


async def play_paced(
    clients: Clients,
    port: int,
    made: list[PacedTable],
    children: Callable[[], Awaitable[dict[int, int]]],
    shared: list[int],
    size: int,
    actions: int,
    think: float,
    seed: int = 5,
    host_pid: int = 0,
    warmup: int = 0,
) -> Figures:
    """Seat everyone at ``made`` (tables of a host on ``port`` whose session apps ``children`` lists,
    pid -> seat; ``shared``: the fork server), then play: each table's first action at a random offset
    within ``think`` s (the same offsets for the same ``seed``), then one every ``think`` s.

    ``warmup``: before that, each table plays this many actions, not counted: the tables start one after
    another (``WARMUP_GAP`` s apart, an action a second each), as a host's tables do, so that they are
    all past the set-up and at different moments of it when the counted play begins (a host's tables do
    not all leave their set-up in the same five seconds; the bench's did, and its tail was that moment)."""
    rng = random.Random(seed)
    offsets = [rng.uniform(0, think) for _ in made]
    t0 = time.perf_counter()
    ids: dict[str, dict[int, int]] = {}  # table -> seat -> session id
    pids: dict[str, dict[int, int]] = {}  # table -> seat -> its app's pid
    for t in made:
        before = set(await children())
        got = await asyncio.gather(
            *(clients.join(port, code, "What you can do") for code in t.codes.values())
        )
        ids[t.id] = dict(zip(t.codes, got, strict=True))
        now = await children()
        pids[t.id] = {now[p]: p for p in set(now) - before}
    start_s = time.perf_counter() - t0
    if warmup:
        await asyncio.gather(
            *(warm(clients, t, ids[t.id], warmup, k * WARMUP_GAP) for k, t in enumerate(made))
        )
        await asyncio.sleep(WARMUP_SETTLE)
    everyone = list(await children())
    mem = sum(smaps_kib(p, "Pss") for p in everyone + shared) / 1024 / size
    uss = sum(smaps_kib(p, "Private_Clean", "Private_Dirty") for p in everyone) / 1024 / size
    cpu0, host0 = sum(cpu_s(p) for p in everyone), cpu_s(host_pid) if host_pid else 0.0
    clients0, ticks0 = cpu_s(clients.proc.pid), cpu_ticks()
    own: list[float] = []
    others: list[float] = []
    cpu_own: list[float] = []
    cpu_others: list[float] = []
    counted = [0, 0]
    begin = time.perf_counter() + 2.0

    async def play(t: PacedTable, offset: float) -> None:
        apps, by_seat = pids[t.id], ids[t.id]
        group = list(by_seat.values())
        for k in range(actions):
            await asyncio.sleep(max(0.0, begin + offset + k * think - time.perf_counter()))
            n, who = await t.state()
            if who not in by_seat:
                return
            before = {seat: cpu_s(pid) for seat, pid in apps.items()}
            t_key = await act(clients, t, by_seat[who], n)
            if t_key is None:
                continue
            got = await clients.ask("quiet", ids=group, heard=t_key, limit=5.0)
            counted[0] += 1
            counted[1] += len(group)
            for seat, pid in apps.items():
                (cpu_own if seat == who else cpu_others).append(cpu_s(pid) - before[seat])
            for sid, last in zip(group, got["last"], strict=True):
                if last is not None:
                    (own if sid == by_seat[who] else others).append(last - t_key)

    await asyncio.gather(*(play(t, offset) for t, offset in zip(made, offsets, strict=True)))
    cpu = sum(cpu_s(p) for p in everyone) - cpu0
    host_cpu = cpu_s(host_pid) - host0 if host_pid else float("nan")
    clients_cpu, busy = cpu_s(clients.proc.pid) - clients0, busy_since(ticks0)
    return Figures(
        size=size, mode="paced", tables=len(made), start_s=start_s, mem_mib=mem, uss_mib=uss,
        cpu_ms=cpu * 1e3 / max(1, counted[1]),
        cpu_own_ms=statistics.mean(cpu_own) * 1e3 if cpu_own else float("nan"),
        cpu_others_ms=statistics.mean(cpu_others) * 1e3 if cpu_others else float("nan"),
        idle_pct=float("nan"), own=own, others=others, actions=counted[0], stuck=0,
        host_cpu_ms=host_cpu * 1e3 / max(1, counted[0]),
        clients_cpu_ms=clients_cpu * 1e3 / max(1, counted[0]), busy=busy,
    )  # fmt: skip


async def run_paced(
    tmp: Path, size: int, actions: int, think: float, seed: int = 5, warmup: int = 0
) -> Figures:
    """The paced run against a lobby host in this process."""
    host, tables, made = await bench_host(tmp, [4] * (size // 4), f"paced-{size}")
    clients = Clients()
    await clients.start()

    async def children() -> dict[int, int]:
        return dict(host.children)

    try:
        shared = [host.forks.proc.pid] if host.forks is not None and host.forks.proc is not None else []
        return await play_paced(
            clients, host.port, [local_table(a) for a in made], children, shared, size, actions, think, seed,
            warmup=warmup,
        )  # fmt: skip
    finally:
        await clients.close()
        await tables.close()
        await host.close()


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def _ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}x" if old else "n/a"


async def realistic_bench(
    tmp: Path, sizes: list[int], actions: int, think: float, log: TextIO = sys.stdout, warmup: int = 0
) -> list[Figures]:
    out: list[Figures] = []
    print(
        f"realistic pace (clients in a child process, tables offset at random, one action per table every "
        f"{think:g} s, after {warmup} not counted) against the old way (clients in the bench process, every table at once); "
        "full app, 80x24, forked apps; median / p90:",
        file=log,
        flush=True,
    )
    for size in sizes:
        print(f"  [{load()}]", file=log, flush=True)
        old = await run_size(tmp, size, "fork", actions, 0.0)
        old.mode = "old"
        print(report(old), file=log, flush=True)
        new = await run_paced(tmp, size, actions, think, warmup=warmup)
        print(report(new), file=log, flush=True)
        print(
            f"  paced / old: key->own median {_ratio(statistics.median(new.own), statistics.median(old.own))}, "
            f"p90 {_ratio(pct(new.own, 0.9), pct(old.own, 0.9))}; CPU per action per session "
            f"{_ratio(new.cpu_ms, old.cpu_ms)}  [{load()}]",
            file=log,
            flush=True,
        )
        out += [old, new]
    return out


# -- watchers ------------------------------------------------------------------------------------------------


@dataclass
class WatchFigures:
    watchers: int
    shared: bool
    apps: int
    start_s: float
    apps_pss_mib: float  # every session app and the fork server
    host_mib: float  # what the host process grew by
    apps_cpu_ms: float  # per table action
    host_cpu_ms: float  # per table action (the bench's own work is in it too)
    to_watchers: list[float]
    actions: int
    bytes_per_watcher: float  # per action


def _own_rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def run_watchers(tmp: Path, count: int, shared: bool, actions: int, think: float = 1.0) -> WatchFigures:
    host, tables, (a,) = await bench_host(tmp, [4], f"watch-{count}-{shared}", room=count + 50)
    host.share_views = shared
    clients = Clients()
    await clients.start()
    try:
        seats = {
            i: await clients.join(host.port, a.codes_for(str(i))[0], "What you can do") for i in range(4)
        }
        rss0 = _own_rss_kib()
        t0 = time.perf_counter()
        watch = a.codes_for("watch")[0]
        batch = 50
        watchers: list[int] = []
        for k in range(0, count, batch):
            watchers += await asyncio.gather(
                *(clients.join(host.port, watch, "Round") for _ in range(min(batch, count - k)))
            )
        start_s = time.perf_counter() - t0
        await asyncio.sleep(1.0)
        apps = list(host.children)
        forks = [host.forks.proc.pid] if host.forks is not None and host.forks.proc is not None else []
        pss = sum(smaps_kib(p, "Pss") for p in apps + forks) / 1024
        host_mib = (_own_rss_kib() - rss0) / 1024
        me = os.getpid()
        cpu0, host0 = sum(cpu_s(p) for p in apps), cpu_s(me)
        bytes0 = (await clients.ask("bytes", ids=watchers))["total"]
        table = local_table(a)
        lat: list[float] = []
        done = 0
        for _ in range(actions):
            await asyncio.sleep(think)
            who = a.engine.deciding(a.state)
            if who not in seats:
                break
            t_key = await act(clients, table, seats[who], a.state.n)
            if t_key is None:
                continue
            got = await clients.ask("quiet", ids=watchers, heard=t_key, limit=20.0)
            lat += [last - t_key for last in got["last"] if last is not None]
            done += 1
        apps_cpu = sum(cpu_s(p) for p in apps) - cpu0
        host_cpu = cpu_s(me) - host0
        got_bytes = (await clients.ask("bytes", ids=watchers))["total"] - bytes0
        return WatchFigures(
            watchers=count, shared=shared, apps=len(apps), start_s=start_s, apps_pss_mib=pss,
            host_mib=host_mib, apps_cpu_ms=apps_cpu * 1e3 / max(1, done),
            host_cpu_ms=host_cpu * 1e3 / max(1, done), to_watchers=lat, actions=done,
            bytes_per_watcher=got_bytes / max(1, done) / max(1, count),
        )  # fmt: skip
    finally:
        await clients.close()
        await tables.close()
        await host.close()


async def watchers_bench(
    tmp: Path, counts: list[int], actions: int, log: TextIO = sys.stdout, own_apps_up_to: int = 100
) -> None:
    from mqtui.net.sshserver import raise_file_limit

    raise_file_limit()  # (a thousand connections)
    print(
        "watchers of one table of four players (full app, 80x24, clients in a child process); per table "
        "action; 'own apps' is the way before (an app per watcher); 'players' is what the watchers cost "
        "above the four players alone (the first row), in players (that row's apps + host CPU / 4):",
        file=log,
        flush=True,
    )
    alone: WatchFigures | None = None
    for count in [0, *counts]:
        for shared in (False, True) if 0 < count <= own_apps_up_to else (True,):
            print(f"  [{load()}]", file=log, flush=True)
            f = await run_watchers(tmp, count, shared, actions)
            lat = (
                f"{statistics.median(f.to_watchers) * 1e3:.0f} / {pct(f.to_watchers, 0.9) * 1e3:.0f} ms"
                if f.to_watchers
                else "n/a"
            )
            if alone is None:
                alone = f
            player = (alone.apps_cpu_ms + alone.host_cpu_ms) / 4
            extra = f.apps_cpu_ms + f.host_cpu_ms - alone.apps_cpu_ms - alone.host_cpu_ms
            print(
                f"{f.watchers:>5} watchers  {'shared' if f.shared else 'own apps':<8}  {f.apps:>4} apps "
                f"(with the players')  join {f.start_s:5.1f} s  apps PSS {f.apps_pss_mib:7.1f} MiB  host +{f.host_mib:6.1f} MiB  "
                f"CPU per action: apps {f.apps_cpu_ms:6.0f} ms, host {f.host_cpu_ms:6.0f} ms = "
                f"{extra / player if player else float('nan'):5.1f} players  "
                f"key->watchers {lat}  {f.bytes_per_watcher:.0f} B/watcher/action  ({f.actions} actions)",
                file=log,
                flush=True,
            )


if __name__ == "__main__" and sys.argv[1:] == ["--client"]:
    asyncio.run(_client())
