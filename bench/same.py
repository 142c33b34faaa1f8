"""Is the engine's behaviour unchanged? Fingerprints of many seeded games, to compare before and after.

    .venv/bin/python bench/same.py record OUT.json.gz [--games 300] [--bots random] [--players 4]
                                   [--content DIR ...]
    .venv/bin/python bench/same.py compare BEFORE.json.gz [same options]

``record`` plays the games and writes, for each, the SHA-256 of every step: the legal list of the
deciding seat, the action taken, the events it made (kind, text, private text) and every seat's view
afterwards (msgpack). ``compare`` plays the same games again and, for each game whose steps differ,
prints the first differing step with what happened there (the action and the events, before and
after), so that a change can be shown to touch only the games it means to.
Bots are seeded per game as in ``mqtui sim``; pass ``--content`` to pin the content folder.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import make_bot
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.engine.view import view_for
from mqtui.sim import NAMES

ENC = msgspec.msgpack.Encoder()


def play(engine: Engine, bots: list[str], seed: int, cap: int) -> tuple[list[str], list[str]]:
    """Step digests of one game and a short description of each step (for the report)."""
    seats = [make_bot(kind, seed * 1000 + i) for i, kind in enumerate(bots)]
    state, events = engine.new_game([(NAMES[i], COLOURS[i]) for i in range(len(bots))], seed)
    digests, notes = [], []
    h = hashlib.sha256(ENC.encode([[e.kind, e.text, e.private] for e in events]))
    digests.append(h.hexdigest()[:16])
    notes.append("new game")
    while state.stage != STAGE_OVER and state.round <= cap:
        seat = engine.deciding(state)
        legal = list(engine.legal(state, seat))
        bot = seats[seat]
        view = view_for(state, seat) if getattr(bot, "needs_view", True) else None
        action = bot.choose(engine, view, seat, legal).action
        hero = state.heroes[seat]
        before = f"seat {seat} Level {hero.level} Moves {hero.moves} moved={hero.moved}: {action}"
        events = engine.apply(state, action)
        h = hashlib.sha256(ENC.encode([[(a.kind, a.seat, a.a, a.b, a.c) for a in legal], str(action)]))
        h.update(ENC.encode([[e.kind, e.text, e.private] for e in events]))
        for other in range(len(bots)):
            h.update(ENC.encode(view_for(state, other)))
        digests.append(h.hexdigest()[:16])
        notes.append((before + " | " + " / ".join(e.text for e in events))[:400])
    return digests, notes


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("file")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--round-cap", type=int, default=60)
    parser.add_argument("--content", nargs="+", default=[])
    args = parser.parse_args()
    engine = Engine(load_content(args.content or None))
    bots = [args.bots] * args.players
    if args.mode == "record":
        out: dict[str, Any] = {"bots": bots, "games": {}}
        for g in range(args.games):
            digests, notes = play(engine, bots, args.seed + g, args.round_cap)
            out["games"][str(args.seed + g)] = {"steps": digests, "notes": notes}
        Path(args.file).write_bytes(gzip.compress(json.dumps(out).encode()))
        steps = sum(len(v["steps"]) for v in out["games"].values())
        print(f"recorded {args.games} games, {steps} steps")
        return
    before = json.loads(gzip.decompress(Path(args.file).read_bytes()))["games"]
    differ = 0
    steps = 0
    for g in range(args.games):
        seed = args.seed + g
        digests, notes = play(engine, bots, seed, args.round_cap)
        old = before[str(seed)]
        steps += len(digests)
        if digests == old["steps"]:
            continue
        differ += 1
        i = next((i for i, (a, b) in enumerate(zip(digests, old["steps"], strict=False)) if a != b), None)
        if i is None:
            i = min(len(digests), len(old["steps"]))
        print(f"game {seed}: first differs at step {i} of {len(old['steps'])} (now {len(digests)})")
        print(f"  before: {old['notes'][i] if i < len(old['notes']) else '(game over)'}")
        print(f"  after:  {notes[i] if i < len(notes) else '(game over)'}")
    print(f"{args.games} games, {steps} steps: {args.games - differ} identical, {differ} differ")


if __name__ == "__main__":
    main()
