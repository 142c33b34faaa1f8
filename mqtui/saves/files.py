"""Save files on disk: atomic writes with backups, capped reads, named slots in the data folder.

Writing ``slot.mqsave`` never leaves it broken: the new bytes go to a temporary file in the same folder
(flushed and fsynced), the previous versions shift to ``slot.mqsave.1``, ``.2`` (the current file is
hard-linked, never moved away, so the slot name always holds a complete save), then the temporary file
replaces the slot with ``os.replace`` and the folder is fsynced. Killing the writer at any moment leaves
either the old or the new save under the slot name.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from mqtui.paths import AUTOSAVE_SLOT, saves_dir
from mqtui.saves.codec import SaveError, decode, decode_header, read_prefix
from mqtui.saves.model import FORMAT, MAX_HEADER, PREFIX_SIZE, SUFFIX, Header, SaveData

BACKUPS = 2  # slot.mqsave.1 and slot.mqsave.2
SLOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.+-]{0,63}")

_counter = itertools.count()
_locks: dict[str, threading.RLock] = {}
_locks_guard = threading.Lock()
_cleaned: set[str] = set()


def _lock_for(path: Path) -> threading.RLock:
    key = os.path.abspath(path)
    with _locks_guard:
        return _locks.setdefault(key, threading.RLock())


# -- writing ----------------------------------------------------------------------------------------


def backup_path(path: Path, i: int) -> Path:
    return path.with_name(f"{path.name}.{i}")


def _fsync_dir(folder: Path) -> None:
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
    """Remove temporary files left by writers that were killed mid-save (once per slot and process)."""
    key = os.path.abspath(path)
    if key in _cleaned:
        return
    _cleaned.add(key)
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        parts = tmp.name[len(path.name) + 2 :].split(".")
        if parts and parts[0].isdigit() and not _pid_alive(int(parts[0])):
            with contextlib.suppress(OSError):
                tmp.unlink()


def write_atomic(path: Path | str, data: bytes, backups: int = BACKUPS) -> None:
    """Write ``data`` to ``path`` so that a crash at any moment leaves the old or the new file there."""
    path = Path(path)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    with _lock_for(path):
        _clean_stale(path)
        tmp = folder / f".{path.name}.{os.getpid()}.{threading.get_ident()}.{next(_counter)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o644)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            if backups > 0 and path.exists():
                _rotate(path, backups)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        _fsync_dir(folder)


def _rotate(path: Path, backups: int) -> None:
    for i in range(backups - 1, 0, -1):
        src = backup_path(path, i)
        if src.exists():
            os.replace(src, backup_path(path, i + 1))
    first = backup_path(path, 1)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.b{next(_counter)}.tmp")
    try:
        os.link(path, tmp)  # no copy: the backup shares the old file's data
    except OSError:
        shutil.copyfile(path, tmp)
    os.replace(tmp, first)


# -- reading ----------------------------------------------------------------------------------------


def read_bytes(path: Path | str) -> bytes:
    """The whole file, refusing absurd sizes before reading. Never writes."""
    from mqtui.saves.model import MAX_FILE

    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_FILE:
                raise SaveError(f"too large for a save: {size} bytes (the limit is {MAX_FILE})")
            data = f.read(MAX_FILE + 1)
    except FileNotFoundError:
        raise SaveError("no such file") from None
    except IsADirectoryError:
        raise SaveError("is a folder, not a save") from None
    except OSError as exc:
        raise SaveError(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE:
        raise SaveError(f"too large for a save: more than {MAX_FILE} bytes")
    return data


def read(path: Path | str) -> SaveData:
    """Read and decode a save (format checks only, no content). Raises SaveError."""
    data = read_bytes(path)
    try:
        return decode(data)
    except SaveError:
        raise
    except Exception as exc:  # a bug, but still one line and never a traceback for the player
        raise SaveError(f"cannot decode ({type(exc).__name__}: {exc})") from None


def read_header(path: Path | str) -> tuple[int, Header]:
    """The format and header only, without reading the body (for listings). Raises SaveError."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(PREFIX_SIZE)
            fmt, hlen, blen, _ = read_prefix(head, size)
            if fmt > FORMAT:
                return fmt, Header(program="", reader="", content="")
            if hlen > MAX_HEADER:
                raise SaveError(f"damaged: a header of {hlen} bytes is absurd")
            if PREFIX_SIZE + hlen + blen != size:
                raise SaveError(f"truncated: {size} of {PREFIX_SIZE + hlen + blen} bytes")
            return fmt, decode_header(f.read(hlen), fmt)
    except FileNotFoundError:
        raise SaveError("no such file") from None
    except OSError as exc:
        raise SaveError(f"cannot read: {exc.strerror or exc}") from None


def read_with_backups(path: Path | str) -> tuple[SaveData, Path, str]:
    """Read a slot, falling back to its backups: (save, the file read, why the slot itself failed)."""
    path = Path(path)
    try:
        return read(path), path, ""
    except SaveError as exc:
        first = str(exc)
    for i in itertools.count(1):
        backup = backup_path(path, i)
        if not backup.exists():
            break
        try:
            return read(backup), backup, first
        except SaveError:
            continue
    raise SaveError(first)


# -- slots ------------------------------------------------------------------------------------------


def autosave_path(folder: Path | None = None) -> Path:
    """The default autosave file: ``autosave.mqsave`` in the save folder."""
    return slot_path(AUTOSAVE_SLOT, folder)


def slot_path(name: str, folder: Path | None = None) -> Path:
    """The file of a named slot; names are letters, digits, spaces and ``_.+-`` (no paths)."""
    if name.endswith(SUFFIX):
        name = name[: -len(SUFFIX)]
    if not SLOT_NAME.fullmatch(name):
        raise SaveError(f"{name!r} is not a save name (letters, digits, spaces and _.+- only)")
    return (folder or saves_dir()) / f"{name}{SUFFIX}"


@dataclass(frozen=True)
class SaveEntry:
    path: Path
    name: str
    mtime: float
    size: int
    format: int = FORMAT
    header: Header | None = None
    error: str = ""


def list_saves(folder: Path | None = None) -> list[SaveEntry]:
    """Every ``*.mqsave`` in the folder, newest first, with its header (or why it cannot be read)."""
    folder = folder or saves_dir()
    if not folder.is_dir():
        return []
    out = []
    for p in folder.glob(f"*{SUFFIX}"):
        try:
            st = p.stat()
        except OSError:
            continue
        try:
            fmt, header = read_header(p)
            entry = SaveEntry(p, p.name[: -len(SUFFIX)], st.st_mtime, st.st_size, fmt, header)
        except SaveError as exc:
            entry = SaveEntry(p, p.name[: -len(SUFFIX)], st.st_mtime, st.st_size, error=str(exc))
        out.append(entry)
    out.sort(key=lambda e: (-e.mtime, e.name))
    return out
