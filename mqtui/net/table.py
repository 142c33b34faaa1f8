"""The table's rules around the game: seat lists, seats' states, the choices made for absent players.

Pure helpers of the :class:`~mqtui.net.authority.Authority`, kept apart so that they are easy to read
and to test.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mqtui.bots import Bot, make_bot
from mqtui.engine.actions import SPECS, Action, to_text
from mqtui.engine.defs import COLOURS
from mqtui.net import persist

if TYPE_CHECKING:
    from mqtui.net.authority import Conn

HUMAN = "human"
NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")
SAFE_KINDS = ("pass", "decline", "done", "end")


@dataclass
class TableConfig:
    timeout: float = 60.0  # an away player's decision is made for them after this many seconds
    turn_timeout: float = 0.0  # a connected player's too (0: never)
    abandon: float = 300.0  # away this long: a bot takes the seat until the player returns (0: never)
    bot_delay: float = 0.6  # seconds before a computer decision, so people can follow
    away_bot: str = "normal"  # the bot that takes abandoned seats ("random" if "normal" is missing)
    rate: float = 20.0  # messages a second a client may send, on average...
    burst: float = 40.0  # ...and in a burst
    max_strikes: int = 50  # refused-for-abuse messages before a client is cut off
    hello_timeout: float = 10.0
    max_buffer: int = 4 * 1024 * 1024  # unsent bytes to one client before it is cut off as stuck


@dataclass
class Slot:
    name: str
    colour: str
    kind: str = HUMAN
    owner: str = ""
    conn: Conn | None = None
    away_since: float = field(default_factory=time.monotonic)
    taken_over: bool = False  # abandoned: a bot plays it until its player returns
    auto: bool = False  # timed out while away: safe choices at once until its player returns

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    def status(self) -> str:
        if not self.human:
            return "bot"
        if self.conn is not None:
            return "here"
        if self.taken_over:
            return "bot"
        if self.auto:
            return "auto"
        return "away" if self.owner else "empty"


def parse_new_spec(spec: str) -> list[persist.SeatRec]:
    """``"3"`` or ``"Ann,Bob,bot"`` or ``"Ann:red,Bob:blue:human,Cy:green:normal"`` -> seats.

    Each entry is NAME[:COLOUR][:KIND], KIND is "human" (the default) or a bot kind; a bare bot kind
    ("bot", "random", "easy", "normal", "hard") is a computer seat with a default name.
    """
    spec = spec.strip()
    if spec.isdigit():
        count = int(spec)
        if not 2 <= count <= 6:
            raise ValueError("a game needs 2 to 6 players")
        return [persist.SeatRec(name=NAMES[i], colour=COLOURS[i]) for i in range(count)]
    entries = [e.strip() for e in spec.replace(";", ",").split(",") if e.strip()]
    if not 2 <= len(entries) <= 6:
        raise ValueError("a game needs 2 to 6 players")
    seats: list[persist.SeatRec] = []
    bot_kinds = ("random", "easy", "normal", "hard")
    for i, entry in enumerate(entries):
        parts = entry.split(":")
        name, colour, kind = parts[0], "", HUMAN
        for extra in parts[1:]:
            if extra in COLOURS:
                colour = extra
            elif extra in (HUMAN, *bot_kinds):
                kind = extra
            elif extra == "bot":
                kind = "normal"
            else:
                raise ValueError(f"{entry!r}: {extra!r} is neither a colour nor a player kind")
        if name.lower() in ("bot", *bot_kinds) and len(parts) == 1:
            kind = "normal" if name.lower() == "bot" else name.lower()
            name = f"{NAMES[i]} (bot)"
        seats.append(persist.SeatRec(name=name or NAMES[i], colour=colour, kind=kind))
    used = {s.colour for s in seats if s.colour}
    free = [c for c in COLOURS if c not in used]
    for s in seats:
        if not s.colour:
            s.colour = free.pop(0)
    return seats


def played_words(names: Sequence[str], action: Action) -> tuple[str, str]:
    """How the log names an action the table made for someone: (for everyone, for that player).

    A card stays unnamed for the others: the engine's own log line says what they may know about it
    (a card given in charity or handed over as a reward is secret, a discarded one is not).
    """
    text = to_text(action).split(" ", 1)[1]
    if "card" in "".join(SPECS.get(action.kind, ())) and 0 <= action.a < len(names):
        private = text.replace(f"#{action.a}", names[action.a], 1)
        return f"{action.kind} a card", private
    return text, text


def safe_choice(legal: Sequence[Action]) -> Action:
    for kind in SAFE_KINDS:
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]


def make_seat_bot(kind: str, seed: int) -> Bot:
    try:
        return make_bot(kind, seed)
    except (ModuleNotFoundError, ImportError, ValueError):
        return make_bot("random", seed)
