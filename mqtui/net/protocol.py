"""The wire protocol between the game authority and its clients.

Every message is one *frame*: a 4-byte big-endian length, then that many bytes of msgpack holding one
tagged msgspec struct. Sizes are capped before anything is read or decoded (a client may send at most
:data:`MAX_CLIENT_FRAME` bytes a frame, the authority at most :data:`MAX_SERVER_FRAME`), and a frame that
does not decode to one of the expected messages is a protocol error: the connection is cut off.

Client → authority: :class:`Hello` (first, once), :class:`Act`, :class:`Ping`, :class:`Bye`.
Authority → client: :class:`Welcome` or :class:`Refused` (answer to Hello), :class:`Snap` (the client's
seat's view after every change), :class:`Result` (answer to Act), :class:`Pong`, :class:`Notice` (the
table is paused because it cannot save, or goes on again), :class:`Bye`.
"""

from __future__ import annotations

import asyncio
import struct

import msgspec

from mqtui.engine.actions import Action
from mqtui.engine.state import State
from mqtui.store.protocol import LogLine

PROTO_VERSION = (
    3  # 2: log entries carry their event's kind (LogLine); 3: Notice, and a fight's result its Fight
)
MAX_CLIENT_FRAME = 16 * 1024  # a client only ever sends small messages
MAX_SERVER_FRAME = 8 * 1024 * 1024  # a view plus the first batch of log lines
HEADER = struct.Struct(">I")
SPECTATOR = -1
ANY_SEAT = -2  # Hello.want: no preference (a seat code decides, or the first free seat)


class ProtocolError(Exception):
    """A frame was too big, truncated or not a valid message: the peer is cut off."""


# -- client -> authority ----------------------------------------------------------------------------


class Hello(msgspec.Struct, tag="hello", kw_only=True):
    proto: int
    content: str  # the client's content version; must equal the authority's
    code: str = ""  # a join code (clients on the listening socket); ignored on pre-bound connections
    want: int = ANY_SEAT  # with a table code: the seat wanted, or -1 to watch
    name: str = ""  # shown in the server's log


class Act(msgspec.Struct, tag="act", kw_only=True):
    id: int
    action: Action
    expect_n: int  # the state number the client acted on


class Ping(msgspec.Struct, tag="ping", kw_only=True):
    id: int
    t: float = 0.0


class Bye(msgspec.Struct, tag="bye", kw_only=True):
    reason: str = ""


# -- authority -> client ----------------------------------------------------------------------------


class SeatInfo(msgspec.Struct, array_like=True):
    name: str
    colour: str
    kind: str  # "human" or a bot kind
    status: str  # "here", "away", "empty", "bot" (a bot plays it), "auto" (timed out: safe defaults)


class Welcome(msgspec.Struct, tag="welcome", kw_only=True):
    proto: int
    seat: int  # -1: spectator
    game: str
    content: str
    seats: list[SeatInfo]


class Refused(msgspec.Struct, tag="refused", kw_only=True):
    reason: str


class Snap(msgspec.Struct, tag="snap", kw_only=True):
    n: int
    seat: int
    deciding: int
    over: bool
    view: State  # view_for(state, seat): other hands, decks and the generator are redacted
    legal: list[Action]
    log_base: int  # how many of this seat's log lines came before ``log``
    log: list[LogLine]  # this seat's own entries (kind and text)
    seats: list[SeatInfo] | None = None  # only when the table changed


class Result(msgspec.Struct, tag="result", kw_only=True):
    id: int
    ok: bool
    reason: str = ""
    n: int = 0


class Pong(msgspec.Struct, tag="pong", kw_only=True):
    id: int
    t: float = 0.0


class Notice(msgspec.Struct, tag="notice", kw_only=True):
    """Words for the player from the host, shown with the log: the table is paused (it cannot save) or
    goes on again."""

    text: str
    paused: bool = False


ClientMsg = Hello | Act | Ping | Bye
ServerMsg = Welcome | Refused | Snap | Result | Pong | Notice | Bye

_encoder = msgspec.msgpack.Encoder()
client_decoder: msgspec.msgpack.Decoder[ClientMsg] = msgspec.msgpack.Decoder(ClientMsg)
server_decoder: msgspec.msgpack.Decoder[ServerMsg] = msgspec.msgpack.Decoder(ServerMsg)


def encode(msg: msgspec.Struct) -> bytes:
    """One frame: the length header and the msgpack body."""
    body = _encoder.encode(msg)
    return HEADER.pack(len(body)) + body


def decode_client(body: bytes) -> ClientMsg:
    try:
        return client_decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"bad message: {exc}") from None


def decode_server(body: bytes) -> ServerMsg:
    try:
        return server_decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"bad message: {exc}") from None


async def read_frame(reader: asyncio.StreamReader, cap: int) -> bytes | None:
    """The body of the next frame, or None at a clean end of stream. Raises ProtocolError."""
    try:
        header = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as exc:
        if exc.partial:
            raise ProtocolError("the stream ended inside a frame header") from None
        return None
    (size,) = HEADER.unpack(header)
    if size > cap:
        raise ProtocolError(f"frame of {size} bytes is over the {cap}-byte limit")
    if size == 0:
        raise ProtocolError("empty frame")
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ProtocolError("the stream ended inside a frame") from None
