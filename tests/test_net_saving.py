"""Write before tell when writing fails: a served table on a full disk and in a read-only folder.

The real OpenSSH client plays a seat of a table whose save folder is a small tmpfs the test mounts
(as root; elsewhere the full-disk test skips and the read-only one uses a folder of mode 0500). While
the writes fail, no player is shown an action that is not on disk: the table pauses, says why in words
in every player's terminal and in the operator's log, refuses actions and plays no computer seat; once
a write succeeds again (space freed, the folder writable again) the game goes on by itself.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from ssh_helpers import SharedForks, Term, needs_ssh, quick, ssh_term
from ssh_helpers import fork_server as fork_server  # the fixtures, for this module
from ssh_helpers import forks as forks
from waiting import wait_until as _until

from mqtui.engine.actions import to_text
from mqtui.engine.game import Engine
from mqtui.net import persist
from mqtui.net.authority import PAUSED, Authority
from mqtui.net.figures import FIGURES
from mqtui.net.identity import KeyTable
from mqtui.net.sshserver import SSHHost
from mqtui.net.table import TableConfig, parse_new_spec, safe_choice

pytestmark = [needs_ssh, pytest.mark.slow]

DISK = 1024 * 1024  # the tmpfs: room for the save, its backups and the sidecar, and the filler


def _mount(folder: Path, *options: str) -> bool:
    folder.mkdir(exist_ok=True)
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", ",".join(("mode=0700", *options)), "tmpfs", str(folder)],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _remount(folder: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True, timeout=10)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path | None]:
    """A 1 MiB tmpfs of this test's own (None where it cannot be mounted), unmounted afterwards."""
    folder = tmp_path / "disk"
    mounted = _mount(folder, f"size={DISK}")
    try:
        yield folder if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10)


def _fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte; the filler file (delete it to free)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        size = 65536
        for _ in range(10_000):  # (bounded: a 1 MiB disk fills in a few dozen writes)
            try:
                os.write(fd, b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                if size == 1:
                    break
                size //= 2  # the last partial blocks
    finally:
        os.close(fd)
    return filler


@pytest.fixture
async def table(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: SharedForks
) -> AsyncIterator[Callable[[Path], object]]:
    """A table of Ann (a person) and a computer seat saved in a given folder, and its SSH host."""
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    made: list[tuple[Authority, SSHHost]] = []
    terms: list[Term] = []

    async def make(folder: Path) -> tuple[Authority, SSHHost, Term]:
        config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
        a = Authority.new(engine, parse_new_spec("Ann,bot"), 21, folder / "t.mqsave", config, KeyTable(None))
        await a.start()
        assert a.durable is not None
        await a.durable.wait(a.state.n)
        host = SSHHost(a, app="standin", limits=quick(), forks=forks)
        await host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
        made.append((a, host))
        ann = ssh_term(host.port, f"code-{a.codes_for('0')[0]}")
        terms.append(ann)
        await ann.expect(r"seat 0 Ann - state 0 ")
        return a, host, ann

    try:
        yield make
    finally:
        for term in terms:
            term.close()
        for a, host in made:
            await host.close()
            await a.close()


def _on_disk(folder: Path) -> int:
    return persist.load(folder / "t.mqsave")[0].state.n


def _shown(term: Term) -> int:
    """The newest state number the player's terminal has shown."""
    return max(int(n) for n in re.findall(r"state (\d+) ", term.text()))


async def _paused_then_resumed(
    a: Authority, ann: Term, folder: Path, caplog: pytest.LogCaptureFixture, fix: Callable[[], None]
) -> None:
    """Ann acts while the saves fail: she is told the game is paused, never shown the unsaved state,
    refused while it lasts; once ``fix()`` lets writes succeed, the game goes on by itself."""
    seat = a.engine.deciding(a.state)
    assert seat == 0
    before, failures = a.state.n, FIGURES.save_failures
    ann.type(to_text(safe_choice(a.engine.legal(a.state, 0))) + "\r")
    await ann.expect(r"host cannot save the game", 30)
    assert FIGURES.save_failures == failures + 1  # (mqtui admin health: mqtui_save_failures_total)
    # applied in memory (and the computer seat's moves until the failure was known), not on disk...
    assert a.paused and a.state.n > before
    paused_at = a.state.n
    assert _on_disk(folder) == before
    assert _shown(ann) == before  # ...so never shown
    assert any("the game is paused until a save succeeds" in r.getMessage() for r in caplog.records)
    # (Ann's app waits for the answer to her action, which comes once it is on disk)
    who = a.engine.deciding(a.state)
    assert a.apply(safe_choice(a.engine.legal(a.state, who))) == (False, PAUSED)  # no action is taken
    conn = a.slots[0].conn
    assert conn is not None
    heard = conn.messages
    await _until(lambda: conn.messages > heard)  # Ann's app's next heartbeat (every 2 s)...
    assert a.state.n == paused_at  # ...and the computer seat played nothing meanwhile
    assert _on_disk(folder) == before
    fix()
    await ann.expect(r"can save the game again", 30)
    await _until(lambda: not a.paused)
    await ann.expect(rf"state {paused_at} ", 30)
    assert any("saving works again" in r.getMessage() for r in caplog.records)
    # and the game goes on: the computer seat and Ann play, each state shown only once it is on disk
    await _until(lambda: a.engine.deciding(a.state) == 0, 30)
    n = a.state.n
    ann.type(to_text(safe_choice(a.engine.legal(a.state, 0))) + "\r")
    await ann.expect(rf"state {n + 1} ", 30)
    assert _on_disk(folder) >= _shown(ann) >= n + 1


async def test_a_full_disk_pauses_the_table_and_it_goes_on_once_space_is_freed(
    table: Callable[[Path], object], disk: Path | None, caplog: pytest.LogCaptureFixture
) -> None:
    if disk is None:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    caplog.set_level(logging.INFO, "mqtui.net")
    a, _, ann = await table(disk)  # type: ignore[misc]
    filler = _fill(disk)
    await _paused_then_resumed(a, ann, disk, caplog, filler.unlink)


async def test_a_read_only_folder_pauses_the_table_until_it_is_writable(
    table: Callable[[Path], object], disk: Path | None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "mqtui.net")
    if disk is not None:  # root: a read-only mount (root writes through a folder's mode)
        folder = disk
        a, _, ann = await table(folder)  # type: ignore[misc]
        _remount(folder, "ro")
        fix = lambda: _remount(folder, "rw")  # noqa: E731
    else:
        folder = tmp_path / "tables"
        folder.mkdir()
        a, _, ann = await table(folder)  # type: ignore[misc]
        folder.chmod(0o500)
        with contextlib.suppress(PermissionError):
            (folder / "probe").touch()
            pytest.skip("this user writes into a read-only folder")
        fix = lambda: folder.chmod(0o700)  # noqa: E731
    try:
        await _paused_then_resumed(a, ann, folder, caplog, fix)
    finally:
        with contextlib.suppress(Exception):
            fix()
    assert os.access(folder, os.W_OK)
