"""A lobby host for ``bench/net.py --realistic --baseline REV``, in a process of its own, from whichever
``mqtui`` it imports (the bench sets ``PYTHONPATH`` and the working folder to the tree it measures).

    PYTHONPATH=TREE python bench/net_host.py --folder DIR --players S   (run by bench/net_baseline.py)

S human seats in tables of four (S // 4 tables) on a loopback port, session apps forked from the fork
server, limits that only measure (as ``bench/net_sessions.py``'s ``bench_host``). The host's API is the
one every version from 2ebff04 on has (``Tables``, ``LobbyHost``, ``Limits``, ``TableConfig``); where
versions differ (``Limits`` gained fields) only the fields this version knows are given.

Standard output: one JSON line when the host listens (its port, its pid, the fork server's pid, the
``mqtui`` it imported, each table's id and its seats' join codes), then one JSON line per request read
on standard input (``{"op": ..., "rid": N}``; the reply carries ``"re": N``):

- ``children``: the session apps now, ``[[pid, seat], ...]`` (the host's own books);
- ``state`` (``table``): that table's state number and the seat deciding;
- ``changed`` (``table``, ``n``, ``limit``): replies once the table's state number is no longer ``n``
  (``changed`` false after ``limit`` seconds);
- ``close``: closes the host, replies, exits.

The host's own figures (CPU) the bench reads from /proc.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import resource
import signal
import sys
from pathlib import Path
from typing import Any

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # bench/ is no package of the tree measured (its modules must not shadow any)

import mqtui
from mqtui.net import lobbyproto as lp
from mqtui.net.limits import Limits
from mqtui.net.lobby import LobbyHost, seats_for
from mqtui.net.table import TableConfig
from mqtui.net.tables import Tables


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def known(cls: Any, **wanted: Any) -> Any:
    """``cls(**wanted)`` with only the fields this version of ``cls`` has."""
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in wanted.items() if k in names})


async def serve(folder: Path, players: int) -> None:
    raise_file_limit()  # (a thousand descriptors)
    config = known(TableConfig, bot_delay=0.0, timeout=0.0, abandon=0.0, rate=1e6, burst=1e6)
    tables = Tables(folder / "tables", config, max_tables=10_000)
    await tables.load_all()
    made = []
    for i in range(players // 4):
        request = lp.Create(name="P0", others=[lp.OPEN] * 3)
        made.append(await tables.create(seats_for(request), 100 + i, []))
    room = 10 * players + 10  # the bench measures, not limits; a starved app on 2 cores is not a hung one
    limits = known(
        Limits,
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
    await host.listen("127.0.0.1", 0, folder / "ssh_host_key")
    await host.start_forks()
    assert host.forks is not None and host.forks.proc is not None
    by_id = {a.game.game: a for a in made}
    out = sys.stdout

    def say(**fields: Any) -> None:
        out.write(json.dumps(fields) + "\n")
        out.flush()

    say(
        port=host.port,
        pid=os.getpid(),
        forks=host.forks.proc.pid,
        mqtui=str(Path(mqtui.__file__).resolve().parent),
        tables=[
            {"id": a.game.game, "codes": {str(i): a.codes_for(str(i))[0] for i, s in enumerate(a.slots) if s.human}}
            for a in made
        ],
    )  # fmt: skip

    async def changed(a: Any, n: int, limit: float) -> bool:
        end = asyncio.get_running_loop().time() + limit
        while a.state.n == n:
            if asyncio.get_running_loop().time() > end:
                return False
            await asyncio.sleep(0.005)
        return True

    async def handle(msg: dict[str, Any]) -> None:
        op, rid = msg["op"], msg["rid"]
        if op == "children":
            say(re=rid, children=[[pid, seat] for pid, seat in host.children.items()])
        elif op == "state":
            a = by_id[msg["table"]]
            say(re=rid, n=a.state.n, deciding=a.engine.deciding(a.state))
        elif op == "changed":
            a = by_id[msg["table"]]
            say(re=rid, changed=await changed(a, msg["n"], msg["limit"]), n=a.state.n)
        elif op == "close":
            stop.set()

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C at the bench: the bench closes us
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set[asyncio.Task[None]] = set()

    async def read() -> None:
        while line := await reader.readline():
            task = loop.create_task(handle(json.loads(line)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        stop.set()  # the bench went away

    reading = loop.create_task(read())
    try:
        await stop.wait()
    finally:
        reading.cancel()
        await tables.close()
        await host.close()
        with contextlib.suppress(Exception):
            say(closed=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--folder", type=Path, required=True, help="the tables and the host key go here")
    parser.add_argument("--players", type=int, required=True, help="human seats, in tables of four")
    args = parser.parse_args()
    asyncio.run(serve(args.folder, args.players))


if __name__ == "__main__":
    main()
