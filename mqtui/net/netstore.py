"""A game store that plays through the authority: what the app uses in a networked game.

:class:`NetStore` implements the :class:`mqtui.store.GameStore` protocol. It keeps the latest
:class:`~mqtui.store.Snapshot` the authority sent for this seat, tells its listeners about each new
one, and sends actions tagged with the state number they were made on; a refusal comes back as
:class:`~mqtui.engine.actions.IllegalAction` with the authority's reason. There is no undo over the
network. The host's notices (the table is paused because it cannot save, and goes on again) join this
seat's log as lines of their own, so that every app shows them in words. The engine here is only used for the card table (names and texts) and to explain, from the
seat's own view, why an action is not possible.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import socket
import time
from collections.abc import Callable

from mqtui.engine.actions import Action, IllegalAction
from mqtui.engine.cards import CardTable
from mqtui.engine.game import Engine
from mqtui.net.protocol import (
    ANY_SEAT,
    MAX_SERVER_FRAME,
    PROTO_VERSION,
    SPECTATOR,
    Act,
    Bye,
    Hello,
    Notice,
    Ping,
    Pong,
    ProtocolError,
    Refused,
    Result,
    SeatInfo,
    Snap,
    Welcome,
    decode_server,
    encode,
    read_frame,
)
from mqtui.seat_kinds import HUMAN, REMOTE, SEAT_KINDS, SeatKind
from mqtui.store import Listener, LogLine, Seat, Snapshot

log = logging.getLogger("mqtui.net")


class JoinRefused(Exception):
    """The authority would not seat this client; the message says why."""


class NetStore:
    """The :class:`~mqtui.store.GameStore` of one seat (or a spectator) of a served game."""

    def __init__(
        self,
        engine: Engine,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        welcome: Welcome,
        first: Snap,
    ) -> None:
        self.engine = engine
        self.seat = welcome.seat
        self.game = welcome.game
        self.seat_infos = list(welcome.seats)
        self.seats: tuple[Seat, ...] = self._seats(welcome.seats)
        self._reader = reader
        self._writer = writer
        self._listeners: list[Listener] = []
        self._lines: tuple[LogLine, ...] = ()
        self._next_base = 0  # the authority's count of this seat's log lines so far
        self.paused = False  # the host said it cannot save: the table waits (and so do our requests)
        self._snap: Snapshot = self._apply_snap(first)
        self._pending: dict[int, asyncio.Future[Result | Pong]] = {}
        self._ids = 0
        self.closed = asyncio.Event()
        self.close_reason = ""
        self.bytes_in = 0
        self.frames_in = 0
        self.on_snap: Callable[[Snap, float], None] | None = None  # for benchmarks: (snap, arrival)
        self._task = asyncio.get_running_loop().create_task(self._read_loop())

    # -- connecting -----------------------------------------------------------------------------------

    @classmethod
    async def connect(
        cls,
        engine: Engine,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        code: str = "",
        want: int = ANY_SEAT,
        name: str = "",
        timeout: float = 15.0,
    ) -> NetStore:
        """Say hello and wait for the seat and the first view. Raises JoinRefused."""
        hello = Hello(proto=PROTO_VERSION, content=engine.content.version, code=code, want=want, name=name)
        writer.write(encode(hello))
        await writer.drain()

        async def first() -> tuple[Welcome, Snap]:
            welcome: Welcome | None = None
            while True:
                body = await read_frame(reader, MAX_SERVER_FRAME)
                if body is None:
                    raise JoinRefused("the server closed the connection")
                msg = decode_server(body)
                if isinstance(msg, Refused):
                    raise JoinRefused(msg.reason)
                if isinstance(msg, Bye):
                    raise JoinRefused(msg.reason or "the server said goodbye")
                if isinstance(msg, Welcome):
                    welcome = msg
                elif isinstance(msg, Notice):
                    continue  # (the table refuses newcomers while it is paused)
                elif isinstance(msg, Snap) and welcome is not None:
                    return welcome, msg
                else:
                    raise ProtocolError(f"unexpected {type(msg).__name__} before the first view")

        try:
            welcome, snap = await asyncio.wait_for(first(), timeout)
        except TimeoutError:
            writer.close()
            raise JoinRefused("the server did not answer") from None
        except (JoinRefused, ProtocolError, ConnectionError, OSError):
            writer.close()
            raise
        return cls(engine, reader, writer, welcome, snap)

    @classmethod
    async def open_unix(cls, engine: Engine, path: str, **kw: object) -> NetStore:
        reader, writer = await asyncio.open_unix_connection(path)
        return await cls.connect(engine, reader, writer, **kw)  # type: ignore[arg-type]

    @classmethod
    async def open_socket(cls, engine: Engine, sock: socket.socket, **kw: object) -> NetStore:
        reader, writer = await asyncio.open_connection(sock=sock)
        return await cls.connect(engine, reader, writer, **kw)  # type: ignore[arg-type]

    # -- GameStore ------------------------------------------------------------------------------------

    @property
    def cards(self) -> CardTable:
        return self.engine.cards

    def snapshot(self, seat: int | None = None) -> Snapshot:
        return self._snap

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return unsubscribe

    async def send(self, action: Action) -> None:
        """Ask the authority to apply ``action``; raises IllegalAction with its reason if refused."""
        if self.seat == SPECTATOR:
            raise IllegalAction("spectators only watch")
        if self.closed.is_set():
            raise IllegalAction(f"not connected: {self.close_reason}")
        if action.seat != self.seat:
            raise IllegalAction(f"you play seat {self.seat}, not seat {action.seat}")
        result = await self._request(lambda i: Act(id=i, action=action, expect_n=self._snap.n))
        assert isinstance(result, Result)
        if not result.ok:
            raise IllegalAction(result.reason)

    def explain(self, action: Action) -> str:
        snap = self._snap
        if snap.over:
            return "the game is over"
        if self.seat == SPECTATOR:
            return "spectators only watch"
        try:
            return self.engine.explain(snap.view, action)
        except Exception:
            return f"'{action}' is not possible now"

    takes_back = False  # (the table's authority never takes an action back)

    def can_undo(self) -> bool:
        return False

    def can_redo(self) -> bool:
        return False

    async def undo(self) -> None:
        raise IllegalAction("there is no undo in a network game")

    async def redo(self) -> None:
        raise IllegalAction("there is no redo in a network game")

    def start(self) -> None:
        """Nothing to start: the authority drives the computer seats."""

    # -- extras ---------------------------------------------------------------------------------------

    async def ping(self) -> float:
        """One echo round trip through the authority, in seconds."""
        t0 = time.perf_counter()
        await self._request(lambda i: Ping(id=i, t=t0))
        return time.perf_counter() - t0

    async def close(self) -> None:
        if not self.closed.is_set():
            with contextlib.suppress(Exception):
                self._writer.write(encode(Bye(reason="bye")))
                await asyncio.wait_for(self._writer.drain(), 1.0)
        self._finish("closed")
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        with contextlib.suppress(Exception):
            self._writer.close()

    # -- inside ---------------------------------------------------------------------------------------

    def _seats(self, infos: list[SeatInfo]) -> tuple[Seat, ...]:
        out = []
        for i, info in enumerate(infos):
            if i == self.seat:
                kind = HUMAN
            elif info.kind == HUMAN:
                kind = REMOTE
            else:
                kind = (
                    SeatKind(info.kind) if info.kind in SEAT_KINDS else SeatKind.NORMAL
                )  # (a newer server's)
            out.append(Seat(info.name, info.colour, kind))
        return tuple(out)

    def _apply_snap(self, snap: Snap) -> Snapshot:
        if snap.log_base == self._next_base:
            self._lines = self._lines + tuple(snap.log)
        else:
            self._lines = tuple(snap.log)
        self._next_base = snap.log_base + len(snap.log)
        if snap.seats is not None:
            self.seat_infos = list(snap.seats)
            self.seats = self._seats(snap.seats)
        return Snapshot(
            seat=snap.seat,
            view=snap.view,
            legal=tuple(snap.legal),
            deciding=snap.deciding,
            log=self._lines,
            n=snap.n,
            over=snap.over,
        )

    async def _request(self, make: Callable[[int], Act | Ping], timeout: float = 30.0) -> Result | Pong:
        self._ids += 1
        rid = self._ids
        fut: asyncio.Future[Result | Pong] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            self._writer.write(encode(make(rid)))
            await self._writer.drain()
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), timeout)
                except TimeoutError:
                    if not self.paused:  # (a paused table answers once it can save again)
                        raise
        except (ConnectionError, OSError) as exc:
            raise IllegalAction(f"not connected: {exc}") from None
        except TimeoutError:
            raise IllegalAction("the server did not answer in time") from None
        finally:
            self._pending.pop(rid, None)

    async def _read_loop(self) -> None:
        reason = "the server closed the connection"
        try:
            while True:
                body = await read_frame(self._reader, MAX_SERVER_FRAME)
                if body is None:
                    break
                arrived = time.perf_counter()
                self.bytes_in += len(body) + 4
                self.frames_in += 1
                msg = decode_server(body)
                if isinstance(msg, Snap):
                    self._snap = self._apply_snap(msg)
                    if self.on_snap is not None:
                        self.on_snap(msg, arrived)
                    self._publish()
                elif isinstance(msg, Notice):
                    self.paused = msg.paused
                    self._lines = (*self._lines, LogLine("save", msg.text))
                    self._snap = dataclasses.replace(self._snap, log=self._lines)
                    self._publish()
                elif isinstance(msg, Result | Pong):
                    fut = self._pending.get(msg.id)
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
                elif isinstance(msg, Bye):
                    reason = msg.reason or "the server said goodbye"
                    break
                else:
                    raise ProtocolError(f"unexpected {type(msg).__name__}")
        except ProtocolError as exc:
            reason = f"protocol error: {exc}"
        except (ConnectionError, OSError) as exc:
            reason = f"connection lost: {exc}"
        finally:
            self._finish(reason)

    def _publish(self) -> None:
        for listener in list(self._listeners):
            try:
                listener(self._snap)
            except Exception:
                log.exception("a store listener failed")

    def _finish(self, reason: str) -> None:
        if self.closed.is_set():
            return
        self.close_reason = reason
        self.closed.set()
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(IllegalAction(f"not connected: {reason}"))
