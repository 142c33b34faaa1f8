"""Save files on disk: atomic writes with backups, capped reads, named slots in the data folder.

Writing ``slot.mqsave`` never leaves it broken (:func:`mqtui.atomic.write_atomic`): the new bytes go to
a temporary file in the same folder (flushed and fsynced), the previous versions shift to
``slot.mqsave.1``, ``.2`` (the current file is hard-linked, never moved away, so the slot name always
holds a complete save), then the temporary file replaces the slot with ``os.replace`` and the folder is
fsynced. Killing the writer at any moment leaves either the old or the new save under the slot name.
Saves are created 0600 in folders made 0700: they hold every hand and the deck order.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from mqtui import atomic
from mqtui.atomic import backup_path as backup_path
from mqtui.paths import AUTOSAVE_SLOT, saves_dir
from mqtui.saves.codec import decode, decode_header, read_prefix
from mqtui.saves.errors import SaveError
from mqtui.saves.model import FORMAT, MAX_HEADER, PREFIX_SIZE, SUFFIX, Header, SaveData

BACKUPS = 2  # slot.mqsave.1 and slot.mqsave.2
SLOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.+-]{0,63}")


def write_atomic(path: Path | str, data: bytes, backups: int = BACKUPS) -> None:
    """Write a save so that a crash at any moment leaves the old or the new file there, keeping
    ``backups`` older versions; the file is private (0600, see :mod:`mqtui.atomic`)."""
    atomic.write_atomic(path, data, backups)


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
