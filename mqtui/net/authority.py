"""The one authority of a served game.

A single :class:`Authority` owns the state, applies every action through the engine and sends each
connected client only its own seat's view (``view_for``) and its own form of every log line
(``Event.for_seat``). Clients send actions tagged with the state number they acted on; illegal, stale,
out-of-turn and other-seat actions are refused with a reason and change nothing.

Each connection has a writer task that sends the latest view when the state changed (a slow client
gets fewer, newer views rather than a growing queue), then any answers, in that order. A seat whose
player is away is not waited for forever: after ``timeout`` seconds the table makes a safe choice for
it (pass, decline, done, end, else the first legal action), and after ``abandon`` seconds a computer
player takes the seat until its player returns. Every accepted action is autosaved, and nobody is told
of it before it is on disk. While the saves fail (a full disk, a read-only folder) the table is
*paused*: it takes no actions, every client is told why in words (:class:`~mqtui.net.protocol.Notice`),
and once a write succeeds again (the writer keeps trying) the game goes on by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mqtui.bots import Bot, seat_bot
from mqtui.engine.actions import Action, Event, EventKind, IllegalAction
from mqtui.engine.game import Engine
from mqtui.engine.legal import nothing_to_play
from mqtui.engine.state import STAGE_OVER
from mqtui.hosting import Host, Hosted, seat_view
from mqtui.net import persist
from mqtui.net import protocol as wire
from mqtui.net.conn import Conn
from mqtui.net.durable import Durable
from mqtui.net.figures import FIGURES
from mqtui.net.identity import Claim, KeyTable
from mqtui.net.protocol import MAX_CLIENT_FRAME, PROTO_VERSION, SPECTATOR, ProtocolError, encode
from mqtui.net.table import Seating, TableConfig, next_auto, played_for, safe_choice

log = logging.getLogger("mqtui.net")

PAUSED = (
    "The host cannot save the game right now, so the game is paused: nothing anyone plays counts until "
    "it can save again. It keeps trying by itself; please wait."
)
RESUMED = "The host can save the game again: the game goes on."


class Authority(Seating, Hosted):
    """Owns one game; every client connection goes through it."""

    def __init__(
        self,
        engine: Engine,
        game: persist.ServedGame,
        save_path: Path | None = None,
        config: TableConfig | None = None,
        keys: KeyTable | None = None,
    ) -> None:
        if game.content != engine.content.version:
            raise ValueError(
                f"the game was saved with content {game.content}, this content is {engine.content.version}"
            )
        super().__init__(game)
        self.host = Host(engine, game.state, game.log, game.actions)
        self.save_path: Path | None = None
        self.saver: persist.Saver | None = None
        self.durable: Durable | None = None  # tells when a state is on disk (write before you tell)
        self.config = config or TableConfig()
        self.keys = keys or KeyTable(None)
        self.spectators: set[Conn] = set()
        self.conns: set[Conn] = set()
        self._bots: dict[int, Bot] = {}
        self._ids = 0
        self._decision_since = time.monotonic()
        self._table_since = time.monotonic()  # when the first player of a busy spell connected
        self._kick = asyncio.Event()
        self._acting: Conn | None = None  # the connection whose action is being applied
        self._others_soon: asyncio.TimerHandle | None = None  # their wake after an action's result
        self._driver: asyncio.Task[None] | None = None
        self._servers: list[asyncio.AbstractServer] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.listeners: list[Callable[[str], None]] = []  # server log lines (for the host's console)
        if save_path is not None:
            self.save_to(save_path)

    # -- making ---------------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        engine: Engine,
        seats: Sequence[persist.SeatRec],
        seed: int,
        save_path: Path | None = None,
        config: TableConfig | None = None,
        keys: KeyTable | None = None,
        packs: Sequence[str] = (),
    ) -> Authority:
        state, events = engine.new_game([(s.name, s.colour) for s in seats], seed)
        game = persist.ServedGame(
            game=secrets.token_hex(4),
            content=engine.content.version,
            packs=list(packs),
            seats=list(seats),
            state=state,
            log=list(events),
        )
        return cls(engine, game, save_path, config, keys)

    # -- running --------------------------------------------------------------------------------------

    async def start(self) -> None:
        if not self.paused and not self.closing and self.pass_for_the_idle():
            self._changed()  # (a game loaded in such a window)
        loop = asyncio.get_running_loop()
        self._driver = loop.create_task(self._drive())
        self._save_soon()

    async def serve_unix(self, path: str) -> asyncio.AbstractServer:
        """Also accept protocol clients on a Unix socket (join codes required)."""
        server = await asyncio.start_unix_server(lambda r, w: self.serve_connection(r, w), path=path)
        Path(path).chmod(0o600)
        self._servers.append(server)
        return server

    def attach(self, sock: socket.socket, claim: Claim) -> asyncio.Task[None]:
        """Serve one end of a socket pair whose seat was settled by the SSH layer."""

        async def run() -> None:
            reader, writer = await asyncio.open_connection(sock=sock)
            await self.serve_connection(reader, writer, claim)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self, reason: str = "the server is shutting down") -> None:
        """Say goodbye to everyone, stop the timers and save."""
        if self.closing:
            return
        self.closing = True
        if self._others_soon is not None:
            self._others_soon.cancel()
        for server in self._servers:
            server.close()
        for conn in list(self.conns):
            self._drop(conn, reason)
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver
        tasks = {conn.task for conn in self.conns if conn.task is not None}
        if tasks:
            await asyncio.wait(tasks, timeout=1.5)  # goodbyes delivered, connections closed
        self.save_now()
        if self.saver is not None:
            self.saver.close()

    def discard(self) -> None:
        """Stop without saving (the server never started)."""
        self.closing = True
        if self.saver is not None:
            self.saver.close()
            self.saver = None

    # -- seats ----------------------------------------------------------------------------------------

    def _bind(self, conn: Conn, claim: Claim) -> None:
        if conn.seat == SPECTATOR:
            self.spectators.add(conn)
            self._say(f"{conn.label} watches")
            return
        slot = self.slots[conn.seat]
        if not self.anyone_here():
            self._table_since = time.monotonic()  # the clocks of the away seats start now
        old = slot.conn
        slot.conn = conn
        self.own(conn.seat, claim.identity)
        if old is not None:
            self._drop(old, "you connected again from somewhere else")
        back = slot.taken_over or slot.auto
        slot.taken_over = slot.auto = False
        self._say(f"{conn.label} takes seat {conn.seat} ({slot.name})")
        if back:
            self._event("away", f"{slot.name} is back and plays their own hero again.")
        self._table_changed()

    def _unbind(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self.spectators.discard(conn)
        if conn.seat >= 0:
            slot = self.slots[conn.seat]
            if slot.conn is conn:
                slot.conn = None
                slot.away_since = time.monotonic()
                self._say(f"seat {conn.seat} ({slot.name}) disconnected")
                self._table_changed()

    def _table_changed(self) -> None:
        for c in self.conns:
            c.seats_dirty = True
            c.dirty = True
            c.wake.set()
        self._kick.set()

    # -- a connection ---------------------------------------------------------------------------------

    async def serve_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, claim: Claim | None = None
    ) -> None:
        self._ids += 1
        conn = Conn(self._ids, SPECTATOR, claim.label if claim else f"socket client {self._ids}", writer)
        conn.tokens = self.config.burst
        try:
            if self.closing:
                raise _Refuse("the server is shutting down")
            if self.paused:
                raise _Refuse(f"{PAUSED} Connect again in a minute.")
            try:
                body = await asyncio.wait_for(
                    wire.read_frame(reader, MAX_CLIENT_FRAME), self.config.hello_timeout
                )
            except TimeoutError:
                raise _Refuse("no hello in time") from None
            if body is None:
                return
            hello = wire.decode_client(body)
            if not isinstance(hello, wire.Hello):
                raise ProtocolError("the first message must be a hello")
            if hello.proto != PROTO_VERSION:
                raise _Refuse(f"protocol {hello.proto} is not spoken here (this server: {PROTO_VERSION})")
            if hello.content != self.engine.content.version:
                raise _Refuse(
                    f"your content ({hello.content}) differs from the server's ({self.engine.content.version})"
                )
            if claim is None:
                claim = self.claim_for_code(hello.code)
                if claim is None:
                    await asyncio.sleep(self.config.guess_delay)  # slow down guessing
                    raise _Refuse("unknown join code")
                conn.label = f"{hello.name or 'someone'} ({claim.label})"
            seat = self.resolve(claim, hello.want)
            if isinstance(seat, str):
                raise _Refuse(seat)
            conn.seat = seat
            self._write(
                conn,
                encode(
                    wire.Welcome(
                        proto=PROTO_VERSION,
                        seat=seat,
                        game=self.game.game,
                        content=self.engine.content.version,
                        seats=self.seat_infos(),
                    )
                ),
            )
            self.conns.add(conn)
            conn.task = asyncio.current_task()
            writer_task = asyncio.get_running_loop().create_task(self._write_loop(conn))
            self._bind(conn, claim)
            conn.wake.set()  # the first view
            try:
                await self._read_loop(conn, reader)
            except ProtocolError as exc:
                self._say(f"{conn.label} cut off: {exc}")
                conn.outbox.append(encode(wire.Bye(reason=f"protocol error: {exc}")))
            finally:
                conn.closed = True
                conn.wake.set()
                _, pending = await asyncio.wait({writer_task}, timeout=2.0)
                for task in pending:
                    task.cancel()
        except _Refuse as exc:
            self._say(f"{conn.label} refused: {exc}")
            with contextlib.suppress(Exception):
                writer.write(encode(wire.Refused(reason=str(exc))))
                await asyncio.wait_for(writer.drain(), 1.0)
        except ProtocolError as exc:
            self._say(f"{conn.label} cut off: {exc}")
            with contextlib.suppress(Exception):
                writer.write(encode(wire.Bye(reason=f"protocol error: {exc}")))
        except (ConnectionError, OSError) as exc:
            self._say(f"{conn.label} lost: {exc}")
        except Exception:
            log.error("connection %s failed:\n%s", conn.label, traceback.format_exc())
        finally:
            self._unbind(conn)
            with contextlib.suppress(Exception):
                writer.close()

    async def _read_loop(self, conn: Conn, reader: asyncio.StreamReader) -> None:
        while not conn.closed:
            body = await wire.read_frame(reader, MAX_CLIENT_FRAME)
            if body is None or conn.closed:
                return
            msg = wire.decode_client(body)
            if isinstance(msg, wire.Bye):
                return
            conn.messages += 1
            if not self._allow(conn):
                conn.strikes += 1
                if isinstance(msg, wire.Act):
                    conn.push(encode(wire.Result(id=msg.id, ok=False, reason="too many messages: slow down")))
                if conn.strikes > self.config.max_strikes:
                    raise ProtocolError("flooding")
                continue
            if isinstance(msg, wire.Ping):
                conn.push(encode(wire.Pong(id=msg.id, t=msg.t)))
            elif isinstance(msg, wire.Act) and self.paused:  # (said at once: it tells nothing unsaved)
                self._write(conn, encode(wire.Result(id=msg.id, ok=False, reason=PAUSED, n=-1)))
            elif isinstance(msg, wire.Act):
                conn.acted_at = time.monotonic()  # (its round trip ends when its result is written)
                ok, reason = self._act(conn, msg)
                conn.push(encode(wire.Result(id=msg.id, ok=ok, reason=reason, n=self.state.n)))
            else:
                raise ProtocolError(f"unexpected {type(msg).__name__.lower()}")

    def _allow(self, conn: Conn) -> bool:
        now = time.monotonic()
        conn.tokens = min(self.config.burst, conn.tokens + (now - conn.refilled) * self.config.rate)
        conn.refilled = now
        if conn.tokens < 1:
            return False
        conn.tokens -= 1
        return True

    def _act(self, conn: Conn, msg: wire.Act) -> tuple[bool, str]:
        if conn.seat == SPECTATOR:
            conn.strikes += 1
            return False, "spectators only watch"
        if msg.action.seat != conn.seat:
            conn.strikes += 1
            if conn.strikes > self.config.max_strikes:
                raise ProtocolError("too many actions for other seats")
            return False, f"you play seat {conn.seat}, not seat {msg.action.seat}"
        self._acting = conn
        try:
            return self.apply(msg.action, msg.expect_n)
        finally:
            self._acting = None

    async def _write_loop(self, conn: Conn) -> None:
        w = conn.writer
        try:
            while True:
                await conn.wake.wait()
                conn.wake.clear()
                await self._until_durable()
                if conn.dirty and not self.closing:
                    conn.dirty = False
                    self._write(conn, self._snap(conn))
                while conn.outbox:
                    self._write(conn, conn.outbox.pop(0))
                if conn.acted_at is not None:  # the action's result is out, after its save
                    FIGURES.actions.observe(time.monotonic() - conn.acted_at)
                    conn.acted_at = None
                if w.transport.get_write_buffer_size() > self.config.max_buffer:
                    self._say(f"{conn.label} cut off: not reading")
                    w.transport.abort()
                    return
                await w.drain()
                if conn.closed:
                    return
        except (ConnectionError, OSError):
            conn.closed = True
        finally:
            if conn.closed:
                with contextlib.suppress(Exception):
                    w.close()

    async def _until_durable(self) -> None:
        """Wait until the state about to be sent is on disk: a client never sees what a crash could undo."""
        durable = self.durable
        while durable is not None and durable.done < self.state.n <= durable.target:
            await durable.wait(self.state.n)

    def _write(self, conn: Conn, frame: bytes) -> None:
        conn.writer.write(frame)
        conn.bytes_out += len(frame)
        conn.frames_out += 1

    def _snap(self, conn: Conn) -> bytes:
        s = self.state
        seat = conn.seat
        base, new = conn.new_lines(self.log)
        share = seat_view(self.engine, s, seat)
        seats = None
        if conn.seats_dirty:
            conn.seats_dirty = False
            seats = self.seat_infos()
        return encode(
            wire.Snap(
                n=share.n,
                seat=seat,
                deciding=share.deciding,
                over=share.over,
                view=share.view,
                legal=list(share.legal),
                log_base=base,
                log=new,
                seats=seats,
            )
        )

    def _drop(self, conn: Conn, reason: str) -> None:
        """Tell a client goodbye and close its connection once the goodbye is sent."""
        if conn.closed:
            return
        conn.push(encode(wire.Bye(reason=reason)))
        conn.closed = True
        conn.wake.set()
        if conn.task is not None and conn.task is not asyncio.current_task():
            loop = asyncio.get_running_loop()
            loop.call_later(1.0, conn.task.cancel)

    # -- applying -------------------------------------------------------------------------------------

    def apply(self, action: Action, expect_n: int | None = None) -> tuple[bool, str]:
        """Apply one action for its seat; (False, reason) if it is refused. Never half-applies."""
        if self.closing:
            return False, "the server is shutting down"
        if self.paused:
            return False, PAUSED
        s = self.state
        if s.stage == STAGE_OVER:
            return False, "the game is over"
        if not 0 <= action.seat < len(s.heroes):
            return False, f"there is no seat {action.seat}"
        try:
            self.host.apply(action, expect_n)
        except IllegalAction as exc:
            return False, str(exc)
        except Exception:
            log.error("engine failure on %s:\n%s", action, traceback.format_exc())
            self.game.state = self.state  # the host put back the state before the action
            return False, "the engine failed on that action; the game is unchanged (please report it)"
        self.pass_for_the_idle()
        self._changed()
        return True, ""

    def pass_for_the_idle(self) -> int:
        """Players who may only pass in another player's fight window pass at once (how many did), as
        their apps would (``nothing_to_play``): the table then hears of one state, not of each pass,
        and no pass waits for a round trip to a player's app."""
        passed = 0
        while passed < len(self.slots) * 4:  # (a window goes round the table, twice a fight)
            s = self.state
            who = self.engine.deciding(s)
            if who < 0 or not self.slots[who].human:
                break
            legal = self.engine.legal(s, who)
            if not nothing_to_play(s, who, legal):
                break
            try:
                self.host.apply(legal[0], s.n)
            except Exception:  # (the action before it stands; the player's app can still pass)
                log.error("passing for %s failed:\n%s", self.slots[who].name, traceback.format_exc())
                self.game.state = self.state
                break
            passed += 1
        return passed

    def _changed(self) -> None:
        self._decision_since = time.monotonic()
        first, later = self._acting, self.config.others_after
        for c in self.conns:
            c.dirty = True
            if first is None or later <= 0 or c is first:
                c.wake.set()
        if first is not None and later > 0 and self._others_soon is None:
            self._others_soon = asyncio.get_running_loop().call_later(later, self._wake_others)
        self._kick.set()
        self._save_soon()

    def _wake_others(self) -> None:
        """The rest of the table hears of a player's action a moment after the player (``others_after``)."""
        self._others_soon = None
        for c in self.conns:
            if c.dirty:
                c.wake.set()

    def _event(self, kind: EventKind, text: str, seat: int = -1, private: str = "") -> None:
        self.log.append(Event(kind, text, seat, private))
        self._say(text)
        for c in self.conns:
            c.dirty = True
            c.wake.set()

    def _say(self, text: str) -> None:
        log.info("%s", text)
        for listener in self.listeners:
            listener(text)

    # -- deciding for seats nobody plays --------------------------------------------------------------

    def next_auto(self) -> float | None:
        """Seconds until the table decides for the deciding seat (:meth:`auto_act`), or None: it waits
        for its player (or for anyone to be at the table)."""
        s = self.state
        who = self.engine.deciding(s)
        if who < 0 or self.closing or self.paused or not self.anyone_here():
            return None  # with no player at the table, the game waits (and the clocks stop)
        return next_auto(
            self.slots[who], self.config, self._decision_since, self._table_since, time.monotonic()
        )

    async def _drive(self) -> None:
        while True:
            self._kick.clear()
            delay = self.next_auto()
            if delay is None:
                await self._kick.wait()
                continue
            if delay > 0:
                try:
                    await asyncio.wait_for(self._kick.wait(), delay)
                    continue  # something changed: think again
                except TimeoutError:
                    pass
                if self.next_auto() != 0.0:
                    continue
            try:
                self.auto_act()
            except Exception:
                log.error("automatic decision failed:\n%s", traceback.format_exc())
                await asyncio.sleep(1.0)

    def auto_act(self) -> None:
        """Decide once for the deciding seat now, as the table's own loop does when :meth:`next_auto`
        comes due: its computer player's choice, or a safe one for a player who is away."""
        s = self.state
        who = self.engine.deciding(s)
        if who < 0:
            return
        slot = self.slots[who]
        legal = self.engine.legal(s, who)
        if not legal:
            return
        now = time.monotonic()
        abandoned = self.config.abandon > 0 and now - slot.away_since >= self.config.abandon
        if slot.human and not slot.taken_over and slot.conn is None and abandoned:
            slot.taken_over = True
            self._event(
                "away",
                f"{slot.name} has been away for {self.config.abandon:g} s: a computer player takes "
                "their seat until they come back.",
            )
            self._table_changed()
        if not slot.human or slot.taken_over:
            bot = self._bots.get(who)
            if bot is None:
                kind = slot.kind if not slot.human else self.config.away_bot
                bot = self._bots[who] = seat_bot(kind, s.seed, who)  # (kinds are checked on load)
            choice = self.host.decide(bot, who)
            action = choice.action
            if choice.why:
                # a bot's reasons may name the cards in its hand: only its own seat reads them
                self.log.append(Event("bot", "", who, f"{slot.name}: {choice.why}"))
        else:
            action = safe_choice(legal)
            event = played_for(slot, who, self.config, self.engine.cards.names, action)
            if not slot.auto and slot.conn is None:
                slot.auto = True  # away: safe choices at once until the player returns
                self._table_changed()
            self._event(event.kind, event.text, who, event.private)
        ok, reason = self.apply(action, s.n)
        if not ok:
            log.error("automatic action %s refused: %s", action, reason)

    # -- saving ---------------------------------------------------------------------------------------

    def _owners_changed(self) -> None:
        self._save_soon()

    def _snapshot_game(self) -> persist.ServedGame:
        g = self.game
        g.state = self.state
        g.log = self.log
        g.actions = self.actions
        for rec, slot in zip(g.seats, self.slots, strict=True):
            rec.owner = slot.owner
        return g

    def save_to(self, path: Path) -> None:
        """Autosave to ``path`` (an ``.mqsave``, with the join codes beside it) from now on."""
        if self.saver is not None:
            self.saver.close()
        self.save_path = path
        self.durable = durable = Durable(self._save_trouble)
        self.saver = persist.Saver(path, self.engine.content, durable.heard)

    @property
    def saves(self) -> int:
        return self.saver.writes if self.saver is not None else 0

    @property
    def paused(self) -> bool:
        """The last save failed: the table takes no actions until a save succeeds again."""
        return self.durable is not None and bool(self.durable.error)

    def _save_soon(self) -> None:
        self._save(now=False)

    def save_now(self) -> None:
        if not self._save(now=True) and self.saver is not None:
            log.error("table %s: the last state could not be saved: %s", self.game.game, self.saver.error)

    def _save(self, now: bool) -> bool:
        """Save (``now``: at once, else queued for the writer thread); False if it failed (at once)."""
        if self.saver is None:
            return False
        g = self._snapshot_game()
        tag = self.durable.submitted(self.state.n) if self.durable is not None else 0
        if now:
            return self.saver.write_now(g, tag)
        self.saver.submit(g, tag)
        return True

    def message(self, text: str) -> int:
        """Show ``text`` in the log of everyone at this table now (the operator's message); how many."""
        notice = encode(wire.Notice(text=text, paused=self.paused))
        reached = [conn for conn in self.conns if not conn.closed]
        for conn in reached:
            self._write(conn, notice)
        return len(reached)

    def _save_trouble(self, error: str) -> None:
        """Saving started to fail (``error`` says why) or works again (""): pause or go on, and say so."""
        if error:
            FIGURES.save_failures += 1
            log.error(
                "table %s: %s: the game is paused until a save succeeds (retrying)", self.game.game, error
            )
        else:
            log.warning("table %s: saving works again: the game goes on", self.game.game)
        notice = encode(wire.Notice(text=PAUSED if error else RESUMED, paused=bool(error)))
        for conn in self.conns:
            if not conn.closed:
                self._write(conn, notice)  # at once: it tells nothing of the states not on disk
        self._kick.set()  # the table's clock waits, or goes on

    # -- for tools and tests --------------------------------------------------------------------------

    def status_line(self) -> str:
        who = self.engine.deciding(self.state)
        name = self.slots[who].name if who >= 0 else "nobody"
        return f"state {self.state.n}, round {self.state.round}, {name} to decide"


class _Refuse(Exception):
    pass
