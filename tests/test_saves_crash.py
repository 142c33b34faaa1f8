"""A save survives the saving process being killed at any moment (SIGKILL at random points of many
writes): the slot always holds a complete save, old or new, and so do its backups.

The tests are bounded by a number of kills, never by a clock: a slow or busy machine makes them
slower, not red. Every other kill waits until the child has saved at least once, so kills land both
before and after writes whatever the speed of the disk. The saving children are forked from a small
process of their own (crash_helpers), not from the pytest worker: cheaper forks, the same saving."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from crash_helpers import SEATS, Savers
from engine_helpers import engine
from waiting import wait_until_sync

from mqtui import saves
from mqtui.store import LocalStore, Seat

pytestmark = [pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork"), pytest.mark.slow]

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
    store = LocalStore.new(engine(), tuple(Seat(*seat) for seat in SEATS), 21, bot_delay=0)
    out = []
    for _ in range(4):
        for _ in range(150):
            store.step_bot()
        out.append(store.to_bytes())
    return out


def wait_for_a_write(path: Path, inode: int) -> None:
    """Until ``path`` is replaced (each save renames a new file into place), so that the kill that
    follows lands after this writer has saved at least once, however slow the disk is today."""
    wait_until_sync(lambda: _inode(path) != inode, what="a save by the child")


def _inode(path: Path) -> int:
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return -1


@pytest.fixture
def savers() -> Iterator[Callable[..., Savers]]:
    """Starts the parent of a test's saving children (closed at the end, a child still alive killed)."""
    started: list[Savers] = []

    def start(mode: str, path: Path, *files: Path) -> Savers:
        started.append(Savers(mode, path, *files))
        return started[-1]

    try:
        yield start
    finally:
        for parent in started:
            parent.close()


def test_killing_the_writer_at_random_moments_keeps_a_whole_save(
    folder: Path, savers: Callable[..., Savers]
) -> None:
    versions = payloads()
    known = set(versions)
    path = folder / "slot.mqsave"
    saves.write_atomic(path, versions[0])
    files = [folder / f"version{i}" for i in range(len(versions))]
    for file, data in zip(files, versions, strict=True):
        file.write_bytes(data)
    writers = savers("writer", path, *files)  # each child writes the versions, one after the other

    rnd = random.Random(4)
    seen = set()
    for kills in range(1, WRITER_KILLS + 1):
        was = _inode(path)
        pid = writers.fork()
        if kills % 2:
            wait_for_a_write(path, was)
        time.sleep(
            rnd.choice((0, 0.0001, 0.0002, 0.0005, 0.001, 0.002, rnd.uniform(0, 0.006)))
        )  # kill at random
        writers.kill(pid)
        data = path.read_bytes()
        assert data in known, f"kill {kills}: the slot holds something that was never saved"
        seen.add(data)
        for i in (1, 2):
            backup = saves.backup_path(path, i)
            if backup.exists():
                assert backup.read_bytes() in known, f"kill {kills}: backup {i} is damaged"
    assert len(seen) >= 2  # the kills landed while different versions were in place
    assert saves.read(path).state.seed == 21


def test_killing_a_playing_autosaving_store_keeps_a_loadable_game(
    folder: Path, savers: Callable[..., Savers]
) -> None:
    path = folder / "auto.mqsave"
    eng = engine()
    games = savers("game", path)  # each child plays computer games, autosaving to path
    rnd = random.Random(5)
    moves = set()
    for _ in range(GAME_KILLS):
        was = _inode(path)
        pid = games.fork()
        for _ in range(rnd.randint(1, 8)):  # games at different points: after a number of saves ...
            wait_for_a_write(path, was)
            was = _inode(path)
        time.sleep(rnd.uniform(0, 0.005))  # ... and then at a random moment (a move and its save: under 1 ms)
        games.kill(pid)
        store = LocalStore.load(path, eng, bot_delay=0, verify=True, backups=False)
        moves.add(len(store.actions))
    assert len(moves) >= 5, sorted(moves)  # games at many different points were saved and reloaded
