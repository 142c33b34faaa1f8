"""One SSH session's app in a pseudo-terminal of its own, and the bytes between it and the channel.

Textual owns its process's terminal, so each session gets its own process: ``python -m
mqtui.net.client`` started in a new session with a fresh pty as its controlling terminal. The relay
copies the channel's input to the pty master and the master's output to the channel, and turns the
client's window-size changes (asyncssh raises them as ``TerminalSizeChanged`` from ``stdin.read``) into
``TIOCSWINSZ`` on the master, which makes the kernel send ``SIGWINCH`` to the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import re
import signal
import struct
import sys
import termios
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mqtui.net.sessionguard import SessionGuard

LEAVE = (  # what the app's own exit would do to the terminal
    b"\x1b[?2026l\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l"
    b"\x1b[?25h\x1b[?1049l"
)


def parting(words: str) -> bytes:
    """What ends a session in words: the terminal left as the app's own exit leaves it, then the words."""
    return LEAVE + f"\r\nmqtui: {words}\r\n".encode()


log = logging.getLogger("mqtui.net")

DEFAULT_SIZE = (80, 24)
TRUECOLOR_TERMS = ("xterm-kitty", "alacritty", "wezterm", "foot", "xterm-ghostty", "contour", "iterm2")
BASIC_TERMS = ("linux", "vt100", "vt102", "vt220", "ansi", "cons25", "dumb")
# what of the server's environment a player's app gets: enough to run, nothing of the host's session
# (no agent socket, no tokens, no terminal settings of the host's own terminal)
_KEEP_ENV = ("PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "PYTHONPATH", "PYTHONHASHSEED", "VIRTUAL_ENV")
_KEEP_PREFIXES = ("MQTUI_", "XDG_", "COVERAGE_")
_TERM_RE = re.compile(r"^[A-Za-z0-9._+-]{1,64}$")


def set_winsize(fd: int, width: int, height: int, pixwidth: int = 0, pixheight: int = 0) -> None:
    if width <= 0 or height <= 0:
        width, height = DEFAULT_SIZE
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, pixwidth, pixheight))


def get_winsize(fd: int) -> tuple[int, int]:
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


def _passed_on(name: str) -> bool:
    return name in _KEEP_ENV or name.startswith(_KEEP_PREFIXES)


def child_env(
    term: str, client_env: Mapping[str, str], base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The app's environment: a few of the server's variables, plus the SSH client's terminal.

    OpenSSH does not forward COLORTERM, so truecolor is used only when the client's TERM (or a
    COLORTERM it did send) says so; otherwise 256 colours, or the basic 16 on console-like terminals.
    """
    env = {k: v for k, v in (os.environ if base is None else base).items() if _passed_on(k)}
    term = term if _TERM_RE.match(term or "") else "xterm-256color"
    env["TERM"] = term
    t = term.lower()
    sent = str(client_env.get("COLORTERM", "")).strip().lower()
    if (
        sent in ("truecolor", "24bit")
        or any(x in t for x in ("direct", "truecolor", "24bit"))
        or t.startswith(TRUECOLOR_TERMS)
    ):
        env["COLORTERM"] = "truecolor"
    elif t in BASIC_TERMS:
        env["TEXTUAL_COLOR_SYSTEM"] = "standard"
    else:
        env["TEXTUAL_COLOR_SYSTEM"] = "256"
    if "NO_COLOR" in client_env:
        env["NO_COLOR"] = "1"
    lang = str(client_env.get("LANG", ""))
    env["LANG"] = lang if re.match(r"^[A-Za-z_]+\.(UTF-8|utf8)$", lang) else "C.UTF-8"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@dataclass
class Child:
    proc: asyncio.subprocess.Process
    master: int

    @property
    def pid(self) -> int:
        return self.proc.pid


async def spawn(
    argv: Sequence[str], env: Mapping[str, str], size: tuple[int, int, int, int], pass_fds: Sequence[int] = ()
) -> Child:
    """Start ``argv`` in a new session on a new pty (the child takes it as its controlling terminal)."""
    return await on_new_pty(
        size,
        lambda slave: asyncio.create_subprocess_exec(
            *argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(env),
            pass_fds=tuple(pass_fds),
            start_new_session=True,
            close_fds=True,
        ),
    )


async def on_new_pty(size: tuple[int, int, int, int], start: Callable[[int], Awaitable[Any]]) -> Child:
    """A new pty of ``size`` with the process ``start(slave)`` starts on it. The slave end is closed
    here (the child holds its own copy); the master is closed too if the start fails."""
    master, slave = os.openpty()
    try:
        set_winsize(master, *size)
        proc = await start(slave)
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    os.set_blocking(master, False)
    return Child(proc, master)


def client_argv(
    fd: int, dirs: Sequence[str] = (), app: str = "auto", options: Sequence[str] = ()
) -> list[str]:
    """The seat's program for a session (``options``: more of its arguments, ``SSHHost.app_options``)."""
    argv = [sys.executable, "-m", "mqtui.cli.seatapp", "--fd", str(fd), "--app", app, *options]
    for d in dirs:
        argv += ["--dir", d]
    return argv


async def _wait_fd(fd: int, writing: bool = False) -> None:
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not fut.done():
            fut.set_result(None)

    (loop.add_writer if writing else loop.add_reader)(fd, ready)
    try:
        await fut
    finally:
        (loop.remove_writer if writing else loop.remove_reader)(fd)


async def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            await _wait_fd(fd, writing=True)
            continue
        view = view[n:]


async def read_some(master: int) -> bytes:
    """What the app wrote to its terminal since the last read (b"" once it has closed it)."""
    while True:
        try:
            return os.read(master, 65536)
        except BlockingIOError:
            await _wait_fd(master)
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.EBADF):
                return b""
            raise


@dataclass
class RelayStats:
    bytes_to_client: int = 0
    bytes_from_client: int = 0
    resizes: int = 0
    guard: SessionGuard | None = None  # the session's limits as they stand (its input budget, ...)


async def relay(
    process: Any,
    child: Child,
    stats: RelayStats | None = None,
    guard: SessionGuard | None = None,
    heard: Callable[[], float | None] | None = None,
) -> int:
    """Copy bytes both ways until the app exits or the SSH channel closes; the app's exit code.

    The ``guard`` bounds the input, the window size and the time the app may hang (see
    :mod:`mqtui.net.sessionguard`).
    """
    import asyncssh

    stats = stats or RelayStats()
    guard = guard or SessionGuard()
    master = child.master

    def apply_size(cols: int, rows: int, pw: int, ph: int) -> None:
        set_winsize(master, cols, rows, pw, ph)

    async def pty_to_ssh() -> None:
        while True:
            data = await read_some(master)
            if not data:
                return  # the app closed its terminal
            stats.bytes_to_client += len(data)
            process.stdout.write(data)
            await process.stdout.drain()

    async def ssh_to_pty() -> None:
        while True:
            try:
                data = await process.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as exc:
                stats.resizes += 1
                guard.resize(apply_size, exc.width, exc.height, exc.pixwidth, exc.pixheight)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            if not data:
                return  # the client closed its side
            stats.bytes_from_client += len(data)
            data = guard.take(data)
            if guard.flooded:
                return  # ended (see below): nothing more of it is read
            if data:
                guard.writing_since = time.monotonic()
                await write_all(master, data)
                guard.writing_since = None

    out_task = asyncio.ensure_future(pty_to_ssh())
    in_task = asyncio.ensure_future(ssh_to_pty())
    exit_task = asyncio.ensure_future(child.proc.wait())
    watch_task = asyncio.ensure_future(guard.watch(child.pid, heard))
    try:
        done, _ = await asyncio.wait(
            {out_task, in_task, exit_task, watch_task}, return_when=asyncio.FIRST_COMPLETED
        )
        for task in done:
            if task not in (exit_task, watch_task) and task.exception() is not None:  # a closed channel
                log.debug("relay: %s", task.exception())
        if watch_task in done or guard.flooded:
            why = guard.flooded or watch_task.result()
            log.info("ending a session: %s", why)
            await stop(child, grace=0.5)
            with contextlib.suppress(Exception):
                process.stdout.write(f"\r\nmqtui: this session was ended: {why}.\r\n".encode())
        elif in_task in done:
            await stop(child)  # the player left: end their app
        else:
            # the app is ending: let its last output (the goodbye) through
            with contextlib.suppress(Exception, asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(out_task), 2.0)
            with contextlib.suppress(Exception, asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(exit_task), 3.0)
            await stop(child)
    finally:
        guard.close()
        for task in (out_task, in_task, exit_task, watch_task):  # (none left pending when the loop ends)
            task.cancel()
            task.add_done_callback(_quiet)
        if child.proc.returncode is None:  # cancelled (the server is stopping): do not leave it behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGTERM)
        with contextlib.suppress(OSError):
            os.close(master)
    code = child.proc.returncode
    return code if code is not None and code >= 0 else 1


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: a relay half that failed as the session ended is no news


async def stop(child: Child, grace: float = 2.0) -> None:
    """Hang up the app's terminal, then ask, then make it stop. A stopped app (SIGSTOP, Ctrl+Z) is
    continued after each signal, so that it takes the signal now rather than after its grace."""
    if child.proc.returncode is not None:
        return
    for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, sig)
            os.killpg(child.pid, signal.SIGCONT)
        try:
            await asyncio.wait_for(child.proc.wait(), grace)
            return
        except TimeoutError:
            continue
