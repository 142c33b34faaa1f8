"""A save survives the saving process being killed at any moment (SIGKILL at random points of many
writes): the slot always holds a complete save, old or new, and so do its backups.

The tests are bounded by a number of kills, never by a clock: a slow or busy machine makes them
slower, not red. Every other kill waits until the child has saved at least once, so kills land both
before and after writes whatever the speed of the disk."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_helpers import engine
from waiting import wait_until_sync

from mqtui import saves
from mqtui.store import LocalStore, Seat

pytestmark = [pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork"), pytest.mark.slow]

SEATS = (Seat("Ann", "red", "random"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))
WRITER_KILLS = 150  # kills of a process that only writes saves
GAME_KILLS = 30  # kills of a process that plays and autosaves


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """Where the saves go: a folder in memory (``/dev/shm``) where there is one, else ``tmp_path``. A
    kill -9 tests the write-and-rename, which is the same there; the fsyncs, which only a power cut
    needs, cost 7 ms a save on a disk and made each wait for a save that long."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    where = Path(tempfile.mkdtemp(prefix="mqtui-test-", dir=shm))
    try:
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


def payloads() -> list[bytes]:
    """Real saves of different sizes: the same game at several points."""
    store = LocalStore.new(engine(), SEATS, 21, bot_delay=0)
    out = []
    for _ in range(4):
        for _ in range(150):
            store.step_bot()
        out.append(store.to_bytes())
    return out


def fork(child: object) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            child()  # type: ignore[operator]
        except BaseException:
            code = 2
        finally:
            sys.stdout.flush()
            os._exit(code)
    return pid


def wait_for_a_write(path: Path, inode: int) -> None:
    """Until ``path`` is replaced (each save renames a new file into place), so that the kill that
    follows lands after this writer has saved at least once, however slow the disk is today."""
    wait_until_sync(lambda: _inode(path) != inode, what="a save by the child")


def _inode(path: Path) -> int:
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return -1


def kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "the child died on its own"


def test_killing_the_writer_at_random_moments_keeps_a_whole_save(folder: Path) -> None:
    versions = payloads()
    known = set(versions)
    path = folder / "slot.mqsave"
    saves.write_atomic(path, versions[0])

    def writer() -> None:
        i = 0
        while True:
            saves.write_atomic(path, versions[i % len(versions)])
            i += 1

    rnd = random.Random(4)
    seen = set()
    for kills in range(1, WRITER_KILLS + 1):
        was = _inode(path)
        pid = fork(writer)
        if kills % 2:
            wait_for_a_write(path, was)
        time.sleep(
            rnd.choice((0, 0.0001, 0.0002, 0.0005, 0.001, 0.002, rnd.uniform(0, 0.006)))
        )  # kill at random
        kill(pid)
        data = path.read_bytes()
        assert data in known, f"kill {kills}: the slot holds something that was never saved"
        seen.add(data)
        for i in (1, 2):
            backup = saves.backup_path(path, i)
            if backup.exists():
                assert backup.read_bytes() in known, f"kill {kills}: backup {i} is damaged"
    assert len(seen) >= 2  # the kills landed while different versions were in place
    assert saves.read(path).state.seed == 21


def test_killing_a_playing_autosaving_store_keeps_a_loadable_game(folder: Path) -> None:
    path = folder / "auto.mqsave"
    eng = engine()

    def game() -> None:
        seed = os.getpid()
        while True:
            store = LocalStore.new(eng, SEATS, seed, bot_delay=0)
            store.autosave_to(path)
            while store.step_bot():
                pass
            seed += 1

    rnd = random.Random(5)
    moves = set()
    for _ in range(GAME_KILLS):
        was = _inode(path)
        pid = fork(game)
        for _ in range(rnd.randint(1, 8)):  # games at different points: after a number of saves ...
            wait_for_a_write(path, was)
            was = _inode(path)
        time.sleep(rnd.uniform(0, 0.005))  # ... and then at a random moment (a move and its save: under 1 ms)
        kill(pid)
        store = LocalStore.load(path, eng, bot_delay=0, verify=True, backups=False)
        moves.add(len(store.actions))
    assert len(moves) >= 5, sorted(moves)  # games at many different points were saved and reloaded
