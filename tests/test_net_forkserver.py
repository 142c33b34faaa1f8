"""The fork server: session apps forked from one pre-imported parent behave as freshly started ones."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

import pytest
from ssh_helpers import SSH_OPTS, SharedForks, Term, needs_ssh, quick, resolve
from ssh_helpers import fork_server as fork_server  # the fixture, for this module
from waiting import wait_until as _until

from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.net.authority import Authority
from mqtui.net.forkserver import PROGRAMS, ForkServer, spawn_forked
from mqtui.net.identity import KeyTable
from mqtui.net.sessionguard import process_state
from mqtui.net.sshserver import SSHHost
from mqtui.net.table import TableConfig, parse_new_spec


async def _read_all(master: int, timeout: float = 30.0) -> bytes:
    """Everything the app writes on its terminal until it closes it (woken by the pty, no polling)."""
    loop = asyncio.get_running_loop()
    out = bytearray()
    end = loop.time() + timeout
    while loop.time() < end:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            readable: asyncio.Future[None] = loop.create_future()
            loop.add_reader(master, resolve, readable)
            try:
                await asyncio.wait_for(readable, max(0.0, end - loop.time()))
            except TimeoutError:
                break
            finally:
                loop.remove_reader(master)
            continue
        except OSError:  # the app closed its terminal
            break
        if not data:
            break
        out += data
    return bytes(out)


async def test_a_forked_app_has_its_own_terminal_and_exit_code(
    fork_server: tuple[subprocess.Popen[bytes], socket.socket],
) -> None:
    forks = SharedForks(*fork_server)  # the worker's (a host's own, and its end: forked_host below)
    try:
        await _exits_with_its_code(forks)
    finally:
        await forks.close()


async def _exits_with_its_code(forks: ForkServer) -> None:
    ours, theirs = socket.socketpair()
    ours.close()  # nobody answers: the app says why on its terminal and ends with code 2
    env = {"PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color", "MQTUI_NET_APP": "standin"}
    argv = [
        "python",
        "-m",
        PROGRAMS["client"],
        "--fd",
        str(theirs.fileno()),
        "--app",
        "standin",
        "--linger",
        "0",
    ]
    child = await spawn_forked(forks, argv, env, (80, 24, 0, 0), theirs.fileno())
    theirs.close()
    assert Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(forks.proc.pid)  # type: ignore[union-attr]
    try:
        out = await _read_all(child.master)
        assert await asyncio.wait_for(child.proc.wait(), 30) == 2
        assert b"could not join the game" in out
    finally:
        os.close(child.master)


async def test_a_forked_app_that_hangs_is_ended_by_a_signal(
    fork_server: tuple[subprocess.Popen[bytes], socket.socket],
) -> None:
    forks = SharedForks(*fork_server)  # the worker's (a host's own start and end: forked_host)
    try:
        ours, theirs = socket.socketpair()  # we never answer its hello: it waits
        env = {"PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color"}
        argv = ["python", "-m", PROGRAMS["client"], "--fd", str(theirs.fileno()), "--app", "standin"]
        child = await spawn_forked(forks, argv, env, (80, 24, 0, 0), theirs.fileno())
        theirs.close()
        try:
            await asyncio.wait_for(asyncio.get_running_loop().sock_recv(ours, 1), 30)  # its hello: it runs
            child.proc.kill()
            assert await asyncio.wait_for(child.proc.wait(), 10) == -9
        finally:
            ours.close()
            os.close(child.master)
    finally:
        await forks.close()


@contextlib.asynccontextmanager
async def _forked_host(tmp_path: Path, forks: ForkServer | None) -> AsyncIterator[tuple[Authority, SSHHost]]:
    """A two-seat table behind an SSH host whose sessions' apps (the stand-in) come from a fork server:
    ``forks`` (the worker's), or with None its own, started as a real host starts it."""
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(
        Engine(load_content()), parse_new_spec("2"), 21, tmp_path / "g.mqsave", config, KeyTable(None)
    )
    await a.start()
    host = SSHHost(a, app="standin", limits=quick(stall=0.3, heartbeat=0.1))  # short limits: sooner
    try:
        await host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
        if forks is None:
            await host.start_forks()
        else:
            host.forks = forks
        yield a, host
    finally:
        await host.close()
        await a.close()


@pytest.fixture
async def forked_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A host that starts its own fork server."""
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    async with _forked_host(tmp_path, None) as table:
        yield table
    forks = table[1].forks
    assert forks is not None and forks.proc is not None
    assert forks.proc.returncode is not None  # the host's own fork server went with its host


@pytest.fixture
async def shared_forked_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork_server):  # type: ignore[no-untyped-def]
    """A host that forks from the worker's fork server."""
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    async with _forked_host(tmp_path, SharedForks(*fork_server)) as table:
        yield table


def _ssh_without_term(host: SSHHost, user: str) -> Term:
    env = {k: v for k, v in os.environ.items() if k != "TERM"}  # OpenSSH then sends an empty TERM
    argv = ["ssh", "-tt", "-p", str(host.port), *SSH_OPTS, "-o", "PubkeyAuthentication=no"]
    return Term([*argv, f"{user}@127.0.0.1"], env=env)


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@needs_ssh
@pytest.mark.slow
async def test_a_forked_session_app_gets_a_safe_term_when_the_client_sends_none(
    shared_forked_host: tuple[Authority, SSHHost], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, host = shared_forked_host
    assert host.forks is not None and host.forks.proc is not None
    # a forked child's /proc/PID/environ is the fork server's (the child sets os.environ after the fork),
    # so the environment is taken where the host hands it to the fork server
    sent: list[dict[str, str]] = []
    fork = host.forks.fork

    async def fork_and_note(program: str, args: Sequence[str], env: Mapping[str, str], slave: int, sock: int):  # type: ignore[no-untyped-def]
        sent.append(dict(env))
        return await fork(program, args, env, slave, sock)

    monkeypatch.setattr(host.forks, "fork", fork_and_note)
    monkeypatch.setenv("TERM", "vt100")  # the host's own terminal is not what a session gets
    ann = _ssh_without_term(host, f"code-{a.codes_for('0')[0]}")
    try:
        await ann.expect(r"seat 0 Ann - state 0 ", 30)  # not refused: the app runs in its terminal
        (pid,) = host.children
        assert _parent(pid) == host.forks.proc.pid  # forked, not started afresh
        (env,) = sent
        assert env["TERM"] == "xterm-256color" and env["TEXTUAL_COLOR_SYSTEM"] == "256"
    finally:
        ann.close()


@needs_ssh
@pytest.mark.slow
async def test_a_forked_session_app_is_guarded_as_a_fresh_one(
    forked_host: tuple[Authority, SSHHost],
) -> None:
    a, host = forked_host
    ann = _ssh_without_term(host, f"code-{a.codes_for('0')[0]}")
    try:
        await _until(lambda: bool(host.sessions))  # signed in: ssh's own terminal is raw now
        for _ in range(500):  # Ctrl+Z, Ctrl+\\ and Ctrl+C while the forked app starts: no signals
            if "state 0" in ann.text():
                break
            ann.type("\x1a\x1c\x03")
            await asyncio.sleep(0.005)
        await ann.expect(r"seat 0 Ann - state 0 ", 30)
        (pid,) = host.children
        assert host.forks is not None and host.forks.proc is not None
        assert _parent(pid) == host.forks.proc.pid
        await _until(lambda: a.slots[0].conn is not None)
        conn = a.slots[0].conn
        assert conn is not None
        first = conn.refilled
        await _until(lambda: conn.refilled != first)  # its heartbeat: it runs as a remote app
        ann.type("0 done\r")
        await _until(lambda: a.state.n == 1)  # it answered: neither stopped nor killed by the keys
        assert process_state(pid) not in ("T", "t", "")
        os.kill(pid, signal.SIGSTOP)  # a hung app is ended and its seat freed
        await ann.expect(r"this session was ended: its app was stopped", 20)
        await _until(lambda: not host.children and a.slots[0].conn is None, 10)
    finally:
        ann.close()


@pytest.mark.parametrize(("program", "client"), [("seatapp", "client"), ("lobbyapp", "lobbyclient")])
def test_a_session_program_ends_with_its_app_whatever_thread_the_app_left(program: str, client: str) -> None:
    """Python waits for every thread before it exits; a session's program does not (a Textual input
    thread left spinning on a hung-up terminal kept an orphaned session app alive at a third of a core)."""
    script = f"""
import runpy, sys, threading
import mqtui.net.{client} as client

def run(args, factory):
    threading.Thread(target=threading.Event().wait).start()  # not a daemon, and it never ends
    print("app ended", flush=True)
    return 7

client.run = run
sys.argv = ["{program}", "--fd", "0"]
runpy.run_module("mqtui.cli.{program}", run_name="__main__")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (7, "app ended\n"), done.stderr
