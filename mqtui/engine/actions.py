"""Actions, their text notation, events and the engine's errors.

An action is a tiny frozen value: who acts, what kind, and up to three integer arguments. Every action
has a short text form that parses back to the same action, e.g. ``0 move N``, ``2 enhance #41 m3``,
``1 invite @2 t1 g100``.
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

DIR_LETTERS = "NESW"

# What a player can do: the kind of an action (the save format and the notation spell them so).
ActionKind = Literal[
    # ending a decision: building the hero, the action phase, a combat window
    "done",
    "end",
    "pass",
    # the action phase
    "move",
    "search",
    "deal",
    "pickup",
    "buylevel",
    "challenge",
    # cards and items
    "play",
    "curse",
    "wall",
    "shove",
    "teleport",
    "equip",
    "stow",
    "belt",
    "discard",
    "give",
    # a fight: cards played into it, help asked and answered
    "enhance",
    "wander",
    "use",
    "dice",
    "invite",
    "accept",
    "decline",
    # after a fight, and the turn's end
    "take",
    "lose",
    "flee",
    "charity",
]

# What happened: the kind of an event. The engine's kinds, then those the hosts add to a game's log.
EventKind = Literal[
    "badstuff",
    "bonus",
    "boss",
    "charity",
    "colour",
    "combat",
    "curse",
    "deal",
    "death",
    "dice",
    "discard",
    "draw",
    "drop",
    "dungeon",
    "equip",
    "escape",
    "explore",
    "flee",
    "give",
    "gold",
    "hero",
    "interfere",
    "invite",
    "level",
    "life",
    "lose",
    "monster",
    "move",
    "moves",
    "phase",
    "pickup",
    "play",
    "power",
    "result",
    "reward",
    "room",
    "search",
    "setup",
    "start",
    "turn",
    "win",
    # added by the hosts (store, network table), never by the engine
    "undo",
    "save",
    "away",
    "bot",
    "timeout",
]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)

# Argument types: card "#12", seat "@2", monster "m3", dir "N", side "heroes"/"monsters",
# int "5", terms "t2" / "t2!" (first pick), gold "g100". A trailing "?" marks an optional argument.
SPECS: dict[ActionKind, tuple[str, ...]] = {
    "done": (),
    "end": (),
    "pass": (),
    "search": (),
    "accept": (),
    "decline": (),
    "buylevel": (),
    "move": ("dir",),
    "flee": ("dir",),
    "pickup": ("int",),
    "deal": ("card?",),
    "equip": ("card",),
    "stow": ("card",),
    "belt": ("card",),
    "discard": ("card",),
    "give": ("card", "seat"),
    "charity": ("card",),
    "take": ("card",),
    "lose": ("card",),
    "challenge": ("mon",),
    "play": ("card",),
    "curse": ("card", "seat"),
    "enhance": ("card", "mon"),
    "wander": ("card",),
    "use": ("card", "side"),
    "dice": ("card", "side"),
    "wall": ("card", "dir"),
    "shove": ("card", "mon", "dir"),
    "teleport": ("card", "int", "int"),
    "invite": ("seat", "terms", "gold"),
}
SIDES = ("heroes", "monsters")
ACTION_KINDS: dict[str, ActionKind] = {kind: kind for kind in get_args(ActionKind)}  # a word -> its kind
assert set(SPECS) == set(ACTION_KINDS), "every action kind has its arguments in SPECS"
# for parse: each kind's argument kinds without the optional marks, and how many of them are required
_ARG_KINDS: dict[str, tuple[str, ...]] = {k: tuple(a.rstrip("?") for a in spec) for k, spec in SPECS.items()}
_REQUIRED: dict[str, int] = {k: sum(1 for a in spec if not a.endswith("?")) for k, spec in SPECS.items()}


class EngineError(Exception):
    """Base of the engine's errors."""


class IllegalAction(EngineError):
    """The action is not legal now; the message says why."""


class NotationError(EngineError):
    """A text action could not be parsed."""


class Action(msgspec.Struct, frozen=True, array_like=True):
    seat: int
    kind: ActionKind
    a: int = -1
    b: int = -1
    c: int = -1

    def __str__(self) -> str:
        return to_text(self)


class Fight(msgspec.Struct, frozen=True, array_like=True):
    """A fight's result as data (on its "result" event), so that a pane shows it without reading the
    words back: who fought whom, each side's terms, die and total, and who won by the engine's rule
    (:func:`mqtui.engine.combat.heroes_win`). ``mqtui.engine.combat.fight_text`` writes the words."""

    heroes: tuple[str, ...]  # the heroes' names: the one whose fight it is, and a helper
    foes: str  # the monsters' names, or "the boss (its name)"
    hero_terms: tuple[tuple[str, int], ...]  # (label, value): the level first, then every bonus
    monster_terms: tuple[tuple[str, int], ...]
    hero_die: int
    monster_die: int
    hero_total: int  # the terms and the die
    monster_total: int
    won: bool  # the heroes won
    ties_win: bool  # a hero on the side wins ties (a power): a tie is the heroes'


class Event(msgspec.Struct, frozen=True, array_like=True):
    """Something that happened. ``text`` is for everyone; ``private`` (if set) replaces it for ``seat``.
    A fight's result also carries the fight as data (``fight``; saves made before it was added load
    with None)."""

    kind: EventKind
    text: str
    seat: int = -1
    private: str = ""
    fight: Fight | None = None

    def for_seat(self, seat: int) -> str:
        return self.private if self.private and seat == self.seat >= 0 else self.text


def _fmt(kind: str, value: int) -> str:
    if kind == "card":
        return f"#{value}"
    if kind == "seat":
        return f"@{value}"
    if kind == "mon":
        return f"m{value}"
    # a side or direction out of range (only in a refused action) is shown as its number
    if kind == "dir" and 0 <= value < len(DIR_LETTERS):
        return DIR_LETTERS[value]
    if kind == "side" and 0 <= value < len(SIDES):
        return SIDES[value]
    if kind == "terms":
        return f"t{value % 10}" + ("!" if value >= 10 else "")
    if kind == "gold":
        return f"g{value}"
    return str(value)


def terms_words(
    n: int,
    first: bool,
    gold: int,
    *,
    first_words: str = " of their choice",
    join: str = " and ",
    nothing: str = "glory alone",
) -> str:
    """An offer of help (``invite``'s terms) in words: ``n`` Treasures, the helper choosing first if
    ``first``, and ``gold`` paid now; the log's wording unless the caller gives its own."""
    parts = []
    if n:
        parts.append(f"{n} Treasure{'s' if n > 1 else ''}" + (first_words if first else ""))
    if gold:
        parts.append(f"{gold} gold now")
    return join.join(parts) or nothing


def _parse(kind: str, token: str) -> int:
    try:
        if kind == "card" and token.startswith("#"):
            return int(token[1:])
        if kind == "seat" and token.startswith("@"):
            return int(token[1:])
        if kind == "mon" and token.startswith("m"):
            return int(token[1:])
        if kind == "dir" and len(token) == 1 and token.upper() in DIR_LETTERS:
            return DIR_LETTERS.index(token.upper())
        if kind == "side" and token in SIDES:
            return SIDES.index(token)
        if kind == "terms" and token.startswith("t"):
            first = token.endswith("!")
            return int(token[1:].rstrip("!")) + (10 if first else 0)
        if kind == "gold" and token.startswith("g"):
            return int(token[1:])
        if kind == "int":
            return int(token)
    except ValueError:
        pass
    raise NotationError(f"{token!r} is not a {kind}")


def to_text(action: Action) -> str:
    spec = SPECS[action.kind]
    args = (action.a, action.b, action.c)
    parts = [str(action.seat), action.kind]
    for i, kind in enumerate(spec):
        if kind.endswith("?"):
            if args[i] == -1:
                continue
            kind = kind[:-1]
        parts.append(_fmt(kind, args[i]))
    return " ".join(parts)


def parse(text: str) -> Action:
    """Parse the text form of an action (``to_text`` inverts it)."""
    tokens = text.split()
    if len(tokens) < 2:
        raise NotationError(f"{text!r}: expected 'SEAT KIND ARGS...'")
    try:
        seat = int(tokens[0])
    except ValueError:
        raise NotationError(f"{text!r}: the seat must be a number") from None
    kind = ACTION_KINDS.get(tokens[1])
    if kind is None:
        raise NotationError(f"{text!r}: unknown action {tokens[1]!r}")
    spec = SPECS[kind]
    rest = tokens[2:]
    if not _REQUIRED[kind] <= len(rest) <= len(spec):
        raise NotationError(f"{text!r}: {kind} takes {' '.join(spec) or 'no arguments'}")
    values = [-1, -1, -1]
    args = _ARG_KINDS[kind]
    for i, token in enumerate(rest):
        values[i] = _parse(args[i], token)
    return Action(seat, kind, values[0], values[1], values[2])
