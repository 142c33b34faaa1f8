"""Saved games: the msgpack save format, checks, replays, atomic files, slots and autosave.

The store (:mod:`mqtui.store`) is the usual way in: ``LocalStore.load(path, engine)``,
``store.save(path)``, ``store.autosave_to(path)``. This package is what it uses, and what the
``check``, ``replay`` and ``saves`` commands use:

- :func:`read` / :func:`decode`: bytes -> :class:`SaveData`, checking marker, format, sizes and types;
- :func:`engine_of`: the engine a save continues with (the content it carries, see :mod:`.defs`);
- :func:`validate`: against an engine's content (ids in range, every card in one place, ...);
- :func:`load`: both, plus optionally :func:`verify` (replay the log, compare with the snapshot);
- :func:`describe_content`: one line for players on the content a game plays with;
- :func:`write_atomic`, :func:`slot_path`, :func:`list_saves`, :class:`AutoSaver`.

Every failure is a :class:`SaveError` whose message is one line. See ``docs/store.md`` for the format.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mqtui.paths import AUTOSAVE_SLOT, latest_autosave, saves_dir
from mqtui.saves.autosave import AutoSaver
from mqtui.saves.check import content_mismatch, first_difference, replay, validate, verify
from mqtui.saves.codec import ActionBuffer, decode, encode, encode_parts, encode_state, make_header
from mqtui.saves.defs import describe_content, describe_listed, engine_of, installed_version
from mqtui.saves.errors import SaveError
from mqtui.saves.files import (
    BACKUPS,
    SaveEntry,
    autosave_path,
    backup_path,
    list_saves,
    read,
    read_bytes,
    read_header,
    read_with_backups,
    slot_path,
    write_atomic,
)
from mqtui.saves.model import FORMAT, SUFFIX, Defs, Header, SaveData, SeatRec, Summary, describe, summarise

if TYPE_CHECKING:
    from mqtui.engine.game import Engine

__all__ = [
    "AUTOSAVE_SLOT",
    "BACKUPS",
    "FORMAT",
    "SUFFIX",
    "ActionBuffer",
    "AutoSaver",
    "Defs",
    "Header",
    "SaveData",
    "SaveEntry",
    "SaveError",
    "SeatRec",
    "Summary",
    "autosave_path",
    "backup_path",
    "content_mismatch",
    "decode",
    "describe",
    "describe_content",
    "describe_listed",
    "encode",
    "encode_parts",
    "encode_state",
    "engine_for",
    "engine_of",
    "first_difference",
    "installed_version",
    "latest_autosave",
    "list_saves",
    "load",
    "make_header",
    "read",
    "read_bytes",
    "read_header",
    "read_with_backups",
    "replay",
    "saves_dir",
    "slot_path",
    "summarise",
    "validate",
    "verify",
    "write_atomic",
]


def load(path: Path | str, engine: Engine | None = None, check_log: bool = False) -> SaveData:
    """Read, decode and validate a save, with the content it carries (see :func:`engine_of`; ``engine``
    is the installed one); with ``check_log`` also replay and verify it."""
    data = read(path)
    engine = engine_of(data, engine)
    validate(data, engine)
    if check_log:
        verify(data, engine)
    return data


def engine_for(header: Header, content_dirs: list[Path] | None = None) -> Engine:
    """An engine for a save: ``content_dirs`` if given, else the base content plus the header's packs
    (looked up by name, see :mod:`mqtui.packs`). Raises SaveError if the content cannot be loaded."""
    from mqtui import packs
    from mqtui.engine.content import ContentError, load_content
    from mqtui.engine.game import Engine

    if not content_dirs:
        why = packs.missing_pack(header.packs)
        if why:
            raise SaveError(why)
        try:
            content_dirs = packs.content_dirs(header.packs)
        except packs.PackError as exc:
            raise SaveError(str(exc)) from None
    try:
        return Engine(load_content(content_dirs))
    except ContentError as exc:
        first = exc.errors[0] if exc.errors else str(exc)
        raise SaveError(f"the content cannot be loaded: {first}") from None
