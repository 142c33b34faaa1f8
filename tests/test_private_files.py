"""Secrets stay private on the host (issue 14 item 4): every file that holds hidden information or join
codes is created 0600, in folders that are 0700; and one atomic-write helper writes them all."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqtui import atomic, paths, saves
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.net import persist
from mqtui.net.serve import ServeOptions, build_authority
from mqtui.net.sshserver import host_key
from mqtui.store import LocalStore, Seat
from mqtui.ui.settings import Settings, save_settings, settings_path

SEATS = (Seat("Ann", "red", "random"), Seat("Bob", "blue", "random"))


@pytest.fixture(autouse=True)
def _private_umask() -> Iterator[None]:
    """A permissive umask, as many hosts have: the modes must not depend on it."""
    old = os.umask(0o002)
    try:
        yield
    finally:
        os.umask(old)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home" / "data"
    monkeypatch.setenv("MQTUI_DATA", str(folder))
    return folder


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def engine() -> Engine:
    return Engine(load_content([paths.PROJECT_DIR / "tests" / "fixtures" / "minimal_content"]))


def play(store: LocalStore, n: int) -> None:
    for _ in range(n):
        store.step_bot()


def test_saves_autosaves_and_backups_are_private_in_private_folders(data: Path) -> None:
    store = LocalStore.new(engine(), SEATS, 4, bot_delay=0)
    auto = saves.autosave_path()
    store.autosave_to(auto)
    for _ in range(4):
        play(store, 5)
        store.save_now()
    store.close()
    named = saves.slot_path("my game")
    store.save(named)
    store.save(named)
    files = [auto, saves.backup_path(auto, 1), saves.backup_path(auto, 2), named, saves.backup_path(named, 1)]
    assert all(f.exists() for f in files)
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    assert mode(data) == mode(data / "saves") == 0o700
    assert not any(p.name.endswith(".tmp") for p in (data / "saves").iterdir())


def test_an_older_install_readable_by_others_is_tightened(data: Path) -> None:
    """mqtui 0.1.0 made the folders 0755 and the saves 0644: the next write takes that back."""
    folder = data / "saves"
    folder.mkdir(parents=True)
    for d in (data, folder):
        d.chmod(0o755)
    slot = saves.slot_path("old")
    for path in (slot, saves.backup_path(slot, 1)):
        path.write_bytes(b"an old save")
        path.chmod(0o644)
    store = LocalStore.new(engine(), SEATS, 4, bot_delay=0)
    store.save(slot)
    assert mode(data) == mode(folder) == 0o700
    for path in (slot, saves.backup_path(slot, 1), saves.backup_path(slot, 2)):
        assert mode(path) == 0o600, path
    assert saves.backup_path(slot, 1).read_bytes() == b"an old save"


def test_a_folder_the_user_chose_keeps_its_mode_and_the_file_is_private(tmp_path: Path, data: Path) -> None:
    mine = tmp_path / "my saves"
    mine.mkdir(mode=0o755)
    mine.chmod(0o755)
    LocalStore.new(engine(), SEATS, 4, bot_delay=0).save(mine / "x.mqsave")
    assert mode(mine) == 0o755 and mode(mine / "x.mqsave") == 0o600
    # a folder that has to be made for it is private
    LocalStore.new(engine(), SEATS, 4, bot_delay=0).save(tmp_path / "new" / "deeper" / "y.mqsave")
    assert mode(tmp_path / "new") == mode(tmp_path / "new" / "deeper") == 0o700


def test_a_served_game_its_join_codes_and_its_log_are_private(data: Path) -> None:
    authority, path = build_authority(ServeOptions(new="Ann,Bob", seed=3, ssh=False, bot_delay=0))
    try:
        authority.save_now()
        assert authority.saver is not None and authority.saver.flush(10)
    finally:
        assert authority.saver is not None
        authority.saver.close()
    side = persist.sidecar_path(path)
    assert path.parent == data / "saves" and side.exists()
    assert mode(path) == mode(side) == 0o600 and mode(path.parent) == mode(data) == 0o700
    assert set(persist.load(path)[0].codes)  # the sidecar does hold the join codes
    # the served log (it shows join codes with --local-seat): created private, an old one tightened
    log = path.with_suffix(".log")
    with atomic.open_private_append(log) as f:
        f.write("code-ABCD\n")
    assert mode(log) == 0o600
    log.chmod(0o644)
    with atomic.open_private_append(log) as f:
        f.write("more\n")
    assert mode(log) == 0o600 and log.read_text() == "code-ABCD\nmore\n"


def test_the_host_log_and_its_rotated_files_are_private(tmp_path: Path) -> None:
    import logging

    from mqtui.net.logline import PrivateRotatingFile

    log = tmp_path / "host.log"
    handler = PrivateRotatingFile(log, maxBytes=60, backupCount=2, encoding="utf-8")
    record = logging.LogRecord("mqtui.net", logging.INFO, __file__, 1, "a line of the host's log", None, None)
    try:
        assert mode(log) == 0o600  # made before the first line
        for _ in range(8):
            handler.emit(record)
    finally:
        handler.close()
    files = sorted(tmp_path.glob("host.log*"))
    assert [f.name for f in files] == ["host.log", "host.log.1", "host.log.2"]
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    assert all(f.read_text() for f in files[1:])  # the rotated ones hold lines


def test_settings_and_the_host_key_go_through_the_same_helper(data: Path) -> None:
    save_settings(Settings(theme="x"))
    key = data / "ssh" / "host_key"
    host_key(key)
    assert mode(settings_path()) == mode(key) == 0o600
    assert mode(data) == mode(key.parent) == 0o700
    assert host_key(key).export_public_key() == host_key(key).export_public_key()  # kept, not remade


def test_the_one_helper_fsyncs_file_and_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append(stat.S_IFMT(os.fstat(fd).st_mode))
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    save_settings(Settings(), tmp_path / "settings.json")
    assert synced == [stat.S_IFREG, stat.S_IFDIR]


def test_a_shared_folder_named_as_the_data_folder_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MQTUI_DATA=/tmp must not make /tmp private: only mqtui's own folders are tightened."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("MQTUI_DATA", str(shared))
    LocalStore.new(engine(), SEATS, 4, bot_delay=0).save(saves.slot_path("x"))
    assert mode(shared) == 0o1777
    assert mode(shared / "saves") == 0o700 and mode(saves.slot_path("x")) == 0o600
