"""Bytes <-> saves: the fixed prefix, the header, the body, and the checks done before decoding.

Reading never trusts the file: the size is capped before anything is read, the 32-byte prefix (magic
marker, format, lengths, CRC-32) is checked before any msgpack is decoded, the format is checked before
the header and body are, and both are decoded into typed Structs with length limits (msgspec validates
while decoding). Every failure is a :class:`SaveError` with one line that says what is wrong.
"""

from __future__ import annotations

import struct
import zlib
from datetime import UTC, datetime

import msgspec

from mqtui import __version__
from mqtui.engine.actions import Action, Event
from mqtui.engine.state import State
from mqtui.saves.errors import DECODE_ERRORS, SaveError
from mqtui.saves.migrate import upgrade
from mqtui.saves.model import (
    FORMAT,
    INT_MAPS,
    MAGIC,
    MAX_FILE,
    MAX_HEADER,
    PREFIX_SIZE,
    READER,
    Game,
    GameOut,
    Header,
    SaveData,
    SeatRec,
    StateRec,
    summarise,
)

_U32 = 0xCE
_PREFIX_HEAD = bytes([0x95, 0xA0 | len(MAGIC)]) + MAGIC  # fixarray(5), fixstr(10) "mqtui-save"
_PREFIX = struct.Struct(">12sBIBIBIBI")
assert _PREFIX.size == PREFIX_SIZE

_encoder = msgspec.msgpack.Encoder()
_header_decoder = msgspec.msgpack.Decoder(Header)
_game_decoder = msgspec.msgpack.Decoder(Game)


# -- writing ----------------------------------------------------------------------------------------


def _array_header(n: int) -> bytes:
    if n < 16:
        return bytes([0x90 | n])
    if n < 1 << 16:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


def encode_action(a: Action) -> bytes:
    """One action as a short msgpack array: ``[seat, kind, args...]`` without trailing unused (-1) args."""
    args = [a.a, a.b, a.c]
    while args and args[-1] == -1:
        args.pop()
    return _encoder.encode((a.seat, a.kind, *args))


class ActionBuffer:
    """The action log, each action encoded once, so that saving a long game re-encodes nothing.

    :meth:`sync` follows the list it is given: actions appended since the last call are encoded, and a
    list that was cut back (an undo) or changed at its end is noticed by identity and re-encoded from
    where it differs.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._ends: list[int] = []
        self._acts: list[Action] = []

    def __len__(self) -> int:
        return len(self._acts)

    def _truncate(self, n: int) -> None:
        del self._acts[n:]
        del self._ends[n:]
        del self._buf[self._ends[-1] if self._ends else 0 :]

    def sync(self, actions: list[Action]) -> msgspec.Raw:
        """The msgpack array of ``actions``, re-using what is already encoded."""
        k = min(len(self._acts), len(actions))
        while k and actions[k - 1] is not self._acts[k - 1]:
            k -= 1
        if k < len(self._acts):
            self._truncate(k)
        for a in actions[k:]:
            self._buf += encode_action(a)
            self._ends.append(len(self._buf))
            self._acts.append(a)
        return msgspec.Raw(_array_header(len(self._acts)) + self._buf)


def encode_state(state: State) -> bytes:
    """A state as a :class:`StateRec` map (its int-keyed maps moved out into lists of pairs).

    The state is not touched (a shallow copy with empty maps is encoded), so this is safe to call from
    a signal handler that interrupted anything.
    """
    maps = {name: list(getattr(state, name).items()) for name, _ in INT_MAPS}
    shell = msgspec.structs.replace(state, **{name: {} for name, _ in INT_MAPS})
    return _encoder.encode(StateRec(state=shell, maps=maps))


def unpack_state(rec: StateRec) -> State:
    """The State of a decoded :class:`StateRec`, its int-keyed maps put back (and type-checked)."""
    s = rec.state
    for name, typ in INT_MAPS:
        pairs = rec.maps.get(name, [])
        try:
            setattr(s, name, msgspec.convert(dict(pairs), typ))
        except msgspec.ValidationError as exc:
            raise SaveError(f"damaged game data: state.{name}: {exc}") from None
    unknown = set(rec.maps) - {name for name, _ in INT_MAPS}
    if unknown:
        raise SaveError(f"damaged game data: unknown state map {sorted(unknown)[0]!r}")
    return s


def make_header(state: State, seats: list[SeatRec], n_actions: int, packs: list[str] | None = None) -> Header:
    return Header(
        program=__version__,
        reader=READER,
        content=state.content,
        packs=list(packs or []),
        saved=datetime.now(UTC).isoformat(timespec="seconds"),
        summary=summarise(state, seats, n_actions),
    )


def pack_file(header: bytes, body: bytes, fmt: int = FORMAT) -> bytes:
    """Prefix + header + body. ``fmt`` is only ever not FORMAT in tests and fixture scripts."""
    crc = zlib.crc32(body, zlib.crc32(header))
    prefix = _PREFIX.pack(_PREFIX_HEAD, _U32, fmt, _U32, len(header), _U32, len(body), _U32, crc)
    return prefix + header + body


def encode_parts(
    header: Header,
    seed: int,
    seats: list[SeatRec],
    actions: msgspec.Raw,
    state: State,
    log: list[Event],
    start: bytes | None = None,
    defs: bytes | None = None,
) -> bytes:
    """The fast path used by the store: pre-encoded actions, start state and content (``defs``: a
    :class:`~mqtui.saves.model.Defs` as msgpack, see :func:`mqtui.saves.defs.pack`) are spliced in."""
    body = _encoder.encode(
        GameOut(
            seed=seed,
            seats=seats,
            actions=actions,
            snapshot=msgspec.Raw(encode_state(state)),
            start=None if start is None else msgspec.Raw(start),
            log=msgspec.Raw(_encoder.encode(log)),
            content=None if defs is None else msgspec.Raw(defs),
        )
    )
    return pack_file(_encoder.encode(header), body)


def encode(data: SaveData) -> bytes:
    """A whole save as bytes (format FORMAT)."""
    buf = ActionBuffer()
    return encode_parts(
        data.header,
        data.seed,
        data.seats,
        buf.sync(data.actions),
        data.state,
        data.log,
        None if data.start is None else encode_state(data.start),
        None if data.defs is None else _encoder.encode(data.defs),
    )


# -- reading ----------------------------------------------------------------------------------------


def read_prefix(buf: bytes, size: int | None = None) -> tuple[int, int, int, int]:
    """Check the marker and return (format, header length, body length, crc).

    ``size`` is the whole file's size when ``buf`` holds only its start.
    """
    size = len(buf) if size is None else size
    if size > MAX_FILE:
        raise SaveError(f"too large for a save: {size} bytes (the limit is {MAX_FILE})")
    head = buf[: len(_PREFIX_HEAD)]
    if head != _PREFIX_HEAD[: len(head)] or not head:
        raise SaveError("not an mqtui save (no 'mqtui-save' marker at the start)")
    if len(buf) < PREFIX_SIZE:
        raise SaveError(f"truncated: only {size} bytes, not even the {PREFIX_SIZE}-byte prefix")
    _, m1, fmt, m2, hlen, m3, blen, m4, crc = _PREFIX.unpack_from(buf)
    if (m1, m2, m3, m4) != (_U32, _U32, _U32, _U32):
        raise SaveError("damaged: the prefix after the 'mqtui-save' marker is malformed")
    return fmt, hlen, blen, crc


def _newer(fmt: int, buf: bytes, hlen: int) -> SaveError:
    need = ""
    if 0 < hlen <= MAX_HEADER and len(buf) >= PREFIX_SIZE + hlen:
        try:
            h = msgspec.msgpack.decode(buf[PREFIX_SIZE : PREFIX_SIZE + hlen], type=Header)
            need = h.reader or h.program
        except DECODE_ERRORS:
            pass
    wants = f"mqtui {need} or newer" if need else "a newer mqtui"
    return SaveError(
        f"save format {fmt} is newer than this program reads (mqtui {__version__} reads formats up to "
        f"{FORMAT}): it needs {wants}"
    )


def decode_header(buf: bytes, fmt: int) -> Header:
    try:
        return _header_decoder.decode(buf)
    except DECODE_ERRORS as exc:
        raise SaveError(f"damaged header: {exc}") from None


def decode(buf: bytes) -> SaveData:
    """Check and decode a whole save file's bytes; older formats are migrated. Raises SaveError."""
    fmt, hlen, blen, crc = read_prefix(buf)
    if fmt > FORMAT:
        raise _newer(fmt, buf, hlen)
    if hlen > MAX_HEADER:
        raise SaveError(f"damaged: a header of {hlen} bytes is absurd (the limit is {MAX_HEADER})")
    want = PREFIX_SIZE + hlen + blen
    if len(buf) < want:
        raise SaveError(f"truncated: {len(buf)} of {want} bytes")
    if len(buf) > want:
        raise SaveError(f"damaged: {len(buf) - want} unexpected bytes after the end of the save")
    if zlib.crc32(buf[PREFIX_SIZE:]) != crc:
        raise SaveError("damaged: the checksum does not match the contents")
    header = decode_header(buf[PREFIX_SIZE : PREFIX_SIZE + hlen], fmt)
    body = buf[PREFIX_SIZE + hlen :]
    if fmt < FORMAT:
        game = upgrade(fmt, body)
    else:
        try:
            game = _game_decoder.decode(body)
        except DECODE_ERRORS as exc:
            raise SaveError(f"damaged game data: {exc}") from None
    defs = game.content
    if defs is None:  # an old save: its content from the archive of released contents, if it is there
        from mqtui.saves.defs import archived

        defs = archived(header.content)
    return SaveData(
        header=header,
        seed=game.seed,
        seats=game.seats,
        actions=game.actions,
        state=unpack_state(game.snapshot),
        start=None if game.start is None else unpack_state(game.start),
        log=game.log,
        format=fmt,
        defs=defs,
    )
