"""What an action leads into: the monsters waiting in a room, and the chance of beating them in the
fight the action would start, from a seat's own view (the app's move lines and its warnings).

Only public facts and the seat's own hero are read: the monsters on the board, the room's rules, the
hero's Level, gear in use and powers. The chance is the fight as it would stand when it starts, before
anyone plays a card or helps (the combat pane's "N% to win now"), with :func:`~mqtui.bots.eval.p_win`.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from mqtui.bots.eval import hero_strength, monster_dice, monster_strength, p_win, room_rules_at, wins_ties
from mqtui.engine.actions import Action
from mqtui.engine.board import room_at
from mqtui.engine.cards import DXM, CardTable
from mqtui.engine.combat import BOSS_LEVEL, ignores, meets_the_boss
from mqtui.engine.defs import MonsterDef
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import ACT, DX, DY, Hero, Monster, State


@dataclass(frozen=True)
class Ahead:
    """The monsters in a room as a hero would meet them there."""

    foes: tuple[MonsterDef, ...]  # those that would fight the hero
    ignoring: tuple[MonsterDef, ...]  # those that ignore the hero (a fight only if challenged)
    p: float  # the chance of beating ``foes`` as the fight would start (1.0: no fight)
    boss: bool = False  # the boss fight (a Level 10 hero at the Entrance): its card is still face down

    @property
    def fight(self) -> bool:
        return bool(self.foes) or self.boss


def fight_odds(t: CardTable, s: State, hero: Hero, foes: list[MonsterDef], x: int, y: int) -> float:
    """The chance that ``hero`` alone beats ``foes`` in the room at (x, y), before any card is played."""
    rules = room_rules_at(t, s, x, y)
    tags = {tag for d in foes for tag in d.tags}
    margin = hero_strength(t, hero, tags, rules) - monster_strength(t, foes, [hero], rules)
    return p_win(margin, monster_dice(rules), wins_ties(t, [hero]))


def room_ahead(t: CardTable, s: State, hero: Hero, x: int, y: int, only: int = -1) -> Ahead | None:
    """The monsters ``hero`` (as it would be there) meets in the explored room at (x, y); ``only``: the
    one monster it challenges. None: an unexplored room, or no monster in it."""
    if room_at(s, x, y) is None:
        return None
    there: list[Monster] = [m for m in s.monsters if (m.x, m.y) == (x, y) and only in (-1, m.id)]
    if not there:
        return None
    foes = [t.monster[m.card] for m in there if only >= 0 or not ignores(t, m, hero)]
    ignoring = tuple(t.monster[m.card] for m in there if only < 0 and ignores(t, m, hero))
    p = fight_odds(t, s, hero, foes, x, y) if foes else 1.0
    return Ahead(tuple(foes), ignoring, p)


def boss_ahead(t: CardTable, s: State, hero: Hero) -> Ahead:
    """The boss fight a Level 10 hero walks into at the Entrance: whatever its card, a Level 20 boss
    (the card's kinds are unknown until it is flipped: no bonus against a kind is counted)."""
    rules = room_rules_at(t, s, 0, 0)
    margin = hero_strength(t, hero, (), rules) - BOSS_LEVEL
    return Ahead((), (), p_win(margin, monster_dice(rules), wins_ties(t, [hero])), boss=True)


def level_gain(t: CardTable, hero: Hero, action: Action) -> int:
    """The Levels an action in the action phase gives the hero (0: none)."""
    if action.kind == "buylevel":
        return 1
    if action.kind != "play":
        return 0
    uid = action.a
    if t.deck_of[uid] == DXM:
        d = t.dxm[uid]
        return max(1, d.amount) if d.kind == "level" else 0
    return 1 if t.treasure[uid].kind == "level" else 0


def action_ahead(t: CardTable, s: State, seat: int, action: Action) -> Ahead | None:
    """The monsters that the viewer's action in its action phase leads it to (a move into a room, a
    teleport, a challenge, a Level gained in a room whose monsters ignore lower Levels); None when it
    leads to none (or the outcome is hidden: a room not explored yet)."""
    if not s.frames or s.frames[-1].kind != ACT or s.combat is not None:
        return None
    hero = s.heroes[seat]
    k = action.kind
    if k in ("move", "teleport"):
        x, y = (hero.x + DX[action.a], hero.y + DY[action.a]) if k == "move" else (action.b, action.c)
        if meets_the_boss(hero, x, y):
            return boss_ahead(t, s, hero)
        return room_ahead(t, s, hero, x, y)
    if k == "challenge":
        return room_ahead(t, s, hero, hero.x, hero.y, only=action.a)
    gain = level_gain(t, hero, action)
    if gain:
        higher = msgspec.structs.replace(hero, level=min(MAX_LEVEL - 1, hero.level + gain))
        return room_ahead(t, s, higher, hero.x, hero.y)
    return None


__all__ = ["Ahead", "action_ahead", "boss_ahead", "fight_odds", "level_gain", "room_ahead"]
