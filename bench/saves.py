#!/usr/bin/env python3
"""Save speed and size for a late four-player game with a long log (random bots, ~60 rounds).

Prints absolute figures and ratios against baselines measured in the same run on the same data:
plain ``msgpack.packb``/``unpackb`` and ``json.dumps``/``loads`` of the save's body as plain Python
data. Targets (issue 4): autosave median under 2 ms, load under 20 ms, file under 64 KB.

Usage: ``.venv/bin/python bench/saves.py [--rounds 60] [--seed 7] [--repeat 200]``
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

try:
    import msgpack  # the baseline; a dev-only package (mqtui itself writes saves through msgspec)
except ImportError:
    sys.exit("bench/saves.py compares with the msgpack package: install the dev extra (./test does)")

from mqtui import saves  # noqa: E402
from mqtui.engine.content import load_content  # noqa: E402
from mqtui.engine.game import Engine, copy_state  # noqa: E402
from mqtui.saves.codec import read_prefix  # noqa: E402
from mqtui.saves.model import PREFIX_SIZE  # noqa: E402
from mqtui.store import LocalStore, Seat  # noqa: E402


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def late_game(engine: Engine, rounds: int, seed: int) -> LocalStore:
    seats = tuple(
        Seat(name, colour, "random")
        for name, colour in (("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Di", "yellow"))
    )
    store = LocalStore.new(engine, seats, seed, bot_delay=0)
    while store.state.stage != "over" and store.state.round <= rounds:
        store.step_bot()
    return store


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    n = args.repeat

    engine = Engine(load_content())
    t0 = time.perf_counter()
    store = late_game(engine, args.rounds, args.seed)
    made = time.perf_counter() - t0
    data = store.to_bytes()
    _, hlen, _, _ = read_prefix(data)
    body = data[PREFIX_SIZE + hlen :]
    plain = msgpack.unpackb(body, raw=False)
    plain_packed = msgpack.packb(plain)
    as_json = json.dumps(plain, default=lambda b: base64.b64encode(b).decode())  # JSON has no bytes
    print(
        f"game: {len(store.seats)} players, round {store.state.round}, {len(store.actions)} actions, "
        f"{len(store.log)} log events (made in {made:.1f} s); content {engine.content.version}"
    )

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.mqsave"
        store.save(path)
        size = path.stat().st_size

        rows: list[tuple[str, float, str, float]] = []

        encode = median_ms(store.to_bytes, n)
        base_pack = median_ms(lambda: msgpack.packb(plain), n)
        base_json = median_ms(lambda: json.dumps(plain, default=lambda b: base64.b64encode(b).decode()), n)
        rows.append(("encode the save (store.to_bytes)", encode, "msgpack.packb", base_pack))
        rows.append(("", encode, "json.dumps", base_json))

        saver = saves.AutoSaver(Path(tmp) / "auto.mqsave")
        try:
            ui_path = median_ms(lambda: saver.submit(store.to_bytes()), n)
            saver.flush(30)
        finally:
            saver.close()
        rows.append(("autosave, caller's cost (encode + queue)", ui_path, "msgpack.packb", base_pack))

        durable = median_ms(lambda: saves.write_atomic(Path(tmp) / "slot.mqsave", data), min(n, 100))
        rows.append(("autosave, writer thread (write+fsync+backups)", durable, "msgpack.packb", base_pack))

        decode = median_ms(lambda: saves.decode(data), n)
        base_unpack = median_ms(lambda: msgpack.unpackb(plain_packed, raw=False), n)
        base_loads = median_ms(lambda: json.loads(as_json), n)
        rows.append(("decode (saves.decode, typed)", decode, "msgpack.unpackb", base_unpack))
        load = median_ms(lambda: LocalStore.load(path, engine, bot_delay=0), n)
        rows.append(("load (LocalStore.load: read+decode+checks)", load, "msgpack.unpackb", base_unpack))
        rows.append(("", load, "json.loads", base_loads))
        # after a content change: the game's own content is unpacked, checked and given an engine
        other = Engine(load_content([ROOT / "tests" / "fixtures" / "minimal_content"]))

        def first_load() -> None:
            saves.defs.clear_cache()
            LocalStore.load(path, other, bot_delay=0)

        changed = median_ms(first_load, n)
        rows.append(("load after a content change (first time)", changed, "msgpack.unpackb", base_unpack))
        again = median_ms(lambda: LocalStore.load(path, other, bot_delay=0), n)
        rows.append(("load after a content change (again)", again, "msgpack.unpackb", base_unpack))
        old_sample = ROOT / "saves" / "old" / "sample.mqsave"

        def old_load() -> None:
            saves.defs.clear_cache()
            LocalStore.load(old_sample, other, bot_delay=0)

        old = median_ms(old_load, n)
        rows.append(("load a 0.1.0 save (format 1, archive)", old, "msgpack.unpackb", base_unpack))
        verify = median_ms(lambda: saves.verify(saves.decode(data), engine), max(3, n // 50))
        rows.append(("load --verify extra (replay the log)", verify, "msgpack.unpackb", base_unpack))
        undo_copy = median_ms(lambda: copy_state(store.state), n)
        rows.append(("undo snapshot per action (copy_state)", undo_copy, "msgpack.packb", base_pack))

    print(f"\n{'measure':<46} {'median':>10}   {'baseline':<16} {'baseline':>10} {'ratio':>7}")
    for label, ms, base, base_ms in rows:
        print(f"{label:<46} {ms:>8.3f}ms   {base:<16} {base_ms:>8.3f}ms {ms / base_ms:>6.2f}x")
    print(
        f"\nfile size: {size / 1024:.1f} KiB ({size} bytes); plain msgpack of the same data "
        f"{len(plain_packed) / 1024:.1f} KiB ({size / len(plain_packed):.2f}x), JSON "
        f"{len(as_json) / 1024:.1f} KiB ({size / len(as_json):.2f}x)"
    )
    state_part = len(msgpack.packb(plain["snapshot"]))
    actions_part = len(msgpack.packb(plain["actions"]))
    log_part = len(msgpack.packb(plain["log"]))
    content_part = len(msgpack.packb(plain.get("content")))
    print(
        f"  of which: snapshot {state_part / 1024:.1f} KiB, action log {actions_part / 1024:.1f} KiB "
        f"({actions_part / max(1, len(store.actions)):.1f} B/action), log tail {log_part / 1024:.1f} KiB, "
        f"the game's content {content_part / 1024:.1f} KiB"
    )
    ok = ui_path < 2 and max(load, changed, old) < 20 and size < 64 * 1024
    print(
        f"\ntargets: autosave (caller) < 2 ms: {ui_path:.3f} ms; load < 20 ms: {load:.3f} ms "
        f"({changed:.3f} ms after a content change, {old:.3f} ms for a 0.1.0 save); "
        f"file < 64 KB: {size / 1024:.1f} KiB -> {'met' if ok else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
