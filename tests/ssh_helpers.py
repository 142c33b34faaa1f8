"""Helpers for the tests that run the real OpenSSH client (and other programs in a terminal of their own).

A :class:`Term` is one program in a pseudo-terminal; it keeps every byte its terminal receives, and
:meth:`Term.expect` wakes up when new bytes come in (no polling): the timeouts are safety nets only.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import json
import os
import pty
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import pytest
from waiting import SAFETY_NET

from mqtui.net.forkserver import MAX_MSG, ForkServer
from mqtui.net.limits import Limits

# Without the client these tests skip, and ./test (-rs) says why; where CI is set (.ci/run, CI
# services) a missing client is a failure instead, so that no run there passes without them.
needs_ssh = pytest.mark.skipif(
    shutil.which("ssh") is None and not os.environ.get("CI"),
    reason="needs the OpenSSH client (openssh-client)",
)

ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78cDEHM]"
)
SSH_OPTS = [
    "-F",
    "/dev/null",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "IdentityAgent=none",
    "-o",
    "ConnectTimeout=10",
]


def resolve(fut: asyncio.Future[None]) -> None:
    """Mark ``fut`` done (once): a loop reader's or writer's callback that wakes a waiting test."""
    if not fut.done():
        fut.set_result(None)


def quick(**limits: float) -> Limits:
    """A host's limits for a test: sessions leave no message up for a person to read (``linger`` 0:
    the message is still shown), and the given limits."""
    return dataclasses.replace(Limits(linger=0.0), **limits)


# util-linux's (or busybox's) setsid -c: a new session whose controlling terminal is the pty, as in a
# real terminal window (ssh asks for join codes and passphrases on /dev/tty). Without it, a function run
# in the child does the same; but a child that runs Python code first is started with fork() instead
# of vfork(), which copies the page tables of the whole pytest worker (~15 ms of CPU at 300 MiB).
SETSID = shutil.which("setsid")


def _take_tty() -> None:
    """In the child (without setsid): the pty is its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Term:
    """One program (``ssh`` mostly) in a pseudo-terminal; keeps every byte its terminal receives."""

    def __init__(
        self, argv: list[str], size: tuple[int, int] = (150, 45), env: dict[str, str] | None = None
    ) -> None:
        if env is None:  # the tests set their own TERM: they pass with TERM unset around them
            env = dict(os.environ, TERM="xterm-256color")
        master, slave = pty.openpty()
        self._set_size(slave, *size)
        more: dict[str, object] = {"start_new_session": True, "preexec_fn": _take_tty}
        if SETSID:  # (not a process group leader, so setsid runs the program in this same process)
            argv, more = [SETSID, "-c", *argv], {}
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, **more)  # type: ignore[call-overload]
        os.close(slave)
        os.set_blocking(master, False)
        self.master = master
        self.raw = bytearray()
        self.closed = False
        self._news = asyncio.Event()  # set by every read (new bytes, or the end)
        self._text = ""  # raw[:_cut] without its escape sequences (see text())
        self._cut = 0
        asyncio.get_running_loop().add_reader(master, self._read)

    @staticmethod
    def _set_size(fd: int, cols: int, rows: int) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def _read(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        self._news.set()
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.closed = True
            return
        self.raw += data

    def clear(self) -> None:
        """Forget what the terminal showed so far (what follows is looked at alone)."""
        self.raw.clear()
        self._text, self._cut = "", 0

    def text(self) -> str:
        """What the terminal showed, without escape sequences. The part up to the end of the last
        whole escape sequence is kept, so each call strips only the bytes that came since."""
        if self._cut > len(self.raw):  # (cleared behind our back)
            self._text, self._cut = "", 0
        new = bytes(self.raw[self._cut :])
        upto = max((m.end() for m in ANSI.finditer(new)), default=0)
        if upto:  # up to there, stripping the new bytes alone gives what stripping the whole would
            self._text += ANSI.sub(b"", new[:upto]).decode("utf-8", "replace")
            self._cut += upto
            new = new[upto:]
        return self._text + ANSI.sub(b"", new).decode("utf-8", "replace")

    async def _news_or(self, end: float) -> None:
        """Until new bytes come in (or the terminal ends), but not past the loop time ``end``."""
        self._news.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._news.wait(), max(0.0, end - asyncio.get_running_loop().time()))

    async def expect(self, pattern: str, timeout: float = SAFETY_NET) -> re.Match[str]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        rx = re.compile(pattern)
        while True:
            m = rx.search(self.text())
            if m:
                return m
            if loop.time() > end or self.closed:
                raise AssertionError(
                    f"{pattern!r} never showed; the terminal ends with:\n{self.text()[-1500:]}"
                )
            await self._news_or(end)

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def resize(self, cols: int, rows: int) -> None:
        self._set_size(self.master, cols, rows)
        self.proc.send_signal(signal.SIGWINCH)

    async def wait(self, timeout: float = SAFETY_NET) -> int:
        """The program's exit code, once it has ended and its last bytes are in."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not self.closed:  # its end closes the terminal
            if loop.time() > end:
                raise AssertionError("the program did not end")
            await self._news_or(end)
        while self.proc.poll() is None:  # (a moment after its terminal closed)
            if loop.time() > end:
                raise AssertionError("the program did not end")
            await asyncio.sleep(0.005)
        return self.proc.returncode

    def close(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.master)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        with contextlib.suppress(OSError):
            os.close(self.master)


def ssh_term(
    port: int, user: str, *extra: str, key: Path | None = None, size: tuple[int, int] = (150, 45)
) -> Term:
    # ``extra`` first: for an ``-o`` option ssh keeps the first value it is given, so a test's own wins
    argv = ["ssh", "-tt", "-p", str(port), *extra, *SSH_OPTS]
    if key is not None:
        argv += ["-i", str(key), "-o", "IdentitiesOnly=yes", "-o", "PreferredAuthentications=publickey"]
    else:
        argv += ["-o", "PubkeyAuthentication=no"]
    return Term([*argv, f"{user}@127.0.0.1"], size)


def write_key(path: Path) -> asyncssh.SSHKey:
    """A new private key at ``path`` (0600), for ``ssh -i``."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return key


async def serve_process(
    env: dict[str, str], *args: str, ssh: bool = True
) -> tuple[asyncio.subprocess.Process, int, dict[str, str]]:
    """``mqtui serve --port 0 ARGS`` in a process of its own, once its banner is out: (process, SSH port,
    seat -> join code). With ``ssh=False`` it runs ``--no-ssh`` (give ``--socket``) and the port is 0."""
    more = ["--port", "0", "--print-codes"] if ssh else ["--no-ssh", "--print-codes"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mqtui", "serve", *more, *args,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    text = ""
    while "Ctrl+C" not in text:
        line = await asyncio.wait_for(proc.stdout.readline(), 30)
        assert line, text
        text += line.decode()
    port = re.search(r"SSH on 127.0.0.1:(\d+)", text)
    codes = dict(re.findall(r"seat (\d) .*(?:code-|--code )(\w+)", text))
    return proc, int(port.group(1)) if port else 0, codes


class SharedForks(ForkServer):
    """One test's handle on the worker's fork server (:func:`fork_server`): a host forks its sessions'
    apps from it as from its own, and leaves it running when it closes. Importing Textual, the app and
    the content once per worker instead of once per session is what makes forked sessions cheap."""

    def __init__(self, proc: subprocess.Popen[bytes], ctrl: socket.socket) -> None:
        super().__init__()
        self.proc = proc  # type: ignore[assignment]  # (a Popen: its pid and returncode are what is used)
        self.attach(ctrl)

    @property
    def alive(self) -> bool:
        return self.ctrl is not None and self.proc is not None and self.proc.poll() is None  # type: ignore[attr-defined]

    async def close(self) -> None:
        """This test is done with it (its children are its host's to end): stop listening, keep it."""
        ctrl = self.ctrl
        if ctrl is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(ctrl.fileno())
            self.ctrl = None


_WORKER_FORKS: list[tuple[subprocess.Popen[bytes], socket.socket]] = []  # (the one of this worker)
_USERS = [0]


def _start_fork_server(home: Path) -> tuple[subprocess.Popen[bytes], socket.socket]:
    env = dict(os.environ, MQTUI_DATA=str(home / "data"), HOME=str(home), TERM="xterm-256color")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mqtui.net.forkserver", str(theirs.fileno())],
        pass_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        env=env,
    )
    theirs.close()
    try:
        ours.settimeout(60)
        assert json.loads(ours.recv(MAX_MSG)) == {"ready": True}
        ours.setblocking(False)
    except BaseException:
        _stop_fork_server(proc, ours)
        raise
    return proc, ours


def _stop_fork_server(proc: subprocess.Popen[bytes], ctrl: socket.socket) -> None:
    ctrl.close()  # the server ends when its host goes
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def fork_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[subprocess.Popen[bytes], socket.socket]]:
    """The worker's fork server (``python -m mqtui.net.forkserver``), started once, ready (imported).
    Each module that imports this fixture has its own session-scoped copy of it: they share one server,
    which the last of them to finish stops."""
    if not _WORKER_FORKS or _WORKER_FORKS[0][0].poll() is not None:
        _WORKER_FORKS[:] = [_start_fork_server(tmp_path_factory.mktemp("forks"))]
    _USERS[0] += 1
    try:
        yield _WORKER_FORKS[0]
    finally:
        _USERS[0] -= 1
        if not _USERS[0]:
            _stop_fork_server(*_WORKER_FORKS.pop())


@pytest.fixture
async def forks(fork_server: tuple[subprocess.Popen[bytes], socket.socket]) -> AsyncIterator[SharedForks]:
    """The worker's fork server for this test (give it to a host: ``host.forks = forks``)."""
    shared = SharedForks(*fork_server)
    try:
        yield shared
    finally:
        await shared.close()
