"""Session containment with real OpenSSH sessions: each session's app runs under the host's limits
(memory, descriptors, niceness, CPU time, no core files), read back from /proc; an app that runs out of
memory ends in words, and the host, the fork server and the other sessions go on. Where a cgroup v2
folder may be written (as root on the CI machine), each app in a cgroup of its own, removed after."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from ssh_helpers import SharedForks, Term, needs_ssh, quick, ssh_term
from ssh_helpers import fork_server as fork_server  # the fixtures, for this module
from ssh_helpers import forks as forks
from waiting import wait_until

from mqtui.engine.game import Engine
from mqtui.net.authority import Authority
from mqtui.net.contain import EXIT_MEMORY, WANTED, Containment, is_cgroup2, place_in_cgroup, prepare_cgroup
from mqtui.net.identity import KeyTable
from mqtui.net.options import ServeOptions
from mqtui.net.sshserver import SSHHost, prepare_host
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


# -- cgroup v2 ---------------------------------------------------------------------------------------


def own_cgroup2() -> tuple[Path, Path] | str:
    """(the cgroup v2 mount, this process's cgroup folder in it), or why there is none."""
    mounts = [
        Path(line.split()[4])
        for line in Path("/proc/self/mountinfo").read_text().splitlines()
        if line.split(" - ")[1].split()[0] == "cgroup2"
    ]
    if not mounts:
        return "no cgroup v2 hierarchy is mounted"
    rel = next(
        (ln[3:] for ln in Path("/proc/self/cgroup").read_text().splitlines() if ln.startswith("0::")), "/"
    )
    for mount in mounts:
        if is_cgroup2(mount / rel.lstrip("/")):
            return mount, mount / rel.lstrip("/")
    return f"this process's cgroup v2 folder ({rel}) is not under {', '.join(map(str, mounts))}"


def _host_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The host's own warnings (not asyncio's about an earlier test's leftovers)."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and r.name == "mqtui.net"]


@pytest.fixture
def cgroup_parent() -> Iterator[tuple[Path, Path]]:
    """(the cgroup v2 mount, a folder of this test's own in it, removed after): where none may be made
    the test skips, and under CI (root on a machine with a cgroup v2 hierarchy) fails."""
    found = own_cgroup2()
    if isinstance(found, str):
        why = found
    else:
        mount, base = found
        parent = base / f"mqtui-test-{os.getpid()}"
        try:
            parent.mkdir()
            why = ""
        except OSError as exc:
            why = f"cannot make a cgroup in {base}: {exc.strerror or exc}"
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {why}: the cgroup containment is untested")
        pytest.skip(f"needs a writable cgroup v2 folder: {why}")
    try:
        yield mount, parent
    finally:
        for group in sorted(parent.rglob("*"), key=lambda p: -len(p.parts)):
            if group.is_dir():
                with contextlib.suppress(OSError):
                    (group / "cgroup.kill").write_text("1")
                with contextlib.suppress(OSError):
                    group.rmdir()
        parent.rmdir()


EXPECTED = {  # what a session's cgroup sets for Containment(memory=400, nice=4, cpu_max=50), by controller
    "memory": {"memory.max": str(400 * MIB), "memory.swap.max": "0"},
    "pids": {"pids.max": "64"},
    "cpu": {"cpu.weight": "80", "cpu.max": "50000 100000"},
}


async def test_each_sessions_app_has_a_cgroup_of_its_own_under_the_folder_removed_when_it_ends(
    engine: Engine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    forks: SharedForks,
    cgroup_parent: tuple[Path, Path],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``--session-cgroup FOLDER`` as ``mqtui serve`` prepares it (prepare_host): the host makes FOLDER,
    enables the controllers it offers, says in one warning which it lacks; a forked app and one started
    afresh each run in ``FOLDER/mqtui-session-PID`` with the limits its controllers allow; the cgroup is
    gone when the session ends, also when its app was killed with SIGKILL."""
    mount, parent = cgroup_parent
    folder = parent / "sessions"  # not there yet: the host makes it
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    caplog.set_level(logging.INFO, "mqtui.net")
    contain = Containment(memory=400, files=100, nice=4, cpu_max=50, cgroup=str(folder))
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(engine, parse_new_spec("Ann,Bob"), 5, tmp_path / "t.mqsave", config, KeyTable(None))
    await a.start()
    host = SSHHost(a, app="standin", limits=quick(), forks=forks)
    prepare_host(host, ServeOptions(contain=contain))
    await host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
    terms: list[Term] = []

    def ssh(seat: str) -> Term:
        terms.append(ssh_term(host.port, f"code-{a.codes_for(seat)[0]}"))
        return terms[-1]

    def in_its_cgroup(pid: int) -> Path:
        group = folder / f"mqtui-session-{pid}"
        assert f"0::/{group.relative_to(mount)}" in Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        assert str(pid) in (group / "cgroup.procs").read_text().split()
        for name in enabled:
            for file, value in EXPECTED[name].items():
                assert (group / file).read_text().split() == value.split(), file
        return group

    try:
        assert host.contain == contain and is_cgroup2(folder)
        enabled = [n for n in WANTED if n in (folder / "cgroup.subtree_control").read_text().split()]
        missing = [n for n in WANTED if n not in enabled]
        warned = _host_warnings(caplog)
        if missing:  # (this machine's cgroup v2 has none of them: they are bound to its cgroup v1)
            assert len(warned) == 1, warned
            assert (
                all(f"{n}" in warned[0] for n in missing)
                and "the rlimits and the niceness still hold" in warned[0]
            )
        else:
            assert warned == []
        ann = ssh("0")
        await ann.expect(r"seat 0 Ann - state 0 ")
        (pid,) = host.children
        group = in_its_cgroup(pid)
        ann.close()
        await wait_until(lambda: not group.exists(), what="the ended session's cgroup removed")
        # one started afresh (--no-fork) and killed with SIGKILL
        host.forks = None
        bob = ssh("1")
        await bob.expect(r"seat 1 Bob - state 0 ", 60)
        (pid,) = host.children
        group = in_its_cgroup(pid)
        os.kill(pid, signal.SIGKILL)
        await wait_until(lambda: not group.exists(), what="the killed session's cgroup removed")
        await wait_until(lambda: a.slots[1].conn is None)
        assert list(folder.glob("mqtui-session-*")) == []
        assert _host_warnings(caplog)[len(warned) :] == []  # no more
    finally:
        host.forks = forks
        for term in terms:
            term.close()
        await host.close()
        await a.close()


def test_the_host_removes_the_cgroups_a_host_before_it_left_and_keeps_those_in_use(
    cgroup_parent: tuple[Path, Path],
) -> None:
    """A host ended by kill -9 leaves its sessions' cgroups: the next one, at its start, removes those
    whose app has ended (empty), and leaves one whose app runs."""
    _, folder = cgroup_parent
    dead = max(int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()) + 1000
    (folder / f"mqtui-session-{dead}").mkdir()
    app = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        running = folder / f"mqtui-session-{app.pid}"
        running.mkdir()
        (running / "cgroup.procs").write_text(str(app.pid))
        assert prepare_cgroup(Containment(cgroup=str(folder))).cgroup == str(folder)
        assert [p.name for p in folder.glob("mqtui-session-*")] == [running.name]
    finally:
        app.kill()
        app.wait()


def test_a_folder_that_is_not_a_cgroup_is_said_once_and_not_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "mqtui.net")
    for folder in (tmp_path, tmp_path / "new"):
        caplog.clear()
        c = prepare_cgroup(Containment(memory=300, cgroup=str(folder)))
        assert c == Containment(memory=300)  # (the rlimits still hold)
        (said,) = [r.getMessage() for r in caplog.records]
        assert said.startswith(f"--session-cgroup {folder}: not used") and "cgroup v2" in said
    assert not (tmp_path / "new").exists()


def test_the_limits_a_sessions_cgroup_sets_where_its_controllers_are_enabled(tmp_path: Path) -> None:
    """Where the controllers are enabled (not on this machine, whose cgroup v2 has none of them: a plain
    folder stands in for the kernel's files), a session's cgroup gets the limits, then the app; only the
    files of its enabled controllers are written."""
    c = Containment(memory=400, nice=4, cpu_max=50)
    for enabled in (list(WANTED), ["pids"]):
        group = tmp_path / f"mqtui-session-{os.getpid()}"
        group.mkdir()
        (group / "cgroup.controllers").write_text(" ".join(enabled) + "\n")
        assert place_in_cgroup(tmp_path, os.getpid(), c) == []
        written = {p.name: p.read_text() for p in group.iterdir() if p.name != "cgroup.controllers"}
        assert written == {"cgroup.procs": str(os.getpid())} | {
            k: v for name in enabled for k, v in EXPECTED[name].items()
        }
        for p in group.iterdir():
            p.unlink()
        group.rmdir()


async def test_a_browsers_app_is_in_a_cgroup_of_its_own_removed_when_the_browser_leaves(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cgroup_parent: tuple[Path, Path]
) -> None:
    """``--web``: a browser's session's app is placed as an SSH session's is, and its cgroup removed."""
    from web_helpers import WebTerm

    from mqtui.net.web import WebHost

    mount, folder = cgroup_parent
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(engine, parse_new_spec("Ann,Bob"), 5, tmp_path / "t.mqsave", config, KeyTable(None))
    await a.start()
    host = SSHHost(a, app="standin", limits=quick())
    host.contain = prepare_cgroup(Containment(cgroup=str(folder)))
    web = WebHost(host, folder=tmp_path)
    await web.listen("127.0.0.1", 0)
    term = WebTerm(f"http://127.0.0.1:{web.port}")
    try:
        await term.open(f"/join/{a.codes_for('0')[0]}")
        await term.expect(r"seat 0 Ann - state 0 ")
        (group,) = folder.glob("mqtui-session-*")
        pid = int(group.name.removeprefix("mqtui-session-"))
        assert f"0::/{group.relative_to(mount)}" in Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        assert (group / "cgroup.procs").read_text().split() == [str(pid)]
        await term.close()
        await wait_until(lambda: not group.exists(), what="the browser's session's cgroup removed")
    finally:
        await term.close()
        await web.close()
        await host.close()
        await a.close()
