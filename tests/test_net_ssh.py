"""Real OpenSSH clients against the served game: seats, turns, secrecy, refusals, drops, restarts.

Each test runs the authority and the SSH server in the test's event loop on a random loopback port and
drives ``ssh -tt`` in a pseudo-terminal of its own, reading the very bytes the player's terminal gets.
The sessions run the plain stand-in app (``MQTUI_NET_APP=standin``) so that the typed commands and the
texts looked for do not depend on the full app's layout.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from secrets_helpers import public_names, secret_names
from ssh_helpers import SSH_OPTS, SharedForks, Term, needs_ssh, quick, serve_process, ssh_term, write_key
from ssh_helpers import fork_server as fork_server  # the fixture, for this module
from waiting import wait_until as _until

from mqtui import saves
from mqtui.engine.actions import to_text
from mqtui.engine.game import Engine
from mqtui.net import persist
from mqtui.net.authority import Authority
from mqtui.net.forkserver import ForkServer
from mqtui.net.identity import KeyTable
from mqtui.net.sshserver import ENCRYPTION_ALGS, SSHHost
from mqtui.net.table import TableConfig, parse_new_spec, safe_choice

pytestmark = [
    needs_ssh,
    pytest.mark.slow,  # real ssh processes and servers: seconds each
]


@dataclass
class Server:
    authority: Authority
    host: SSHHost
    port: int
    key0: Path  # listed in the keys file for seat 0
    stranger: Path  # not listed
    tmp: Path
    terms: list[Term]

    def ssh(self, user: str, *extra: str, key: Path | None = None, size: tuple[int, int] = (150, 45)) -> Term:
        term = ssh_term(self.port, user, *extra, key=key, size=size)
        self.terms.append(term)
        return term

    def code(self, spec: str) -> str:
        return self.authority.codes_for(spec)[0]


async def _start(
    engine: Engine, tmp: Path, forks: ForkServer | None = None, saved: persist.ServedGame | None = None
) -> tuple[Authority, SSHHost]:
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    keys = KeyTable(tmp / "players.keys")
    if saved is None:
        a = Authority.new(engine, parse_new_spec("2"), 21, tmp / "game.mqsave", config, keys)
    else:
        a = Authority(engine, saved, tmp / "game.mqsave", config, keys)
    await a.start()
    host = SSHHost(a, app="standin", limits=quick(), forks=forks)  # forked apps, as a real host's
    await host.listen("127.0.0.1", 0, tmp / "ssh_host_key")
    return a, host


@pytest.fixture
async def server(
    engine: Engine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fork_server: tuple[subprocess.Popen[bytes], socket.socket],
) -> AsyncIterator[Server]:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    key0 = write_key(tmp_path / "ann_key")
    write_key(tmp_path / "stranger_key")
    (tmp_path / "players.keys").write_text(f"0 {key0.export_public_key().decode().strip()} ann@test\n")
    a, host = await _start(engine, tmp_path, SharedForks(*fork_server))
    srv = Server(a, host, host.port, tmp_path / "ann_key", tmp_path / "stranger_key", tmp_path, [])
    try:
        yield srv
    finally:
        for term in srv.terms:
            term.close()
        await srv.host.close()
        await srv.authority.close()


async def test_two_players_play_over_ssh_and_see_only_their_own_hands(server: Server) -> None:
    a = server.authority
    ann = server.ssh("ann", key=server.key0)
    bob = server.ssh(f"code-{server.code('1')}")
    await ann.expect(r"seat 0 Ann")
    await bob.expect(r"seat 1 Bob")
    terms = (ann, bob)
    public: list[set[str]] = [set(), set()]
    start_active, turns_seen, checked = a.state.active, set(), 0

    def checksecret_names() -> int:
        """Nothing another seat holds, and this seat never saw, is in its terminal's bytes so far."""
        found = 0
        for seat, term in enumerate(terms):
            public[seat] |= public_names(a, seat)
            secrets = secret_names(a, seat, public[seat])
            text, raw = term.text(), bytes(term.raw).decode("utf-8", "replace")
            leaked = {s for s in secrets if s in text or s in raw}
            assert not leaked, f"seat {seat}'s terminal showed another player's cards: {leaked}"
            found += len(secrets)
        return found

    for _ in range(10):
        who = a.engine.deciding(a.state)
        n = a.state.n
        action = safe_choice(a.engine.legal(a.state, who))
        terms[who].type(to_text(action) + "\r")
        await _until(lambda n=n: a.state.n > n)
        turns_seen.add(a.state.active)
        for term in terms:  # the change reaches both terminals
            await term.expect(rf"state {a.state.n} ")
        checked += checksecret_names()
    assert len(turns_seen | {start_active}) == 2, "both players had a turn"
    assert checked > 20, "there were hidden cards to look for"
    for seat, term in enumerate(terms):
        own = {a.engine.cards.names[u] for u in a.state.heroes[seat].hand}
        assert not own or any(name in term.text() for name in own), "the check can see a hand"
    # a refused action shows its reason in the player's own terminal
    who = a.engine.deciding(a.state)
    other = 1 - who
    terms[other].type(f"{other} done\r")
    await terms[other].expect(r"refused: .*decision")
    # the window size follows the client's
    ann.resize(120, 35)
    await ann.expect(r"size 120x35")


async def test_a_wrong_key_or_no_terminal_is_refused(server: Server) -> None:
    argv = ["ssh", "-p", str(server.port), *SSH_OPTS, "-o", "BatchMode=yes"]
    proc = await asyncio.create_subprocess_exec(
        *argv,
        "-i",
        str(server.stranger),
        "-o",
        "IdentitiesOnly=yes",
        "ann@127.0.0.1",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 255 and b"Permission denied" in out
    proc = await asyncio.create_subprocess_exec(
        *argv,
        "-T",
        f"code-{server.code('1')}@127.0.0.1",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 1 and b"needs a terminal" in out
    assert all(s.conn is None for s in server.authority.slots)


async def test_the_server_offers_aes_ciphers_only_and_openssh_picks_one(server: Server) -> None:
    """chacha20-poly1305 costs the host about five times AES's CPU per packet in asyncssh (see
    ENCRYPTION_ALGS); OpenSSH's default client still connects, with an AES cipher."""

    async def ssh(*extra: str) -> bytes:
        proc = await asyncio.create_subprocess_exec(
            "ssh", "-v", "-T", "-p", str(server.port), *SSH_OPTS, "-o", "BatchMode=yes",
            "-i", str(server.stranger), "-o", "IdentitiesOnly=yes", *extra, "ann@127.0.0.1",
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        out, _ = await asyncio.wait_for(proc.communicate(), 20)
        return out

    out = await ssh()
    chosen = re.findall(rb"kex: server->client cipher: (\S+)", out)
    assert chosen and chosen[0] in {a.encode() for a in ENCRYPTION_ALGS}, out.decode("utf-8", "replace")
    assert b"Permission denied" in out, "(the key exchange was done; only the stranger's key is refused)"
    out = await ssh("-c", "chacha20-poly1305@openssh.com")
    assert b"no matching cipher found" in out, out.decode("utf-8", "replace")


async def test_a_dropped_player_reconnects_to_their_seat(server: Server) -> None:
    a = server.authority
    # the table code: pick a seat from the menu
    bob = server.ssh(f"code-{server.code('any')}")
    await bob.expect(r"pick a seat")
    bob.type("1\r")
    await bob.expect(r"seat 1 Bob")
    hand = [a.engine.cards.names[u] for u in a.state.heroes[1].hand]
    await _until(lambda: a.slots[1].conn is not None)
    bob.proc.kill()  # the connection drops
    await _until(lambda: a.slots[1].conn is None)
    await _until(lambda: not server.host.children, 10)  # the session's app went with it
    # back with the code typed at the prompt, seat and hand as they were
    again = server.ssh("bob", "-o", "PreferredAuthentications=keyboard-interactive")
    await again.expect(r"Join code:")
    again.type(server.code("1") + "\r")
    await again.expect(r"seat 1 Bob")
    await again.expect(re.escape(hand[0]) if hand else r"no cards")


async def test_the_server_restarts_from_its_autosave(
    server: Server, engine: Engine, fork_server: tuple[subprocess.Popen[bytes], socket.socket]
) -> None:
    a = server.authority
    ann = server.ssh("ann", key=server.key0)
    await ann.expect(r"seat 0 Ann")
    ann.type("0 done\r")
    await _until(lambda: a.state.n == 1)
    await ann.expect(r"state 1 ")
    await a.close()  # says goodbye and saves, as a stop by SIGINT/SIGTERM does
    await server.host.close()
    await ann.wait()
    saved, _ = persist.load(server.tmp / "game.mqsave")
    assert saved.state.n == 1
    b, host = await _start(engine, server.tmp, SharedForks(*fork_server), saved)
    server.authority, server.host, server.port = b, host, host.port
    ann = server.ssh("ann", key=server.key0)
    await ann.expect(r"seat 0 Ann - state 1 ")


async def test_killing_a_players_app_ends_their_session_and_harms_nothing(server: Server) -> None:
    a = server.authority
    ann = server.ssh("ann", key=server.key0)
    await ann.expect(r"seat 0 Ann")
    ann.type("0 done\r")
    await _until(lambda: a.state.n == 1)
    (pid,) = server.host.children
    os.kill(pid, signal.SIGKILL)
    assert await ann.wait() != 0  # the session ends with the app
    await _until(lambda: a.slots[0].conn is None)
    assert a.saver is not None and a.saver.flush()
    data = saves.load(server.tmp / "game.mqsave", a.engine, check_log=True)
    assert data.state.n == 1
    again = server.ssh("ann", key=server.key0)
    await again.expect(r"seat 0 Ann - state 1 ")


async def test_the_full_app_runs_over_ssh_with_only_the_players_hand(server: Server) -> None:
    os.environ["MQTUI_NET_APP"] = "auto"  # monkeypatched by the fixture: restored after the test
    server.host.app = "auto"
    a = server.authority
    ann = server.ssh("ann", key=server.key0, size=(160, 50))
    names = a.engine.cards.names
    own = [names[u] for u in a.state.heroes[0].hand]
    await ann.expect("|".join(re.escape(n) for n in own), 30)
    # a round trip, not a pause: the help screen answers a key typed after the first screen showed,
    # so by the time it is in, every byte that screen drew is in too
    ann.type("?")
    await ann.expect(r"Esc close", 30)
    public = public_names(a, 0)
    secrets = secret_names(a, 0, public)
    assert secrets
    leaked = {x for x in secrets if x in ann.text()}
    assert not leaked, leaked


async def test_the_serve_command_saves_on_a_signal_and_resumes_with_load(tmp_path: Path) -> None:
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), MQTUI_NET_APP="standin")
    save = tmp_path / "table.mqsave"

    async def serve(*args: str) -> tuple[asyncio.subprocess.Process, int, dict[str, str]]:
        # --linger 0: the apps the server ends leave its words up for no one to read (still shown);
        # --no-fork: one session each, started afresh (serve's fork server: test_serve_upgrade)
        return await serve_process(env, *args, "--linger", "0", "--no-fork")

    proc, port, codes = await serve("--new", "Ann,Bob", "--seed", "5", "--save", str(save))
    ann = ssh_term(port, f"code-{codes['0']}")
    try:
        await ann.expect(r"seat 0 Ann - state 0 ")
        ann.type("0 done\r")
        await ann.expect(r"state 1 ")
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
        await ann.wait()
    finally:
        ann.close()
    game, _ = persist.load(save)
    assert game.state.n == 1
    proc, port, again = await serve("--load", str(save))
    assert again == codes  # the same join codes after a restart
    ann = ssh_term(port, f"code-{codes['0']}")
    try:
        await ann.expect(r"seat 0 Ann - state 1 ")
    finally:
        ann.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0


async def test_a_mixed_table_the_host_plays_in_the_servers_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), MQTUI_NET_APP="standin", TERM="xterm-256color")
    save = tmp_path / "mixed.mqsave"
    argv = [sys.executable, "-m", "mqtui", "serve", "--port", "0", "--new", "Ann,Bob", "--local-seat", "0"]
    argv.append("--no-fork")  # Bob's one session started afresh (serve's fork server: test_serve_upgrade)
    host = Term([*argv, "--save", str(save)], env=env)
    try:
        port = int((await host.expect(r"SSH on 127.0.0.1:(\d+)")).group(1))
        code1 = (await host.expect(r"seat 1 .*code-(\w+)@")).group(1)
        await host.expect(r"seat 0 Ann - state 0 ")
        bob = ssh_term(port, f"code-{code1}")
        try:
            await bob.expect(r"seat 1 Bob - state 0 ")
            host.type("0 done\r")
            await bob.expect(r"state 1 - Bob decides")
            bob.type("1 done\r")
            await host.expect(r"state 2 ")
        finally:
            bob.close()
        host.type("\x11")  # ctrl+q: the host quits, which stops the server
        assert await host.wait(20) == 0
    finally:
        host.close()
    game, _ = persist.load(save)
    assert game.state.n == 2
    assert "the host's terminal takes seat 0" in save.with_suffix(".log").read_text()
    for secret in (save, persist.sidecar_path(save), save.with_suffix(".log")):  # join codes, hands
        assert secret.stat().st_mode & 0o777 == 0o600, secret
