"""A host of many tables: the lobby over real OpenSSH clients, and the tables' life (create, save, restart, end).

The SSH tests run the lobby host in the test's event loop on a random loopback port and drive ``ssh -tt``
in pseudo-terminals (the driver of ``test_net_ssh``), with their own ``TERM`` and ``HOME``. Seated
sessions run the plain stand-in app so that the texts looked for do not depend on the full app's layout;
the lobby itself is the real Textual lobby screen.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from ssh_helpers import ANSI, SSH_OPTS, SharedForks, Term, needs_ssh, quick, write_key
from ssh_helpers import fork_server as fork_server  # the fixture, for this module
from waiting import wait_until as _until

from mqtui.engine.actions import to_text
from mqtui.engine.state import STAGE_OVER
from mqtui.net import lobbyproto as lp
from mqtui.net import persist
from mqtui.net.forkserver import ForkServer
from mqtui.net.identity import SPECTATOR, Claim
from mqtui.net.limits import PLAYER, VISITOR, WATCHER, Limits, Ticket
from mqtui.net.limits import SPECTATOR as WATCHING
from mqtui.net.lobby import LobbyHost, Visit, seats_for
from mqtui.net.table import TableConfig, safe_choice
from mqtui.net.tables import Tables


@dataclass
class Lobby:
    host: LobbyHost
    tmp: Path
    env: dict[str, str]
    terms: list[Term]

    @property
    def tables(self) -> Tables:
        return self.host.tables

    def ssh(self, key: Path | None = None, user: str = "visitor") -> Term:
        argv = ["ssh", "-tt", "-p", str(self.host.port), *SSH_OPTS]
        if key is not None:
            argv += ["-i", str(key), "-o", "IdentitiesOnly=yes", "-o", "PreferredAuthentications=publickey"]
        else:
            argv += ["-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=keyboard-interactive"]
        term = Term([*argv, f"{user}@127.0.0.1"], (100, 30), env=self.env)
        self.terms.append(term)
        return term


def _since(term: Term, mark: int) -> str:
    """What the terminal showed after ``mark`` bytes."""
    return ANSI.sub(b"", bytes(term.raw[mark:])).decode("utf-8", "replace")


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _config() -> TableConfig:
    return TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)


async def _open_host(tmp: Path, forks: ForkServer | None = None) -> LobbyHost:
    tables = Tables(tmp / "tables", _config())
    assert await tables.load_all() == []
    await tables.start()
    # the lobby apps look at the list often: a new table shows in a tenth of a second, not two
    host = LobbyHost(None, app="standin", tables=tables, name="Test host", limits=quick(lobby_refresh=0.1))
    await host.listen("127.0.0.1", 0, tmp / "ssh_host_key")
    host.forks = forks  # session apps forked from the (worker's) pre-imported fork server
    return host


async def _close_host(host: LobbyHost) -> None:
    await host.tables.close()
    await host.close()


@pytest.fixture
async def lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> AsyncIterator[Lobby]:
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("HOME", str(home))
    forks = SharedForks(*request.getfixturevalue("fork_server")) if "forks" in request.keywords else None
    srv = Lobby(await _open_host(tmp_path, forks), tmp_path, env, [])
    try:
        yield srv
    finally:
        for term in srv.terms:
            term.close()
        await _close_host(srv.host)


@needs_ssh
@pytest.mark.slow
@pytest.mark.forks
async def test_two_visitors_make_and_join_a_table_from_the_lobby_play_a_round_and_a_third_watches(
    lobby: Lobby,
) -> None:
    ann_key = lobby.tmp / "ann_key"
    write_key(ann_key)
    ann = lobby.ssh(key=ann_key)  # any key opens the lobby
    await ann.expect(r"mqtui lobby - Test host - 0 tables", 30)
    bob = lobby.ssh()  # no key: Enter at the prompt opens the lobby
    await bob.expect(r"Join code \(or Enter\)")
    bob.type("\r")
    await bob.expect(r"mqtui lobby - Test host", 30)

    ann.type("n")
    await ann.expect(r"New table - you sit at seat 0")
    await ann.expect(r"Tab: next")  # the form is up, its name field has the keys
    ann.type("Ann\r")  # the defaults: Ann, and one open seat
    await ann.expect(r"seat 0 Ann - state 0 ", 30)
    (tid,) = lobby.tables.tables
    a = lobby.tables.tables[tid]
    assert [s.name for s in a.slots] == ["Ann", "Bob"]

    await bob.expect(rf"{tid}.*Ann, Bob", 15)  # the lobby's list shows the new table
    await bob.expect(r"open seat")
    bob.type("\r")  # Enter on the table: its only open seat
    await bob.expect(r"come back to this seat later: ssh -p \d+ code-(\w+)@127\.0\.0\.1", 30)
    await bob.expect(r"seat 1 Bob - state 0 ", 30)
    await _until(lambda: a.slots[1].conn is not None)
    forks = lobby.host.forks
    assert forks is not None and forks.proc is not None and len(lobby.host.children) == 2
    assert {_parent(pid) for pid in lobby.host.children} == {forks.proc.pid}  # forked, not started afresh

    cy = lobby.ssh()
    await cy.expect(r"Join code \(or Enter\)")
    cy.type("\r")
    await cy.expect(rf"{tid}.*Ann, Bob", 30)
    await cy.expect(r"watching: 0")
    cy.type("w")
    await cy.expect(r"spectator - state \d+ ", 30)
    await _until(lambda: len(a.spectators) == 1)
    assert len(lobby.host.views) == 1, "Cy watches the table's shared view (mqtui.net.watchers)"

    # a round: every decision typed by the player whose decision it is; all three screens follow
    terms = (ann, bob)
    start = a.state.round
    for _ in range(80):
        if a.state.round > start:
            break
        who = a.engine.deciding(a.state)
        n = a.state.n
        terms[who].type(to_text(safe_choice(a.engine.legal(a.state, who))) + "\r")
        await _until(lambda n=n: a.state.n > n)
        for term in (ann, bob, cy):
            await term.expect(rf"state {a.state.n} ")
    assert a.state.round > start, "a whole round was played"
    assert a.saver is not None and a.saver.flush()

    # the table is in the lobby's list as others see it: two players here, one watching
    listing = lobby.tables.infos()
    assert [(t.id, t.open, t.spectators) for t in listing] == [(tid, [], 1)]
    assert [s.status for s in listing[0].seats] == ["here", "here"]
    mark = len(cy.raw)
    cy.type("q")  # Cy leaves the shared view: back in the lobby
    await _until(lambda: "watching: " in _since(cy, mark), 30)

    # Bob leaves the table (ctrl+q): back in the lobby, where q ends his session
    mark = len(bob.raw)
    bob.type("\x11")
    await _until(lambda: a.slots[1].conn is None)
    await _until(lambda: "mqtui lobby - Test host" in _since(bob, mark), 30)
    bob.type("q")
    assert await bob.wait(30) == 0


@needs_ssh
@pytest.mark.slow
async def test_tables_come_back_after_a_restart_and_a_known_key_goes_straight_to_its_seat(
    lobby: Lobby, fork_server: tuple[subprocess.Popen[bytes], socket.socket]
) -> None:
    # (the lobby's app started afresh, as with --no-fork; after the restart, the seat's app forked)
    key = lobby.tmp / "dan_key"
    write_key(key)
    dan = lobby.ssh(key=key)
    await dan.expect(r"mqtui lobby", 30)
    dan.type("n")
    await dan.expect(r"Tab: next")  # the form is up, its name field has the keys
    dan.type("Dan\t")
    dan.type("\x1b[C")  # seat 1: from "open seat" to the first computer level
    await dan.expect(r"seat 1: < computer, ")
    dan.type("\r")
    await dan.expect(r"seat 0 Dan - state \d+ ", 30)
    (tid,) = lobby.tables.tables
    a = lobby.tables.tables[tid]
    assert a.slots[1].kind != "human"
    dan.type("0 done\r")
    await _until(lambda: a.state.n >= 1)
    await _close_host(lobby.host)  # as Ctrl+C does: every table saved
    n = a.state.n  # the computer may play on until its table closes
    await dan.wait()

    lobby.host = await _open_host(lobby.tmp, SharedForks(*fork_server))
    b = lobby.tables.tables[tid]
    assert b.state.n == n and b.slots[0].owner.startswith("key:")
    again = lobby.ssh(key=key)  # the key owns seat 0 of that table: no lobby
    await again.expect(rf"seat 0 Dan - state {n} ", 30)


@needs_ssh
@pytest.mark.slow
@pytest.mark.forks
async def test_a_full_spectator_list_at_a_lobby_table_blocks_no_seat(lobby: Lobby) -> None:
    lobby.host.limits.max_watchers = 1  # the host's gate reads these limits
    a = await lobby.tables.create(seats_for(lp.Create(name="Ann", others=[lp.OPEN])), 5, [])
    tid = a.game.game
    cy = lobby.ssh(user=f"code-{a.codes_for('watch')[0]}")  # the table's watch code: its one spectator
    await cy.expect(r"spectator - state 0 ", 30)
    await _until(lambda: len(a.spectators) == 1)
    ann = lobby.ssh(user=f"code-{a.codes_for('0')[0]}")  # a seat code still gets in
    await ann.expect(r"seat 0 Ann - state 0 ", 30)

    dee = lobby.ssh()
    await dee.expect(r"Join code \(or Enter\)")
    dee.type("\r")
    await dee.expect(rf"{tid}.*Ann", 30)
    await dee.expect(r"watching: 1")
    dee.type("w")  # a second spectator: refused in words, and Dee stays in the lobby
    await dee.expect(r"refused: this table already has 1 watchers", 15)
    assert len(a.spectators) == 1
    dee.type("\r")  # the table's open seat is still Dee's to take
    await dee.expect(r"seat 1 \w+ - state 0 ", 30)
    await _until(lambda: a.slots[1].conn is not None)
    assert +lobby.host.gate.kinds == Counter({PLAYER: 2, WATCHER: 1})  # (a watcher of the shared view)
    assert dict(lobby.host.gate.watching) == {(WATCHER, tid): 1}


# -- the tables' life, without SSH -------------------------------------------------------------------


async def test_a_created_table_is_saved_listed_and_ends_when_abandoned_or_finished(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "tables", _config(), idle=100.0, finished_keep=10.0)
    await tables.load_all()
    try:
        a = await tables.create(seats_for(lp.Create(name="Ann", others=[lp.OPEN, "random"])), 5, [])
        b = await tables.create(seats_for(lp.Create(name="Bo", others=[lp.OPEN])), 6, [])
        tables.take(a.game.game, 0, "visitor:ann", "test")  # the lobby seats a table's creator at seat 0
        info = {t.id: t for t in tables.infos()}[a.game.game]
        assert [s.name for s in info.seats] == ["Ann", "Bob", "Cy (random)"]
        assert info.open == [1] and info.seats[2].kind == "random"
        _, claim = tables.take(a.game.game, 1, "visitor:x", "test")
        assert claim.seat == 1 and {t.id: t.mine for t in tables.infos("visitor:x")}[a.game.game] == 1
        with pytest.raises(ValueError, match="not free"):
            tables.take(a.game.game, 1, "visitor:y", "test")
        _, watch = tables.take(a.game.game, SPECTATOR, "visitor:y", "test")
        assert watch.seat == SPECTATOR
        assert (tmp_path / "tables" / f"{a.game.game}.mqsave").exists()

        now = time.monotonic()
        assert await tables.reap(now + 50) == []  # quiet, but not for long enough
        b.state.stage = STAGE_OVER  # the game at b ended: it goes sooner
        gone = await tables.reap(now + 50)
        assert gone == [b.game.game]
        assert await tables.reap(now + 150) == [a.game.game]
        assert not tables.tables
        ended = tmp_path / "tables" / "ended"
        assert (ended / f"{a.game.game}.mqsave").exists() and (ended / f"{b.game.game}.mqsave.net").exists()
        assert not list((tmp_path / "tables").glob("*.mqsave"))
        # one address may keep two open tables at a time
        for seed in (1, 2):
            await tables.create(
                seats_for(lp.Create(name="Eve", others=[lp.OPEN])), seed, [], creator="10.0.0.9"
            )
        with pytest.raises(ValueError, match="already started 2 open tables"):
            await tables.create(seats_for(lp.Create(name="Eve", others=[lp.OPEN])), 3, [], creator="10.0.0.9")
        await tables.create(seats_for(lp.Create(name="Fay", others=[lp.OPEN])), 4, [], creator="10.0.0.10")
    finally:
        await tables.close()


def test_a_new_tables_request_is_checked() -> None:
    seats = seats_for(lp.Create(name="  Ann  Lee ", others=["hard", lp.OPEN]))
    assert [(s.name, s.kind) for s in seats] == [
        ("Ann Lee", "human"),
        ("Bob (hard)", "hard"),
        ("Cy", "human"),
    ]
    assert len({s.colour for s in seats}) == 3
    for bad in ([], [lp.OPEN] * 6, ["wizard"]):
        with pytest.raises(ValueError):
            seats_for(lp.Create(name="Ann", others=bad))
    assert seats_for(lp.Create(name="Bob", others=[lp.OPEN]))[1].name == "Ann"  # no two Bobs


async def test_a_tables_files_are_the_whole_table_it_moves_to_another_host_with_its_codes(
    tmp_path: Path,
) -> None:
    """Tables are independent: stop host A, move one table's files to host B's folder, start B."""
    first = Tables(tmp_path / "a", _config())
    await first.load_all()
    a = await first.create(seats_for(lp.Create(name="Ann", others=[lp.OPEN])), 9, [])
    first.take(a.game.game, 0, "key:SHA256:ann", "test")
    tid, codes, n = a.game.game, dict(a.game.codes), a.state.n
    await first.close()
    second = Tables(tmp_path / "b", _config())
    (tmp_path / "b").mkdir()
    for f in (tmp_path / "a").glob(f"{tid}.mqsave*"):
        f.replace(tmp_path / "b" / f.name)
    await second.load_all()
    try:
        b = second.tables[tid]
        assert b.game.codes == codes and b.state.n == n and b.slots[0].owner == "key:SHA256:ann"
        found = second.find_code(next(c for c, seat in codes.items() if seat == "1"))
        assert found is not None and found[0] is b and found[1].seat == 1
    finally:
        await second.close()


async def test_the_lobby_answers_a_list_a_new_table_a_seat_and_a_typed_code(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "tables", _config())
    await tables.load_all()
    host = LobbyHost(None, tables=tables, name="Here")
    ann = Claim(None, "visitor:ann", "lobby")
    try:
        listing = await host.answer(lp.ListTables(), ann)
        assert isinstance(listing, lp.Tables) and listing.host == "Here" and listing.tables == []
        assert "hard" in listing.levels
        made = await host.answer(lp.Create(name="Ann", others=[lp.OPEN, lp.OPEN]), ann, "10.0.0.1")
        assert not isinstance(made, lp.Tables)
        a, bound, seated = made
        assert (bound.seat, seated.seat, seated.name) == (0, 0, "Ann") and seated.code in a.game.codes
        # Bob takes seat 2 from the list; Cy types the table's "any free seat" code and gets seat 1
        taken = await host.answer(lp.Take(table=a.game.game, seat=2), Claim(None, "visitor:bob", "lobby"))
        assert not isinstance(taken, lp.Tables) and taken[1].seat == 2
        any_code = a.codes_for("any")[0]
        typed = await host.answer(
            lp.Code(code=f"code-{any_code.lower()}"), Claim(None, "visitor:cy", "lobby")
        )
        assert not isinstance(typed, lp.Tables) and typed[1].seat == 1
        for request, why in (
            (lp.Take(table=a.game.game, seat=1), "not free"),
            (lp.Take(table="nosuch", seat=0), "no table nosuch"),
            (lp.Code(code="code-ZZZZZZ"), "no table here has that join code"),
            (lp.Create(name="Dee", others=["wizard"]), "neither an open seat nor a computer level"),
        ):
            with pytest.raises(ValueError, match=why):
                await host.answer(request, Claim(None, "visitor:dee", "lobby"))
    finally:
        await tables.close()


async def test_the_lobby_seats_and_lets_watch_only_within_the_hosts_limits(tmp_path: Path) -> None:
    tables = Tables(tmp_path / "tables", _config())
    await tables.load_all()
    host = LobbyHost(None, tables=tables, limits=Limits(max_players=2, max_spectators=1, max_sessions=8))
    host.share_views = False  # spectators with an app each (the shared views: tests/test_net_watchers.py)

    def visitor(name: str) -> tuple[Claim, Visit]:
        ticket = host.gate.admit(VISITOR)  # as a lobby session holds while its visitor looks around
        assert isinstance(ticket, Ticket)
        return Claim(None, f"visitor:{name}", "lobby"), Visit(ticket)

    (ann, va), (bob, vb), (cy, vc), (dee, vd), (eve, ve) = map(visitor, ("ann", "bob", "cy", "dee", "eve"))
    try:
        made = await host.answer(lp.Create(name="Ann", others=[lp.OPEN, lp.OPEN]), ann, "10.0.0.1", va)
        assert not isinstance(made, lp.Tables)
        a = made[0]
        tid = a.game.game
        assert va.ticket is not None and va.ticket.kind == PLAYER
        await host.answer(lp.Take(table=tid, seat=SPECTATOR), cy, visit=vc)
        assert vc.ticket is not None and (vc.ticket.kind, vc.ticket.table) == (WATCHING, tid)
        with pytest.raises(ValueError, match="this table already has 1 spectators"):
            await host.answer(lp.Take(table=tid, seat=SPECTATOR), dee, visit=vd)
        assert vd.ticket is not None and vd.ticket.kind == VISITOR  # still in the lobby
        seated = await host.answer(lp.Take(table=tid, seat=2), bob, visit=vb)  # spectators take no seat
        assert not isinstance(seated, lp.Tables) and seated[1].seat == 2
        assert a.save_path is not None and persist.load(a.save_path)[0].seats[2].owner == "visitor:bob"
        with pytest.raises(ValueError, match="already has 2 players"):
            await host.answer(lp.Take(table=tid, seat=1), eve, visit=ve)
        assert not a.slots[1].owner  # refused before the seat was Eve's
        assert host.gate.kinds == Counter({PLAYER: 2, WATCHING: 1, VISITOR: 2})
        va.release()  # Ann's session ended: her room is free
        await host.answer(lp.Take(table=tid, seat=1), eve, visit=ve)
        assert a.slots[1].owner == "visitor:eve" and host.gate.kinds[PLAYER] == 2
    finally:
        await tables.close()


async def test_a_lobby_link_keeps_each_reply_with_its_request_and_stops_asking_once_seated() -> None:
    """A look at the list whose asker gave up (a newer look replaced it) still takes its reply off the
    link; once seated, the link carries the game: a look that was due then sends nothing."""
    from mqtui.net.protocol import MAX_CLIENT_FRAME, encode, read_frame

    ours, theirs = socket.socketpair()
    link = lp.LobbyLink(*await asyncio.open_connection(sock=ours))
    host_reader, host_writer = await asyncio.open_connection(sock=theirs)
    listing = lp.Tables(host="h", tables=[], packs=[], levels=[], max_tables=1)
    seated = lp.Seated(table="t1", seat=0, name="Ann", packs=[])
    try:
        look = asyncio.ensure_future(link.ask(lp.ListTables()))
        assert isinstance(lp.decode_request(await read_frame(host_reader, MAX_CLIENT_FRAME)), lp.ListTables)
        look.cancel()  # the asker gives up before the answer comes
        create = asyncio.ensure_future(link.ask(lp.Create(name="Ann", others=[lp.OPEN])))
        host_writer.write(encode(listing))  # the answer to the look...
        assert isinstance(lp.decode_request(await read_frame(host_reader, MAX_CLIENT_FRAME)), lp.Create)
        host_writer.write(encode(seated))  # ...and to the new table
        assert await create == seated
        assert await link.ask(lp.ListTables()) == seated  # seated: answered without asking the host
        link.writer.close()
        assert await host_reader.read() == b""  # nothing more was sent
    finally:
        link.writer.close()
        host_writer.close()


async def test_the_serve_command_without_new_or_load_hosts_the_saved_tables(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    tables = Tables(folder, _config())
    await tables.load_all()
    a = await tables.create(seats_for(lp.Create(name="Ann", others=["hard"])), 3, [])
    tid, code = a.game.game, a.codes_for("0")[0]
    await tables.close()
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), HOME=str(tmp_path), TERM="xterm-256color")
    argv = [sys.executable, "-m", "mqtui", "serve", "--port", "0", "--tables", str(folder), "--name", "Den"]
    argv.append("--print-codes")  # (not a terminal: the codes are shown when asked)
    argv.append("--no-fork")  # no session comes: no fork server to start (forks: the tests above)
    proc = await asyncio.create_subprocess_exec(
        *argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    assert proc.stdout is not None
    text = ""
    try:
        while "Ctrl+C" not in text:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line, text
            text += line.decode()
        assert 'host "Den", 1 table(s)' in text and re.search(rf"table {tid} .*Ann, Bob \(hard\)", text)
        assert f"code-{code}@127.0.0.1" in text and "Visitors open the lobby with:  ssh -p" in text
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0 and "1 table(s) saved" in out.decode()
    assert (folder / f"{tid}.mqsave").exists()


async def test_options_of_a_single_table_host_are_refused_in_lobby_mode(tmp_path: Path) -> None:
    from mqtui.net.options import ServeError
    from mqtui.net.serve import ServeOptions, serve

    with pytest.raises(ServeError, match="--local-seat needs --new or --load"):
        await serve(ServeOptions(local_seat=0, tables=str(tmp_path)))
