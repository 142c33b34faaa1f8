#!/usr/bin/env python3
"""Write the fixture and sample saves under ``saves/``: one fixture per save format, plus a sample.

- ``saves/format-N.mqsave``: the same short game (three seats, one human and two random bots, seed
  20240501) made with the test content ``tests/fixtures/minimal_content``, in every format this program
  reads. The tests check that each reads, that the old ones migrate to exactly the current one, and that
  they validate against that content. Only the current format's file is written; an older format's file
  is written only if it is missing (format 0, from its writer here: :func:`encode_format0`): old fixtures
  are what old files look like and are never rewritten.
- ``saves/sample.mqsave``: a four-player game with the base content, to try ``mqtui check``,
  ``mqtui replay`` and ``mqtui saves --dir saves`` on. It carries its content, so it stays playable when
  the base content changes.
- ``saves/old/``: the fixture and sample saves of mqtui 0.1.0, byte for byte (not written here).

Usage: ``.venv/bin/python scripts/make_fixture_saves.py [--rounds N]``. Adding a save format: the old
format's fixture stays as it is; this script then writes the new one.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from mqtui import saves  # noqa: E402
from mqtui.engine.actions import to_text  # noqa: E402
from mqtui.engine.content import load_content  # noqa: E402
from mqtui.engine.game import Engine  # noqa: E402
from mqtui.saves.codec import pack_file  # noqa: E402
from mqtui.store import LocalStore, Seat  # noqa: E402

FIXTURE_CONTENT = ROOT / "tests" / "fixtures" / "minimal_content"
FIXTURE_SEED = 20240501
SAMPLE_SEED = 7


def play(engine: Engine, seats: tuple[Seat, ...], seed: int, rounds: int) -> LocalStore:
    """A game with the bots at their seats and seeded random choices for the humans."""
    store = LocalStore.new(engine, seats, seed, bot_delay=0)
    pick = random.Random(seed)
    while store.state.stage != "over" and store.state.round <= rounds:
        if not store.step_bot():
            who = engine.deciding(store.state)
            store.apply(pick.choice(engine.legal(store.state, who)))
    return store


def encode_format0(data: saves.SaveData) -> bytes:
    """A save in format 0 (never released; the first link of the migrations in ``mqtui.saves.migrate``):
    the actions in the text notation, the state with its int-keyed maps as they are in memory, no log."""
    header = msgspec.structs.replace(data.header, reader="0.0.0")
    body = msgspec.msgpack.encode(
        {
            "seed": data.seed,
            "players": [(p.name, p.colour, p.kind) for p in data.seats],
            "actions": [to_text(a) for a in data.actions],
            "state": data.state,
        }
    )
    return pack_file(msgspec.msgpack.encode(header), body, fmt=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds in the fixture game (default 8)")
    parser.add_argument("--out", type=Path, default=ROOT / "saves", help="folder to write (default saves/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    engine = Engine(load_content([FIXTURE_CONTENT]))
    seats = (Seat("Ann", "red"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))
    store = play(engine, seats, FIXTURE_SEED, args.rounds)
    current = args.out / f"format-{saves.FORMAT}.mqsave"
    saves.write_atomic(current, store.to_bytes(), backups=0)
    data = saves.read(current)
    saves.validate(data, engine)
    saves.verify(data, engine)
    oldest = args.out / "format-0.mqsave"
    if not oldest.exists():
        oldest.write_bytes(encode_format0(data))
    print(f"{current.name}: {saves.describe(data.header.summary)}")

    engine = Engine(load_content())
    four = (
        Seat("Ann", "red"),
        Seat("Bob", "blue", "random"),
        Seat("Cy", "green", "random"),
        Seat("Di", "yellow", "random"),
    )
    store = play(engine, four, SAMPLE_SEED, 12)
    sample = args.out / "sample.mqsave"
    saves.write_atomic(sample, store.to_bytes(), backups=0)
    print(f"{sample.name}: {saves.describe(saves.read(sample).header.summary)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
