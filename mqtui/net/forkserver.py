"""Session apps forked from one pre-imported parent: cheaper sessions than a fresh Python each.

A fresh ``python -m mqtui.net.client`` per SSH session imports Textual, Rich, the app and the content
anew (about 0.4 s of CPU) and keeps its own copy of all of it (tens of MiB). The **fork server** is one
process, started by the SSH host, that imports all of that once, freezes it (``gc.freeze``, so that the
collector does not touch, and so copy, the shared pages) and then forks one child per session. The
children share the parent's pages until they write to them.

The SSH host talks to it over a ``SOCK_SEQPACKET`` socket pair: a request is one JSON message (which
program, its arguments, its environment) carrying two descriptors (the pty's slave side and the
session's socket to the authority or the lobby); the answer is ``{"pid": N}``; when a child ends, the
server sends ``{"exit": N, "code": C}``. The child makes the pty its controlling terminal in a new
session, exactly as :func:`mqtui.net.ptyrelay.spawn` does for a fresh process.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import gc
import json
import logging
import os
import select
import signal
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from mqtui.net.ptyrelay import Child, on_new_pty

log = logging.getLogger("mqtui.net")

PROGRAMS = {"client": "mqtui.cli.seatapp", "lobby": "mqtui.cli.lobbyapp"}  # (they choose the app)
MAX_MSG = 256 * 1024


# -- the fork server process ------------------------------------------------------------------------------


class HostGone(Exception):
    """The SSH host went away while the fork server was still loading: nothing to serve."""


def host_gone(ctrl: socket.socket) -> bool:
    """Whether the host closed its end (before ``ready`` it sends nothing, so readable means gone)."""
    try:
        readable, _, _ = select.select([ctrl], [], [], 0)
        return bool(readable) and not ctrl.recv(1, socket.MSG_PEEK)
    except OSError:
        return True


def preload(gone: Callable[[], bool] = lambda: False) -> None:
    """Import and load everything a session uses, once, before any fork; stop (HostGone) as soon as
    ``gone()`` says the host is gone (killed while we load: no use finishing)."""
    import importlib

    for name in (
        "textual.app",
        "textual.widgets",
        "textual.drivers.linux_driver",
        "mqtui.net.client",
        "mqtui.net.lobbyclient",
        *PROGRAMS.values(),
        "mqtui.net.remote",
        "mqtui.net.remote_app",
        "mqtui.net.served",
        "mqtui.net.sessionguard",
        "mqtui.net.netstore",
        "mqtui.ui.app",
        "mqtui.ui.screens.game",
        "mqtui.ui.screens.lobby",
        "mqtui.ui.screens.game_over",
        "mqtui.net.standin",
        "mqtui.net.contain",
    ):
        if gone():
            raise HostGone
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    from mqtui.engine.content import load_content
    from mqtui.net.persist import content_dirs
    from mqtui.net.tables import Tables

    load_content()
    for pack in Tables.available_packs():
        with contextlib.suppress(Exception):
            load_content(content_dirs([pack]))
    if gone():
        raise HostGone
    try:
        import asyncio

        asyncio.run(_warm_up())  # what the first screens import and cache, shared by every child
    except Exception:
        log.exception("fork server: warming up failed (sessions still work, with less shared)")


async def _warm_up() -> None:
    """Draw the game screen once, headless, through the real network store, before any fork: with the
    full app, and with the plain one (the fallback, and what a host started with --app standin runs)."""
    import importlib

    from mqtui.engine.content import load_content
    from mqtui.engine.game import Engine
    from mqtui.net.authority import Authority
    from mqtui.net.client import make_app
    from mqtui.net.identity import Claim
    from mqtui.net.netstore import NetStore
    from mqtui.net.table import TableConfig, parse_new_spec

    engine = Engine(load_content())
    a = Authority.new(
        engine, parse_new_spec("2"), 1, None, TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    )
    await a.start()
    ours, theirs = socket.socketpair()
    a.attach(ours, Claim(0, "warm-up", "warm-up"))
    store = await NetStore.open_socket(engine, theirs)
    try:
        program = importlib.import_module(PROGRAMS["client"])  # (the program chooses the app)
        for choice in ("auto", "standin"):
            app = make_app(store, program.seat_app(choice), remote=True)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
    finally:
        await store.close()
        await a.close()


def _recv(ctrl: socket.socket) -> tuple[dict[str, Any], list[int]] | None:
    fds = array.array("i")
    data, anc, _, _ = ctrl.recvmsg(MAX_MSG, socket.CMSG_SPACE(2 * fds.itemsize))
    for level, kind, payload in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    if not data:
        for fd in fds:
            os.close(fd)
        return None
    return json.loads(data), list(fds)


def _child(
    request: dict[str, Any], slave: int, sock: int, ctrl: socket.socket, closing: Sequence[int]
) -> NoReturn:
    """In the forked child: become the session's app. Never returns."""
    from mqtui.net.remote import quiet_terminal, run_program

    def program() -> int | None:
        ctrl.close()
        for fd in closing:
            with contextlib.suppress(OSError):
                os.close(fd)
        signal.set_wakeup_fd(-1)
        # the signal dispositions of a freshly started Python
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a closed socket is an error to handle, not death
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        os.setsid()
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(slave)
        import fcntl
        import termios

        quiet_terminal()  # before the pty is our terminal: no byte typed while the app starts is a signal
        with contextlib.suppress(OSError):
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        os.environ.clear()
        os.environ.update(request["env"])
        import importlib

        import textual.constants

        importlib.reload(textual.constants)  # TEXTUAL_* and friends as this session's terminal says
        module = importlib.import_module(PROGRAMS[request["program"]])
        args = [str(a) for a in request["args"]] + ["--fd", str(sock)]
        return module.main(args)  # type: ignore[no-any-return]

    run_program(program)


def serve_forks(ctrl: socket.socket) -> int:
    """The fork server's loop: fork on request, report ends, stop when the host goes away."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the host stops us by closing the socket
    gc.collect()
    gc.freeze()  # what is here now stays put: the children share these pages
    ctrl.send(json.dumps({"ready": True}).encode())
    while True:
        try:
            ready, _, _ = select.select([ctrl.fileno(), wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 512)
            _reap(ctrl)
        if ctrl.fileno() in ready:
            try:
                got = _recv(ctrl)
            except (OSError, ValueError):
                got = None
            if got is None:
                return 0
            request, fds = got
            if len(fds) != 2 or request.get("program") not in PROGRAMS:
                for fd in fds:
                    os.close(fd)
                ctrl.send(json.dumps({"id": request.get("id"), "pid": 0, "error": "bad request"}).encode())
                continue
            slave, sock = fds
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                _child(request, slave, sock, ctrl, (wake_r, wake_w))
            os.close(slave)
            os.close(sock)
            ctrl.send(json.dumps({"id": request.get("id"), "pid": pid}).encode())
        _reap(ctrl)


def _reap(ctrl: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(OSError):
            ctrl.send(json.dumps({"exit": pid, "code": code}).encode())


def main() -> int:
    fd = int(sys.argv[1])
    ctrl = socket.socket(fileno=fd)
    try:
        preload(lambda: host_gone(ctrl))
    except HostGone:
        return 0
    return serve_forks(ctrl)


# -- the SSH host's side ----------------------------------------------------------------------------------


@dataclass(eq=False)
class ForkedProcess:
    """A session app forked by the fork server: what the relay needs of a process."""

    pid: int
    returncode: int | None = None
    _done: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self) -> int:
        await self._done.wait()
        assert self.returncode is not None
        return self.returncode

    # the rest of asyncio.subprocess.Process's controls, for code that holds either kind
    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The SSH host's handle on its fork server."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.ctrl: socket.socket | None = None
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = 0
        self._procs: dict[int, ForkedProcess] = {}
        self._ready = asyncio.Event()  # the server has imported everything
        self._early: dict[int, int] = {}  # ends heard of before the fork's answer was taken up

    async def start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "mqtui.net.forkserver",
                str(theirs.fileno()),
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        self.ctrl = ours
        asyncio.get_running_loop().add_reader(ours.fileno(), self._read)

    def attach(self, ctrl: socket.socket) -> None:
        """Take up a fork server started elsewhere, its ``{"ready": true}`` already read from ``ctrl``
        (its control socket, non-blocking): one server shared by several hosts in turn."""
        self.ctrl = ctrl
        self._ready.set()
        asyncio.get_running_loop().add_reader(ctrl.fileno(), self._read)

    def _read(self) -> None:
        assert self.ctrl is not None
        while True:
            try:
                data = self.ctrl.recv(MAX_MSG)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            msg = json.loads(data)
            if "ready" in msg:
                self._ready.set()
            elif "exit" in msg:
                proc = self._procs.pop(int(msg["exit"]), None)
                if proc is not None:
                    proc.returncode = int(msg["code"])
                    proc._done.set()
                else:
                    if len(self._early) > 1000:  # ends of children nobody waits for: never grows
                        self._early.clear()
                    self._early[int(msg["exit"])] = int(msg["code"])
            else:
                fut = self._waiting.pop(int(msg.get("id") or 0), None)
                if fut is not None and not fut.done():
                    fut.set_result(msg)
                elif int(msg.get("pid") or 0) > 0:  # its session gave up waiting: it must not live on
                    with contextlib.suppress(OSError):
                        os.kill(int(msg["pid"]), signal.SIGKILL)

    def _lost(self) -> None:
        if self.ctrl is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.ctrl.fileno())
        self._ready.set()  # nobody waits for it any more
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(OSError("the fork server is gone"))
        self._waiting.clear()
        for proc in self._procs.values():  # cannot hear of their ends any more: watch their pty instead
            proc.returncode = 1
            proc._done.set()
        self._procs.clear()
        self.ctrl = None

    @property
    def alive(self) -> bool:
        return self.ctrl is not None and self.proc is not None and self.proc.returncode is None

    async def fork(
        self, program: str, args: Sequence[str], env: Mapping[str, str], slave: int, sock: int
    ) -> ForkedProcess:
        """Start ``program`` ("client" or "lobby") on the pty ``slave`` with the session socket ``sock``."""
        if not self._ready.is_set():
            await asyncio.wait_for(self._ready.wait(), 60.0)  # only the first sessions ever wait
        if self.ctrl is None:
            raise OSError("the fork server is not running")
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._ids += 1
        rid = self._ids
        self._waiting[rid] = fut
        body = json.dumps({"id": rid, "program": program, "args": list(args), "env": dict(env)}).encode()
        fds = array.array("i", [slave, sock])
        self.ctrl.sendmsg([body], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        try:
            reply = await asyncio.wait_for(fut, 10.0)
        finally:
            self._waiting.pop(rid, None)
        pid = int(reply.get("pid", 0))
        if pid <= 0:
            raise OSError(f"the fork server could not start a session: {reply.get('error', '?')}")
        proc = ForkedProcess(pid)
        if pid in self._early:
            proc.returncode = self._early.pop(pid)
            proc._done.set()
        else:
            self._procs[pid] = proc
        return proc

    async def close(self) -> None:
        ctrl = self.ctrl
        if ctrl is not None:
            self._lost()
            ctrl.close()
        if self.proc is not None and self.proc.returncode is None:
            try:
                await asyncio.wait_for(self.proc.wait(), 3.0)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


async def spawn_forked(
    forks: ForkServer, argv: Sequence[str], env: Mapping[str, str], size: tuple[int, int, int, int], sock: int
) -> Child:
    """What :func:`mqtui.net.ptyrelay.spawn` does for ``python -m PROGRAM ... --fd N``, by forking."""
    program = {module: name for name, module in PROGRAMS.items()}[argv[2]]
    args: list[str] = []
    rest = list(argv[3:])
    while rest:
        arg = rest.pop(0)
        if arg == "--fd":
            rest.pop(0)  # the child gets the socket under its own number
        else:
            args.append(arg)
    return await on_new_pty(size, lambda slave: forks.fork(program, args, env, slave, sock))


if __name__ == "__main__":
    raise SystemExit(main())
