"""Content balance, measured by playing: per monster how often it wins and loses, per room how often it
is explored, which cards were ever played, and the level curve over rounds.

    .venv/bin/python bench/balance.py [--games 200] [--bots normal] [--json]

Observes games from outside (the state before and after each action), so it needs no hooks in the
engine. Cards are "played" when an action names them (equip, play, curse, enhance, use, dice, ...).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.bots import make_bot
from mqtui.engine.content import load_content
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.engine.view import view_for
from mqtui.sim import NAMES

CARD_ACTIONS = {
    "play",
    "equip",
    "belt",
    "curse",
    "enhance",
    "wander",
    "use",
    "dice",
    "wall",
    "shove",
    "teleport",
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--round-cap", type=int, default=120)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    engine = Engine(load_content())
    t = engine.cards
    fights: Counter[str] = Counter()
    monster_wins: Counter[str] = Counter()
    explored: Counter[str] = Counter()
    played: Counter[str] = Counter()
    levels_by_round: dict[int, list[int]] = {}
    for g in range(args.games):
        bots = [make_bot(args.bots, g * 10 + i) for i in range(args.players)]
        s, _ = engine.new_game([(NAMES[i], COLOURS[i]) for i in range(args.players)], g)
        while s.stage != STAGE_OVER and s.round <= args.round_cap:
            seat = engine.deciding(s)
            bot = bots[seat]
            view = view_for(s, seat) if getattr(bot, "needs_view", True) else None
            action = bot.choose(engine, view, seat, list(engine.legal(s, seat))).action
            in_fight = (
                {m.id: t.monster[m.card].id for m in s.monsters if m.id in s.combat.monsters}
                if s.combat
                else {}
            )
            rooms_before = len(s.rooms)
            round_before = s.round
            if action.kind in CARD_ACTIONS and action.a >= 0:
                played[t.card_id(action.a)] += 1
            engine.apply(s, action)
            if in_fight and s.combat is None:
                alive = {m.id for m in s.monsters}
                for mid, card_id in in_fight.items():
                    fights[card_id] += 1
                    if mid in alive:
                        monster_wins[card_id] += 1
            for room in s.rooms[rooms_before:]:
                explored[t.room(room.room).id] += 1
            if s.round != round_before:
                levels_by_round.setdefault(round_before, []).extend(h.level for h in s.heroes)
    all_rooms = {r.id for r in engine.content.rooms}
    all_cards = {t.card_id(u) for u in range(len(t.deck_of)) if t.deck_of[u] != "monster"}
    report = {
        "games": args.games,
        "bots": args.bots,
        "fights": sum(fights.values()),
        "monster_win_rate": {k: round(monster_wins[k] / n, 2) for k, n in fights.most_common()},
        "monsters_never_beaten": sorted(k for k, n in fights.items() if monster_wins[k] == n),
        "monsters_never_fought": sorted({m.id for m in engine.content.monsters} - set(fights)),
        "rooms_never_explored": sorted(all_rooms - set(explored)),
        "rooms_explored_top": dict(explored.most_common(5)),
        "cards_never_played": sorted(all_cards - set(played)),
        "level_curve": {
            r: round(statistics.fmean(v), 2) for r, v in sorted(levels_by_round.items()) if r % 10 == 0
        },
    }
    if args.json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
