"""One table at a host, action by action: when each player's terminal got its bytes after the key.

    .venv/bin/python bench/net_timeline.py [--actions 16] [--warmup 5] [--tree PATH]

A lobby host (``bench/net_host.py``, from ``--tree``: this checkout by default) with one table of four
human seats, four SSH clients (``bench/net_paced.py``'s client process), the first ``--warmup`` actions
played and not shown; then for each action the deciding player's keys (``a1``, as ``bench/net.py``
types them) and, 1.2 s later, every burst each terminal got since the key: ``ms:bytes``, the acting
player's line marked ``*``. It says where an action's time goes that the p90 of ``bench/net.py`` only
sums up: the frame of the key itself, the frame of the new state, a second layout, a late line.
Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from net_baseline import HostProc  # (the bench's own modules)
from net_paced import Clients, act, warm

SETTLE = 1.2  # s after the key: what came by then is the action's


async def timeline(tree: Path, actions: int, warmup: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        host, clients = HostProc(), Clients()
        try:
            await host.start(tree, Path(tmp) / "host", 4)
            await clients.start()
            table = host.made[0]
            got = await asyncio.gather(
                *(clients.join(host.port, code, "What you can do") for code in table.codes.values())
            )
            ids = dict(zip(table.codes, got, strict=True))
            group = list(ids.values())
            await warm(clients, table, ids, warmup, 0.0)
            await asyncio.sleep(2.0)
            for k in range(actions):
                n, who = await table.state()
                if who not in ids:
                    print(f"action {k}: the game waits for no player here")
                    break
                t_key = await act(clients, table, ids[who], n)
                if t_key is None:
                    print(f"action {k}: the keys did not move the game (a decision they cannot make)")
                    break
                await asyncio.sleep(SETTLE)
                chunks = (await clients.ask("chunks", ids=group, since=t_key))["chunks"]
                after, _ = await table.state()
                print(f"action {k}: state {n} -> {after}, seat {who} acting")
                for seat, sid in ids.items():
                    bursts = " ".join(
                        f"{(t - t_key) * 1e3:.0f}:{size}" for t, size in chunks[group.index(sid)]
                    )
                    print(f"   {'*' if seat == who else ' '} seat {seat}: {bursts}")
                await asyncio.sleep(0.3)
        finally:
            if hasattr(clients, "proc"):
                await clients.close()
            if hasattr(host, "proc"):
                await host.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--actions", type=int, default=16)
    ap.add_argument("--warmup", type=int, default=5, help="actions played first, not shown (the set-up)")
    ap.add_argument(
        "--tree", type=Path, default=Path(__file__).resolve().parent.parent, help="the host's mqtui"
    )
    args = ap.parse_args()
    asyncio.run(timeline(args.tree, args.actions, args.warmup))


if __name__ == "__main__":
    main()
