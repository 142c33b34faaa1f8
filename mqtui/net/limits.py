"""Limits by kind for a public server, and the accounting behind them.

What one host allows, each limit separate and set with a ``mqtui serve`` option (see docs/ssh.md):

- **players**: sessions sitting at a seat, over the whole host (``--max-players``);
- **spectators** of one table (``--max-spectators``);
- **sessions** of every kind together (``--max-sessions``); spectators and other sessions (a seat menu,
  a lobby) never use the room kept for players, so a crowd of watchers cannot keep a player out;
- **connections that have not signed in** (``--max-unauthenticated``, and ``--max-signing-in-per-address``
  of them from one address), each given ``--login-timeout`` seconds; when they are all in use, the
  oldest one that has not even started to sign in (a port scan, a health check) makes room for the
  newcomer, else the oldest of the address that holds the most (never the newcomer's own), so that one
  address cannot hold the door shut;
- **connections signed in without a session** (``--max-idle``, ``--max-idle-per-address``), each given
  ``--idle-timeout`` seconds to open one;
- **sessions from one address** (``--max-sessions-per-address``);
- **failed sign-ins**: an address that types ``--max-failures`` wrong codes within ten minutes is
  refused until they age out. Each attempt is counted before its code is looked at (so parallel
  attempts cannot pass the limit), and the counts are kept on disk (:meth:`Gate.keep_in`) across
  restarts. Connections that never tried to sign in never count.

An *address* is an IPv4 address or an IPv6 /64 (one household's or one machine's usual share).

Every refusal carries a reason in words, for the person who is refused.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("mqtui.net")

PLAYER = "player"
SPECTATOR = "spectator"
VISITOR = "visitor"  # a session that has no seat yet (the seat menu, a lobby)
WATCHER = "watcher"  # a spectator on a table's shared view (mqtui.net.watchers): no app of its own


@dataclass
class Limits:
    max_players: int = 32  # sessions at a seat, whole host
    max_spectators: int = 16  # spectators per table with an app of their own
    max_watchers: int = 1000  # spectators per table on its shared views (mqtui.net.watchers)
    watcher_buffer: int = 256 * 1024  # bytes waiting for one watcher before it is skipped to a new frame
    max_sessions: int = 64  # every session; max_players of them are kept for players
    max_unauthenticated: int = 64  # connections that have not signed in yet
    max_signing_in_per_address: int = 8  # ...of them from one address
    login_timeout: float = 30.0  # seconds to sign in
    max_idle: int = 64  # connections signed in that have not opened a session yet
    max_idle_per_address: int = 8  # ...of them from one address
    idle_timeout: float = 15.0  # seconds a signed-in connection has to open its session
    max_sessions_per_address: int = 16  # sessions of every kind from one address
    fd_reserve: int = 64  # file descriptors no new connection may take (the saves, the session apps)
    max_failures: int = 10  # wrong join codes from one address...
    failure_window: float = 600.0  # ...within this many seconds: refused until they age out
    max_cols: int = 400  # terminal sizes are clamped to this (a 10000x10000 window costs GiBs)
    max_rows: int = 150
    input_rate: float = 256.0  # bytes a second of keyboard input an app gets, on average...
    input_burst: float = 1024.0  # ...and at once (a paste); more is dropped, not queued
    flood_rate: float = 256 * 1024.0  # bytes a second a session may send at all, on average...
    flood_burst: float = 16 * 1024 * 1024.0  # ...and at once (a 10 MiB paste); beyond that it is ended
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
        if min(self.max_signing_in_per_address, self.max_idle_per_address, self.max_sessions_per_address) < 1:
            return "the limits per address must be at least 1"
        if self.idle_timeout <= 0:
            return "--idle-timeout must be more than 0"
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


def ban_entry(what: str) -> str:
    """How a ban is kept: ``key:SHA256:...``, or an address or range in its normal form."""
    what = what.strip()
    if what.startswith("SHA256:"):
        what = "key:" + what
    if what.startswith("key:SHA256:") and len(what) > len("key:SHA256:"):
        return what
    try:
        net = ipaddress.ip_network(what, strict=False)
    except ValueError:
        raise ValueError(
            f"{what!r} is neither an address, a range (10.1.0.0/16) nor a key (SHA256:...)"
        ) from None
    return str(net.network_address) if net.num_addresses == 1 else str(net)


def address_key(addr: str) -> str:
    """What the limits per address count by: an IPv4 address, or an IPv6 address's /64."""
    try:
        ip = ipaddress.ip_address(addr.split("%", 1)[0])
    except ValueError:
        return addr
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class _Pending:
    addr: str
    since: float
    close: Callable[[str], None]
    tried: bool = False


class Ticket:
    """One admitted session; give it back with :meth:`release` when the session ends."""

    def __init__(self, gate: Gate, kind: str, table: str, addr: str = "") -> None:
        self.gate, self.kind, self.table, self.addr = gate, kind, table, addr
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
    failures: dict[str, deque[float]] = field(default_factory=dict)  # address -> wrong codes' times
    kinds: Counter[str] = field(default_factory=Counter)
    watching: Counter[Any] = field(
        default_factory=Counter
    )  # table -> spectators; (WATCHER, table) -> watchers
    idle: dict[object, str] = field(default_factory=dict)  # signed in, no session yet -> address
    per_address: Counter[str] = field(default_factory=Counter)  # address -> sessions
    path: Path | None = None  # where the wrong codes are kept (keep_in)
    bans: dict[str, str] = field(default_factory=dict)  # address, range or "key:SHA256:..." -> note
    bans_path: Path | None = None  # where the bans are kept (keep_bans_in)

    # -- connections that have not signed in ----------------------------------------------------------

    def opened(self, key: object, addr: str, close: Callable[[str], None]) -> str:
        """A new connection; "" if it may try to sign in, else why not."""
        lim = self.limits
        addr = address_key(addr)
        mine = [k for k, p in self.pending.items() if p.addr == addr]
        if len(mine) >= lim.max_signing_in_per_address:  # its own oldest bare one makes room, or no
            idle = next((k for k in mine if not self.pending[k].tried), None)
            if idle is None:
                return (
                    f"too many sign-ins from your address at once ({lim.max_signing_in_per_address}); "
                    "finish one first"
                )
            self._evict(idle, "this connection never tried to sign in")
        elif len(self.pending) >= lim.max_unauthenticated:
            victim = self._victim(addr)
            if victim is None:
                return f"too many people are signing in right now ({lim.max_unauthenticated}); try again in a minute"
            self._evict(victim, "too many sign-ins at once from your address")
        self.pending[key] = _Pending(addr, time.monotonic(), close)
        return ""

    def _victim(self, addr: str) -> object | None:
        """Who makes room for a newcomer from ``addr``: the oldest connection that never tried to sign in,
        else the oldest of the address holding the most sign-ins (if that is not ``addr`` itself)."""
        idle = next((k for k, p in self.pending.items() if not p.tried), None)
        if idle is not None:
            return idle
        counts = Counter(p.addr for p in self.pending.values())
        top, n = max(counts.items(), key=lambda item: item[1])
        if top == addr or n <= counts[addr]:
            return None
        return next(k for k, p in self.pending.items() if p.addr == top)

    def _evict(self, key: object, why: str) -> None:
        self.pending.pop(key).close(f"mqtui: closed to make room: {why}")

    def trying(self, key: object) -> None:
        """The connection started to sign in (it is no longer evicted to make room)."""
        p = self.pending.get(key)
        if p is not None:
            p.tried = True

    def done(self, key: object) -> None:
        """Signed in, or gone."""
        self.pending.pop(key, None)

    # -- connections signed in that have not opened a session -------------------------------------------

    def signed_in(self, key: object, addr: str) -> str:
        """A connection signed in; "" if it may wait for its session, else why not."""
        lim = self.limits
        addr = address_key(addr)
        if sum(1 for a in self.idle.values() if a == addr) >= lim.max_idle_per_address:
            return (
                f"too many connections from your address are signed in without a session "
                f"({lim.max_idle_per_address})"
            )
        if len(self.idle) >= lim.max_idle:
            return f"too many connections are signed in without a session ({lim.max_idle}); try again later"
        self.idle[key] = addr
        return ""

    def session_opened(self, key: object) -> None:
        """The signed-in connection opened its session (or is gone)."""
        self.idle.pop(key, None)

    # -- failed sign-ins ------------------------------------------------------------------------------

    def failed(self, addr: str) -> None:
        """A wrong code (or an attempt about to be checked: see :meth:`attempt`) from ``addr``."""
        addr = address_key(addr)
        times = self.failures.setdefault(addr, deque())
        times.append(time.monotonic())
        while len(times) > self.limits.max_failures:
            times.popleft()
        if len(self.failures) > 10_000:  # never grows without bound: forget the quietest addresses
            for a in [a for a, t in self.failures.items() if len(t) < 2][:5000]:
                del self.failures[a]
        if len(times) >= self.limits.max_failures:  # a block begins (or goes on): kept on disk
            self.save()

    def attempt(self, addr: str) -> str:
        """A code from ``addr`` is about to be checked: "" and it counts as wrong until :meth:`forgive`
        (the code was right), or why it may not be checked at all (the address is refused). Counted
        before the check, so that parallel attempts can never pass the limit."""
        why = self.blocked_reason(addr)
        if not why:
            self.failed(addr)
        return why

    def forgive(self, addr: str) -> None:
        """The attempt just counted by :meth:`attempt` was a right code."""
        key = address_key(addr)
        times = self.failures.get(key)
        if times:
            times.pop()
        if not times:
            self.failures.pop(key, None)

    def keep_in(self, path: Path) -> None:
        """Keep the wrong codes in ``path`` (JSON, 0600, written atomically), read now if it exists."""
        self.path = path
        try:
            data = json.loads(path.read_text())
            now, wall = time.monotonic(), time.time()
            for addr, times in dict(data.get("failures", {})).items():
                kept = deque(now - (wall - float(t)) for t in list(times)[-self.limits.max_failures :])
                if kept:
                    self.failures[str(addr)] = kept
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("%s: cannot read the wrong sign-ins kept there (%s); starting afresh", path, exc)

    def save(self) -> None:
        """Write the wrong codes to the file of :meth:`keep_in` (if any)."""
        if self.path is None:
            return
        from mqtui.atomic import write_atomic

        now, wall = time.monotonic(), time.time()
        window = self.limits.failure_window
        data = {
            a: [round(wall - (now - t), 3) for t in times if now - t < window]
            for a, times in self.failures.items()
        }
        try:
            write_atomic(self.path, json.dumps({"failures": {a: t for a, t in data.items() if t}}).encode())
        except OSError as exc:
            log.error("%s: cannot keep the wrong sign-ins: %s", self.path, exc.strerror or exc)

    # -- bans (by the host's operator: mqtui admin) ------------------------------------------------------

    def keep_bans_in(self, path: Path) -> None:
        """Keep the bans in ``path`` (JSON, 0600, written atomically), read now if it exists."""
        self.bans_path = path
        try:
            data = json.loads(path.read_text())
            self.bans.update({str(k): str(v) for k, v in dict(data.get("bans", {})).items()})
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.error("%s: cannot read the bans kept there (%s)", path, exc)

    def ban(self, what: str, note: str = "") -> str:
        """Ban an address, a range (``10.1.0.0/16``, ``2001:db8::/48``) or a key (``key:SHA256:...``, or
        ``SHA256:...``): the entry as kept. ValueError if it is none of these."""
        entry = ban_entry(what)
        self.bans[entry] = note
        self._save_bans()
        return entry

    def unban(self, what: str) -> bool:
        entry = ban_entry(what)
        found = self.bans.pop(entry, None) is not None
        self._save_bans()
        return found

    def banned(self, addr: str = "", key: str = "") -> str:
        """The ban that keeps this address (or key identity) out, or ""."""
        if key and key in self.bans:
            return key
        if not addr:
            return ""
        try:
            ip = ipaddress.ip_address(addr.split("%", 1)[0])
        except ValueError:
            return addr if addr in self.bans else ""
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        for entry in self.bans:
            if entry.startswith("key:"):
                continue
            with contextlib.suppress(ValueError, TypeError):
                if ip in ipaddress.ip_network(entry, strict=False):
                    return entry
        return ""

    def _save_bans(self) -> None:
        if self.bans_path is None:
            return
        from mqtui.atomic import write_atomic

        try:
            write_atomic(self.bans_path, json.dumps({"bans": self.bans}, indent=1).encode())
        except OSError as exc:
            log.error("%s: cannot keep the bans: %s", self.bans_path, exc.strerror or exc)

    def blocked(self, addr: str) -> float:
        """Seconds until this address may sign in again (0: it may)."""
        addr = address_key(addr)
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

    def admit(self, kind: str, table: str = "", addr: str = "") -> Ticket | str:
        """A ticket for one more session of this kind (at this table, from this address), or why there
        is no room."""
        lim = self.limits
        addr = address_key(addr) if addr else ""
        if addr and self.per_address[addr] >= lim.max_sessions_per_address:
            return f"your address already has {self.per_address[addr]} sessions here, its limit"
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
            if kind == WATCHER and self.watching[WATCHER, table] >= lim.max_watchers:
                return f"this table already has {self.watching[WATCHER, table]} watchers, its limit; try again later"
        if total >= lim.max_sessions:
            return f"this server is full ({total} sessions); try again later"
        self.kinds[kind] += 1
        if kind in (SPECTATOR, WATCHER):
            self.watching[table if kind == SPECTATOR else (WATCHER, table)] += 1
        if addr:
            self.per_address[addr] += 1
        return Ticket(self, kind, table, addr)

    def _release(self, ticket: Ticket) -> None:
        self.kinds[ticket.kind] -= 1
        if ticket.addr:
            self.per_address[ticket.addr] -= 1
            if self.per_address[ticket.addr] <= 0:
                del self.per_address[ticket.addr]
        if ticket.kind in (SPECTATOR, WATCHER):
            counted = ticket.table if ticket.kind == SPECTATOR else (WATCHER, ticket.table)
            self.watching[counted] -= 1
            if self.watching[counted] <= 0:
                del self.watching[counted]


def peer_address(process: Any) -> str:
    """The address an SSH session (an asyncssh process) comes from ("" if unknown)."""
    conn = process.get_extra_info("connection")
    peer = conn.get_extra_info("peername") if conn is not None else None
    return str(peer[0]) if peer else ""
