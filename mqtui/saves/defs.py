"""A save's own copy of its content, so that a game outlives changes to the cards.

Card and room numbers in a save mean something only in the content the game was made with. Each save
(format 2 on) therefore carries that content, base and packs merged, as one :class:`~mqtui.saves.model.Defs`:
the :class:`~mqtui.engine.defs.Content` as msgpack, zlib-compressed (about 13 KiB for the base content).
A game continues with the content it started with: :func:`engine_of` gives the engine a save is played,
checked and replayed with. When the carried content is exactly the installed one, the installed engine
is used; otherwise an engine is built from the save's copy (and kept, so that loading it again is free).

Saves of format 0 and 1 carry no content. Their content is looked up by version in the *archive*
(``mqtui/saves/archive/VERSION.mqdefs``, one file per content this program's releases shipped, written
by ``scripts/archive_content.py``); failing that, the installed content must be the same version (as
before). Everything read from a file is checked as the content loader checks TOML: bounded decompression,
typed decoding, then :func:`~mqtui.engine.content.check_content`.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

import msgspec

from mqtui.engine.content import check_content
from mqtui.engine.defs import Content
from mqtui.engine.game import Engine
from mqtui.saves.errors import DECODE_ERRORS, SaveError
from mqtui.saves.model import Defs, Header, SaveData

DEFS_FORMAT = 2  # the shape of Defs.data this program writes (and reads, with the older ones below)
# Shape 1 (up to issue 26) gave every race, class, room and card a hand-written "text": rules text is now
# made from the data (mqtui.engine.rules_text), so reading shape 1 drops it (see _drop_texts).
OLDER_FORMATS = frozenset({1})
MAX_CONTENT = 4 * 1024 * 1024  # decompressed; the base content is about 47 KiB
ARCHIVE_DIR = Path(__file__).resolve().parent / "archive"
ARCHIVE_SUFFIX = ".mqdefs"

_encoder = msgspec.msgpack.Encoder()
_content_decoder = msgspec.msgpack.Decoder(Content)
_defs_decoder = msgspec.msgpack.Decoder(Defs)
_lock = threading.Lock()
_packed: OrderedDict[int, tuple[Content, Defs, bytes]] = OrderedDict()  # id(content) -> (it, Defs, msgpack)
_engines: OrderedDict[bytes, Engine] = OrderedDict()  # Defs.data -> an engine built from it
_KEEP = 8  # engines built from saves' contents
_KEEP_PACKED = 64  # contents packed for saving (a few ms each to pack, ~13 KiB each to keep)


def pack(content: Content) -> tuple[Defs, bytes]:
    """The content as a save carries it, and that as msgpack (to splice into a save). Computed once per
    content object (a few ms), so that autosaving costs nothing more."""
    key = id(content)
    hit = _packed.get(key)
    if hit is not None and hit[0] is content:
        return hit[1], hit[2]
    defs = Defs(format=DEFS_FORMAT, version=content.version, data=zlib.compress(_encoder.encode(content), 9))
    raw = _encoder.encode(defs)
    with _lock:
        _packed[key] = (content, defs, raw)  # the content is kept alive, so its id stays its own
        while len(_packed) > _KEEP_PACKED:
            _packed.popitem(last=False)  # the oldest (a host with many tables of many contents)
    return defs, raw


def _check_format(defs: Defs) -> None:
    if defs.format != DEFS_FORMAT and defs.format not in OLDER_FORMATS:
        raise SaveError(f"the save's content is in shape {defs.format}, this program reads {DEFS_FORMAT}")


def _decode(raw: bytes, fmt: int) -> Content:
    """The content from its msgpack, of shape ``fmt`` (an older shape converted to the current one)."""
    if fmt == DEFS_FORMAT:
        return _content_decoder.decode(raw)
    plain = msgspec.msgpack.decode(raw)
    if isinstance(plain, dict):
        _drop_texts(plain)
    return msgspec.convert(plain, Content)


def _drop_texts(plain: dict[str, Any]) -> None:
    """Shape 1 -> 2: the hand-written rules texts go (a game shows the ones made from the data)."""
    entries: list[Any] = [plain.get("entrance")]
    for key in ("races", "classes"):
        value = plain.get(key)
        entries += list(value.values()) if isinstance(value, dict) else []
    for key in ("rooms", "monsters", "treasures", "dxm"):
        value = plain.get(key)
        entries += value if isinstance(value, list) else []
    for entry in entries:
        if isinstance(entry, dict):
            entry.pop("text", None)


def unpack(defs: Defs) -> Content:
    """The content a save carries, checked as the loader checks TOML. Raises SaveError (one line)."""
    _check_format(defs)
    try:
        z = zlib.decompressobj()
        raw = z.decompress(defs.data, MAX_CONTENT)
        if z.unconsumed_tail or not z.eof:
            raise SaveError("damaged content in the save: too large or cut short")
        content = _decode(raw, defs.format)
    except zlib.error as exc:
        raise SaveError(f"damaged content in the save: {exc}") from None
    except DECODE_ERRORS as exc:
        raise SaveError(f"damaged content in the save: {exc}") from None
    if content.version != defs.version:
        raise SaveError(f"damaged content in the save: it says {content.version}, its label {defs.version}")
    errors = check_content(content)
    if errors:
        raise SaveError(f"damaged content in the save: {errors[0]}")
    return content


def engine_from(defs: Defs, installed: Engine | None = None) -> Engine:
    """The engine for a carried content: ``installed`` if it is exactly that content, else one built
    from the save's copy (cached). Raises SaveError."""
    _check_format(defs)
    if installed is not None and pack(installed.content)[0].data == defs.data:
        return installed
    with _lock:
        hit = _engines.get(defs.data)
        if hit is not None:
            _engines.move_to_end(defs.data)
            return hit
    try:
        engine = Engine(unpack(defs))
    except SaveError:
        raise
    except Exception as exc:  # a content the checks let through but the card table cannot build
        raise SaveError(f"damaged content in the save: {type(exc).__name__}: {exc}") from None
    with _lock:
        _engines[defs.data] = engine
        while len(_engines) > _KEEP:
            _engines.popitem(last=False)
    return engine


def read_defs(path: Path | str) -> Defs:
    """A content written on its own (:func:`write_defs`, the archive). Raises SaveError."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_CONTENT + 1)
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return _defs_decoder.decode(data)
    except DECODE_ERRORS as exc:
        raise SaveError(f"{path}: not a content file: {exc}") from None


def write_defs(content: Content, path: Path | str) -> Path:
    """Write a content on its own (0600, atomically): for the archive, and for the players' apps of a
    served game that goes on with a content that is not installed. Returns the path."""
    from mqtui.atomic import write_atomic

    write_atomic(path, pack(content)[1])
    return Path(path)


def clear_cache() -> None:
    """Forget the engines built from saves' contents (benchmarks measure a first load with this)."""
    with _lock:
        _engines.clear()


def archived(version: str, folder: Path | None = None) -> Defs | None:
    """The content of that version from the archive of released contents, or None."""
    if not version or not version.isalnum() or len(version) > 64:
        return None
    path = (folder or ARCHIVE_DIR) / f"{version}{ARCHIVE_SUFFIX}"
    if not path.is_file():
        return None
    try:
        defs = read_defs(path)
    except SaveError:
        return None
    return defs if defs.version == version else None


def archive(content: Content, folder: Path | None = None) -> Path:
    """Add a content to the archive (for ``scripts/archive_content.py``); returns the file."""
    return write_defs(content, (folder or ARCHIVE_DIR) / f"{content.version}{ARCHIVE_SUFFIX}")


def engine_of(
    data: SaveData, installed: Engine | None = None, content_dirs: list[Path] | None = None
) -> Engine:
    """The engine a save continues with: the content it carries (or its archived content, for an old
    save); failing both, ``installed`` (or the content in ``content_dirs``, or the base content with the
    header's packs), which must then be the save's own version. A pack the save names must be installed
    (unless ``content_dirs`` says where its content is), even though the save carries that pack's cards:
    a game made with a pack loads only where the pack is. Raises SaveError (one line)."""
    if not content_dirs:
        from mqtui.packs import missing_pack

        why = missing_pack(data.header.packs)
        if why:
            raise SaveError(why)
    if data.defs is not None:
        if data.defs.version != data.header.content:
            raise SaveError(
                f"damaged: the save carries content {data.defs.version} but says {data.header.content}"
            )
        return engine_from(data.defs, installed)
    if installed is None:
        from mqtui.saves import engine_for

        installed = engine_for(data.header, content_dirs)
    from mqtui.saves.check import content_mismatch

    why = content_mismatch(data, installed)
    if why:
        raise SaveError(f"{why}, and the save does not carry its content")
    return installed


def describe_content(data: SaveData, installed: str | None = None) -> str:
    """One line on the content a game plays with, for players: which version, where its cards come
    from (the save, or the archive for a save of mqtui 0.1.0) and how it compares with the installed
    content (``installed``: its version)."""
    kept = "" if data.defs is None else "kept in the save" if data.format >= 2 else "kept by mqtui"
    return _describe(data.header, kept, installed)


def describe_listed(fmt: int, header: Header, installed: str | None = None) -> str:
    """The same from a listing's header alone (a save of format 2 or later carries its content; an
    older one has it if the archive does)."""
    kept = "kept in the save" if fmt >= 2 else "kept by mqtui" if archived(header.content) else ""
    return _describe(header, kept, installed)


def _describe(header: Header, kept: str, installed: str | None) -> str:
    version = header.content
    what = f"content {version} ({' + '.join(['base', *header.packs])})"
    if installed == version:
        return f"{what}, as installed"
    if not kept:
        return f"{what}: not in the save and not installed"
    if installed is None:
        return f"{what}, {kept}"
    return f"{what}, {kept}: the game goes on with the cards it began with (installed: {installed})"


def installed_version(header: Header) -> str | None:
    """The version of the installed content for a save's packs (None if it cannot be loaded)."""
    from mqtui.saves import engine_for

    try:
        return engine_for(header).content.version
    except SaveError:
        return None
