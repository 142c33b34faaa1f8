"""The lobby's messages, between a session's lobby app and the host (same frames as the game protocol).

A lobby session's app gets one end of a socket pair. It asks for the list of tables (``list``), creates
a table (``create``), takes a seat or watches (``take``, seat −1), or types a join code (``code``); the
host answers ``tables``, ``error`` or ``seated``. After ``seated`` the same connection carries the game
protocol (:mod:`mqtui.net.protocol`): the app says ``hello`` and plays, bound to that seat.
"""

from __future__ import annotations

import asyncio

import msgspec

from mqtui.net.protocol import MAX_SERVER_FRAME, ProtocolError, SeatInfo, encode, read_frame

OPEN = "open"  # a seat for a person who joins from the lobby
BACK_TO_LOBBY = 10  # the lobby app's exit code: done at that table, the host opens the lobby again
WATCH_SHARED = 11  # the lobby app's exit code: the visitor watches the table's shared view (Seated.shared)


class TableInfo(msgspec.Struct, kw_only=True):
    """One line of the lobby's list."""

    id: str
    seats: list[SeatInfo]  # name, colour, kind ("human" or a computer level), status
    open: list[int]  # seats a visitor may take
    round: int
    over: bool
    spectators: int
    packs: list[str] = []
    mine: int = -1  # the seat this visitor already owns here (-1: none)


class ListTables(msgspec.Struct, tag="list", kw_only=True):
    pass


class Create(msgspec.Struct, tag="create", kw_only=True):
    name: str  # the creator's hero name (seat 0 is theirs)
    others: list[str]  # the other seats: OPEN or a computer level
    seed: int | None = None
    packs: list[str] = []


class Take(msgspec.Struct, tag="take", kw_only=True):
    table: str
    seat: int  # -1: watch


class Code(msgspec.Struct, tag="code", kw_only=True):
    code: str


class Tables(msgspec.Struct, tag="tables", kw_only=True):
    host: str  # the host's name
    tables: list[TableInfo]
    packs: list[str]  # content packs a new table may use
    levels: list[str]  # computer levels
    max_tables: int


class Seated(msgspec.Struct, tag="seated", kw_only=True):
    table: str
    seat: int  # -1: watching
    name: str  # the seat's hero name
    packs: list[str]
    dirs: list[str] = []  # the content the app loads (--dir of the game client; folders or one file)
    code: str = ""  # the seat's join code, to come back to it
    again: str = ""  # how to come back (an ssh command line)
    shared: bool = False  # watching on the table's shared view: the lobby app ends, the host shows it


class Error(msgspec.Struct, tag="error", kw_only=True):
    reason: str


LobbyRequest = ListTables | Create | Take | Code
LobbyReply = Tables | Seated | Error

request_decoder: msgspec.msgpack.Decoder[LobbyRequest] = msgspec.msgpack.Decoder(LobbyRequest)
reply_decoder: msgspec.msgpack.Decoder[LobbyReply] = msgspec.msgpack.Decoder(LobbyReply)


def decode_request(body: bytes) -> LobbyRequest:
    try:
        return request_decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"bad lobby message: {exc}") from None


class LobbyLink:
    """The lobby app's side: one request, one reply, in order. A request whose asker gives up (a newer
    look at the list replaces an older one) still takes its reply off the link, so that the next
    request gets its own; once a reply seats the visitor, the link carries the game: every later
    request is answered with that reply, and nothing more is sent."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._lock = asyncio.Lock()
        self.seated: Seated | None = None  # the reply that handed this link over to a table

    async def ask(self, request: LobbyRequest, timeout: float = 15.0) -> LobbyReply:
        exchange = asyncio.ensure_future(self._exchange(request, timeout))
        exchange.add_done_callback(_retrieved)  # (its asker may be gone)
        return await asyncio.shield(exchange)

    async def _exchange(self, request: LobbyRequest, timeout: float) -> LobbyReply:
        async with self._lock:
            if self.seated is not None:
                return self.seated  # already seated (a look at the list that was due): nothing is sent
            self.writer.write(encode(request))
            await self.writer.drain()
            try:
                body = await asyncio.wait_for(read_frame(self.reader, MAX_SERVER_FRAME), timeout)
            except TimeoutError:  # half a frame may have been read: this link cannot be trusted now
                self.writer.close()
                raise ConnectionError("the host did not answer in time") from None
            if body is None:
                raise ConnectionError("the host closed the lobby")
            try:
                reply = reply_decoder.decode(body)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                raise ProtocolError(f"bad lobby reply: {exc}") from None
            if isinstance(reply, Seated):
                self.seated = reply
            return reply


def _retrieved(task: asyncio.Future[LobbyReply]) -> None:
    if not task.cancelled():
        task.exception()  # (an exchange whose asker gave up: its failure is the next one's news)
