"""The fork server: session apps forked from one pre-imported parent behave as freshly started ones."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from mqtui.net.forkserver import ForkServer, spawn_forked


@pytest.fixture
async def forks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    server = ForkServer()
    await server.start()
    try:
        yield server
    finally:
        await server.close()
        assert server.proc is not None and server.proc.returncode is not None  # it went with its host


async def _read_all(master: int, proc: object, timeout: float = 30.0) -> bytes:
    loop = asyncio.get_running_loop()
    out = bytearray()
    end = loop.time() + timeout
    while loop.time() < end:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            await asyncio.sleep(0.02)
            continue
        except OSError:  # the app closed its terminal
            break
        if not data:
            break
        out += data
    return bytes(out)


async def test_a_forked_app_has_its_own_terminal_and_exit_code(forks: ForkServer) -> None:
    ours, theirs = socket.socketpair()
    ours.close()  # nobody answers: the app says why on its terminal and ends with code 2
    env = {"PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color", "MQTUI_NET_APP": "standin"}
    argv = [
        "python",
        "-m",
        "mqtui.net.client",
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
    out = await _read_all(child.master, child.proc)
    assert await asyncio.wait_for(child.proc.wait(), 30) == 2
    assert b"could not join the game" in out
    os.close(child.master)


async def test_a_forked_app_that_hangs_is_ended_by_a_signal(forks: ForkServer) -> None:
    ours, theirs = socket.socketpair()  # we never answer its hello: it waits
    env = {"PATH": os.environ.get("PATH", ""), "TERM": "xterm-256color"}
    argv = ["python", "-m", "mqtui.net.client", "--fd", str(theirs.fileno()), "--app", "standin"]
    child = await spawn_forked(forks, argv, env, (80, 24, 0, 0), theirs.fileno())
    theirs.close()
    try:
        await asyncio.wait_for(asyncio.get_running_loop().sock_recv(ours, 1), 30)  # its hello: it runs
        child.proc.kill()
        assert await asyncio.wait_for(child.proc.wait(), 10) == -9
    finally:
        ours.close()
        os.close(child.master)
