"""How often each bot kind spends a card against another hero, and how it helps: counted over whole
games of four bots of one kind (the figures behind "the easy bot does not play for the kill").

    .venv/bin/python bench/meddling.py [--games 100] [--seed 1] [--kinds easy normal] [--json]

Per game: curses played, cards played into someone else's fight against them (plus cards on the
monsters, one-shots thrown for the monsters, wandering monsters, dice tricks on the monsters' die...
counted from the seat of a hero not fighting), invitations made and their terms (Treasures offered
per Treasure the monsters carry), invitations accepted. Also: how often the card against a hero was
aimed at the leader (the highest Level among the others) and at the weakest hero.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import make_bot
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER, State
from mqtui.engine.view import view_for


def against(engine: Engine, s: State, seat: int, kind: str, a: int, b: int) -> int:
    """The hero a card is played against, or -1 when it is not a card against someone."""
    t = engine.cards
    c = s.combat
    if kind == "curse":
        return b
    if c is None or seat in (c.active, c.helper):
        return -1
    if kind == "enhance" and t.dxm[a].amount > 0:
        return c.active
    if kind == "use" and b == 1:
        return c.active
    if kind == "wander":
        return c.active
    if kind == "dice" and b == 1:
        return c.active
    return -1


def run(kind: str, games: int, seed: int) -> dict[str, Any]:
    engine = Engine(load_content())
    count: dict[str, float] = {
        "games": 0,
        "cards_against": 0,
        "curses": 0,
        "at_leader": 0,
        "at_weakest": 0,
        "invites": 0,
        "offered_share": 0.0,
        "invites_answered": 0,
        "accepted": 0,
        "rounds": 0,
    }
    for g in range(games):
        names = ("Ann", "Bob", "Cy", "Di")
        s, _ = engine.new_game([(names[i], COLOURS[i]) for i in range(4)], seed + g)
        bots = [make_bot(kind, (seed + g) * 1000 + i) for i in range(4)]
        while s.stage != STAGE_OVER and s.round <= 200:
            seat = engine.deciding(s)
            action = bots[seat].choose(engine, view_for(s, seat), seat, list(engine.legal(s, seat))).action
            victim = against(engine, s, seat, action.kind, action.a, action.b)
            if victim >= 0:
                count["cards_against"] += 1
                count["curses"] += action.kind == "curse"
                others = [h for h in s.heroes if h.seat != seat]
                count["at_leader"] += s.heroes[victim].level == max(h.level for h in others)
                count["at_weakest"] += s.heroes[victim].level == min(h.level for h in others)
            if action.kind == "invite" and s.combat is not None:
                total = sum(
                    engine.cards.monster[m.card].treasures for m in s.monsters if m.id in s.combat.monsters
                )
                count["invites"] += 1
                count["offered_share"] += (action.b % 10) / total if total else 0.0
            if action.kind in ("accept", "decline"):
                count["invites_answered"] += 1
                count["accepted"] += action.kind == "accept"
            engine.apply(s, action)
        count["games"] += 1
        count["rounds"] += s.round
    n = max(1, count["games"])
    return {
        "kind": kind,
        "games": int(count["games"]),
        "rounds_per_game": round(count["rounds"] / n, 2),
        "cards_against_per_game": round(count["cards_against"] / n, 2),
        "curses_per_game": round(count["curses"] / n, 2),
        "share_at_leader": round(count["at_leader"] / max(1, count["cards_against"]), 3),
        "share_at_weakest": round(count["at_weakest"] / max(1, count["cards_against"]), 3),
        "invites_per_game": round(count["invites"] / n, 2),
        "treasure_share_offered": round(count["offered_share"] / max(1, count["invites"]), 3),
        "acceptance_rate": round(count["accepted"] / max(1, count["invites_answered"]), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", default=["easy", "normal"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [run(kind, args.games, args.seed) for kind in args.kinds]
    if args.json:
        print(json.dumps(rows))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"four bots of one kind, {args.games} games from seed {args.seed}")
    table.add_column("figure")
    for row in rows:
        table.add_column(row["kind"], justify="right")
    for key in rows[0]:
        if key != "kind":
            table.add_row(key.replace("_", " "), *(str(r[key]) for r in rows))
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
