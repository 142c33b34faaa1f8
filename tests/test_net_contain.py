"""Session containment with real OpenSSH sessions: each session's app runs under the host's limits
(memory, descriptors, niceness, CPU time, no core files), read back from /proc; an app that runs out of
memory ends in words, and the host, the fork server and the other sessions go on."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from ssh_helpers import SharedForks, Term, needs_ssh, quick, ssh_term
from ssh_helpers import fork_server as fork_server  # the fixtures, for this module
from ssh_helpers import forks as forks
from waiting import wait_until

from mqtui.engine.game import Engine
from mqtui.net.authority import Authority
from mqtui.net.contain import EXIT_MEMORY, Containment
from mqtui.net.identity import KeyTable
from mqtui.net.sshserver import SSHHost
from mqtui.net.table import TableConfig, parse_new_spec

pytestmark = [needs_ssh, pytest.mark.slow]

MIB = 1024 * 1024


def proc_limits(pid: int) -> dict[str, tuple[str, str]]:
    """/proc/PID/limits: name -> (soft, hard)."""
    rows = Path(f"/proc/{pid}/limits").read_text().splitlines()[1:]
    found = {}
    for row in rows:
        m = re.match(r"(.+?)\s{2,}(\S+)\s+(\S+)", row)
        if m:
            found[m.group(1).strip()] = (m.group(2), m.group(3))
    return found


async def contained_host(
    engine: Engine, tmp_path: Path, forks: SharedForks | None, contain: Containment
) -> tuple[Authority, SSHHost]:
    """A table of two whose host contains its sessions' apps so (forked from ``forks``, or afresh)."""
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(engine, parse_new_spec("Ann,Bob"), 5, tmp_path / "t.mqsave", config, KeyTable(None))
    await a.start()
    host = SSHHost(a, app="standin", limits=quick(), forks=forks, contain=contain)
    await host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
    return a, host


async def test_a_sessions_app_runs_under_the_hosts_limits_and_one_out_of_memory_harms_nobody(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: SharedForks
) -> None:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    a, host = await contained_host(
        engine, tmp_path, forks, Containment(memory=400, files=100, nice=7, cpu=900)
    )
    terms: list[Term] = []

    def ssh(seat: str) -> Term:
        terms.append(ssh_term(host.port, f"code-{a.codes_for(seat)[0]}"))
        return terms[-1]

    try:
        ann = ssh("0")
        await ann.expect(r"seat 0 Ann - state 0 ")
        (pid,) = host.children
        limits = proc_limits(pid)
        assert limits["Max data size"] == (str(400 * MIB), str(400 * MIB))
        assert limits["Max open files"] == ("100", "100")
        assert limits["Max cpu time"] == ("900", "905")
        assert limits["Max core file size"] == ("0", "0")
        assert len(os.listdir(f"/proc/{pid}/fd")) < 50  # the app needs far fewer files than its limit
        server_nice = os.getpriority(os.PRIO_PROCESS, forks.proc.pid)  # type: ignore[union-attr]
        assert os.getpriority(os.PRIO_PROCESS, pid) == server_nice + 7
        assert os.getpriority(os.PRIO_PROCESS, os.getpid()) < server_nice + 7  # the host keeps its own
        # Bob's app may have less memory than it needs: it ends, in words, with its own code
        used = int(re.search(r"VmData:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()).group(1))  # type: ignore[union-attr]
        host.contain = Containment(memory=used // 1024 // 2)
        bob = ssh("1")
        await bob.expect(
            r"this session was ended: its app needed more memory than this host allows a session"
        )
        assert await bob.wait(30) != 0
        assert host.ended["memory"] == 1
        await wait_until(lambda: a.slots[1].conn is None)
        # nothing else was touched: Ann's app, the fork server, the host, which seats Bob again
        assert a.message("Still here") == 1
        await ann.expect(r"Still here")
        assert forks.alive and pid in host.children
        host.contain = Containment()
        again = ssh("1")
        await again.expect(r"seat 1 Bob - state 0 ")
    finally:
        for term in terms:
            term.close()
        await host.close()
        await a.close()


def test_the_exit_codes_of_a_contained_app_are_its_own() -> None:
    assert EXIT_MEMORY not in (0, 1, 2, 3)  # (the app's own codes: ok, error, usage, ended by the server)
    assert Containment(memory=16).check() and Containment(nice=25).check() and not Containment().check()


async def test_an_app_started_afresh_is_contained_as_a_forked_one(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-fork``: the app's own program sets the limits, as in a forked child."""
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    a, host = await contained_host(engine, tmp_path, None, Containment(memory=600, files=90, nice=3, cpu=700))
    ann = ssh_term(host.port, f"code-{a.codes_for('0')[0]}")
    try:
        await ann.expect(r"seat 0 Ann - state 0 ", 60)
        (pid,) = host.children
        limits = proc_limits(pid)
        assert limits["Max data size"][0] == str(600 * MIB) and limits["Max open files"] == ("90", "90")
        assert limits["Max cpu time"] == ("700", "705")
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, os.getpid()) + 3
    finally:
        ann.close()
        await host.close()
        await a.close()
