"""``mqtui admin`` against a host with real OpenSSH sessions: list, broadcast, kick, ban (kept across a
restart) and unban, over a socket only the host's user can open."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from ssh_helpers import SharedForks, Term, needs_ssh, quick, ssh_term
from ssh_helpers import fork_server as fork_server  # the fixtures, for this module
from ssh_helpers import forks as forks
from waiting import wait_until as _until

from mqtui.engine.game import Engine
from mqtui.net.admin import AdminServer, request
from mqtui.net.authority import Authority
from mqtui.net.identity import KeyTable
from mqtui.net.sshserver import SSHHost
from mqtui.net.table import TableConfig, parse_new_spec

pytestmark = [needs_ssh, pytest.mark.slow]


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (a Unix socket's path is at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="mqadm", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def test_admin_lists_tells_kicks_and_bans_and_the_ban_outlives_a_restart(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: SharedForks, short_dir: Path
) -> None:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(engine, parse_new_spec("Ann,Bob"), 21, tmp_path / "t.mqsave", config, KeyTable(None))
    await a.start()
    sock, bans = short_dir / "admin.sock", tmp_path / "bans.json"
    terms: list[Term] = []
    hosts: list[tuple[SSHHost, AdminServer]] = []

    async def start() -> SSHHost:
        host = SSHHost(a, app="standin", limits=quick(), forks=forks)
        host.gate.keep_bans_in(bans)
        await host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
        admin = AdminServer(host, sock)
        await admin.start()
        hosts.append((host, admin))
        return host

    def ssh(host: SSHHost, seat: str, source: str) -> Term:
        term = ssh_term(host.port, f"code-{a.codes_for(seat)[0]}", "-b", source)
        terms.append(term)
        return term

    try:
        host = await start()
        assert sock.stat().st_mode & 0o777 == 0o600
        ann, bob = ssh(host, "0", "127.0.0.1"), ssh(host, "1", "127.0.0.2")
        await ann.expect(r"seat 0 Ann - state 0 ")
        await bob.expect(r"seat 1 Bob - state 0 ")
        # list, with the command itself
        env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"))
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "mqtui", "admin", "--socket", str(sock), "list",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
        )  # fmt: skip
        out = (await asyncio.wait_for(proc.communicate(), 60))[0].decode()
        assert proc.returncode == 0, out
        assert f"table {a.game.game}" in out and "0 Ann (here)" in out and "1 Bob (here)" in out
        assert "127.0.0.2" in out and "a join code" in out
        assert not any(code in out for code in a.game.codes)  # codes are never listed
        listing = await request(sock, {"cmd": "list"})
        (bob_session,) = [s for s in listing["sessions"] if s["addr"] == "127.0.0.2"]
        assert (bob_session["table"], bob_session["seat"]) == (a.game.game, 1)
        # a message to the table: in both players' logs
        said = await request(sock, {"cmd": "say", "text": "Server restarts at 22:00"})
        assert said == {"ok": True, "reached": 2}
        for term in (ann, bob):
            await term.expect(r"Message from the host: Server restarts at 22:00")
        # kick Bob: his session ends, in words; Ann plays on
        assert (await request(sock, {"cmd": "kick", "id": bob_session["id"], "why": "be nice"}))["ok"]
        # (the reason goes out as the SSH disconnect's; OpenSSH prints it as it closes, but this
        # terminal does not always keep it on screen: the session's end is what is checked)
        assert await bob.wait(30) != 0
        await _until(lambda: a.slots[1].conn is None)
        # ban Bob's address: he cannot come back, and Ann is not touched
        banned = await request(sock, {"cmd": "ban", "what": "127.0.0.2", "note": "test"})
        assert banned["ok"] and banned["ban"] == "127.0.0.2"
        again = ssh(host, "1", "127.0.0.2")
        await again.expect(r"your address is banned from this server")
        assert await again.wait(30) != 0
        assert a.slots[0].conn is not None
        # a restart keeps the ban
        for h, admin in hosts:
            await admin.close()
            await h.close()
        hosts.clear()
        host = await start()
        late = ssh(host, "1", "127.0.0.2")
        await late.expect(r"your address is banned from this server")
        assert bans.stat().st_mode & 0o777 == 0o600
        assert (await request(sock, {"cmd": "unban", "what": "127.0.0.2"}))["ok"]
        back = ssh(host, "1", "127.0.0.2")
        await back.expect(r"seat 1 Bob - state 0 ")
        # a range and a key are bans too; nonsense is refused in words
        assert (await request(sock, {"cmd": "ban", "what": "10.1.2.3/16"}))["ban"] == "10.1.0.0/16"
        assert host.gate.banned("10.1.200.7") == "10.1.0.0/16" and not host.gate.banned("10.2.0.1")
        wrong = await request(sock, {"cmd": "ban", "what": "bob"})
        assert not wrong["ok"] and "neither an address" in wrong["error"]
    finally:
        for term in terms:
            term.close()
        for h, admin in hosts:
            await admin.close()
            await h.close()
        await a.close()
