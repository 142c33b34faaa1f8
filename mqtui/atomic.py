"""Writing files safely: the one atomic-write helper, and private files and folders.

Everything mqtui writes goes through :func:`write_atomic` (saves, autosaves and their backups, served
games and their join codes, settings, the SSH host key, the content of a served game): the new bytes go
to a temporary file in the same folder (written, fsynced), the previous versions shift to ``NAME.1``,
``NAME.2`` if backups are asked for (the current file is hard-linked, never moved away, so the name
always holds a complete file), the temporary file replaces the file with ``os.replace``, and the folder
is fsynced. Killing the writer at any moment leaves the old or the new file under the name.

Files are created ``0600`` and the folders made for them ``0700``: saves hold every hand and the deck
order, served games and logs hold join codes. The data folder (``$MQTUI_DATA``) and everything under it
are tightened to ``0700`` when mqtui writes there, also if an older mqtui made them readable by others.
Folders elsewhere (a ``--save`` path the user chose) keep their mode; the files in them are ``0600``.

This module is light (no third-party imports): the title screen and the settings use it.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import stat
import threading
from pathlib import Path
from typing import TextIO

FILE_MODE = 0o600
DIR_MODE = 0o700

_counter = itertools.count()
_locks: dict[str, threading.RLock] = {}
_locks_guard = threading.Lock()
_cleaned: set[str] = set()
_private: set[str] = set()  # folders already made private by this process


def _lock_for(path: Path) -> threading.RLock:
    key = os.path.abspath(path)
    with _locks_guard:
        return _locks.setdefault(key, threading.RLock())


def backup_path(path: Path, i: int) -> Path:
    return path.with_name(f"{path.name}.{i}")


def _in_data_dir(folder: Path) -> bool:
    from mqtui.paths import data_dir

    try:
        Path(os.path.abspath(folder)).relative_to(os.path.abspath(data_dir()))
    except ValueError:
        return False
    return True


def private_dir(folder: Path | str) -> Path:
    """Make ``folder`` (and missing parents) with mode 0700; tighten it, and its parents up to the data
    folder, to 0700 if it is the data folder or inside it. Returns the folder."""
    folder = Path(folder)
    key = os.path.abspath(folder)
    if key in _private and os.path.isdir(key):
        return folder
    missing = []
    p = Path(key)
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    for m in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(m, DIR_MODE)
    if _in_data_dir(folder):
        p = Path(key)
        while _in_data_dir(p):
            _tighten(p)
            if p == p.parent:
                break
            p = p.parent
    _private.add(key)
    return folder


def _tighten(path: Path) -> None:
    """Take away the group's and others' access, if it is ours to change (failures are ignored). A
    shared folder (sticky or writable by all, like /tmp) and the home folder are never changed, even
    when ``$MQTUI_DATA`` names one."""
    try:
        st = os.stat(path)
        mode = stat.S_IMODE(st.st_mode)
        shared = mode & (stat.S_ISVTX | stat.S_IWOTH) or os.path.abspath(path) == os.path.expanduser("~")
        if mode & 0o077 and st.st_uid == os.getuid() and not shared:
            os.chmod(path, mode & ~0o077)
    except (OSError, AttributeError):
        pass


def fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _clean_stale(path: Path) -> None:
    """Remove temporary files left by writers that were killed mid-write (once per file and process)."""
    key = os.path.abspath(path)
    if key in _cleaned:
        return
    _cleaned.add(key)
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        parts = tmp.name[len(path.name) + 2 :].split(".")
        if parts and parts[0].isdigit() and not _pid_alive(int(parts[0])):
            with contextlib.suppress(OSError):
                tmp.unlink()


def write_atomic(path: Path | str, data: bytes, backups: int = 0, mode: int = FILE_MODE) -> None:
    """Write ``data`` to ``path`` so that a crash at any moment leaves the old or the new file there,
    keeping ``backups`` previous versions (``path.1`` newest). The file is created with ``mode``
    (0600: only its owner reads it) in a folder made 0700 if it had to be made. Raises OSError."""
    path = Path(path)
    folder = path.parent
    private_dir(folder)
    with _lock_for(path):
        _clean_stale(path)
        tmp = folder / f".{path.name}.{os.getpid()}.{threading.get_ident()}.{next(_counter)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, mode)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            if backups > 0 and path.exists():
                _rotate(path, backups, mode)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        fsync_dir(folder)


def _rotate(path: Path, backups: int, mode: int) -> None:
    for i in range(backups - 1, 0, -1):
        src = backup_path(path, i)
        if src.exists():
            _tighten(src)  # an older mqtui's backups were readable by others
            os.replace(src, backup_path(path, i + 1))
    _tighten(path)  # the backup shares this file's mode
    first = backup_path(path, 1)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.b{next(_counter)}.tmp")
    try:
        os.link(path, tmp)  # no copy: the backup shares the old file's data
    except OSError:
        shutil.copyfile(path, tmp)
        os.chmod(tmp, mode)
    os.replace(tmp, first)


def open_private_append(path: Path | str) -> TextIO:
    """A text file opened for appending (a log), created 0600 in a private folder; an existing file is
    tightened to 0600."""
    path = Path(path)
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
    _tighten(path)
    return os.fdopen(fd, "a", encoding="utf-8")
