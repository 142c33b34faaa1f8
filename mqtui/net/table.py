"""The table's rules around the game: seat lists, seats' states, the choices made for absent players.

:class:`Seating` (who may take which seat, by which code) is the base of the
:class:`~mqtui.net.authority.Authority`; the rest are pure helpers, kept apart so that they are easy to
read and to test.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from mqtui.engine.actions import SPECS, Action, Event, to_text
from mqtui.engine.defs import COLOURS
from mqtui.net import persist
from mqtui.net.conn import Conn
from mqtui.net.identity import ANY, WATCH, Claim, claim_for_spec, code_label, new_code, normalise_code
from mqtui.net.protocol import ANY_SEAT, SPECTATOR, SeatInfo
from mqtui.seat_kinds import BOT_KINDS, HUMAN, PEOPLE_KINDS, SeatKind

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")
SAFE_KINDS = ("pass", "decline", "done", "end")


@dataclass
class TableConfig:
    timeout: float = 60.0  # an away player's decision is made for them after this many seconds
    turn_timeout: float = 0.0  # a connected player's too (0: never)
    abandon: float = 300.0  # away this long: a bot takes the seat until the player returns (0: never)
    bot_delay: float = 0.6  # seconds before a computer decision, so people can follow
    away_bot: SeatKind = SeatKind.NORMAL  # the bot that takes abandoned seats
    rate: float = 20.0  # messages a second a client may send, on average...
    burst: float = 40.0  # ...and in a burst
    max_strikes: int = 50  # refused-for-abuse messages before a client is cut off
    hello_timeout: float = 10.0
    guess_delay: float = 0.2  # seconds before a wrong join code at the socket is refused (slows guessing)
    max_buffer: int = 4 * 1024 * 1024  # unsent bytes to one client before it is cut off as stuck
    # seconds the others' sessions wait for a player's action's result, so that the player's own screen
    # is drawn first on a busy host (its app would share the CPUs with the table's other apps)
    others_after: float = 0.05


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
        return self.kind in PEOPLE_KINDS  # ("remote" in a game saved by a player over the network)

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
    for i, entry in enumerate(entries):
        parts = entry.split(":")
        name, colour, kind = parts[0], "", HUMAN
        for extra in parts[1:]:
            if extra in COLOURS:
                colour = extra
            elif extra in (HUMAN, *BOT_KINDS):
                kind = SeatKind(extra)
            elif extra == "bot":
                kind = SeatKind.NORMAL
            else:
                raise ValueError(f"{entry!r}: {extra!r} is neither a colour nor a player kind")
        if name.lower() in ("bot", *BOT_KINDS) and len(parts) == 1:
            kind = SeatKind.NORMAL if name.lower() == "bot" else SeatKind(name.lower())
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


def played_for(slot: Slot, seat: int, config: TableConfig, names: Sequence[str], action: Action) -> Event:
    """The log's word that the table plays ``action`` for the player of ``slot`` (``seat``), who took
    too long or is away (``slot.auto``: still away since the table last played for them)."""
    public, private = played_words(names, action)
    if slot.conn is not None:
        why = f"took more than {config.turn_timeout:g} s"
    elif slot.auto:
        why = "is still away"
    else:
        why = f"is away ({config.timeout:g} s without a decision)"
    return Event(
        "timeout",
        f"{slot.name} {why}: the table plays '{public}' for them.",
        seat,
        f"You {why.replace('is ', 'are ', 1)}: the table plays '{private}' for you.",
    )


def safe_choice(legal: Sequence[Action]) -> Action:
    for kind in SAFE_KINDS:
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]


def next_auto(slot: Slot, config: TableConfig, since: float, table_since: float, now: float) -> float | None:
    """Seconds until the table decides for ``slot``, deciding since ``since``, or None: wait for its
    player (``table_since``: when the first player of a busy spell connected)."""
    quick = since + config.bot_delay
    if not slot.human or slot.taken_over:
        return max(0.0, quick - now)
    if slot.conn is None:
        if slot.auto:
            return max(0.0, quick - now)
        away = max(slot.away_since, table_since)  # away while somebody was waiting
        deadlines = []
        if config.timeout > 0:
            deadlines.append(max(since, away) + config.timeout)
        if config.abandon > 0:
            deadlines.append(max(quick, away + config.abandon))
        return max(0.0, min(deadlines) - now) if deadlines else None
    if config.turn_timeout > 0:
        return max(0.0, since + config.turn_timeout - now)
    return None


class Seating:
    """The seats of a served game and its join codes: who may take which seat."""

    def __init__(self, game: persist.ServedGame) -> None:
        self.game = game
        self.slots = [Slot(s.name, s.colour, s.kind, s.owner) for s in game.seats]
        self._ensure_codes()

    def _owners_changed(self) -> None:
        """A seat got its owner (the authority saves: who owns a seat survives a restart)."""

    def own(self, seat: int, identity: str) -> None:
        """Give an unowned seat to ``identity``."""
        if 0 <= seat < len(self.slots) and not self.slots[seat].owner and identity:
            self.slots[seat].owner = identity
            self.game.seats[seat].owner = identity
            self._owners_changed()

    def _ensure_codes(self) -> None:
        targets = set(self.game.codes.values())
        for i, slot in enumerate(self.slots):
            if slot.human and str(i) not in targets:
                self.game.codes[new_code()] = str(i)
        for spec in (ANY, WATCH):
            if spec not in targets:
                self.game.codes[new_code()] = spec

    def codes_for(self, spec: str) -> list[str]:
        return [code for code, target in self.game.codes.items() if target == spec]

    def seat_infos(self) -> list[SeatInfo]:
        return [SeatInfo(s.name, s.colour, s.kind, s.status()) for s in self.slots]

    def claim_for_code(self, text: str) -> Claim | None:
        code = normalise_code(text)
        spec = self.game.codes.get(code)
        if spec is None:
            return None
        identity = f"code:{code}"
        if spec == ANY:  # shared by everyone who picks a seat with it: each picker is someone else
            identity += ":" + secrets.token_hex(4)
        return claim_for_spec(spec, identity, code_label(spec))

    def free_seats(self, identity: str = "") -> list[int]:
        """Seats a picking player may take: human seats nobody owns (or that this identity owns)."""
        return [
            i
            for i, s in enumerate(self.slots)
            if s.human and (not s.owner or (identity and s.owner == identity))
        ]

    def owned_seat(self, identity: str) -> int | None:
        for i, s in enumerate(self.slots):
            if s.human and identity and s.owner == identity:
                return i
        return None

    def resolve(self, claim: Claim, want: int = ANY_SEAT) -> int | str:
        """The seat a claim gets (SPECTATOR to watch), or the reason it gets none."""
        seat = claim.seat
        if seat is None:
            owned = self.owned_seat(claim.identity)
            if want == SPECTATOR:
                return SPECTATOR
            if owned is not None and want in (ANY_SEAT, owned):
                return owned
            free = self.free_seats(claim.identity)
            if want == ANY_SEAT:
                return free[0] if free else "every seat is taken; connect with the watch code to watch"
            if want in free:
                return want
            return f"seat {want} is not free"
        if seat == SPECTATOR:
            return SPECTATOR
        if not 0 <= seat < len(self.slots):
            return f"this game has no seat {seat}"
        if not self.slots[seat].human:
            return f"seat {seat} is played by the computer"
        return seat

    def reserve(self, seat: int, identity: str) -> None:
        """Mark a picked seat as this identity's before its app connects."""
        self.own(seat, identity)

    def anyone_here(self) -> bool:
        """Some player is connected (spectators do not count)."""
        return any(slot.conn is not None for slot in self.slots)
