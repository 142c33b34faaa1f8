"""Is the engine's behaviour unchanged? Fingerprints of many seeded games, to compare before and after.

    .venv/bin/python bench/same.py record OUT.json.gz [--games 300] [--bots random] [--players 4]
                                   [--content DIR ...]
    .venv/bin/python bench/same.py compare BEFORE.json.gz [same options]

``record`` plays the games and writes, for each, the SHA-256 of every step: the legal list of the
deciding seat, the action taken, the events it made (kind, text, private text) and every seat's view
afterwards (msgpack). ``compare`` plays the same games again and, for each game whose steps differ,
prints the first differing step with what happened there (the action and the events, before and
after), so that a change can be shown to touch only the games it means to.
Each seat's bot is the one ``mqtui sim`` and the app put there (``seat_bot``), asked as they ask it
(``Host.decide``); pass ``--content`` to pin the content folder.
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

from mqtui.bots import seat_bot
from mqtui.engine import board
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.engine.view import view_for
from mqtui.hosting import Host
from mqtui.sim import NAMES

ENC = msgspec.msgpack.Encoder()


GAPS: list[str] = []  # the rule gaps of issue 17 that applied in the step being played


def _probe() -> None:
    """Note when the rule-gap fixes of issue 17 apply, to tell their games from any other change."""
    if not hasattr(board, "_loops_back"):
        return  # the engine before the fixes
    loops_back = board._loops_back

    def probe(beyond: int, key: int, visited: set[int]) -> bool:
        hit = loops_back(beyond, key, visited)
        if hit:
            GAPS.append("loop through the Entrance")
        return hit

    board._loops_back = probe


def play(
    engine: Engine, bots: list[str], seed: int, cap: int
) -> tuple[list[str], list[str], list[list[str]]]:
    """Step digests of one game and a short description of each step (for the report)."""
    seats = [seat_bot(kind, seed, i) for i, kind in enumerate(bots)]
    state, events = engine.new_game([(NAMES[i], COLOURS[i]) for i in range(len(bots))], seed)
    host = Host(engine, state, rollback=False)
    digests, notes = [], []
    gaps: list[list[str]] = [[]]
    h = hashlib.sha256(ENC.encode([[e.kind, e.text, e.private] for e in events]))
    digests.append(h.hexdigest()[:16])
    notes.append("new game")
    while state.stage != STAGE_OVER and state.round <= cap:
        seat = engine.deciding(state)
        legal = list(engine.legal(state, seat))
        action = host.decide(seats[seat], seat, legal).action  # as the app asks its bots
        hero = state.heroes[seat]
        before = f"seat {seat} Level {hero.level} Moves {hero.moves} moved={hero.moved}: {action}"
        GAPS.clear()
        if hero.moves == 0 and not hero.moved and any(a.kind == "move" for a in legal):
            GAPS.append("spend-all with 0 Moves")
        events = engine.apply(state, action)
        h = hashlib.sha256(ENC.encode([[(a.kind, a.seat, a.a, a.b, a.c) for a in legal], str(action)]))
        h.update(ENC.encode([[e.kind, e.text, e.private] for e in events]))
        for other in range(len(bots)):
            h.update(ENC.encode(view_for(state, other)))
        digests.append(h.hexdigest()[:16])
        gaps.append(sorted(set(GAPS)))
        notes.append((before + " | " + " / ".join(e.text for e in events))[:400])
    return digests, notes, gaps


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
    parser.add_argument("--verbose", action="store_true", help="also show the games a rule gap explains")
    args = parser.parse_args()
    engine = Engine(load_content(args.content or None))
    bots = [args.bots] * args.players
    if args.mode == "record":
        out: dict[str, Any] = {"bots": bots, "games": {}}
        for g in range(args.games):
            digests, notes, _ = play(engine, bots, args.seed + g, args.round_cap)
            out["games"][str(args.seed + g)] = {"steps": digests, "notes": notes}
        Path(args.file).write_bytes(gzip.compress(json.dumps(out).encode()))
        steps = sum(len(v["steps"]) for v in out["games"].values())
        print(f"recorded {args.games} games, {steps} steps")
        return
    before = json.loads(gzip.decompress(Path(args.file).read_bytes()))["games"]
    _probe()
    differ = explained = hit_same = 0
    steps = 0
    why: dict[str, int] = {}
    for g in range(args.games):
        seed = args.seed + g
        digests, notes, gaps = play(engine, bots, seed, args.round_cap)
        old = before[str(seed)]
        steps += len(digests)
        first_gap = next((i for i, found in enumerate(gaps) if found), None)
        if digests == old["steps"]:
            hit_same += first_gap is not None  # a gap applied but changed nothing anyone could see
            continue
        differ += 1
        i = next((i for i, (a, b) in enumerate(zip(digests, old["steps"], strict=False)) if a != b), None)
        if i is None:
            i = min(len(digests), len(old["steps"]))
        if first_gap is not None and first_gap <= i:
            explained += 1
            for gap in gaps[first_gap]:
                why[gap] = why.get(gap, 0) + 1
            if not args.verbose:
                continue
        print(f"game {seed}: first differs at step {i} of {len(old['steps'])} (now {len(digests)})")
        print(f"  gap applied first at step {first_gap}: {gaps[first_gap] if first_gap is not None else '-'}")
        print(f"  before: {old['notes'][i] if i < len(old['notes']) else '(game over)'}")
        print(f"  after:  {notes[i] if i < len(notes) else '(game over)'}")
    print(
        f"{args.games} games, {steps} steps: {args.games - differ} identical ({hit_same} of them hit a gap), "
        f"{differ} differ; in {explained} of those a rule gap applied at or before the first difference "
        f"({', '.join(f'{k}: {v}' for k, v in sorted(why.items()))}); unexplained: {differ - explained}"
    )


if __name__ == "__main__":
    main()
