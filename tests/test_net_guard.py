"""A public server against hostile and careless visitors, with the real OpenSSH client on loopback.

Limits by kind (bare connections, wrong codes, spectators), sessions that cannot jam (random bytes, a
10 MiB paste, a huge window, a resize storm, a stopped app), an empty TERM, a remote palette with only
game commands, and write-before-tell (kill -9 right after a confirmed action, then ``serve --load``).
The sessions run the plain stand-in app unless a test needs the full one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from ssh_helpers import SSH_OPTS, SharedForks, Term, needs_ssh, quick, resolve, serve_process, ssh_term
from ssh_helpers import fork_server as fork_server  # the fixtures, for this module
from ssh_helpers import forks as forks
from waiting import wait_until as _until

from mqtui import saves
from mqtui.engine.actions import to_text
from mqtui.engine.game import Engine
from mqtui.net import persist
from mqtui.net.authority import Authority
from mqtui.net.identity import KeyTable
from mqtui.net.limits import PLAYER, SPECTATOR, Gate, Limits, Ticket
from mqtui.net.sessionguard import SessionGuard, process_state
from mqtui.net.sshserver import SSHHost
from mqtui.net.table import TableConfig, parse_new_spec, safe_choice


@dataclass
class Host:
    authority: Authority
    ssh_host: SSHHost
    tmp: Path
    terms: list[Term] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.ssh_host.port

    def code(self, spec: str) -> str:
        return self.authority.codes_for(spec)[0]

    def ssh(self, user: str, *extra: str, size: tuple[int, int] = (150, 45)) -> Term:
        term = ssh_term(self.port, user, *extra, size=size)
        self.terms.append(term)
        return term


@pytest.fixture
async def make_host(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: SharedForks
) -> AsyncIterator[Callable[..., object]]:
    """A host: its sessions' apps are forked from the worker's fork server (as a real host's are), or
    with ``fresh=True`` started afresh (``--no-fork``)."""
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    hosts: list[Host] = []

    async def make(
        spec: str = "2",
        limits: Limits | None = None,
        app: str = "standin",
        fresh: bool = False,
        cls: type[SSHHost] = SSHHost,
    ) -> Host:
        config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
        a = Authority.new(engine, parse_new_spec(spec), 21, tmp_path / "game.mqsave", config, KeyTable(None))
        await a.start()
        ssh_host = cls(a, app=app, limits=limits or quick(), forks=None if fresh else forks)
        await ssh_host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
        host = Host(a, ssh_host, tmp_path)
        hosts.append(host)
        return host

    try:
        yield make
    finally:
        for host in hosts:
            for term in host.terms:
                term.close()
            await host.ssh_host.close()
            await host.authority.close()


def _states(term: Term) -> list[int]:
    return [int(n) for n in re.findall(r"state (\d+) ", term.text())]


def _own_kib(pid: int) -> int:
    """The memory only this process holds (a forked app shares the rest with its fork server)."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return sum(
            int(line.split()[1]) for line in f if line.startswith(("Private_Clean:", "Private_Dirty:"))
        )


async def _feed(term: Term, data: bytes, chunk: int = 65536) -> None:
    """Type ``data`` into the ssh client's terminal as fast as it takes it (a paste, a flood)."""
    loop = asyncio.get_running_loop()
    view = memoryview(data)
    while view:
        assert not term.closed, f"the session ended:\n{term.text()[-800:]}"
        try:
            n = os.write(term.master, view[:chunk])
        except BlockingIOError:
            fut: asyncio.Future[None] = loop.create_future()
            loop.add_writer(term.master, resolve, fut)
            try:
                await fut
            finally:
                loop.remove_writer(term.master)
            continue
        view = view[n:]


# -- the accounting, without SSH ----------------------------------------------------------------------


def test_spectators_and_visitors_never_use_the_room_kept_for_players() -> None:
    gate = Gate(Limits(max_players=2, max_sessions=4, max_spectators=3))
    watchers = [gate.admit(SPECTATOR, "t1"), gate.admit(SPECTATOR, "t1")]
    assert all(isinstance(t, Ticket) for t in watchers)
    refused = gate.admit(SPECTATOR, "t2")
    assert isinstance(refused, str) and "kept for players" in refused
    players = [gate.admit(PLAYER, "t1"), gate.admit(PLAYER, "t1")]
    assert all(isinstance(t, Ticket) for t in players)
    assert "players" in str(gate.admit(PLAYER, "t2"))
    watchers[0].release()  # type: ignore[union-attr]
    watchers[0].release()  # type: ignore[union-attr]  # twice changes nothing
    assert isinstance(gate.admit(SPECTATOR, "t1"), Ticket)
    small = Gate(Limits(max_spectators=1))
    assert isinstance(small.admit(SPECTATOR, "a"), Ticket)
    assert "1 spectators" in str(small.admit(SPECTATOR, "a"))
    assert isinstance(small.admit(SPECTATOR, "b"), Ticket)  # per table


def test_a_full_sign_in_queue_drops_the_oldest_connection_that_never_tried() -> None:
    gate = Gate(Limits(max_unauthenticated=2))
    closed: list[str] = []
    assert gate.opened("a", "1.2.3.4", lambda why: closed.append("a")) == ""
    assert gate.opened("b", "1.2.3.4", lambda why: closed.append("b")) == ""
    gate.trying("a")  # "a" is signing in: it stays
    assert gate.opened("c", "1.2.3.4", lambda why: closed.append("c")) == ""
    assert closed == ["b"]
    gate.trying("c")
    refused = gate.opened("d", "1.2.3.4", lambda why: closed.append("d"))
    assert "too many people are signing in" in refused
    gate.done("a")
    assert gate.opened("d", "1.2.3.4", lambda why: closed.append("d")) == ""


async def test_input_is_bounded_and_resizes_are_clamped_and_paced() -> None:
    guard = SessionGuard(Limits(input_burst=1000, input_rate=10, max_cols=400, max_rows=150))
    assert guard.take(b"x" * 600) == b"x" * 600
    assert len(guard.take(b"y" * 10_000)) <= 401  # the rest of the burst, and no more
    assert guard.dropped >= 10_000 - 401
    applied: list[tuple[int, int, int, int]] = []
    for i in range(200):  # a storm
        guard.resize(lambda *size: applied.append(size), 100 + i, 40, 0, 0)
    guard.resize(lambda *size: applied.append(size), 10_000, 10_000, 80_000, 160_000)
    assert len(applied) == 1  # the first at once, the rest wait for their turn
    await _until(lambda: len(applied) == 2)
    assert applied[-1] == (400, 150, 0, 0)  # the newest size, clamped
    guard.close()


def test_the_process_state_of_a_stopped_process_is_seen() -> None:
    proc = subprocess.Popen(["sleep", "30"])  # (any process: no Python to start)
    try:
        # running, sleeping, or still loading its program ("D"): a live state, not a stopped one
        assert process_state(proc.pid) in ("S", "R", "D")
        proc.send_signal(signal.SIGSTOP)
        os.waitpid(proc.pid, os.WUNTRACED)  # returns once it is stopped
        assert process_state(proc.pid) in ("T", "t")
    finally:
        proc.kill()
        proc.wait(5)


# -- limits over SSH ----------------------------------------------------------------------------------


@needs_ssh
@pytest.mark.slow
async def test_bare_connections_lock_nobody_out(make_host: Callable[..., object]) -> None:
    # (all from one address, which could hold them all)
    limits = quick(max_unauthenticated=10, max_signing_in_per_address=10)
    host: Host = await make_host(limits=limits)  # type: ignore[misc]
    socks: list[socket.socket] = []
    try:
        for _ in range(30):  # a port scan that closes at once...
            s = socket.create_connection(("127.0.0.1", host.port))
            s.close()
        for _ in range(30):  # ...and one that stays, more than the sign-in queue holds
            socks.append(socket.create_connection(("127.0.0.1", host.port)))
        await _until(lambda: len(host.ssh_host.gate.pending) >= 10)
        ann = host.ssh(f"code-{host.code('0')}")
        await ann.expect(r"seat 0 Ann - state 0 ")
        assert not host.ssh_host.gate.failures  # none of them tried, so none failed
    finally:
        for s in socks:
            s.close()


@needs_ssh
@pytest.mark.slow
async def test_a_full_sign_in_queue_refuses_in_words(make_host: Callable[..., object]) -> None:
    host: Host = await make_host(limits=quick(max_unauthenticated=1))  # type: ignore[misc]
    typing = host.ssh("slow", "-o", "PreferredAuthentications=keyboard-interactive")
    await typing.expect(r"Join code:")  # signing in, and in no hurry
    late = host.ssh(f"code-{host.code('0')}")
    await late.expect(r"too many people are signing in right now \(1\); try again in a minute")
    typing.type(host.code("1") + "\r")
    await typing.expect(r"seat 1 Bob - state 0 ")
    again = host.ssh(f"code-{host.code('0')}")
    await again.expect(r"seat 0 Ann - state 0 ")


@needs_ssh
@pytest.mark.slow
async def test_wrong_codes_are_refused_in_words(make_host: Callable[..., object]) -> None:
    # (each wrong code's answer still waits a little longer than the one before, in hundredths of a second)
    host: Host = await make_host(limits=quick(max_failures=3, guess_delay=0.01))  # type: ignore[misc]
    guess = host.ssh("guess", "-o", "PreferredAuthentications=keyboard-interactive")
    for _ in range(3):
        await guess.expect(r"Join code:")
        guess.clear()
        guess.type("WRONG1\r")
    await guess.expect(r"too many wrong join codes from your address")
    assert await guess.wait() != 0
    late = host.ssh(f"code-{host.code('0')}")  # the same address, now refused for a while: told why
    await late.expect(r"too many wrong join codes .*try again in about 10 minutes")


@needs_ssh
@pytest.mark.slow
async def test_a_full_spectator_list_does_not_block_a_seat_code(make_host: Callable[..., object]) -> None:
    host: Host = await make_host(limits=quick(max_watchers=2, max_players=2, max_sessions=5))  # type: ignore[misc]
    watch = host.code("watch")
    w1, w2 = host.ssh(f"code-{watch}"), host.ssh(f"code-{watch}")
    await w1.expect(r"spectator - state 0 ")
    await w2.expect(r"spectator - state 0 ")
    w3 = host.ssh(f"code-{watch}")
    await w3.expect(r"this table already has 2 watchers")
    ann = host.ssh(f"code-{host.code('0')}")
    bob = host.ssh(f"code-{host.code('1')}")
    await ann.expect(r"seat 0 Ann - state 0 ")
    await bob.expect(r"seat 1 Bob - state 0 ")


# -- sessions that cannot jam -------------------------------------------------------------------------


@needs_ssh
@pytest.mark.slow
async def test_random_bytes_and_a_huge_paste_jam_nothing(make_host: Callable[..., object]) -> None:
    host: Host = await make_host("Ann,bot")  # type: ignore[misc]
    host.ssh_host.share_views = False  # the jammer's own app is what is jammed (a watcher's keys go nowhere)
    a = host.authority
    ann = host.ssh(f"code-{host.code('0')}")
    jam = host.ssh(f"code-{host.code('watch')}", "-e", "none")  # no ssh escape (~.) in the bytes
    await ann.expect(r"seat 0 Ann - state 0 ")
    await jam.expect(r"spectator - state 0 ")
    await _until(lambda: len(host.ssh_host.children) == 2)
    rng = random.Random(14)
    # no Ctrl+Q (stay) and no Ctrl+P: the command palette would take every later byte as a search, and
    # the flood would then test how fast this one app searches, not that the session cannot jam
    noise = rng.randbytes(1 << 20).replace(b"\x11", b"q").replace(b"\x10", b"p")
    # many lines, as pasted text has: Enter ends each, so the flooded app's input line stays short (one
    # line of megabytes would make each later key cost more, and the app's own slowness the test)
    paste = (b"the quick brown fox jumps over the lazy dog\r" * 250_000)[: 10 << 20]
    flood = noise + paste
    # Ann keeps playing while the flood goes on: each of her 8 actions is typed while an eighth of the
    # flood is being fed, and she is answered. How long her replies take beside the same player's with
    # no flood, in the same run, is a figure of bench/guard.py ("flood"), not an assertion here: any
    # bound on seconds only says how busy the machine was
    part = -(-len(flood) // 8)
    for i in range(8):
        await _until(lambda: a.engine.deciding(a.state) == 0, what="Ann to decide")
        n = a.state.n
        feeding = asyncio.ensure_future(_feed(jam, flood[i * part : (i + 1) * part]))
        try:
            ann.type(to_text(safe_choice(a.engine.legal(a.state, 0))) + "\r")
            await _until(lambda n=n: max(_states(ann), default=0) > n, what=f"Ann's reply {i + 1}")
            await feeding
        finally:
            feeding.cancel()
    jammed = max(host.ssh_host.stats, key=lambda s: s.bytes_from_client)
    await _until(lambda: jammed.bytes_from_client > 10 << 20, what="the flood read by the host")
    (ann_stats,) = [s for s in host.ssh_host.stats if s is not jammed]
    # a 2 MiB bracketed paste into Ann's own session: cut short, it still ends, and her keys work after it
    ann.clear()
    pasted = b"\x1b[200~" + paste[: 2 << 20] + b"\x1b[201~"
    before = ann_stats.bytes_from_client
    await _feed(ann, pasted)
    await _until(
        lambda: ann_stats.bytes_from_client >= before + len(pasted), what="the paste read by the host"
    )
    guard = ann_stats.guard
    # Enter right after the paste would find her input budget spent (and be dropped): pressed as a person
    # would, once it has room
    await _until(lambda: guard.room() >= 1, what="room in Ann's input budget")
    ann.type("\r")
    # the paste, cut down, was her input line (looked for in the refusal: her input line itself is
    # redrawn piecemeal as the last bytes trickle in, so its words need not reach the terminal whole)
    await ann.expect(r"refused: '0 the quick")
    await _until(lambda: a.engine.deciding(a.state) == 0, what="Ann to decide")
    n = a.state.n
    keys = to_text(safe_choice(a.engine.legal(a.state, 0))) + "\r"
    await _until(lambda: guard.room() >= len(keys))  # as a person types: once her input budget has room
    ann.type(keys)
    await _until(lambda: max(_states(ann), default=0) > n, what="Ann's reply after the paste")
    # the flooded session's own app still follows the game: it shows the newest state
    n = a.state.n
    await jam.expect(rf"spectator - state {n} ")
    assert len(host.ssh_host.children) == 2
    for pid in host.ssh_host.children:
        assert process_state(pid) not in ("T", "t")
    assert sum(s.bytes_from_client for s in host.ssh_host.stats) > 10 << 20


@needs_ssh
@pytest.mark.slow
async def test_a_huge_window_is_clamped_and_a_resize_storm_passes(make_host: Callable[..., object]) -> None:
    host: Host = await make_host()  # type: ignore[misc]
    ann = host.ssh(f"code-{host.code('0')}", size=(10_000, 10_000))
    await ann.expect(r"seat 0 Ann - state 0 .*size 400x150")
    (pid,) = host.ssh_host.children
    assert _own_kib(pid) < 200 * 1024, f"the app uses {_own_kib(pid)} KiB"
    for i in range(300):
        ann.resize(90 + i % 50, 30 + i % 20)
    ann.resize(123, 45)
    await ann.expect(r"size 123x45")
    assert _own_kib(pid) < 200 * 1024
    assert process_state(pid) not in ("T", "t", "")


@needs_ssh
@pytest.mark.slow
async def test_an_app_that_falls_silent_is_ended_and_its_seat_freed(make_host: Callable[..., object]) -> None:
    # short limits (the defaults are seconds): the same check, sooner. A forked app (the pings are the
    # same code in a fresh one); a stopped app: the next test (fresh) and test_net_forkserver (forked)
    limits = quick(stall=1000.0, silent=0.6, heartbeat=0.1)  # the stop is seen only by its missing pings
    host: Host = await make_host(limits=limits)  # type: ignore[misc]
    a = host.authority
    ann = host.ssh(f"code-{host.code('0')}")
    await ann.expect(r"seat 0 Ann - state 0 ")
    await _until(lambda: a.slots[0].conn is not None)
    conn = a.slots[0].conn
    assert conn is not None
    first = conn.refilled
    await _until(lambda: conn.refilled != first)  # its first heartbeat
    (pid,) = host.ssh_host.children
    os.kill(pid, signal.SIGSTOP)
    await ann.expect(r"this session was ended: its app stopped answering")
    await _until(lambda: not host.ssh_host.children and a.slots[0].conn is None)
    again = host.ssh(f"code-{host.code('0')}")
    await again.expect(r"seat 0 Ann - state 0 ")


@needs_ssh
@pytest.mark.slow
async def test_an_app_started_afresh_gets_a_safe_term_takes_no_keys_as_signals_and_is_ended_when_stopped(
    make_host: Callable[..., object], forks: SharedForks
) -> None:
    """One session whose app is started afresh (``--no-fork``; the same three for a forked app:
    test_net_forkserver), from its start to its end: a client that sends an empty TERM, Ctrl+Z, Ctrl+\\
    and Ctrl+C typed while the app starts, then its app stopped (short limits: sooner)."""
    host: Host = await make_host(limits=quick(stall=0.3, heartbeat=0.1), fresh=True)  # type: ignore[misc]
    a = host.authority
    env = {k: v for k, v in os.environ.items() if k != "TERM"}  # OpenSSH then sends an empty type
    argv = ["ssh", "-tt", "-p", str(host.port), *SSH_OPTS, "-o", "PubkeyAuthentication=no"]
    ann = Term([*argv, f"code-{host.code('0')}@127.0.0.1"], env=env)
    host.terms.append(ann)
    # signed in (ssh's own terminal is raw now) and the app started: what is typed now reaches it as it
    # sets itself up
    await _until(lambda: bool(host.ssh_host.stats), what="the session's app started")
    (stats,) = host.ssh_host.stats
    typed = 0
    for _ in range(500):  # Ctrl+Z, Ctrl+\ and Ctrl+C while the session's app starts, each once the
        if "state 0" in ann.text():  # host has read the one before (on a slow machine, as many)
            break
        seen = stats.bytes_from_client
        ann.type("\x1a\x1c\x03")
        typed += 1
        await _until(lambda seen=seen: stats.bytes_from_client > seen or "state 0" in ann.text())
    assert typed > 1
    await ann.expect(r"seat 0 Ann - state 0 ")
    (pid,) = host.ssh_host.children
    # the empty TERM: a safe default in the app's environment (its /proc environ: a fresh process's own)
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert b"TERM=xterm-256color" in environ
    ann.type("\x1a\x1c")
    ann.type("0 done\r")
    await _until(lambda: a.state.n == 1)  # it answered, so it was neither stopped nor killed
    assert process_state(pid) not in ("T", "t", "")
    # a stopped app is ended and its seat freed
    conn = a.slots[0].conn
    assert conn is not None
    first = conn.refilled
    await _until(lambda: conn.refilled != first)  # a heartbeat: it runs as a remote app
    os.kill(pid, signal.SIGSTOP)
    await ann.expect(r"this session was ended: its app was stopped")
    await _until(lambda: not host.ssh_host.children and a.slots[0].conn is None)
    host.ssh_host.forks = forks  # (the seat's next app may come from anywhere: forked, the cheapest)
    again = host.ssh(f"code-{host.code('0')}")
    await again.expect(r"seat 0 Ann - state 1 ")


@needs_ssh
@pytest.mark.slow
async def test_a_remote_palette_has_only_game_commands(
    make_host: Callable[..., object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MQTUI_NET_APP", "auto")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # where a screenshot would land
    host: Host = await make_host(app="auto")  # type: ignore[misc]
    ann = host.ssh(f"code-{host.code('0')}", size=(120, 40))
    names = host.authority.engine.cards.names
    own = [names[u] for u in host.authority.state.heroes[0].hand]
    await ann.expect("|".join(re.escape(n) for n in own))
    ann.type("\x10")  # Ctrl+P: the command palette
    await ann.expect(r"Search for commands")
    for query, shown in (("quit", r"Quit"), ("screensh", r"No matches found"), ("save the", r"No matches")):
        ann.clear()
        ann.type(query)
        await ann.expect(shown)
        assert "Screenshot" not in ann.text() and "Save the game" not in ann.text()
        ann.type("\x7f" * len(query))
    assert not list(tmp_path.rglob("*.svg"))


# -- write before you tell ----------------------------------------------------------------------------


@needs_ssh
@pytest.mark.slow
async def test_kill_9_right_after_a_confirmed_action_loses_nothing(tmp_path: Path, engine: Engine) -> None:
    from mqtui.net.netstore import NetStore

    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), MQTUI_NET_APP="standin")
    save, sock = tmp_path / "table.mqsave", str(tmp_path / "table.sock")
    procs: list[asyncio.subprocess.Process] = []
    terms: list[Term] = []
    try:  # (--no-fork: its one session's app started afresh, no fork server to be killed with it)
        proc, port, codes = await serve_process(
            env, "--new", "Ann,Bob", "--seed", "5", "--save", str(save), "--socket", sock, "--no-fork"
        )
        procs.append(proc)
        for round_ in range(3):  # act, see it confirmed, kill -9 at once, come back with --load
            state = persist.load(save)[0].state
            seat = engine.deciding(state)
            action = safe_choice(engine.legal(state, seat))
            if round_ == 0:  # a player in a real ssh: the new state is on their screen
                term = ssh_term(port, f"code-{codes[str(seat)]}")
                terms.append(term)
                await term.expect(rf"seat {seat} .* - state {state.n} ")
                term.type(to_text(action) + "\r")
                await term.expect(rf"state {state.n + 1} ")
            else:  # a protocol client: the authority's confirmation, the quickest a client can know
                store = await NetStore.open_unix(engine, sock, code=codes[str(seat)], name="t")
                await store.send(action)
            proc.kill()  # the very moment the player knew
            await proc.wait()
            if round_:
                await store.close()
            game, _ = persist.load(save)
            assert game.state.n == state.n + 1, f"round {round_}: the confirmed action was lost"
            # back without SSH (only protocol clients follow; serve --load over SSH: test_net_ssh)
            proc, _, again = await serve_process(env, "--load", str(save), "--socket", sock, ssh=False)
            procs.append(proc)
            assert again == codes
    finally:
        for term in terms:
            term.close()
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()


async def test_serve_load_recovers_from_the_backup_keeping_the_codes(tmp_path: Path, engine: Engine) -> None:
    from mqtui.net.serve import ServeOptions, build_authority

    save = tmp_path / "table.mqsave"
    a = Authority.new(engine, parse_new_spec("2"), 5, save, TableConfig(bot_delay=0.0))
    await a.start()
    for _ in range(2):
        assert a.apply(safe_choice(a.engine.legal(a.state, a.engine.deciding(a.state))))[0]
        assert a.saver is not None and a.saver.flush()
    codes = dict(a.game.codes)
    await a.close()
    assert saves.backup_path(save, 1).exists()
    save.write_bytes(save.read_bytes()[:100])  # the save itself is damaged
    b, path = build_authority(ServeOptions(load=str(save)))
    try:
        assert path == save and b.game.codes == codes
        assert 1 <= b.state.n <= 2
    finally:
        b.discard()


async def test_no_client_sees_a_state_before_it_is_on_disk(tmp_path: Path, engine: Engine) -> None:
    from mqtui.net.netstore import NetStore

    a = Authority.new(engine, parse_new_spec("2"), 5, tmp_path / "t.mqsave", TableConfig(bot_delay=0.0))
    await a.start()
    ours, theirs = socket.socketpair()
    from mqtui.net.identity import Claim

    a.attach(ours, Claim(0, "test", "test"))
    store = await NetStore.open_socket(engine, theirs, name="t")
    seen: list[int] = []

    def on_snap(snap: object) -> None:
        # whatever a client sees is already in the file
        seen.append(persist.load(tmp_path / "t.mqsave")[0].state.n - getattr(snap, "n", 0))

    try:
        store.subscribe(on_snap)
        for _ in range(4):
            who = a.engine.deciding(a.state)
            n = a.state.n
            if who == 0:
                await store.send(safe_choice(a.engine.legal(a.state, 0)))
            else:
                a.apply(safe_choice(a.engine.legal(a.state, who)))
            await _until(lambda n=n: store.snapshot().n > n)
        assert seen and min(seen) >= 0, seen
    finally:
        await store.close()
        await a.close()
        with contextlib.suppress(OSError):
            theirs.close()


def test_a_paste_cut_short_still_ends() -> None:
    guard = SessionGuard(Limits(input_burst=100, input_rate=0.0))
    got = guard.take(b"\x1b[200~" + b"x" * 10_000)
    got += guard.take(b"y" * 10_000 + b"\x1b[20")
    got += guard.take(b"1~")  # the end marker, split between two chunks, and both dropped
    assert got.startswith(b"\x1b[200~") and got.endswith(b"\x1b[201~")
    assert len(got) <= 100 + 6
    guard.tokens = 100.0
    assert guard.take(b"ok\r") == b"ok\r"  # keys after the paste are keys again
    whole = SessionGuard(Limits())
    assert whole.take(b"\x1b[200~short\x1b[201~") == b"\x1b[200~short\x1b[201~"  # nothing added
    cut = SessionGuard(Limits(input_burst=20, input_rate=0.0))
    assert cut.take(b"\x1b[200~ab\x1b[201~" + b"z" * 50) == b"\x1b[200~ab\x1b[201~" + b"z" * 6  # ended once


async def test_an_app_that_leaves_its_input_unread_is_given_up() -> None:
    guard = SessionGuard(Limits(stall=0.1))
    guard.writing_since = time.monotonic()  # the relay has been waiting for the app to read since now
    why = await asyncio.wait_for(guard.watch(os.getpid()), 10)
    assert why == "its app did not read its input for 0.1 s"
    quiet = SessionGuard(Limits(stall=0.1, silent=0.1))
    last = time.monotonic()
    why = await asyncio.wait_for(quiet.watch(os.getpid(), lambda: last), 10)
    assert why == "its app stopped answering for 0.1 s"


async def test_an_app_heard_once_before_the_first_look_is_still_ended_when_it_falls_silent(
    tmp_path: Path, engine: Engine
) -> None:
    """The watchdog's first look may come after the app's first heartbeat (a busy host): what it saw
    then is a heartbeat, not the connection's opening, so an app that hangs after it is still ended."""
    from mqtui.net.identity import Claim
    from mqtui.net.netstore import NetStore

    a = Authority.new(engine, parse_new_spec("2"), 5, tmp_path / "t.mqsave", TableConfig(bot_delay=0.0))
    await a.start()
    ours, theirs = socket.socketpair()
    early, late = SSHHost.last_heard(ours, lambda: a), SSHHost.last_heard(ours, lambda: a)  # two watchdogs
    a.attach(ours, Claim(0, "test", "test"))
    store = await NetStore.open_socket(engine, theirs, name="t")
    try:
        await _until(lambda: len(a.conns) == 1)
        assert early() is None  # signed in, nothing heard since: still starting
        await store.ping()  # its one heartbeat, before the late watchdog's first look
        last = late()
        assert last is not None and early() == last  # (the late one took this for the opening: never ended)
        quiet = SessionGuard(Limits(stall=1000.0, silent=0.1))
        why = await asyncio.wait_for(quiet.watch(os.getpid(), late), 10)
        assert why == "its app stopped answering for 0.1 s" and late() == last
    finally:
        await store.close()
        await a.close()


async def test_a_remote_app_writes_nothing_on_the_host_and_opens_nothing(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.command import CommandList

    from mqtui.cli.seatapp import seat_app
    from mqtui.net.client import make_app
    from mqtui.store import LocalStore, Seat

    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)  # where a screenshot or a delivered file would land
    store = LocalStore.new(engine, (Seat("Ann", "red"), Seat("Bob", "blue")), 3)
    app = make_app(store, seat_app("standin"), remote=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for name in (
            "save_screenshot",
            "deliver_screenshot",
            "deliver_text",
            "open_url",
            "action_suspend_process",
        ):
            getattr(app, name)("x")  # each only says "not over SSH"
        app.action_command_palette()
        await pilot.pause()
        await pilot.press(*"screen")
        # every search the keys started has ended (the palette searches in workers, one a key): a search
        # still waiting when the app shuts down finds the palette's list gone and fails the app
        await pilot.pause()
        await app.workers.wait_for_complete()
        hits = app.screen.query_one(CommandList)
        for _ in range(500):  # the palette searches in the background: its hits, or "No matches found"
            if hits.option_count:
                break
            await pilot.pause(0.01)
        assert hits.option_count
        assert all(
            "Screenshot" not in str(hits.get_option_at_index(i).prompt) for i in range(hits.option_count)
        )
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]
    split = SessionGuard(Limits(input_burst=10, input_rate=0.0))
    got = split.take(b"\x1b[200~ab\x1b[2")  # 10 bytes pass, the start of the end marker is dropped
    split.tokens = 10.0
    got += split.take(b"01~ok")  # the rest of it passes, but the app never saw a whole end marker
    assert got == b"\x1b[200~ab\x1b[" + b"01~ok" + b"\x1b[201~"


def test_a_seat_s_app_is_chosen_by_the_command_line_and_the_environment_wins(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mqtui.cli.seatapp import seat_app
    from mqtui.net.standin import StandInApp
    from mqtui.store import LocalStore, Seat
    from mqtui.ui.app import MQApp

    store = LocalStore.new(engine, (Seat("Ann", "red"), Seat("Bob", "blue")), 3)
    monkeypatch.delenv("MQTUI_NET_APP", raising=False)
    full = seat_app("mqapp")(store)
    assert (
        isinstance(full, MQApp) and not full.save_settings_file
    )  # a remote player keeps the host's settings
    assert isinstance(seat_app("auto")(store), MQApp)
    assert isinstance(seat_app("standin")(store), StandInApp)
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    assert isinstance(seat_app("mqapp")(store), StandInApp)
    monkeypatch.setenv("MQTUI_NET_APP", "fancy")
    with pytest.raises(ValueError, match="fancy"):
        seat_app()
