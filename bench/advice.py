"""How long the advisor makes a person wait: the advice for every decision of a few normal bots' games.

    .venv/bin/python bench/advice.py [--games 3] [--seed 1]

Prints, for the decisions with a real choice, the CPU time of the advice (median, p90, p99, max, in ms:
CPU time, so that a loaded machine does not inflate it; the advisor's limit is wall time,
``ADVICE_MS``), how many of them ran the look-ahead, how many it called close or cut short, and, as a
baseline measured in the same run, the ratio to the normal bot's own decision at the same positions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import seat_bot
from mqtui.bots.advice import advise, advisor_bot
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.engine.view import view_for
from mqtui.hosting import Host
from mqtui.sim import NAMES


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = Engine(load_content())
    blind = [engine.blind() for _ in range(4)]
    advice_ms: list[float] = []
    normal_ms: list[float] = []
    searched = close = cut = 0
    for g in range(args.games):
        seed = args.seed + g
        bots = [seat_bot("normal", seed, i) for i in range(4)]
        host = Host(
            engine, engine.new_game([(NAMES[i], COLOURS[i]) for i in range(4)], seed)[0], rollback=False
        )
        while host.state.stage != STAGE_OVER and host.state.round <= 60:
            s = host.state
            seat = engine.deciding(s)
            legal = list(engine.legal(s, seat))
            if len(legal) > 1:
                view = view_for(s, seat)
                hard = advisor_bot()
                started = time.process_time()
                advice = advise(blind[seat], view, seat, legal, bot=hard)
                advice_ms.append((time.process_time() - started) * 1000)
                searched += hard.last_search is not None
                close += advice is not None and advice.text.endswith("(a close call)")
                cut += advice is not None and advice.text.endswith("(unsure: out of time)")
                started = time.process_time()
                host.decide(bots[seat], seat, legal)
                normal_ms.append((time.process_time() - started) * 1000)
            host.apply(host.decide(bots[seat], seat, legal).action)
    q = statistics.quantiles(advice_ms, n=100)
    print(
        f"{len(advice_ms)} decisions with a choice: advice CPU ms median {statistics.median(advice_ms):.2f}, "
        f"p90 {q[89]:.1f}, p99 {q[98]:.1f}, max {max(advice_ms):.1f}; look-ahead on {searched} "
        f"({close} close calls, {cut} cut by the clock); total CPU {sum(advice_ms) / max(1e-9, sum(normal_ms)):.1f}x "
        "the normal bot's decisions at the same positions"
    )


if __name__ == "__main__":
    main()
