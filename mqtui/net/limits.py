"""Limits by kind for a public server, and the accounting behind them.

What one host allows, each limit separate and set with a ``mqtui serve`` option (see docs/ssh.md):

- **players**: sessions sitting at a seat, over the whole host (``--max-players``);
- **spectators** of one table (``--max-spectators``);
- **sessions** of every kind together (``--max-sessions``); spectators and other sessions (a seat menu,
  a lobby) never use the room kept for players, so a crowd of watchers cannot keep a player out;
- **connections that have not signed in** (``--max-unauthenticated``), each given ``--login-timeout``
  seconds; when they are all in use, the oldest one that has not even started to sign in (a port scan,
  a health check) makes room for the newcomer;
- **failed sign-ins**: an address that types ``--max-failures`` wrong codes within ten minutes is
  refused until they age out. Connections that never tried to sign in never count.

Every refusal carries a reason in words, for the person who is refused.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

PLAYER = "player"
SPECTATOR = "spectator"
VISITOR = "visitor"  # a session that has no seat yet (the seat menu, a lobby)


@dataclass
class Limits:
    max_players: int = 32  # sessions at a seat, whole host
    max_spectators: int = 16  # spectators per table
    max_sessions: int = 64  # every session; max_players of them are kept for players
    max_unauthenticated: int = 64  # connections that have not signed in yet
    login_timeout: float = 30.0  # seconds to sign in
    max_failures: int = 10  # wrong join codes from one address...
    failure_window: float = 600.0  # ...within this many seconds: refused until they age out
    max_cols: int = 400  # terminal sizes are clamped to this (a 10000x10000 window costs GiBs)
    max_rows: int = 150
    input_rate: float = 256.0  # bytes a second of keyboard input an app gets, on average...
    input_burst: float = 1024.0  # ...and at once (a paste); more is dropped, not queued
    stall: float = 5.0  # seconds an app may leave its input unread, or be stopped, before it is ended
    silent: float = 15.0  # seconds an app may send nothing to the game (it pings) before it is ended
    heartbeat: float = 2.0  # seconds between a session app's pings (keep silent several of these)
    linger: float = 1.5  # seconds a session leaves a message up for its player (a seat's code, why it ended)
    guess_delay: float = 0.5  # seconds a wrong join code's answer waits, per wrong code so far (4 at most)
    lobby_refresh: float = 2.0  # seconds between a lobby app's looks at the list of tables
    default_term: str = "xterm-256color"  # for a client that sends an empty TERM

    def check(self) -> str:
        """Why these limits make no sense, or ""."""
        if min(self.max_players, self.max_spectators, self.max_sessions, self.max_unauthenticated) < 0:
            return "limits cannot be negative"
        if self.max_players > self.max_sessions:
            return f"--max-players {self.max_players} is more than --max-sessions {self.max_sessions}"
        if self.login_timeout <= 0:
            return "--login-timeout must be more than 0"
        if self.max_failures < 1:
            return "--max-failures must be at least 1"
        return ""


def clamp_size(limits: Limits, cols: int, rows: int) -> tuple[int, int]:
    """A terminal size no larger than the limits (0 stays 0: the caller picks a default)."""
    return min(max(cols, 0), limits.max_cols), min(max(rows, 0), limits.max_rows)


@dataclass
class _Pending:
    addr: str
    since: float
    close: Callable[[str], None]
    tried: bool = False


class Ticket:
    """One admitted session; give it back with :meth:`release` when the session ends."""

    def __init__(self, gate: Gate, kind: str, table: str) -> None:
        self.gate, self.kind, self.table = gate, kind, table
        self.released = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.gate._release(self)


@dataclass
class Gate:
    """The host's accounting: who is signing in, who failed, how many sessions of each kind."""

    limits: Limits = field(default_factory=Limits)
    pending: dict[object, _Pending] = field(default_factory=dict)  # in arrival order
    failures: dict[str, deque[float]] = field(default_factory=dict)
    kinds: Counter[str] = field(default_factory=Counter)
    watching: Counter[str] = field(default_factory=Counter)  # table -> spectators

    # -- connections that have not signed in ----------------------------------------------------------

    def opened(self, key: object, addr: str, close: Callable[[str], None]) -> str:
        """A new connection; "" if it may try to sign in, else why not."""
        if len(self.pending) >= self.limits.max_unauthenticated:
            idle = next((k for k, p in self.pending.items() if not p.tried), None)
            if idle is None:
                return (
                    f"too many people are signing in right now ({self.limits.max_unauthenticated}); "
                    "try again in a minute"
                )
            self.pending.pop(idle).close("mqtui: closed to make room: this connection never tried to sign in")
        self.pending[key] = _Pending(addr, time.monotonic(), close)
        return ""

    def trying(self, key: object) -> None:
        """The connection started to sign in (it is no longer evicted to make room)."""
        p = self.pending.get(key)
        if p is not None:
            p.tried = True

    def done(self, key: object) -> None:
        """Signed in, or gone."""
        self.pending.pop(key, None)

    # -- failed sign-ins ------------------------------------------------------------------------------

    def failed(self, addr: str) -> None:
        times = self.failures.setdefault(addr, deque())
        times.append(time.monotonic())
        while len(times) > self.limits.max_failures:
            times.popleft()
        if len(self.failures) > 10_000:  # never grows without bound: forget the quietest addresses
            for a in [a for a, t in self.failures.items() if len(t) < 2][:5000]:
                del self.failures[a]

    def blocked(self, addr: str) -> float:
        """Seconds until this address may sign in again (0: it may)."""
        times = self.failures.get(addr)
        if not times:
            return 0.0
        now = time.monotonic()
        window = self.limits.failure_window
        while times and now - times[0] >= window:
            times.popleft()
        if not times:
            del self.failures[addr]
            return 0.0
        if len(times) < self.limits.max_failures:
            return 0.0
        return times[0] + window - now

    def blocked_reason(self, addr: str) -> str:
        left = self.blocked(addr)
        if not left:
            return ""
        minutes = max(1, round(left / 60))
        return (
            f"too many wrong join codes from your address ({self.limits.max_failures} in "
            f"{self.limits.failure_window / 60:g} minutes); try again in about {minutes} minute"
            + ("s" if minutes != 1 else "")
        )

    # -- sessions -------------------------------------------------------------------------------------

    def admit(self, kind: str, table: str = "") -> Ticket | str:
        """A ticket for one more session of this kind (at this table), or why there is no room."""
        lim = self.limits
        total = sum(self.kinds.values())
        players = self.kinds[PLAYER]
        if kind == PLAYER:
            if players >= lim.max_players:
                return f"this server already has {players} players, its limit; try again later"
        else:
            others = total - players
            room = lim.max_sessions - lim.max_players  # the rest is kept for players
            if others >= room:
                return "this server is full of spectators and visitors; the seats are kept for players"
            if kind == SPECTATOR and self.watching[table] >= lim.max_spectators:
                return f"this table already has {self.watching[table]} spectators, its limit; try again later"
        if total >= lim.max_sessions:
            return f"this server is full ({total} sessions); try again later"
        self.kinds[kind] += 1
        if kind == SPECTATOR:
            self.watching[table] += 1
        return Ticket(self, kind, table)

    def _release(self, ticket: Ticket) -> None:
        self.kinds[ticket.kind] -= 1
        if ticket.kind == SPECTATOR:
            self.watching[ticket.table] -= 1
            if self.watching[ticket.table] <= 0:
                del self.watching[ticket.table]
