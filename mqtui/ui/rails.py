"""Safety rails: what waits in a room a move leads to, and the actions worth a second thought.

Pure functions of a :class:`~mqtui.store.Snapshot` (the seat's own view) and the card table. They
never change what is legal: the game screen asks once before doing an action :func:`risk` names (when
Settings' "Ask before risky actions" is on), and the palette and the "what now?" lists put a use that
:func:`harmful` names after the helpful ones.

Three kinds of action are asked about:
- a fight you are very unlikely to win (below ``RISKY_ODDS``, from your view, as the fight would
  start: :mod:`mqtui.bots.ahead`): a move into a monster's room, a challenge, a teleport, a Level
  gained where a monster stops ignoring you;
- a card given away (to a hero in the room, or as charity);
- a card played for the other side: for the monsters in your own fight (or as your helper), for the
  hero in someone else's.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqtui.bots.ahead import Ahead, action_ahead
from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.defs import MonsterDef
from mqtui.engine.state import CHARITY, State
from mqtui.store import Snapshot

RISKY_ODDS = 0.15  # a fight this unlikely to be won is asked about first


def _foes(foes: Iterable[MonsterDef]) -> str:
    return " and ".join(f"Level {d.level} {d.name}" for d in foes)


def _ignore(ahead: Ahead) -> str:
    return " ignore you" if len(ahead.ignoring) > 1 else " ignores you"


def ahead_note(ahead: Ahead, short: bool = False) -> str:
    """What waits in a room, for a move line: "Level 12 Grue, 8% to win; Level 20 Wight ignores you";
    ``short`` (a narrow pane, where a line has some 30 columns): "⚔8% vs L12", the fight's odds and
    Levels only (the map and the room line name the monsters), else "L20 ignores you"."""
    if ahead.boss:
        return f"⚔{ahead.p:.0%} vs the boss" if short else f"the boss fight (Level 20), {ahead.p:.0%} to win"
    if short:
        if ahead.foes:
            return f"⚔{ahead.p:.0%} vs " + "+".join(f"L{d.level}" for d in ahead.foes)
        return "+".join(f"L{d.level}" for d in ahead.ignoring) + _ignore(ahead)
    parts = []
    if ahead.foes:
        parts.append(f"{_foes(ahead.foes)}, {ahead.p:.0%} to win")
    if ahead.ignoring:
        parts.append(_foes(ahead.ignoring) + _ignore(ahead))
    return "; ".join(parts)


def move_note(snap: Snapshot, cards: CardTable, action: Action, short: bool = False) -> str:
    """The monsters a move (or a teleport) leads to, in a few words ("" for none or an unexplored room)."""
    if action.kind not in ("move", "teleport") or snap.seat != action.seat:
        return ""
    ahead = action_ahead(cards, snap.view, action.seat, action)
    return "" if ahead is None else ahead_note(ahead, short)


def side_helped(cards: CardTable, action: Action) -> int | None:
    """The side of the fight a card play helps (0: the heroes, 1: the monsters); None: not such a play
    (or one whose help depends on the dice, a reroll)."""
    k = action.kind
    if k == "use":
        return action.b
    if k == "wander":
        return 1
    if k == "enhance":
        amount = cards.dxm[action.a].amount
        return None if amount == 0 else (1 if amount > 0 else 0)
    if k == "dice":
        amount = cards.dxm[action.a].amount
        if cards.dxm[action.a].action == "reroll" or amount == 0:
            return None
        return action.b if amount > 0 else 1 - action.b
    return None


def own_side(view: State, seat: int) -> int:
    """The viewer's side of the fight on now: the heroes' if they fight in it, else the monsters'."""
    c = view.combat
    return 0 if c is not None and seat in (c.active, c.helper) else 1


def gift_to(view: State, action: Action) -> int:
    """The hero a card is given to (-1: not a gift)."""
    if action.kind == "give":
        return action.b
    f = view.frames[-1] if view.frames else None
    if action.kind == "charity" and f is not None and f.kind == CHARITY:
        return f.target
    return -1


def harmful(snap: Snapshot, cards: CardTable, action: Action) -> bool:
    """A card given away, or played for the other side of the fight: ranked after the helpful uses."""
    if gift_to(snap.view, action) >= 0:
        return True
    side = side_helped(cards, action)
    return side is not None and snap.view.combat is not None and side != own_side(snap.view, action.seat)


def helpful_first(actions: Iterable[Action], snap: Snapshot, cards: CardTable) -> list[Action]:
    """``actions`` with the harmful ones last (the order kept otherwise)."""
    return sorted(actions, key=lambda a: harmful(snap, cards, a))


def risk(snap: Snapshot, cards: CardTable, action: Action) -> str:
    """The question to ask before ``action`` ("" when there is none to ask)."""
    view = snap.view
    to = gift_to(view, action)
    if to >= 0:
        return f"Give {cards.names[action.a]} to {view.heroes[to].name}? A gift cannot be taken back."
    side = side_helped(cards, action)
    c = view.combat
    if side is not None and c is not None and side != own_side(view, action.seat):
        name = cards.names[action.a]
        if side == 1:
            return f"Play {name} for the monsters? It makes your own fight harder."
        return f"Play {name} for {view.heroes[c.active].name}? It helps them win their fight."
    ahead = action_ahead(cards, view, action.seat, action)
    if ahead is not None and ahead.boss and ahead.p < RISKY_ODDS:
        return (
            f"This starts the boss fight (a Level 20 boss, whatever its card): you have {ahead.p:.0%} to win "
            "(before any card or help). Losing costs a Life and a Level."
        )
    if ahead is not None and ahead.fight and ahead.p < RISKY_ODDS:
        return (
            f"This starts a fight with {_foes(ahead.foes)}: you have {ahead.p:.0%} to win "
            "(before any card or help)."
        )
    return ""


__all__ = ["RISKY_ODDS", "ahead_note", "harmful", "helpful_first", "move_note", "risk", "side_helped"]
