"""``mqtui admin`` against a host with real OpenSSH sessions: list, broadcast, kick, ban (kept across a
restart) and unban, over a socket only the host's user can open."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from ssh_helpers import SSH_OPTS, SharedForks, Term, needs_ssh, quick, ssh_term
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

    def ssh(host: SSHHost, seat: str, source: str, *extra: str) -> Term:
        term = ssh_term(host.port, f"code-{a.codes_for(seat)[0]}", "-b", source, *extra)
        terms.append(term)
        return term

    try:
        host = await start()
        assert sock.stat().st_mode & 0o777 == 0o600
        ann, bob = (
            ssh(host, "0", "127.0.0.1"),
            ssh(host, "1", "127.0.0.2"),
        )
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
        # kick Bob: his session ends, in words on his terminal (the app's screen left); Ann plays on
        assert (await request(sock, {"cmd": "kick", "id": bob_session["id"], "why": "be nice"}))["ok"]
        await bob.expect(r"mqtui: be nice")
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


PROM_LINE = re.compile(r'^(mqtui_[a-z_]+)(?:\{[a-z]+="[^"]*"\})? -?[0-9.e+]+$')


async def admin(env: dict[str, str], sock: Path, *args: str) -> str:
    """``mqtui admin --socket SOCK ARGS``, the command itself: what it prints (it must succeed)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mqtui", "admin", "--socket", str(sock), *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
    )  # fmt: skip
    out = (await asyncio.wait_for(proc.communicate(), 60))[0].decode()
    assert proc.returncode == 0, out
    return out


async def http_get(port: int, path: str) -> tuple[str, str]:
    """A plain HTTP GET on loopback: (the head, the body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    answer = (await asyncio.wait_for(reader.read(), 30)).decode()
    writer.close()
    head, _, body = answer.partition("\r\n\r\n")
    return head, body


async def test_the_motd_the_figures_and_closing_a_table_on_a_served_game_whose_log_is_rotated(
    tmp_path: Path, short_dir: Path
) -> None:
    from ssh_helpers import serve_process

    from mqtui.net import persist

    sock, motd, logfile = short_dir / "admin.sock", tmp_path / "motd.txt", tmp_path / "host.log"
    motd.write_text("Welcome to the test dungeon\nBe kind \x1b[31mto each other\n")
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), MQTUI_NET_APP="standin")
    save = tmp_path / "game.mqsave"
    proc, port, codes = await serve_process(
        env, "--new", "Ann,Bob", "--save", str(save), "--admin-socket", str(sock), "--motd", str(motd),
        "--log-file", str(logfile), "--log-max-bytes", "400", "--log-backups", "2", "--linger", "0",
        "--metrics", "0",
    )  # fmt: skip
    terms: list[Term] = []
    logged = "".join(path.read_text() for path in tmp_path.glob("host.log*"))  # (still its first lines)
    metrics_port = int(re.search(r"figures on http://127\.0\.0\.1:(\d+)/metrics", logged).group(1))  # type: ignore[union-attr]

    def ssh(user: str, *extra: str) -> Term:
        terms.append(ssh_term(port, user, *extra))
        return terms[-1]

    try:
        # the message of the day, at sign-in (its escape sequence taken out)
        ann = ssh(f"code-{codes['0']}")
        await ann.expect(r"Welcome to the test dungeon\s+Be kind to each other")
        assert "\x1b[31m" not in bytes(ann.raw).decode("utf-8", "replace")
        await ann.expect(r"seat 0 Ann - state 0 ")
        assert "New rules" in await admin(env, sock, "motd", "New rules today")
        assert motd.read_text() == "New rules today\n"  # kept in its file
        bob = ssh(f"code-{codes['1']}")
        await bob.expect(r"New rules today")
        m = await bob.expect(r"seat 1 Bob - state 0 - (\w+) decides")
        # one action (its round trip is a figure), one wrong code (a refusal)
        decider = ann if m.group(1) == "Ann" else bob
        decider.type("1\r")
        for term in (ann, bob):
            await term.expect(r"state 1 ")
        # (OpenSSH at its default LogLevel, not the tests' ERROR: it shows the sign-in banner)
        i = SSH_OPTS.index("LogLevel=ERROR")
        opts = SSH_OPTS[: i - 1] + SSH_OPTS[i + 1 :]  # (without its "-o")
        wrong = Term(["ssh", "-tt", "-p", str(port), *opts, "-o", "PreferredAuthentications=keyboard-interactive",
                      "code-ZZZZZZ@127.0.0.1"])  # fmt: skip
        terms.append(wrong)
        await wrong.expect(r"New rules today\s[\s\S]*Join code: ")
        wrong.close()
        # the figures: Prometheus' text format, and JSON
        text = await admin(env, sock, "health")
        names = set(re.findall(r"^# TYPE (\S+) ", text, re.M))
        for line in text.splitlines():
            if not line.startswith("#"):
                found = re.match(r"^(mqtui_[a-z_]+?)(_bucket\{|_sum |_count )", line) or PROM_LINE.match(line)
                assert found, line
                assert found.group(1) in names, f"{line}: no TYPE"
        assert 'mqtui_sessions{kind="player"} 2' in text and "mqtui_tables 1" in text
        assert 'mqtui_refusals_total{reason="wrong_code"} 1' in text
        assert "mqtui_action_round_trip_seconds_count 1" in text
        assert 'mqtui_action_round_trip_seconds_bucket{le="+Inf"} 1' in text
        # the same over HTTP, for a scraper
        head, body = await http_get(metrics_port, "/metrics")
        assert head.startswith("HTTP/1.1 200 ") and "text/plain; version=0.0.4" in head
        assert 'mqtui_sessions{kind="player"} 2' in body and "mqtui_tables 1" in body
        head, body = await http_get(metrics_port, "/health")
        assert json.loads(body)["tables"] == 1
        assert (await http_get(metrics_port, "/admin"))[0].startswith("HTTP/1.1 404 ")
        figures = json.loads(await admin(env, sock, "--json", "health"))
        assert figures["sessions"] == {"player": 2} and figures["save_failures"] == 0
        assert figures["action_round_trip"]["count"] == 1 and figures["action_round_trip"]["p50"] > 0
        assert figures["uptime_seconds"] > 0
        # closing the table: both players read why, the game is saved, and this one-table host stops
        (table,) = json.loads(await admin(env, sock, "--json", "list"))["tables"]
        await admin(env, sock, "close", table["id"], "--why", "maintenance")
        for term in (ann, bob):
            await term.expect(r"the host closed this table; the game is saved \(maintenance\)")
        assert await asyncio.wait_for(proc.wait(), 60) == 0
        game, _, _ = persist.open_game(save)
        assert len(game.actions) == 1
    finally:
        for term in terms:
            term.close()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    # the log: rotated (at most 2 old files), one line per event, 0600, and no join code in it
    logs = sorted(tmp_path.glob("host.log*"))
    text = "".join(path.read_text() for path in logs)
    assert logfile in logs and logfile.with_name("host.log.1") in logs and len(logs) <= 3, text
    assert all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ", line) for line in text.splitlines())
    assert "closing table" in text
    assert not any(code in text for code in codes.values())
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in logs)


async def test_closing_a_lobby_table_ends_it_for_good_and_the_host_goes_on(tmp_path: Path) -> None:
    from mqtui.net import lobbyproto as lp
    from mqtui.net.identity import Claim
    from mqtui.net.lobby import LobbyHost
    from mqtui.net.tables import Tables

    tables = Tables(tmp_path / "tables", TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0))
    await tables.load_all()
    host = LobbyHost(None, tables=tables, name="Here")
    admin_server = AdminServer(host, tmp_path / "unused.sock")  # (answered directly: no socket)
    try:
        made = await host.answer(lp.Create(name="Ann", others=[lp.OPEN]), Claim(None, "visitor:ann", "lobby"))
        assert not isinstance(made, lp.Tables)
        tid = made[0].game.game
        assert await admin_server.answer({"cmd": "close", "table": tid, "why": "test"}) == {"ok": True}
        assert tid not in tables.tables
        assert (tmp_path / "tables" / "ended" / f"{tid}.mqsave").exists()  # mqtui load still reads it
        wrong = await admin_server.answer({"cmd": "close", "table": tid})
        assert wrong == {"ok": False, "error": f"there is no table {tid}"}
    finally:
        await tables.close()
