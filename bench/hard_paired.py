"""Paired games for the hard bot: one hard bot (with knobs changed) against three normal ones, seats
rotated, one line of JSON per game, and a comparison of two such runs game by game.

    .venv/bin/python bench/hard_paired.py --seed 700001 --games 50 --out base.jsonl
    .venv/bin/python bench/hard_paired.py --seed 700001 --games 50 --set shared=0.0 --out new.jsonl
    .venv/bin/python bench/hard_paired.py --compare base.jsonl new.jsonl

The games are those of ``mqtui sim --bots hard,normal,normal,normal --rotate --seed S`` (the same
engine, the same seat bots and seeds, asked through a ``Host``); ``--set ATTR=JSON`` sets an attribute
of the hard bot (``boss_floor=0.45``, ``shared=0.3``). Each line has the winners, whether the hard bot
won alone, how often it reached Level 10 and lost it again (to the boss, to a curse), its boss fights,
its decision times and the CPU seconds of the game. A game is written when it ends, so a run stopped
early still counts. With the same seeds, games in which the hard bot's choices never differed end the
same, so the comparison counts the games decided differently.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import bot_seed, seat_bot
from mqtui.bots.hard import HardBot
from mqtui.engine.defs import COLOURS
from mqtui.engine.state import STAGE_OVER
from mqtui.hosting import Host
from mqtui.packs import engine_for
from mqtui.sim import DEFAULT_ROUND_CAP, NAMES, seat_kinds


def play(seed: int, game: int, over: dict[str, Any]) -> dict[str, Any]:
    engine = engine_for([])
    kinds = seat_kinds(["hard", "normal", "normal", "normal"], game, True)
    bots: list[Any] = []
    for i, k in enumerate(kinds):
        if k == "hard":
            bot = HardBot(bot_seed(seed, i))
            for attr, value in over.items():
                assert hasattr(bot, attr), f"the hard bot has no {attr!r}"
                setattr(bot, attr, value)
            bots.append(bot)
        else:
            bots.append(seat_bot(k, seed, i))
    hs = kinds.index("hard")
    host = Host(engine, engine.new_game([(NAMES[i], COLOURS[i]) for i in range(4)], seed)[0], rollback=False)
    s = host.state
    c: dict[str, Any] = dict(bossfights=0, l10=0, l10_lost_boss=0, l10_lost_curse=0, l10_lost_other=0)
    c["rival_l10"] = 0
    times: list[int] = []
    prev = [h.level for h in s.heroes]
    cpu = time.process_time()
    while s.stage != STAGE_OVER and s.round <= DEFAULT_ROUND_CAP:
        seat = host.deciding()
        legal = engine.legal(s, seat)
        boss = s.combat is not None and s.combat.boss and hs in (s.combat.active, s.combat.helper)
        started = time.perf_counter_ns()
        choice = host.decide(bots[seat], seat, legal)
        if seat == hs:
            times.append(time.perf_counter_ns() - started)
        events = host.apply(choice.action).events
        if any(e.kind == "boss" for e in events) and s.combat is not None and s.combat.active == hs:
            c["bossfights"] += 1
        now = [h.level for h in s.heroes]
        if prev[hs] < 10 <= now[hs]:
            c["l10"] += 1
        if prev[hs] >= 10 > now[hs]:
            why = "boss" if boss else "curse" if choice.action.kind == "curse" else "other"
            c[f"l10_lost_{why}"] += 1
        c["rival_l10"] += sum(1 for j in range(4) if j != hs and prev[j] < 10 <= now[j])
        prev = now
    times.sort()
    return dict(
        seed=seed,
        hard=hs,
        winners=list(s.winners),
        sole=s.winners == [hs],
        win=hs in s.winners,
        rounds=s.round,
        cpu=round(time.process_time() - cpu, 2),
        times_ms=[round(t / 1e6, 3) for t in times],
        **c,
    )


def load(path: str) -> dict[int, dict[str, Any]]:
    with open(path) as f:
        return {r["seed"]: r for r in map(json.loads, f)}


def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    times = sorted(t for r in rows for t in r["times_ms"])
    med = times[len(times) // 2] if times else 0.0
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0
    keys = ("l10", "bossfights", "l10_lost_boss", "l10_lost_curse", "rival_l10")
    counts = " ".join(f"{k} {sum(r[k] for r in rows)}" for k in keys)
    return (
        f"games {n}, sole wins {sum(r['sole'] for r in rows)}, all wins {sum(r['win'] for r in rows)}, "
        f"{counts}, CPU s/game {sum(r['cpu'] for r in rows) / max(1, n):.1f}, "
        f"decision ms median {med:.3f} p99 {p99:.1f}"
    )


def compare(a_path: str, b_path: str) -> None:
    a, b = load(a_path), load(b_path)
    common = sorted(set(a) & set(b))
    print(f"A {a_path}: {summary([a[s] for s in common])}")
    print(f"B {b_path}: {summary([b[s] for s in common])}")
    differ = sum(a[s]["winners"] != b[s]["winners"] for s in common)
    a_only = sum(a[s]["sole"] and not b[s]["sole"] for s in common)
    b_only = sum(b[s]["sole"] and not a[s]["sole"] for s in common)
    print(f"games ending differently {differ}; won alone only in A {a_only}, only in B {b_only}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=700001)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--set", action="append", default=[], metavar="ATTR=JSON")
    ap.add_argument("--out", help="the JSON-lines file to write")
    ap.add_argument("--compare", nargs=2, metavar="FILE")
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if not args.out:
        ap.error("--out is needed to play")
    over = {k: json.loads(v) for k, v in (kv.split("=", 1) for kv in args.set)}
    with open(args.out, "w") as out:
        for g in range(args.games):
            out.write(json.dumps(play(args.seed + g, g, over)) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
