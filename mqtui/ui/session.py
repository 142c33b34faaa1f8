"""Building local games: the engine (loaded once), seats with computer players, new stores."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.seat_kinds import BOT_KINDS, HUMAN, SEAT_KINDS, SeatKind
from mqtui.store import LocalStore, Seat

DEFAULT_NAMES = ("Ann", "Grizzlebeard", "Dame Pointy", "Snaggletooth", "Mopsy", "Sir Loin")
BOT_LABELS = {kind: f"Computer ({kind})" for kind in BOT_KINDS}


def engine(packs: Sequence[str] = ()) -> Engine:
    """The engine for the base content plus ``packs`` (loaded once per process); raises PackError."""
    from mqtui.packs import engine_for

    return engine_for(packs)


def resolve_kind(kind: str) -> SeatKind:
    """The seat kind a player names ("bot": the normal computer player); raises ValueError."""
    if kind == "bot":
        return SeatKind.NORMAL
    if kind not in SEAT_KINDS:
        raise ValueError(f"unknown player kind {kind!r}: use human, bot, {', '.join(BOT_KINDS)}")
    return SeatKind(kind)


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: str = HUMAN  # human | random | easy | normal | hard | bot
    colour: str = ""  # empty: the first free colour


def default_specs(n: int = 4, kind: str = SeatKind.EASY) -> list[SeatSpec]:
    """The default table: one human against computer players of ``kind`` (easy until the player picks
    another level on the New Game screen: see ``Settings.opponents``)."""
    return [SeatSpec(DEFAULT_NAMES[0], HUMAN)] + [SeatSpec(DEFAULT_NAMES[i], kind) for i in range(1, n)]


def build_seats(specs: Sequence[SeatSpec]) -> tuple[Seat, ...]:
    """Seats with colours (given ones kept, the rest the first free) and bot kinds that exist."""
    if not 2 <= len(specs) <= 6:
        raise ValueError("a game needs 2 to 6 players")
    taken = [s.colour for s in specs if s.colour]
    for colour in taken:
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}: choose from {', '.join(COLOURS)}")
    if len(set(taken)) != len(taken):
        raise ValueError("two players have the same colour")
    free = [c for c in COLOURS if c not in taken]
    seats: list[Seat] = []
    names: set[str] = set()
    for spec in specs:
        name = spec.name.strip() or f"Player {len(seats) + 1}"
        check_name(name)
        if name in names:
            raise ValueError(f"two players are called {name!r}")
        names.add(name)
        colour = spec.colour or free.pop(0)
        seats.append(Seat(name=name, colour=colour, kind=resolve_kind(spec.kind)))
    return tuple(seats)


NAME_MAX = 24  # characters in a player's name (it has to fit the panes)


def check_name(name: str) -> None:
    """A player's name: printable, not empty, at most ``NAME_MAX`` characters; raises ValueError."""
    if not name:
        raise ValueError("a seat has no name: use NAME[:KIND[:COLOUR]]")
    if not name.isprintable():
        raise ValueError(f"{name!r}: a name cannot hold control characters")
    if len(name) > NAME_MAX:
        raise ValueError(f"{name[:NAME_MAX]}…: a name has at most {NAME_MAX} characters")


def parse_players(text: str) -> list[SeatSpec]:
    """``"Ann:human,Bob:bot,Cy:hard"`` (kind optional: human) into seat specs; raises ValueError
    (an empty list, an empty seat between commas, a seat without a name, a name with control
    characters)."""
    if not text.strip():
        raise ValueError('--players is empty: give 2 to 6 seats, e.g. "Ann:human,Bob:bot"')
    specs = []
    parts = [part.strip() for part in text.split(",")]
    if parts and not parts[-1]:
        parts.pop()  # a trailing comma is harmless
    for part in parts:
        if not part:
            raise ValueError(f"{text!r}: an empty seat between commas")
        bits = [b.strip() for b in part.split(":")]
        if len(bits) > 3:
            raise ValueError(f"{part!r}: use NAME[:KIND[:COLOUR]]")
        name = bits[0]
        check_name(name)
        kind = bits[1].lower() if len(bits) > 1 and bits[1] else HUMAN
        colour = bits[2].lower() if len(bits) > 2 else ""
        if kind not in (HUMAN, "bot", *BOT_KINDS):
            raise ValueError(f"{part!r}: the kind must be human, bot, {', '.join(BOT_KINDS)}")
        specs.append(SeatSpec(name, kind, colour))
    return specs


def new_store(
    specs: Sequence[SeatSpec], seed: int | None = None, bot_delay: float = 0.4, packs: Sequence[str] = ()
) -> LocalStore:
    """A new local game; ``packs`` (names) are layered on the base content and saved with the game.
    Raises ValueError for a bad table or a pack that is missing or broken."""
    from mqtui.packs import PackError

    seats = build_seats(specs)
    try:
        game_engine = engine(packs)
    except PackError as exc:
        raise ValueError(str(exc)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    store = LocalStore.new(game_engine, seats, seed, bot_delay=bot_delay)
    store.packs = tuple(packs)
    return store
