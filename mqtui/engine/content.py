"""The content loader: reads the TOML game data under ``seeds/`` into :class:`~mqtui.engine.defs.Content`.

A content folder holds ``races.toml``, ``classes.toml``, ``rooms.toml``, ``monsters.toml``,
``treasure.toml``, ``dxm.toml`` and ``tables.toml`` (and optionally ``pack.toml``). The base folder must
have all of them; further folders are *packs* layered on top, in order. A pack entry whose id already
exists replaces the earlier one only when it says ``replace = true``; otherwise a duplicate id is an
error. A pack's ``tables.toml`` replaces the tables of the layers below it.

Every problem is reported as a :class:`ContentError` whose lines each name the file, the entry and the
field, e.g. ``seeds/base/monsters.toml: monster "slime-baron": field "level": expected int, got str``.
Rules text is made from the data (:mod:`mqtui.engine.rules_text`): data that no template prints is an
error; an entry may write the ``text`` it expects, which is not kept, and :func:`text_drift` lists those
that differ from the generated one (``mqtui content check`` fails on them).
See ``docs/content.md`` for the format.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from mqtui import paths
from mqtui.engine.content_check import ContentError, Item, Merged, check_content, validate
from mqtui.engine.decode import problem
from mqtui.engine.defs import (
    MOVE_KINDS,
    VOCABULARIES,
    WEIRD_KINDS,
    ClassDef,
    Content,
    Def,
    DxmDef,
    MonsterDef,
    RaceDef,
    RoomDef,
    SearchRow,
    Tables,
    TreasureDef,
)
from mqtui.engine.rules_text import Words

__all__ = [
    "CONTENT_FILES",
    "ContentError",
    "PackInfo",
    "check_content",
    "clear_cache",
    "counts",
    "load_content",
    "pack_info",
    "text_drift",
]

# file name -> (top-level key, definition type, label used in messages)
CONTENT_FILES: dict[str, tuple[str, type[Def], str]] = {
    "races.toml": ("race", RaceDef, "race"),
    "classes.toml": ("class", ClassDef, "class"),
    "rooms.toml": ("room", RoomDef, "room"),
    "monsters.toml": ("monster", MonsterDef, "monster"),
    "treasure.toml": ("treasure", TreasureDef, "treasure"),
    "dxm.toml": ("dxm", DxmDef, "dxm"),
}
CONTENT_KEYS = tuple(key for key, _, _ in CONTENT_FILES.values())
TABLES_FILE = "tables.toml"
PACK_FILE = "pack.toml"
ALL_FILES: tuple[str, ...] = (*CONTENT_FILES, TABLES_FILE)


@dataclass(frozen=True)
class PackInfo:
    """What a content folder's optional ``pack.toml`` says about it."""

    path: Path
    name: str
    description: str = ""


# ---------------------------------------------------------------------------------------------------
# public API


def load_content(dirs: Sequence[Path | str] | None = None) -> Content:
    """Load and validate the content of ``dirs`` (default: the base content), layered in order.

    The first folder is the base and must hold every file; the rest are packs. Results are cached on
    the resolved folders (and their files' modification times), so repeated calls are cheap.
    """
    return _loaded(dirs)[0]


def text_drift(dirs: Sequence[Path | str] | None = None) -> list[str]:
    """One line for each entry of ``dirs`` whose file writes a ``text`` that is not the rules text made
    from its data (``mqtui content check`` fails on them; a game never shows them). Raises ContentError
    as :func:`load_content` does."""
    return _loaded(dirs)[1]


def _loaded(dirs: Sequence[Path | str] | None) -> tuple[Content, list[str]]:
    resolved = tuple(Path(d).resolve() for d in (dirs if dirs else [paths.BASE_CONTENT_DIR]))
    return _load_cached(resolved, _fingerprint(resolved))


def clear_cache() -> None:
    """Forget every cached load (tests that edit content in place use this)."""
    _load_cached.cache_clear()


def pack_info(directory: Path | str) -> PackInfo | None:
    """The ``pack.toml`` of a content folder, or None if it has none."""
    path = Path(directory) / PACK_FILE
    if not path.is_file():
        return None
    shown = _display(path)
    data = _parse_toml(path, shown)
    name = data.get("name", Path(directory).name)
    description = data.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise ContentError(f'{shown}: pack: fields "name" and "description" must be strings')
    unknown = sorted(set(data) - {"name", "description"})
    if unknown:
        raise ContentError(f'{shown}: pack: field "{unknown[0]}": unknown field')
    return PackInfo(path=Path(directory), name=name, description=description)


# ---------------------------------------------------------------------------------------------------
# loading


def _fingerprint(dirs: tuple[Path, ...]) -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    for d in dirs:
        for name in (*ALL_FILES, PACK_FILE):
            p = d / name
            try:
                st = p.stat()
            except OSError:
                continue
            out.append((str(p), st.st_mtime_ns, st.st_size))
    return tuple(out)


@functools.lru_cache(maxsize=32)
def _load_cached(
    dirs: tuple[Path, ...], fingerprint: tuple[tuple[str, int, int], ...]
) -> tuple[Content, list[str]]:
    del fingerprint  # only part of the cache key
    return _load(dirs)


def _display(path: Path) -> str:
    """A short path for messages: relative to the folder holding seeds/ or the working directory."""
    for root in (paths.SEEDS_DIR.parent, Path.cwd()):
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def _parse_toml(path: Path, shown: str) -> dict[str, Any]:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(f"{shown}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        return _parse_text(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_AT.search(str(exc))
        if m:
            what = str(exc)[: m.start()].rstrip()
            raise ContentError(
                f"{shown}: line {m.group(1)}, column {m.group(2)}: TOML syntax error: {what}"
            ) from None
        raise ContentError(f"{shown}: TOML syntax error: {exc}") from None


@functools.lru_cache(maxsize=64)
def _parse_text(text: str) -> dict[str, Any]:
    """A file's TOML, parsed once per text (the same files are loaded again in other folders, with a
    pack, after an edit elsewhere...). The tables are shared: read them, never change them (the
    loader copies an entry before it takes ``replace`` out, and msgspec copies what it converts)."""
    return tomllib.loads(text)


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _entry_label(kind: str, entry: Any, index: int) -> str:
    if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"]:
        return f'{kind} "{entry["id"]}"'
    return f"{kind} #{index + 1}"


def _written_text(entry: dict[str, Any], shown: str, label: str, errors: list[str]) -> str | None:
    """Take out the ``text`` an entry writes (checked against its rules text, never kept)."""
    text = entry.pop("text", None)
    if text is not None and not isinstance(text, str):
        errors.append(f'{shown}: {label}: field "text": expected str, got {type(text).__name__}')
        return None
    return text


def _convert(entry: Any, typ: type[Any], shown: str, label: str, errors: list[str]) -> Any | None:
    if not isinstance(entry, dict):
        errors.append(f"{shown}: {label}: expected a table, got {type(entry).__name__}")
        return None
    try:
        return msgspec.convert(entry, typ)
    except msgspec.ValidationError as exc:
        where, msg = problem(exc, typ, entry, VOCABULARIES)
        errors.append(f'{shown}: {label}: field "{where or "(entry)"}": {msg}')
        return None


def _load(dirs: tuple[Path, ...]) -> tuple[Content, list[str]]:
    if not dirs:
        raise ContentError("no content folders given")
    errors: list[str] = []
    merged = Merged()
    hasher = hashlib.sha256()
    for layer, directory in enumerate(dirs):
        base = layer == 0
        if not directory.is_dir():
            raise ContentError(f"{_display(directory)}: not a content folder")
        if not base:
            pack_info(directory)  # validates pack.toml if present
        for name in sorted((*ALL_FILES, PACK_FILE)):
            p = directory / name
            if p.is_file():
                hasher.update(f"{layer}:{name}\0".encode())
                hasher.update(p.read_bytes())
                hasher.update(b"\0")
        for name, (key, typ, kind) in CONTENT_FILES.items():
            path = directory / name
            shown = _display(path)
            if not path.is_file():
                if base:
                    errors.append(f"{shown}: missing (the base content needs every file)")
                continue
            data = _parse_toml(path, shown)
            allowed = {key, "entrance"} if name == "rooms.toml" else {key}
            for top in sorted(set(data) - allowed):
                errors.append(f'{shown}: unknown table "{top}" (expected [[{key}]])')
            if name == "rooms.toml":
                _load_entrance(data, shown, base, merged, errors)
            entries = data.get(key, [])
            if not isinstance(entries, list):
                errors.append(f'{shown}: "{key}" must be an array of tables ([[{key}]])')
                continue
            target = merged.by_key(key)
            for index, raw in enumerate(entries):
                label = _entry_label(kind, raw, index)
                replace = False
                written = None
                if isinstance(raw, dict) and ("replace" in raw or "text" in raw):
                    raw = dict(raw)
                    written = _written_text(raw, shown, label, errors)
                if isinstance(raw, dict) and "replace" in raw:
                    flag = raw.pop("replace")
                    if not isinstance(flag, bool):
                        errors.append(
                            f'{shown}: {label}: field "replace": expected bool, got {type(flag).__name__}'
                        )
                        continue
                    replace = flag
                obj = _convert(raw, typ, shown, label, errors)
                if obj is None:
                    continue
                ident: str = obj.id
                if not ident:
                    errors.append(f'{shown}: {label}: field "id": must not be empty')
                    continue
                item = Item(obj, shown, label, written)
                if ident in target:
                    prev = target[ident]
                    if prev.file == shown:
                        errors.append(
                            f'{shown}: {label}: field "id": duplicate id (already used in this file)'
                        )
                    elif not replace:
                        errors.append(
                            f'{shown}: {label}: field "id": duplicate id (already defined in {prev.file}); '
                            "add replace = true to override it"
                        )
                    else:
                        target[ident] = item
                    continue
                if replace:
                    errors.append(
                        f'{shown}: {label}: field "replace": nothing to replace (no earlier "{ident}")'
                    )
                    continue
                target[ident] = item
        tpath = directory / TABLES_FILE
        tshown = _display(tpath)
        if tpath.is_file():
            tdata = _parse_toml(tpath, tshown)
            tables = _convert_tables(tdata, tshown, errors)
            if tables is not None:
                merged.tables, merged.tables_file = tables, tshown
        elif base:
            errors.append(f"{tshown}: missing (the base content needs every file)")
    if errors:
        raise ContentError(errors)
    validate(merged, errors)
    if errors:
        raise ContentError(errors)
    assert merged.entrance is not None and merged.tables is not None
    content = Content(
        version=hasher.hexdigest()[:12],
        races={k: v.obj for k, v in merged.races.items()},
        classes={k: v.obj for k, v in merged.classes.items()},
        entrance=merged.entrance.obj,
        rooms=tuple(v.obj for v in merged.rooms.values()),
        monsters=tuple(v.obj for v in merged.monsters.values()),
        treasures=tuple(v.obj for v in merged.treasures.values()),
        dxm=tuple(v.obj for v in merged.dxm.values()),
        tables=merged.tables,
    )
    return content, _check_texts(content, merged)


def _check_texts(content: Content, merged: Merged) -> list[str]:
    """Refuse data that no rules text template prints (ContentError); return the entries whose files
    write a ``text`` that is not the one made from their data."""
    words = Words(content)
    items = [merged.entrance, *(it for key in CONTENT_KEYS for it in merged.by_key(key).values())]
    errors, drift = [], []
    for it in items:
        assert it is not None
        errors += [f'{it.file}: {it.label}: field "{fld}": {why}' for fld, why in words.check(it.obj)]
        made = words.text(it.obj)
        if it.text is not None and it.text != made:
            drift.append(
                f'{it.file}: {it.label}: field "text": differs from the rules text made from its data: "{made}"'
            )
    errors += [
        f'{merged.tables_file}: {fld.split(".")[0]}: field "{fld}": {why}'
        for fld, why in words.check(content.tables)
    ]
    for i, row in enumerate(content.tables.search):
        errors += [
            f'{merged.tables_file}: search row #{i + 1}: field "{fld}": {why}'
            for fld, why in words.check(row)
        ]
    if errors:
        raise ContentError(errors)
    return drift


def _load_entrance(data: dict[str, Any], shown: str, base: bool, merged: Merged, errors: list[str]) -> None:
    raw = data.get("entrance")
    if raw is None:
        if base:
            errors.append(f"{shown}: entrance: missing [entrance] table")
        return
    replace = False
    written = None
    if isinstance(raw, dict):
        raw = dict(raw)
        written = _written_text(raw, shown, "entrance", errors)
        replace = raw.pop("replace", False) is True
    if not base and not replace:
        errors.append(f'{shown}: entrance: field "id": the entrance is already defined; add replace = true')
        return
    obj = _convert(raw, RoomDef, shown, "entrance", errors)
    if obj is not None:
        merged.entrance = Item(obj, shown, "entrance", written)


def _convert_tables(data: dict[str, Any], shown: str, errors: list[str]) -> Tables | None:
    n = len(errors)
    for top in sorted(set(data) - {"search", "bag", "move_cost"}):
        errors.append(f'{shown}: unknown table "{top}" (expected [[search]], [bag], [move_cost])')
    rows = data.get("search")
    if not isinstance(rows, list) or not rows:
        errors.append(f"{shown}: search: missing [[search]] rows")
        rows = []
    converted: list[SearchRow] = []
    for index, raw in enumerate(rows):
        row = _convert(raw, SearchRow, shown, f"search row #{index + 1}", errors)
        if row is not None:
            converted.append(row)
    for key in ("bag", "move_cost"):
        value = data.get(key)
        if not isinstance(value, dict):
            errors.append(f"{shown}: {key}: missing [{key}] table")
            continue
        for k, v in value.items():
            if not isinstance(v, int) or isinstance(v, bool):
                errors.append(f'{shown}: {key}: field "{k}": expected int, got {type(v).__name__}')
    if len(errors) > n:
        return None
    return Tables(search=tuple(converted), bag=dict(data["bag"]), move_cost=dict(data["move_cost"]))


def counts(content: Content) -> dict[str, int]:
    """Counts per kind, as ``mqtui content check`` prints them (physical cards count copies)."""
    out: dict[str, int] = {
        "races": len(content.races),
        "classes": len(content.classes),
        "rooms": len(content.rooms),
        "tiles": len({r.tile for r in content.rooms}),
        "rooms with a deal": sum(1 for r in content.rooms if r.deal is not None),
        "rooms with rules": sum(1 for r in content.rooms if r.rules),
        "monster cards": sum(mo.count for mo in content.monsters),
        "monsters distinct": len(content.monsters),
        "treasure cards": sum(t.count for t in content.treasures),
        "treasures distinct": len(content.treasures),
        "dxm cards": sum(d.count for d in content.dxm),
        "dxm distinct": len(content.dxm),
    }
    moves: Counter[str] = Counter()
    for mo in content.monsters:
        key = f"{mo.move}:{mo.weird}" if mo.move == "weird" else mo.move
        moves[key] += mo.count
    for key in (*MOVE_KINDS[:-1], *(f"weird:{w}" for w in WEIRD_KINDS)):
        out[f"monsters {key}"] = moves.get(key, 0)
    return out
