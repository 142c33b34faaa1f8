"""What players really hold: for each sort of card, how much likelier it is to be in a hand than in its
draw pile, measured in normal bots' games. These are the figures behind ``HAND_ODDS`` in
``mqtui/bots/knowledge.py``, which the hard bot uses to deal other players' hands when it samples them.

    .venv/bin/python bench/hands.py [--games 150] [--seed 5000] [--json]

At a random 5% of action-phase decisions it takes the deciding seat's view and compares the cards
unseen by that seat that sit in other hands with all unseen cards, within each deck (how many DxM and
Treasure cards are in hands is known from the pile sizes; which ones is what the odds are about).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import make_bot
from mqtui.bots.knowledge import HAND_ODDS, card_sort, unseen_cards
from mqtui.engine.cards import DXM, TREASURE
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import ACT, STAGE_OVER
from mqtui.engine.view import view_for
from mqtui.sim import NAMES


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5000, help="seed of the first game")
    parser.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    args = parser.parse_args()
    engine = Engine(load_content())
    t = engine.cards
    held: dict[str, Counter[str]] = {DXM: Counter(), TREASURE: Counter()}
    unseen_all: dict[str, Counter[str]] = {DXM: Counter(), TREASURE: Counter()}
    pick = random.Random(args.seed)
    progress = None
    if not args.json and sys.stdout.isatty():
        from rich.progress import Progress

        progress = Progress()
        progress.start()
    task = progress.add_task("games", total=args.games) if progress else None
    try:
        for g in range(args.games):
            bots = [make_bot("normal", g * 10 + i) for i in range(4)]
            s, _ = engine.new_game([(NAMES[i], COLOURS[i]) for i in range(4)], args.seed + g)
            while s.stage != STAGE_OVER:
                seat = engine.deciding(s)
                view = view_for(s, seat)
                if s.frames[-1].kind == ACT and pick.random() < 0.05:
                    unseen = unseen_cards(t, view, seat)
                    in_hands = {u for h in s.heroes if h.seat != seat for u in h.hand}
                    for deck in (DXM, TREASURE):
                        for u in unseen[deck]:
                            unseen_all[deck][card_sort(t, u)] += 1
                            if u in in_hands:
                                held[deck][card_sort(t, u)] += 1
                engine.apply(s, bots[seat].choose(engine, view, seat, list(engine.legal(s, seat))).action)
            if progress is not None and task is not None:
                progress.advance(task)
    finally:
        if progress is not None:
            progress.stop()
    odds: dict[str, dict[str, float | int]] = {}
    for deck in (DXM, TREASURE):
        n_held, n_all = sum(held[deck].values()), sum(unseen_all[deck].values())
        for sort, n in unseen_all[deck].most_common():
            ratio = (held[deck][sort] / n_held) / (n / n_all) if n_held else 0.0
            odds[sort] = {"held": held[deck][sort], "odds": round(ratio, 2), "used": HAND_ODDS.get(sort, 1.0)}
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "odds": odds}))
        return
    print(f"{'sort':16} {'held':>6} {'odds':>6} {'HAND_ODDS':>10}")
    for sort, row in odds.items():
        print(f"{sort:16} {row['held']:>6} {row['odds']:>6} {row['used']:>10}")


if __name__ == "__main__":
    main()
