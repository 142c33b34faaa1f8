"""The SSH front door of a served game (asyncssh).

Players connect with plain ``ssh -p PORT NAME@HOST``. Who sits where is settled during SSH
authentication: a public key listed in the game's keys file, a join code as the user name
(``code-XXXXXX``), or a join code typed at the ``Join code:`` prompt (keyboard-interactive). A session
must ask for a terminal; a player holding the table code (or an ``any`` key) picks a free seat from a
short menu. Each session's app then runs in its own process and pseudo-terminal (see
:mod:`mqtui.net.ptyrelay`), talking to the :class:`~mqtui.net.authority.Authority` over one end of a
socket pair already bound to the seat, so nothing the player types can reach another seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import re
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from mqtui.atomic import write_atomic
from mqtui.net import persist
from mqtui.net.authority import Authority
from mqtui.net.contain import ENV as CONTAIN_ENV
from mqtui.net.contain import EXIT_CPU, EXIT_MEMORY, Containment, remove_cgroup
from mqtui.net.figures import reason_label
from mqtui.net.forkserver import ForkServer, spawn_forked
from mqtui.net.identity import SPECTATOR, Claim, shown_identity
from mqtui.net.limits import PLAYER, VISITOR, Gate, Limits, Ticket, clamp_size, peer_address
from mqtui.net.limits import SPECTATOR as WATCHING
from mqtui.net.ptyrelay import Child, RelayStats, child_env, client_argv, parting, relay, spawn
from mqtui.net.sessionguard import SessionGuard

if TYPE_CHECKING:
    from mqtui.net.options import ServeOptions

log = logging.getLogger("mqtui.net")

MOTD_LINES, MOTD_WIDTH = 20, 200  # a message of the day is cut to this

# The ciphers offered: AES only (GCM first, then CTR with an encrypt-then-MAC), all of them in OpenSSH's
# default list (aes128-ctr is what an OpenSSH client picks here). Not chacha20-poly1305: asyncssh builds
# it from three ChaCha20 contexts and a Poly1305 in Python for every packet, about 75 us against 7-15 us
# for AES (cryptography's AES-NI), and the host encrypts every byte it sends to each watcher (see
# docs/ssh.md, "Watchers"). Nothing weaker than asyncssh's defaults is offered.
ENCRYPTION_ALGS = (
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
)

NO_TERMINAL = (
    "mqtui needs a terminal: connect with plain 'ssh -p PORT NAME@HOST' (add -t if you gave a command).\r\n"
)


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit: (before, now)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def files_left() -> int | None:
    """How many more files this process may open (None where that cannot be told)."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    try:
        used = len(os.listdir("/proc/self/fd"))
    except OSError:
        return None
    return None if soft == resource.RLIM_INFINITY else soft - used


class Repeats:
    """One log line for what repeats: the first at once, then, while it goes on, one every ``every``
    seconds with how many times it came meanwhile, and a last such line when it has stopped (an
    accept() failing for want of descriptors comes 100 times a second, and a traceback each time filled
    a disk; a flood from one address is refused hundreds of times). What is counted is named by its
    ``what`` (the latest ``detail`` shown), or by ``key`` when given (a refusal: its address and reason)."""

    LIMIT = 4096  # kinds of line remembered at most (addresses come and go): the quiet ones go first

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        # key -> (when last logged, times since, the line, its level)
        self._seen: dict[object, tuple[float, int, str, int]] = {}
        self._flush: asyncio.TimerHandle | None = None

    def note(self, what: str, detail: str = "", *, level: int = logging.ERROR, key: object = None) -> None:
        now = time.monotonic()
        line = f"{what}: {detail}" if detail else what
        key = what if key is None else key
        last, count, _, _ = self._seen.get(key, (-1e9, 0, line, level))
        if now - last >= self.every:
            self._log(line, level, count, now - last)
            self._seen[key] = (now, 0, line, level)
            if len(self._seen) > self.LIMIT:
                self._forget(now)
        else:
            self._seen[key] = (last, count + 1, line, level)
            self._flush_later()

    def __len__(self) -> int:
        """How many kinds of line are remembered now."""
        return len(self._seen)

    def flush(self) -> None:
        """Log the counts of what came since its last line, once it has been quiet for ``every`` s."""
        self._flush = None
        now = time.monotonic()
        for key, (last, count, line, level) in list(self._seen.items()):
            if count and now - last >= self.every:
                self._log(line, level, count, now - last)
                self._seen[key] = (now, 0, line, level)
        if any(count for _, count, _, _ in self._seen.values()):
            self._flush_later()

    def _flush_later(self) -> None:
        if self._flush is None:
            with contextlib.suppress(RuntimeError):  # (no running loop: the next note logs the count)
                self._flush = asyncio.get_running_loop().call_later(self.every, self.flush)

    def _forget(self, now: float) -> None:
        for key, (last, count, line, level) in list(self._seen.items()):
            if count:
                self._log(line, level, count, now - last)
            if count or now - last >= self.every:
                del self._seen[key]
        if len(self._seen) > self.LIMIT:  # (all of them new: the oldest go, each logged once already)
            for key in list(self._seen)[: len(self._seen) - self.LIMIT // 2]:
                del self._seen[key]

    @staticmethod
    def _log(line: str, level: int, count: int, since: float) -> None:
        more = f" ({count} more times in the last {since:.0f} s)" if count else ""
        log.log(level, "%s%s", line, more)


def prepare_host(host: SSHHost, opts: ServeOptions | None = None) -> None:
    """What ``mqtui serve`` does for its SSH host before it listens: the soft limit of open files raised
    to the hard one, the wrong sign-ins and the bans kept in the data folder across restarts, and the
    operator's settings of ``opts`` (the sessions' containment, the message of the day)."""
    from mqtui.net.contain import prepare_cgroup
    from mqtui.paths import data_dir

    if opts is not None:
        host.contain = prepare_cgroup(opts.contain)  # (--session-cgroup: made, its controllers enabled)
        host.motd_file = opts.motd
        host.read_motd()

    before, now = raise_file_limit()
    log.info(
        "open files: at most %d (was %d), %d of them kept for the saves", now, before, host.limits.fd_reserve
    )
    host.gate.keep_in(data_dir() / "sign-in-failures.json")
    host.gate.keep_bans_in(data_dir() / "bans.json")


def host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key, generated once (ed25519) and kept at ``path``."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519", comment="mqtui host key")
    write_atomic(path, key.export_private_key())  # 0600
    return key


@dataclass(eq=False)
class Live:
    """One SSH session, as the operator's tools list it (``mqtui admin list``)."""

    id: int
    addr: str
    who: str  # the identity, a join code's masked ("key:SHA256:...", "a join code", "visitor:...")
    conn: Any  # its asyncssh connection (to end it)
    process: Any = None  # its SSH session (the words a kicked person reads go to its terminal)
    since: float = field(default_factory=time.time)
    table: str = ""  # "" until it sits or watches at a table (the lobby, a seat menu)
    seat: int | None = None


@dataclass
class SSHHost:
    """Everything the SSH sessions of one game share."""

    authority: Authority | None  # the one table of a single-table host (None: a lobby, see net.lobby)
    content_dirs: list[str] = field(default_factory=list)
    app: str = "auto"  # which app the sessions run: "auto", "mqapp", "standin"
    sessions: set[asyncio.Task[Any]] = field(default_factory=set)
    stats: list[RelayStats] = field(default_factory=list)
    server: asyncssh.SSHAcceptor | None = None
    children: dict[int, int] = field(default_factory=dict)  # pid -> seat
    limits: Limits = field(default_factory=Limits)
    gate: Gate = field(init=False)
    fingerprint: str = ""  # of the host key, for players to check
    forks: ForkServer | None = None  # session apps forked from a pre-imported parent (start_forks)
    repeats: Repeats = field(default_factory=Repeats)  # errors that repeat, logged once with a count
    live: dict[int, Live] = field(default_factory=dict)  # the sessions now, by id (mqtui admin)
    # each session app's limits (net.contain); ``mqtui serve`` gives the operator's (nice 5 by default),
    # a host made in code keeps its apps at its own niceness (the tests' and benches' timings as before)
    contain: Containment = field(default_factory=lambda: Containment(nice=0))
    refusals: Counter[str] = field(default_factory=Counter)  # connections and sessions refused, by reason
    ended: Counter[str] = field(default_factory=Counter)  # sessions the host ended, by reason
    motd: str = ""  # the message of the day, shown at sign-in (mqtui admin motd, --motd FILE)
    motd_file: str | None = None  # where it is kept (read again when it changes)
    _motd_seen: float = 0.0  # the file's time when it was last read
    stop: asyncio.Event | None = None  # set to stop the host (``mqtui serve`` waits on it)
    share_views: bool = True  # spectators share one app per table and size (mqtui.net.watchers)
    views: dict[Any, Any] = field(default_factory=dict)  # those shared views, by (table, size, colours)
    _ids: int = 0

    async def start_forks(self) -> None:
        """Start the fork server: sessions start faster and share most of their memory."""
        self.forks = ForkServer()
        await self.forks.start()

    # -- who is this (overridden by the lobby's host, which has many tables) --------------------------

    @property
    def shares_views(self) -> bool:
        """Spectators watch shared views (mqtui.net.watchers), not an app each."""
        return self.share_views and self.limits.max_watchers > 0

    def claim_for_code(self, text: str) -> Claim | None:
        return self.authority.claim_for_code(text) if self.authority is not None else None

    def claim_for_key(self, key: asyncssh.SSHKey) -> Claim | None:
        return self.authority.keys.lookup(key) if self.authority is not None else None

    @staticmethod
    def table_content(a: Authority) -> list[str]:
        """The ``--dir`` arguments of the apps at table ``a`` (see ``persist.client_content``)."""
        if a.save_path is None:
            return persist.content_dirs(a.game.packs) if a.game.packs else []
        return persist.client_content(a.engine, a.game.packs, a.save_path)

    def code_prompt(self) -> tuple[str, str]:
        """The keyboard-interactive sign-in: (instructions, prompt)."""
        return "Type the join code the host gave you.", "Join code: "

    def __post_init__(self) -> None:
        self.gate = Gate(self.limits)

    async def listen_or_explain(self, host: str, port: int, key_path: Path) -> None:
        """:meth:`listen`, with a problem (a bad host key, a port in use) as a one-line ServeError."""
        from mqtui.net.options import ServeError

        try:
            await self.listen(host, port, key_path)
        except asyncssh.KeyImportError as exc:
            raise ServeError(
                f"{key_path}: not a usable host key ({exc}); move it away for a new one"
            ) from None
        except OSError as exc:
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's errors: accept() out of descriptors (asyncio retries it every second, 100
        times at once) logged once with a count, the rest as asyncio would."""
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (
            errno.EMFILE,
            errno.ENFILE,
            errno.ENOBUFS,
            errno.ENOMEM,
        ):
            self.repeats.note("cannot accept connections", f"{exc.strerror or exc} (retrying every second)")
            return
        loop.default_exception_handler(context)

    async def listen(self, host: str, port: int, key_path: Path) -> asyncssh.SSHAcceptor:
        loop = asyncio.get_running_loop()
        if loop.get_exception_handler() is None:
            loop.set_exception_handler(self._loop_error)
        key = host_key(key_path)
        self.fingerprint = str(key.get_fingerprint())
        self.server = await asyncssh.listen(
            host,
            port,
            server_factory=lambda: _Server(self),
            server_host_keys=[key],
            encryption_algs=list(ENCRYPTION_ALGS),
            process_factory=self._session,
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            keepalive_interval=10,
            keepalive_count_max=3,
            login_timeout=self.limits.login_timeout + 5,  # a backstop: _Server says why first
        )
        return self.server

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self, grace: float = 3.0) -> None:
        """Stop listening; give the sessions ``grace`` seconds to end (their apps show why), then end them."""
        if self.server is not None:
            self.server.close()
        if self.sessions:
            await asyncio.wait(set(self.sessions), timeout=grace)
        for task in list(self.sessions):
            task.cancel()
        if self.sessions:
            await asyncio.wait(set(self.sessions), timeout=5.0)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2.0)
        from mqtui.net.watchers import close_views

        await close_views(self)
        if self.forks is not None:
            await self.forks.close()
        loop = asyncio.get_running_loop()
        if loop.get_exception_handler() == self._loop_error:
            loop.set_exception_handler(None)
        self.gate.save()

    # -- one session ----------------------------------------------------------------------------------

    def tables_now(self) -> list[Authority]:
        """Every table of this host (one, or the lobby's)."""
        return [self.authority] if self.authority is not None else []

    def refused(self, why: str) -> None:
        """Count a refusal (``why``: its words) for the figures."""
        self.refusals[reason_label(why)] += 1

    def kick(self, sid: int, why: str = "the host ended your session") -> bool:
        """End session ``sid`` (its person reads ``why``); False if there is no such session."""
        live = self.live.get(sid)
        if live is None:
            return False
        log.info("kicking session %d (%s from %s): %s", sid, live.who, live.addr, why)
        self.ended["kicked"] += 1
        with contextlib.suppress(Exception):
            if live.process is not None:  # the words on the terminal, the app's screen left first: OpenSSH
                # ends once its channel closes, before it reads the disconnect's reason
                live.process.stdout.write(parting(why))
            live.conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"mqtui: {why}")
        return True

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(task)
        conn = process.get_extra_info("connection")
        server = conn.get_owner() if conn is not None else None
        self._ids += 1
        sid = self._ids
        claim = getattr(server, "claim", None)
        who = shown_identity(claim.identity) if claim is not None else "?"
        self.live[sid] = Live(
            sid, peer_address(process), who, conn, process, table=getattr(claim, "table", "")
        )
        if isinstance(server, _Server):
            server.session_opened()
        process.channel.set_extra_info(mqtui_session=sid)
        try:
            code = await self._run_session(process)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                process.stdout.write(b"\r\nmqtui: the server is shutting down.\r\n")
                process.exit(0)
            raise
        except Exception:
            log.exception("SSH session failed")
            code = 1
        finally:
            self.sessions.discard(task)
            self.live.pop(sid, None)
            if isinstance(server, _Server):
                server.session_closed()
        with contextlib.suppress(Exception):
            process.exit(code)

    async def _run_session(self, process: asyncssh.SSHServerProcess[bytes]) -> int:
        conn = process.get_extra_info("connection")
        server = conn.get_owner() if conn is not None else None
        claim: Claim | None = getattr(server, "claim", None)
        if claim is None:
            process.stderr.write(b"mqtui: not signed in\r\n")
            return 1
        if process.command or process.subsystem:
            process.stderr.write(b"mqtui: this server only runs the game; connect without a command.\r\n")
            return 1
        if process.get_terminal_type() is None:  # an empty TERM still asked for a terminal
            process.stderr.write(NO_TERMINAL.encode())
            return 1
        if self.read_motd():  # the message of the day, before the app (which takes the whole screen)
            process.stdout.write(("\r\n" + self.motd.replace("\n", "\r\n") + "\r\n\r\n").encode())
            await asyncio.sleep(self.limits.linger)  # time to read it
        return await self.play(process, claim)

    # -- the operator's settings and tools (mqtui admin) ---------------------------------------------

    def read_motd(self) -> str:
        """The message of the day, read again from its file if that changed since ("": none)."""
        if self.motd_file:
            try:
                mtime = os.stat(self.motd_file).st_mtime
                if mtime != self._motd_seen:
                    self._motd_seen = mtime
                    self.motd = clean_motd(Path(self.motd_file).read_text(errors="replace"))
            except OSError as exc:  # (gone or unreadable: no message, said once)
                if self._motd_seen != -1.0:
                    log.warning("message of the day %s: %s", self.motd_file, exc.strerror or exc)
                self._motd_seen, self.motd = -1.0, ""
        return self.motd

    def set_motd(self, text: str) -> str:
        """A new message of the day ("": none), kept in its file if there is one; as it will be shown."""
        self.motd = clean_motd(text)
        if self.motd_file:
            try:
                write_atomic(Path(self.motd_file), (self.motd + "\n").encode() if self.motd else b"")
                self._motd_seen = os.stat(self.motd_file).st_mtime
            except OSError as exc:
                log.error("message of the day %s: cannot keep it: %s", self.motd_file, exc.strerror or exc)
        log.info("message of the day: %s", self.motd.replace("\n", " / ") or "(none)")
        return self.motd

    async def close_table(self, tid: str, why: str = "") -> str:
        """Close table ``tid``: its players told, its game saved; "" or why not. On a one-table host
        that stops the host (the table is all it serves)."""
        a = self.authority
        if a is None or a.game.game != tid:
            return f"there is no table {tid}"
        log.info("closing table %s%s; the host stops", tid, f": {why}" if why else "")
        await a.close(closed_words(why))
        if self.stop is not None:
            self.stop.set()
        return ""

    async def play(
        self, process: asyncssh.SSHServerProcess[bytes], claim: Claim, authority: Authority | None = None
    ) -> int:
        """Seat the claim at ``authority`` (the host's table by default) and run the app until it ends."""
        authority = authority or self.authority
        assert authority is not None
        table = authority.game.game  # the limits per table count at this table, also on a lobby host
        seat: int | str
        if claim.seat is None:
            ticket = self._admit(process, VISITOR)
            if ticket is None:
                return 1
            try:
                picked = await self._pick_seat(process, claim, authority)
            finally:
                ticket.release()
            if picked is None:
                return 1
            seat = picked
        else:
            seat = authority.resolve(claim)
        if isinstance(seat, str):
            process.stdout.write(f"mqtui: {seat}\r\n".encode())
            return 1
        guard = None  # (a watcher's goes on into its own app)
        if seat < 0 and self.shares_views:  # a spectator watches the table's shared view
            from mqtui.net.watchers import OWN_APP, watch

            guard = SessionGuard(self.limits)
            code = await watch(self, process, authority, guard)
            if code != OWN_APP:
                return code
        ticket = self._admit(process, PLAYER if seat >= 0 else WATCHING, table)
        if ticket is None:
            return 1
        self.seated(process, table, seat)
        try:
            bound = Claim(seat, claim.identity, claim.label)
            ours, theirs = socket.socketpair()
            authority.attach(ours, bound)
            dirs = self.content_dirs if authority is self.authority else self.table_content(authority)
            argv = client_argv(theirs.fileno(), dirs, self.app, self.app_options())
            heard = self.last_heard(ours, lambda: authority)
            return await self.run_child(process, argv, theirs, seat, heard, guard)
        finally:
            ticket.release()

    def seated(self, process: asyncssh.SSHServerProcess[bytes], table: str, seat: int) -> None:
        """The session of ``process`` now sits (or watches) at ``table``: for the operator's list."""
        live = self.live.get(process.get_extra_info("mqtui_session", 0))
        if live is not None:
            live.table, live.seat = table, seat

    def app_options(self) -> list[str]:
        """The arguments every session's app gets from the host's limits (its pace, not its game)."""
        return ["--linger", f"{self.limits.linger:g}", "--heartbeat", f"{self.limits.heartbeat:g}"]

    def _admit(self, process: asyncssh.SSHServerProcess[bytes], kind: str, table: str = "") -> Ticket | None:
        """A ticket for one session of this kind (at this table), or None: the person was told why."""
        ticket = self.gate.admit(kind, table, peer_address(process))
        if isinstance(ticket, str):
            log.info("refusing a %s session: %s", kind, ticket)
            self.refused(ticket)
            process.stdout.write(f"mqtui: {ticket}\r\n".encode())
            return None
        return ticket

    async def run_child(
        self,
        process: asyncssh.SSHServerProcess[bytes],
        argv: list[str],
        theirs: socket.socket,
        seat: int,
        heard: Callable[[], float | None] | None = None,
        guard: SessionGuard | None = None,
    ) -> int:
        """Run ``argv`` (given ``theirs``, one end of a socket pair) in a pty of its own, relayed to ``process``
        under a :class:`SessionGuard` (input budget, clamped sizes, watchdog; ``heard`` as :meth:`last_heard`;
        ``guard``: the session's, if it has one already)."""
        try:
            env, size = self.terminal_of(process)
        except BaseException:
            theirs.close()
            raise
        child = await self.start_app(argv, theirs, env, size, seat)
        stats = RelayStats(guard=guard or SessionGuard(self.limits))
        self.stats.append(stats)
        try:
            code = await relay(process, child, stats, stats.guard, heard)
        finally:
            self.children.pop(child.pid, None)
            remove_cgroup(self.contain.cgroup, child.pid)
        if code in (EXIT_MEMORY, EXIT_CPU):
            what = "memory" if code == EXIT_MEMORY else "CPU time"
            self.ended["memory" if code == EXIT_MEMORY else "cpu"] += 1
            live = self.live.get(process.get_extra_info("mqtui_session", 0))
            log.warning(
                "session %s (%s) ended: its app ran out of %s (%s)",
                live.id if live else "?",
                live.addr if live else "?",
                what,
                f"{self.contain.memory} MiB" if code == EXIT_MEMORY else f"{self.contain.cpu} CPU-seconds",
            )
        return code

    def terminal_of(
        self, process: asyncssh.SSHServerProcess[bytes]
    ) -> tuple[dict[str, str], tuple[int, int, int, int]]:
        """The environment and the (clamped) size of the app of ``process``'s terminal."""
        width, height, pw, ph = process.get_terminal_size()
        if clamp_size(self.limits, width, height) != (width, height):
            width, height = clamp_size(self.limits, width, height)
            pw = ph = 0
        term = process.get_terminal_type() or self.limits.default_term
        env = child_env(term, dict(process.env or {}))
        env[CONTAIN_ENV] = self.contain.to_env()  # the app applies the operator's limits itself (net.contain)
        return env, (width, height, pw, ph)

    async def start_app(
        self,
        argv: list[str],
        theirs: socket.socket,
        env: dict[str, str],
        size: tuple[int, int, int, int],
        seat: int,
    ) -> Child:
        """Start ``argv`` (given ``theirs``, which is closed here) in a pty of its own: forked from the fork
        server when it runs, else afresh. Listed in :attr:`children` until it ends."""
        try:
            child = None
            if self.forks is not None and self.forks.alive:  # a fork of the pre-imported parent
                try:
                    child = await spawn_forked(self.forks, argv, env, size, theirs.fileno())
                except (OSError, TimeoutError) as exc:
                    log.warning("fork server: %s; starting the session's app afresh", exc)
            if child is None:
                child = await spawn(argv, env, size, pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        self.children[child.pid] = seat
        if self.contain.cgroup:  # (the app places itself too; the host's words are the ones logged)
            from mqtui.net.contain import place_in_cgroup

            for problem in place_in_cgroup(Path(self.contain.cgroup), child.pid, self.contain):
                self.repeats.note("session cgroup", problem)
        return child

    @staticmethod
    def last_heard(sock: socket.socket, table: Callable[[], Authority | None]) -> Callable[[], float | None]:
        """When the game last heard from the app at the other end of ``sock``, at the table ``table()``
        (None while the session has none: a lobby visitor): None until the app's first heartbeat (a busy
        host may take a while to start an app). Once the game has dropped the connection (the app
        stopped reading it, say), the last time stays: an app that does not end by itself then is ended
        as silent."""
        fd = sock.fileno()
        seen: list[float] = []  # [the latest time heard]

        def heard() -> float | None:
            authority = table()
            for conn in authority.conns if authority is not None else ():
                info = conn.writer.get_extra_info("socket")
                if info is not None and info.fileno() == fd and fd >= 0:
                    if conn.messages:  # (its first heartbeat or action came: it runs)
                        seen[:] = [conn.refilled]  # updated by every message the authority reads
                    break
            return seen[0] if seen else None

        return heard

    async def _pick_seat(
        self, process: asyncssh.SSHServerProcess[bytes], claim: Claim, a: Authority
    ) -> int | str | None:
        """A short text menu of the free seats, before the app starts."""
        owned = a.owned_seat(claim.identity)
        if owned is not None:
            return owned
        for _ in range(3):
            free = a.free_seats(claim.identity)
            lines = [f"\r\nmqtui: game {a.game.game} - pick a seat\r\n"]
            for i, info in enumerate(a.seat_infos()):
                mark = "free" if i in free else info.status
                lines.append(f"  {i}  {info.name:<12} {info.colour:<7} {mark}\r\n")
            lines.append("  w  watch the game\r\n")
            process.stdout.write("".join(lines).encode())
            answer = await read_line(process, "Seat: ")
            if answer is None:
                return None
            answer = answer.strip().lower()
            if answer in ("w", "watch"):
                return SPECTATOR
            if answer.isdigit():
                result = a.resolve(claim, int(answer))
                if isinstance(result, int):
                    a.reserve(result, claim.identity)
                    codes = a.codes_for(str(result))
                    if codes and not claim.identity.startswith("key:"):
                        process.stdout.write(
                            f"Seat {result} is yours. To come back to it later, connect as "
                            f"code-{codes[0]} (keep it to yourself). Starting...\r\n".encode()
                        )
                        await asyncio.sleep(self.limits.linger)  # time to read the code
                    return result
                process.stdout.write(f"{result}\r\n".encode())
            else:
                process.stdout.write(b"type a seat number, or w to watch\r\n")
        return None


def clean_motd(text: str) -> str:
    """A message of the day as shown: printable lines, at most :data:`MOTD_LINES` of :data:`MOTD_WIDTH`."""
    text = re.sub(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)", "", text)  # no escapes
    lines = ["".join(ch for ch in line if ch.isprintable())[:MOTD_WIDTH] for line in text.splitlines()]
    return "\n".join(lines[:MOTD_LINES]).strip("\n")


def closed_words(why: str) -> str:
    """What the players of a table closed by the host read."""
    return "the host closed this table; the game is saved" + (f" ({why})" if why else "")


async def read_line(process: asyncssh.SSHServerProcess[bytes], prompt: str, limit: int = 32) -> str | None:
    """Read one line from a raw SSH terminal, echoing it; None if the player quits (Ctrl+C/D)."""
    process.stdout.write(prompt.encode())
    buf = ""
    while True:
        try:
            data = await asyncio.wait_for(process.stdin.read(64), 120)
        except asyncssh.TerminalSizeChanged:
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived, TimeoutError):
            return None
        if not data:
            return None
        for ch in data.decode("utf-8", "replace"):
            if ch in "\r\n":
                process.stdout.write(b"\r\n")
                return buf
            if ch in "\x03\x04":
                process.stdout.write(b"\r\n")
                return None
            if ch in "\x7f\x08":
                if buf:
                    buf = buf[:-1]
                    process.stdout.write(b"\x08 \x08")
            elif ch.isprintable() and len(buf) < limit:
                buf += ch
                process.stdout.write(ch.encode())


class _Server(asyncssh.SSHServer):
    """One SSH connection: authentication decides its claim; the host's gate counts it until then."""

    def __init__(self, host: SSHHost) -> None:
        self.host = host
        self.claim: Claim | None = None
        self.failures = 0
        self.addr = ""
        self.refused = ""  # why this connection is refused (told once ssh can show it: at sign-in)
        self.open_sessions = 0
        self.closed = False
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.addr = str(peer[0]) if peer else ""
        gate = self.host.gate
        ban = gate.banned(self.addr)
        if ban:
            self.host.repeats.note(
                f"refusing {self.addr}", f"banned ({ban})", level=logging.INFO, key=(self.addr, "banned")
            )
            self.refused = "mqtui: your address is banned from this server"
            self._timer = asyncio.get_running_loop().call_later(10.0, self.refuse, self.refused)
            return
        left = files_left()
        if left is not None and left < self.host.limits.fd_reserve:  # kept for the saves and the apps
            self.host.repeats.note("refusing connections", f"only {left} file descriptors left")
            self.host.refused("file descriptors")
            conn.abort()
            return
        refused = gate.opened(self, self.addr, self.refuse)
        loop = asyncio.get_running_loop()
        timeout = self.host.limits.login_timeout
        if refused:
            # ssh shows a disconnect reason only after the key exchange: say it when sign-in begins
            self.refused = f"mqtui: {refused}"
            self._timer = loop.call_later(min(timeout, 10.0), self.refuse, self.refused)
            return
        self._timer = loop.call_later(timeout, self.refuse, f"mqtui: no sign-in within {timeout:g} s")

    def refuse(self, reason: str, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """Close the connection with a reason in words (ssh prints it: 'Received disconnect ...')."""
        addr = self.addr or "a connection"
        self.host.repeats.note(f"refusing {addr}", reason, level=logging.INFO, key=(addr, reason))
        self.host.refused(reason)
        self._stop_timer()
        self.host.gate.done(self)
        self.host.gate.session_opened(self)
        with contextlib.suppress(Exception):
            self.conn.disconnect(code, reason)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._stop_timer()
        self.host.gate.done(self)  # a connection that never tried to sign in is no failure
        self.host.gate.session_opened(self)

    def auth_completed(self) -> None:
        self._stop_timer()
        self.host.gate.done(self)
        self._wait_for_session()

    def _wait_for_session(self) -> None:
        """Signed in with no session (yet, or no more): counted, and given ``idle_timeout`` to open one."""
        why = self.host.gate.signed_in(self, self.addr)
        if why:
            self.refuse(f"mqtui: {why}", asyncssh.DISC_TOO_MANY_CONNECTIONS)
            return
        timeout = self.host.limits.idle_timeout
        self._timer = asyncio.get_running_loop().call_later(
            timeout, self.refuse, f"mqtui: no session opened within {timeout:g} s of signing in"
        )

    def session_opened(self) -> None:
        """A session began on this connection: it is no longer waiting for one."""
        self.open_sessions += 1
        self._stop_timer()
        self.host.gate.session_opened(self)

    def session_closed(self) -> None:
        """A session of this connection ended: a connection kept open without one (a multiplexing
        client's master) waits under the same budget as one that never opened any."""
        self.open_sessions -= 1
        if self.open_sessions == 0 and self.claim is not None and not self.closed:
            self._wait_for_session()

    def begin_auth(self, username: str) -> bool:
        gate = self.host.gate
        if self.refused:
            asyncio.get_running_loop().call_soon(
                self.refuse, self.refused, asyncssh.DISC_TOO_MANY_CONNECTIONS
            )
            return True
        gate.trying(self)
        motd = self.host.read_motd()
        if motd:  # shown by ssh before it asks anything (OpenSSH: at its default LogLevel)
            with contextlib.suppress(Exception):
                self.conn.send_auth_banner(motd.replace("\n", "\r\n") + "\r\n")
        why = gate.blocked_reason(self.addr)
        if why:
            asyncio.get_running_loop().call_soon(
                self.refuse, f"mqtui: {why}", asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE
            )
            return True
        if username.lower().startswith("code-"):
            gate.failed(self.addr)  # counted before it is checked (see Gate.attempt)
            claim = self.host.claim_for_code(username)
            if claim is not None:
                gate.forgive(self.addr)
                self.claim = claim
                return False  # the code is the credential
            self.failures += 1  # a wrong code as the user name (the prompt follows)
            self.host.refusals["wrong_code"] += 1
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.host.gate.banned(key="key:" + str(key.get_fingerprint())):
            return False  # a banned key signs in no more (as any key not in the keys file)
        claim = self.host.claim_for_key(key)
        if claim is None:
            return False  # not a failure: ssh offers every key it has before it asks for a code
        self.claim = claim  # asyncssh checks the signature before authentication succeeds
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> Any:
        instructions, prompt = self.host.code_prompt()
        return ("mqtui", instructions, "", [(prompt, True)])

    async def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        gate = self.host.gate
        why = gate.attempt(self.addr)  # counted as wrong before the code is looked at
        if why:
            self.refuse(f"mqtui: {why}", asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
            return False
        if len(responses) == 1:
            claim = self.host.claim_for_code(str(responses[0]))
            if claim is not None:
                gate.forgive(self.addr)
                self.claim = claim
                return True
        self.failures += 1
        self.host.refusals["wrong_code"] += 1
        why = gate.blocked_reason(self.addr)
        if why:
            self.refuse(f"mqtui: {why}", asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
            return False
        delay = self.host.limits.guess_delay
        await asyncio.sleep(min(4, self.failures) * delay)  # slow down guessing
        return False
