"""Spectators share one app per table and terminal size: the **shared view**.

A spectator sees only what is public, so every spectator of a table sees the same screen at a given
terminal size. Instead of an app each (about 19 MiB and 10 ms of CPU per action each), the watchers of
one table whose terminals have the same size and colours share one spectator app, started by the host
as any session's app (its own pty, forked from the fork server), whose output is copied to each of
them, as dgamelaunch and DCSS watchers share one stream:

- **Joining late.** The host asks the shared app (SIGUSR1) for the whole screen; the app's driver
  (:class:`~mqtui.net.remote_app.SessionDriver`, with ``MQTUI_SHARED_VIEW`` set) writes
  :data:`FRAME_BEGIN`, paints the whole screen again (through Textual's public ``refresh``), and writes
  :data:`FRAME_END` once that is drawn (markers the host strips). A new watcher gets nothing until a
  frame begins, then everything from there; the watchers who have the screen already get the frame too
  (whatever else changed while it was drawn is in it: it costs them a screen's bytes, at most once a
  :data:`FRAME_EVERY`). Requests are coalesced: at most one frame each :data:`FRAME_EVERY` seconds.
- **One write per watcher per burst.** The app's output is gathered for :data:`FLUSH_AFTER` seconds
  from its first byte (a frame comes in several reads of the pty) and joined into one bytes object,
  written as it is to each watcher's channel: one SSH packet (and its encryption) per watcher per
  burst, with no task, queue or copy of the host's own per watcher.
- **A slow watcher** never stalls the others: what its SSH channel holds back (its window is full)
  stays under ``Limits.watcher_buffer`` bytes; a burst that would pass that is not written to it, and
  it waits for the next whole frame, like a newcomer; one whose channel holds more than its high-water
  mark for ``WRITE_STALL`` seconds is ended.
- **Keys.** A watcher's keys never reach the shared app. ``q``, Ctrl+C or Ctrl+D leave; a paste does
  nothing (more than :data:`KEY_BYTES` at once); any other key gives that watcher a spectator app of
  its own (the old way, with the help, the cards, the log, scrolling: under ``--max-spectators``; while
  the table has no room for one, the key is ignored); a new window size, once it has held
  :data:`RESIZE_SETTLE` seconds, moves the watcher to the view of that size (the old one, if nobody
  else watches it, ends at once: a storm of sizes keeps no apps).
- The shared app is a spectator (seat −1): the authority sends it the public view only, so no hand
  card can reach a watcher's bytes. It ends when its last watcher has been gone :data:`VIEW_LINGER`
  seconds (a watcher who comes as it stops goes to a new one); when it ends by itself (the table
  ended, the host stops), its last words reach every watcher and their sessions end with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from mqtui.net.contain import remove_cgroup
from mqtui.net.ptyrelay import LEAVE, parting
from mqtui.net.viewmarks import FRAME_BEGIN, FRAME_END, MARK_BYTES, READY, SHARED_VIEW_ENV

if TYPE_CHECKING:
    import asyncssh

    from mqtui.net.authority import Authority
    from mqtui.net.contain import Containment
    from mqtui.net.limits import Gate, Limits, Ticket
    from mqtui.net.ptyrelay import Child
    from mqtui.net.sessionguard import SessionGuard

log = logging.getLogger("mqtui.net")


class SSHHost(Protocol):
    """What the shared views use of the SSH host (:class:`mqtui.net.sshserver.SSHHost`, which imports
    this module: a protocol keeps the two out of an import loop)."""

    app: str
    authority: Authority | None
    children: dict[int, int]
    contain: Containment
    content_dirs: list[str]
    gate: Gate
    limits: Limits
    views: dict[Any, Any]

    def _admit(
        self, process: asyncssh.SSHServerProcess[bytes], kind: str, table: str = ""
    ) -> Ticket | None: ...
    def app_options(self) -> list[str]: ...
    def seated(self, process: asyncssh.SSHServerProcess[bytes], table: str, seat: int) -> None: ...
    def table_content(self, a: Authority) -> list[str]: ...
    def terminal_of(
        self, process: asyncssh.SSHServerProcess[bytes]
    ) -> tuple[dict[str, str], tuple[int, int, int, int]]: ...
    async def start_app(
        self,
        argv: list[str],
        theirs: socket.socket,
        env: dict[str, str],
        size: tuple[int, int, int, int],
        seat: int,
    ) -> Child: ...
    def last_heard(
        self, sock: socket.socket, table: Callable[[], Authority | None]
    ) -> Callable[[], float | None]: ...


ENTER = b"\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"  # a watcher's terminal before its first frame
RESYNC = b"\x1b[?2026l\x1b[0m"  # before a frame: a synchronized update cut short by a drop ends
QUIT_KEYS = frozenset(b"qQ\x03\x04")
KEY_BYTES = 8  # what one key press sends at most (an escape sequence); more at once is a paste
OWN_APP = -1000  # what watch() returns when the watcher is to get an app of its own
FRAME_EVERY = 0.5  # seconds between two whole frames asked of a shared app (at most)
VIEW_LINGER = 2.0  # seconds a shared app outlives its last watcher (a quick return; not after a resize)
RESIZE_SETTLE = 0.3  # seconds a watcher's window keeps its new size before it moves to that size's view
WRITE_STALL = 30.0  # seconds a watcher's connection may take no bytes before it is ended
FLUSH_AFTER = 0.005  # seconds the app's output is gathered, from its first byte, before it goes out

WAITING, FRAMING, LIVE = "waiting", "framing", "live"  # a watcher: for a frame, in one, up to date
_RESIZED, _QUIT, _GONE = "resized", "quit", "gone"


class Marks:
    """Splits a shared app's output into bytes and the markers in it (a marker may be cut between
    two reads: its start is held back until the rest comes)."""

    def __init__(self) -> None:
        self.held = b""

    def split(self, data: bytes) -> list[bytes | str]:
        data = self.held + data
        self.held = b""
        out: list[bytes | str] = []
        while data:
            at = data.find(MARK_BYTES)
            if at < 0:
                keep = next(
                    (k for k in range(len(MARK_BYTES) - 1, 0, -1) if data.endswith(MARK_BYTES[:k])), 0
                )
                if keep:
                    self.held, data = data[-keep:], data[:-keep]
                if data:
                    out.append(data)
                break
            if at:
                out.append(data[:at])
            end = data.find(b"\x07", at)
            if end < 0:
                if len(data) - at < 64:
                    self.held = data[at:]
                    break
                out.append(data[at:])  # (not a marker of ours after all)
                break
            mark = data[at : end + 1].decode("ascii", "replace")
            if mark in (READY, FRAME_BEGIN, FRAME_END):
                out.append(mark)
            else:
                out.append(data[at : end + 1])
            data = data[end + 1 :]
        return out


class Watcher:
    """One watcher's end of a shared view: where it is in the stream, and its channel (whose buffer, of
    what the watcher's window has not taken yet, is bounded)."""

    def __init__(self, process: asyncssh.SSHServerProcess[bytes], limit: int) -> None:
        self.process = process
        self.channel = process.channel
        self.limit = limit
        self.state = WAITING
        self.lead = b""  # bytes that go before the next burst (a frame's start)
        self.wake = asyncio.Event()  # set when the channel holds bytes back (see write_loop)
        self.drops = 0  # times a burst passed the limit and it was skipped to a new frame
        self.broken = False  # its channel refused a write (the connection is gone)
        self.on_room: Callable[[], None] | None = None  # called when a skipped watcher has room again

    def has_room(self) -> bool:
        """Room in its channel for a whole frame (half the limit free)."""
        return self.channel.get_write_buffer_size() <= self.limit // 2

    def send(self, data: bytes) -> bool:
        """Write ``data`` to the channel; False when the channel holds bytes back and ``data`` would take
        it past the limit: then nothing is written and the watcher waits for a whole frame. (A channel
        that holds nothing takes any burst: what it holds stays under the limit and one burst.)"""
        if self.broken:
            return True
        held = self.channel.get_write_buffer_size()
        if held and held + len(self.lead) + len(data) > self.limit:
            self.lead = b""
            self.state = WAITING
            self.drops += 1
            return False
        try:
            if self.lead:
                data, self.lead = self.lead + data, b""
            self.channel.write(data)
        except OSError:  # (the channel is closing: the session ends by its keys' side)
            self.broken = True
            self.wake.set()
            return True
        if held or self.channel.get_write_buffer_size():
            self.wake.set()  # the window is full: the writer loop watches for a stall
        return True

    async def write_loop(self) -> None:
        """Returns when the channel broke; TimeoutError when it held bytes back (above its high-water
        mark) for WRITE_STALL s. It wakes only when the channel holds bytes back."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            if self.broken:
                return
            await self.flush()
            if self.state == WAITING and self.on_room is not None:
                self.on_room()  # (skipped for want of room, it has some again: a frame for it)

    async def flush(self) -> None:
        """Until the channel has taken what it holds back (down to its low-water mark)."""
        await asyncio.wait_for(self.process.stdout.drain(), WRITE_STALL)


def _colours(env: dict[str, str]) -> tuple[str, ...]:
    return tuple(env.get(k, "") for k in ("COLORTERM", "TEXTUAL_COLOR_SYSTEM", "NO_COLOR", "LANG"))


class SharedView:
    """One spectator app of a table at one terminal size, its output copied to its watchers."""

    def __init__(
        self,
        host: SSHHost,
        authority: Authority,
        key: Any,
        env: dict[str, str],
        size: tuple[int, int, int, int],
    ) -> None:
        self.host, self.authority, self.key = host, authority, key
        self.env, self.size = env, size
        self.watchers: set[Watcher] = set()
        self.marks = Marks()
        self.pending: list[bytes] = []  # the app's output not yet written to the watchers
        self._flusher: asyncio.TimerHandle | None = None
        self.child: Child | None = None
        self.ready = False  # the app answers SIGUSR1
        self.asked = -1e9  # when a frame was last asked for
        self.frames = 0  # whole frames the app wrote
        self.code = 0  # the app's exit code, once it ended
        self.closing = False
        self.unused = False  # stopped for want of watchers
        self.ended = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None  # the next ask for a frame
        self._linger: asyncio.TimerHandle | None = None  # the stop once its last watcher has gone
        self._stop = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self.run())

    # -- the app ------------------------------------------------------------------------------------------

    async def run(self) -> None:
        from mqtui.net.identity import SPECTATOR, Claim
        from mqtui.net.ptyrelay import client_argv, stop
        from mqtui.net.sessionguard import SessionGuard

        host, a = self.host, self.authority
        guard: SessionGuard | None = None
        tasks: list[asyncio.Future[Any]] = []
        try:
            ours, theirs = socket.socketpair()
            a.attach(ours, Claim(SPECTATOR, "shared-view", "the watchers' shared view"))
            dirs = host.content_dirs if a is host.authority else host.table_content(a)
            argv = client_argv(theirs.fileno(), dirs, host.app, host.app_options())
            env = dict(self.env, **{SHARED_VIEW_ENV: "1"})
            child = self.child = await host.start_app(argv, theirs, env, self.size, SPECTATOR)
            guard = SessionGuard(host.limits)
            tasks = [
                asyncio.ensure_future(self._read(child.master)),
                asyncio.ensure_future(child.proc.wait()),
                asyncio.ensure_future(guard.watch(child.pid, host.last_heard(ours, lambda: a))),
                asyncio.ensure_future(self._stop.wait()),
            ]
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if tasks[2] in done:
                log.info("ending the shared view of table %s: %s", a.game.game, tasks[2].result())
            elif tasks[3] not in done:
                with contextlib.suppress(Exception, asyncio.TimeoutError):  # its last words
                    await asyncio.wait_for(asyncio.shield(tasks[0]), 2.0)
            await stop(child, grace=0.5)
            code = child.proc.returncode
            self.code = code if code is not None and code >= 0 else 1
        except Exception:
            log.exception("the shared view of table %s failed", a.game.game)
            self.code = 1
        finally:
            self.flush()  # (its last words)
            self.closing = True
            for task in tasks:
                task.cancel()
                task.add_done_callback(_retrieved)
            if guard is not None:
                guard.close()
            if self.child is not None:
                host.children.pop(self.child.pid, None)
                remove_cgroup(host.contain.cgroup, self.child.pid)
                with contextlib.suppress(OSError):
                    os.close(self.child.master)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    if self.child.proc.returncode is None:
                        os.killpg(self.child.pid, signal.SIGKILL)
            for timer in (self._timer, self._linger, self._flusher):
                if timer is not None:
                    timer.cancel()
            if host.views.get(self.key) is self:
                del host.views[self.key]
            self.ended.set()

    async def _read(self, master: int) -> None:
        from mqtui.net.ptyrelay import read_some

        while True:
            data = await read_some(master)
            if not data:
                return
            self.feed(data)

    def feed(self, data: bytes) -> None:
        """The app's output: gathered for the watchers who are to get it (:meth:`flush`), the markers
        acted on."""
        for part in self.marks.split(data):
            if part == READY:
                self.ready = True
                self.want_frame()
            elif part == FRAME_BEGIN:
                self.flush()  # (what came before the frame is not for those who wait for it)
                self.frames += 1
                for w in self.watchers:
                    if w.state == WAITING:
                        w.state = FRAMING
                        w.lead = RESYNC
            elif part == FRAME_END:
                for w in self.watchers:
                    if w.state == FRAMING:
                        w.state = LIVE
                self.want_frame()  # (for those who joined meanwhile)
            elif isinstance(part, bytes):
                self.pending.append(part)
                if self._flusher is None:
                    self._flusher = asyncio.get_running_loop().call_later(FLUSH_AFTER, self.flush)

    def flush(self) -> None:
        """Write what the app wrote since the last flush to every watcher who is in the stream: one
        bytes object, one write each."""
        if self._flusher is not None:
            self._flusher.cancel()
            self._flusher = None
        if not self.pending:
            return
        data = b"".join(self.pending)
        self.pending.clear()
        short = False
        for w in self.watchers:
            if w.state != WAITING:
                short = not w.send(data) or short
        if short:
            self.want_frame()

    def want_frame(self) -> None:
        """Ask the app for a whole frame if a watcher waits for one and has room for it (at most one each
        FRAME_EVERY s; a watcher skipped for want of room asks again once its channel has taken its
        bytes, so a stalled one costs the others no frames)."""
        if not self.ready or self.closing or self._timer is not None:
            return
        if not self._someone_waits():
            return
        wait = self.asked + FRAME_EVERY - time.monotonic()
        if wait > 0:
            self._timer = asyncio.get_running_loop().call_later(wait, self._ask)
        else:
            self._ask()

    def _someone_waits(self) -> bool:
        return any(w.state == WAITING and w.has_room() for w in self.watchers)

    def _ask(self) -> None:
        self._timer = None
        if self.child is None or self.closing or not self._someone_waits():
            return
        self.asked = time.monotonic()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.child.pid, signal.SIGUSR1)

    async def close(self) -> None:
        self._stop.set()
        await self.ended.wait()

    def _maybe_stop(self) -> None:
        self._linger = None
        if not self.watchers:
            self.unused = True  # (a watcher who came meanwhile goes to a new view)
            self._stop.set()

    # -- one watcher --------------------------------------------------------------------------------------

    async def serve(self, w: Watcher, guard: SessionGuard) -> int | str:
        """Show this view to ``w`` until it leaves, asks for more, or the app ends: an exit code,
        :data:`OWN_APP`, or ``_RESIZED``."""
        if self._linger is not None:  # (it was about to stop)
            self._linger.cancel()
            self._linger = None
        w.process.stdout.write(ENTER)
        w.on_room = self.want_frame
        self.watchers.add(w)
        self.want_frame()
        writer = asyncio.ensure_future(w.write_loop())
        keys = asyncio.ensure_future(self._keys(w, guard))
        ended = asyncio.ensure_future(self.ended.wait())
        outcome: int | str = 1
        try:
            done, _ = await asyncio.wait({writer, keys, ended}, return_when=asyncio.FIRST_COMPLETED)
            if keys in done:
                outcome = keys.result()
                if outcome == _QUIT:
                    with contextlib.suppress(Exception):
                        w.process.stdout.write(LEAVE)
                    return 0
                return 1 if outcome == _GONE else outcome
            if ended in done:
                if self.unused:
                    return _RESIZED  # (it stopped as this one came: to a new view)
                with contextlib.suppress(Exception, asyncio.TimeoutError):
                    await asyncio.wait_for(w.flush(), 2.0)  # the app's last words
                return self.code
            if w.broken:
                return 1
            log.info("ending a watcher of table %s: it took no bytes for %g s", self.key[0], WRITE_STALL)
            return 1
        finally:
            self.watchers.discard(w)
            for task in (writer, keys, ended):
                task.cancel()
                task.add_done_callback(_retrieved)
            self.watcher_left(outcome)

    def watcher_left(self, outcome: int | str) -> None:
        """A watcher has gone (``outcome``: why): after the last one, the app stops once it has
        lingered (a quick return keeps it)."""
        if not self.watchers and not self.closing and self._linger is None:
            linger = 0.0 if outcome == _RESIZED else VIEW_LINGER  # (a resize storm keeps no apps)
            self._linger = asyncio.get_running_loop().call_later(linger, self._maybe_stop)

    async def _keys(self, w: Watcher, guard: SessionGuard) -> int | str:
        import asyncssh

        from mqtui.net.limits import SPECTATOR as WATCHING
        from mqtui.net.limits import peer_address

        while True:
            try:
                data = await w.process.stdin.read(1024)
            except asyncssh.TerminalSizeChanged:
                return _RESIZED
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (OSError, asyncssh.Error):  # (the connection is gone)
                return _GONE
            if not data:
                return _GONE
            keys = guard.take(data)
            if guard.flooded:
                with contextlib.suppress(Exception):
                    w.process.stdout.write(parting(f"this session was ended: {guard.flooded}."))
                return _GONE
            if len(keys) > KEY_BYTES:
                continue  # a paste, or noise: nothing a watcher has a use for
            if QUIT_KEYS.intersection(keys):
                return _QUIT
            if keys:
                ticket = self.host.gate.admit(WATCHING, self.key[0], peer_address(w.process))
                if not isinstance(ticket, str):  # (room for an app of its own: taken again at once)
                    ticket.release()
                    return OWN_APP


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def watch(
    host: SSHHost, process: asyncssh.SSHServerProcess[bytes], authority: Authority, guard: SessionGuard
) -> int:
    """The spectator of ``process`` watches ``authority``'s table on its shared view of its size (its
    input under ``guard``, the session's): the session's exit code, or :data:`OWN_APP` (the watcher asked
    for an app of its own)."""
    from mqtui.net.identity import SPECTATOR
    from mqtui.net.limits import WATCHER

    table = authority.game.game
    ticket = host._admit(process, WATCHER, table)
    if ticket is None:
        return 1
    host.seated(process, table, SPECTATOR)
    try:
        while True:
            env, size = host.terminal_of(process)
            key = (table, size[0], size[1], _colours(env))
            view = host.views.get(key)
            if view is None or view.closing:
                view = host.views[key] = SharedView(host, authority, key, env, size)
            outcome = await view.serve(Watcher(process, host.limits.watcher_buffer), guard)
            if outcome != _RESIZED:
                return int(outcome)
            if not await _settled(process):
                return 1
    finally:
        ticket.release()


async def _settled(process: asyncssh.SSHServerProcess[bytes]) -> bool:
    """Until the window's size has stayed put for RESIZE_SETTLE s (keys meanwhile do nothing); False if
    the connection ended."""
    import asyncssh

    while True:
        try:
            data = await asyncio.wait_for(process.stdin.read(1024), RESIZE_SETTLE)
        except TimeoutError:
            return True
        except (asyncssh.TerminalSizeChanged, asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (OSError, asyncssh.Error):
            return False
        if not data:
            return False


async def close_views(host: SSHHost) -> None:
    """End every shared view of ``host`` (it stops)."""
    views = list(host.views.values())
    if views:
        await asyncio.gather(*(view.close() for view in views), return_exceptions=True)


def watching(host: SSHHost, a: Authority) -> int:
    """How many watch table ``a``: its spectators' own apps, and the watchers of its shared views (each
    view's app is one spectator of the table's)."""
    views = [view for key, view in host.views.items() if key[0] == a.game.game]
    return len(a.spectators) - len(views) + sum(len(view.watchers) for view in views)
