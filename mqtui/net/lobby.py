"""A host of many tables: ``mqtui serve`` with neither ``--new`` nor ``--load``.

Who signs in how:

- ``ssh -p PORT code-XXXXXX@HOST`` (a join code of any table) goes straight to that seat, as on a
  single-table host; so does a key listed in a table's keys file, and a key that already owns a seat
  at exactly one unfinished table;
- anyone else (any other key, or Enter at the ``Join code:`` prompt) lands in the **lobby**: a Textual
  screen listing the tables, where they create a table, take an open seat or watch.

The lobby app runs in the session's own process and pty like the game app (see
:mod:`mqtui.net.lobbyclient`), and talks to the host over one end of a socket pair
(:mod:`mqtui.net.lobbyproto`); once seated, the same connection is handed to that table's authority.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from mqtui.engine.defs import COLOURS
from mqtui.net import lobbyproto as lp
from mqtui.net.admin import start_admin
from mqtui.net.authority import PAUSED, Authority
from mqtui.net.identity import SPECTATOR, Claim, shown_identity
from mqtui.net.limits import PLAYER, VISITOR, WATCHER, Ticket
from mqtui.net.limits import SPECTATOR as WATCHING
from mqtui.net.lobbyproto import BACK_TO_LOBBY
from mqtui.net.persist import SeatRec
from mqtui.net.protocol import MAX_CLIENT_FRAME, ProtocolError, encode, read_frame
from mqtui.net.sshserver import SSHHost, closed_words, prepare_host
from mqtui.net.table import NAMES
from mqtui.net.tables import Tables, visitor_identity
from mqtui.seat_kinds import HUMAN

if TYPE_CHECKING:
    from mqtui.net.options import FrontDoor, OpensDoor, ServeOptions

log = logging.getLogger("mqtui.net")

LOBBY = "lobby"  # Claim.label of a visitor bound for the lobby
LOBBY_READ_TIMEOUT = 600.0  # a lobby app asks for the list every few seconds; silence this long ends it
NAME_LIMIT = 16


def lobby_claim(identity: str) -> Claim:
    return Claim(None, identity, LOBBY)


@dataclass(eq=False)
class Visit:
    """One lobby app's session: the ticket it holds under the host's limits (a visitor's, then a player's
    or a spectator's at the table it joined) and that table (whose authority hears its heartbeat)."""

    ticket: Ticket | None
    table: Authority | None = None
    sid: int = 0  # the session's id in the host's list (mqtui admin)
    watch: Authority | None = None  # the table whose shared view the visitor is to watch
    shares: bool = True  # a watcher may take a shared view (SSH); a browser's page runs an app of its own

    def release(self) -> None:
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None


@dataclass
class LobbyHost(SSHHost):
    """The SSH front door of a host with many tables."""

    authority: Authority | None = None
    tables: Tables = field(default_factory=lambda: Tables(Path("tables")))
    name: str = "mqtui"
    closing: bool = False  # the host is stopping: nobody goes back to the lobby

    def claim_for_code(self, text: str) -> Claim | None:
        if not text.strip():
            return lobby_claim(visitor_identity())  # Enter at the prompt: the lobby
        found = self.tables.find_code(text)
        if found is None:
            return None
        a, claim = found
        return Claim(claim.seat, claim.identity, f"{claim.label} at table {a.game.game}", a.game.game)

    def claim_for_key(self, key: asyncssh.SSHKey) -> Claim | None:
        found = self.tables.find_key(key)
        if found is not None:
            a, claim = found
            return Claim(claim.seat, claim.identity, f"{claim.label} at table {a.game.game}", a.game.game)
        return lobby_claim("key:" + str(key.get_fingerprint()))  # any key: the lobby, known by the key

    def code_prompt(self) -> tuple[str, str]:
        return "A join code takes you to your seat; just Enter opens the lobby.", "Join code (or Enter): "

    def tables_now(self) -> list[Authority]:
        return list(self.tables.tables.values())

    def table_of(self, claim: Claim) -> Authority | None:
        return self.tables.tables.get(claim.table)

    async def close_table(self, tid: str, why: str = "") -> str:
        """Close table ``tid`` for good (its players told, its game saved, its files moved to ``ended/``,
        where ``mqtui load`` still reads them); the host goes on."""
        if tid not in self.tables.tables:
            return f"there is no table {tid}"
        await self.tables.retire(tid, "closed by the host" + (f": {why}" if why else ""), closed_words(why))
        return ""

    async def play(
        self, process: asyncssh.SSHServerProcess[bytes], claim: Claim, authority: Authority | None = None
    ) -> int:
        if authority is not None:
            return await super().play(process, claim, authority)
        if claim.table:
            a = self.table_of(claim)
            if a is None:
                process.stdout.write(b"mqtui: that table has ended.\r\n")
                return 1
            return await super().play(process, claim, a)
        conn = process.get_extra_info("connection")
        sockname = conn.get_extra_info("sockname") if conn is not None else None
        where = str(sockname[0]) if sockname else "HOST"
        where = f"[{where}]" if ":" in where else where
        again = (
            f"ssh -p {self.port} code-{{code}}@{where}" if self.port != 22 else f"ssh code-{{code}}@{where}"
        )
        peer = conn.get_extra_info("peername") if conn is not None else None
        addr = str(peer[0]) if peer else ""
        while True:  # the lobby, a game, and back to the lobby until the visitor leaves
            code = await self.lobby_once(process, claim, again, addr)
            if code != BACK_TO_LOBBY:
                return code
            if self.closing:
                return 0

    async def lobby_once(
        self, process: asyncssh.SSHServerProcess[bytes], claim: Claim, again: str, addr: str
    ) -> int:
        """One lobby app (and the game it leads to) in this session: its exit code."""
        # the lobby counts as a visitor under the limits
        visit = Visit(self._admit(process, VISITOR), sid=process.get_extra_info("mqtui_session", 0))
        if visit.ticket is None:
            return 1
        live = self.live.get(visit.sid)
        if live is not None:  # (back in the lobby: at no table)
            live.table, live.seat = "", None
        ours, theirs = socket.socketpair()
        heard = self.last_heard(ours, lambda: visit.table)  # the game's heartbeat, once seated at a table
        service = asyncio.get_running_loop().create_task(self.lobby_service(ours, claim, again, addr, visit))
        try:
            argv = [
                sys.executable,
                "-m",
                "mqtui.cli.lobbyapp",
                "--fd",
                str(theirs.fileno()),
                "--app",
                self.app,
                *self.app_options(),
                "--refresh",
                f"{self.limits.lobby_refresh:g}",
            ]
            code = await self.run_child(process, argv, theirs, SPECTATOR, heard)
            if code == lp.WATCH_SHARED and visit.watch is not None:
                visit.release()  # (the watcher's own ticket is taken there)
                watching = Claim(SPECTATOR, claim.identity, "a watcher from the lobby", visit.watch.game.game)
                code = await SSHHost.play(self, process, watching, visit.watch)
                return BACK_TO_LOBBY if code == 0 else code
            return code
        finally:
            visit.release()
            await settle(service)
            visit.release()

    # -- the lobby service of one session ---------------------------------------------------------------

    async def lobby_service(
        self,
        sock: socket.socket,
        claim: Claim,
        again: str,
        addr: str = "",
        visit: Visit | None = None,
        keep: Callable[[tuple[Authority, Claim]], None] | None = None,
    ) -> None:
        """Answer one lobby app; once seated, the game on the same connection, or with ``keep`` (a
        browser's session, whose seat has a program of its own) the table and the seat's claim to it."""
        reader, writer = await asyncio.open_connection(sock=sock)
        try:
            while True:
                body = await asyncio.wait_for(read_frame(reader, MAX_CLIENT_FRAME), LOBBY_READ_TIMEOUT)
                if body is None:
                    return
                request = lp.decode_request(body)
                try:
                    seated = await self.answer(request, claim, addr, visit)
                except ValueError as exc:
                    writer.write(encode(lp.Error(reason=str(exc))))
                    await writer.drain()
                    continue
                if isinstance(seated, lp.Tables):
                    writer.write(encode(seated))
                    await writer.drain()
                    continue
                a, bound, reply = seated
                if reply.shared and visit is not None:  # the lobby app ends; the host shows the view
                    visit.watch = a
                    writer.write(encode(reply))
                    await writer.drain()
                    return
                if visit is not None:
                    visit.table = a
                    live = self.live.get(visit.sid)
                    if live is not None:
                        live.table, live.seat = a.game.game, bound.seat
                if reply.code:
                    reply.again = again.format(code=reply.code)
                writer.write(encode(reply))
                await writer.drain()
                if keep is not None:
                    keep((a, bound))
                    return
                await a.serve_connection(reader, writer, bound)  # the game, on the same connection
                return
        except (ProtocolError, TimeoutError, ConnectionError, OSError) as exc:
            log.info("lobby session ended: %s", exc)
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def answer(
        self, request: lp.LobbyRequest, claim: Claim, addr: str = "", visit: Visit | None = None
    ) -> lp.Tables | tuple[Authority, Claim, lp.Seated]:
        """The reply to one lobby request; ValueError with the reason when it cannot be done. With
        ``visit``, a seat or a place to watch is given only under the host's limits (see :meth:`_trading`)."""
        t = self.tables
        if isinstance(request, lp.ListTables):
            from mqtui.net.watchers import watching

            infos = t.infos(claim.identity)
            for info in infos:
                info.spectators = max(0, watching(self, t.tables[info.id])) if info.id in t.tables else 0
            return lp.Tables(
                host=self.name,
                tables=infos,
                packs=t.available_packs(),
                levels=list(levels()),
                max_tables=t.max_tables,
            )
        if isinstance(request, lp.Create):
            seats = seats_for(request)
            seed = request.seed if request.seed is not None else int.from_bytes(os.urandom(4), "big")
            with self._trading(visit, PLAYER, ""):
                a = await t.create(seats, seed % 2**32, request.packs, creator=addr or claim.identity)
                a, bound = t.take(a.game.game, 0, claim.identity, f"{claim.identity} (made the table)")
        elif (
            isinstance(request, lp.Take)
            and request.seat == SPECTATOR
            and self.shares_views
            and visit
            and visit.shares
        ):
            a, bound = t.take(request.table, SPECTATOR, claim.identity, f"{claim.identity} (from the lobby)")
            room = self.gate.admit(WATCHER, a.game.game, visit.ticket.addr if visit.ticket else "")
            if isinstance(room, str):
                raise ValueError(room)
            room.release()  # (there is room: the watcher's ticket is taken once the lobby app has ended)
            return a, bound, lp.Seated(table=a.game.game, seat=SPECTATOR, name="", packs=[], shared=True)
        elif isinstance(request, lp.Take):
            with self._trading(visit, WATCHING if request.seat == SPECTATOR else PLAYER, request.table):
                a, bound = t.take(
                    request.table, request.seat, claim.identity, f"{claim.identity} (from the lobby)"
                )
        else:
            found = t.find_code(request.code)
            if found is None:
                raise ValueError("no table here has that join code")
            a, code_claim = found
            seat = a.resolve(code_claim)
            if isinstance(seat, str):
                raise ValueError(seat)
            with self._trading(visit, PLAYER if seat >= 0 else WATCHING, a.game.game):
                a.reserve(seat, code_claim.identity)
            bound = Claim(seat, code_claim.identity, code_claim.label)
        seat = bound.seat if bound.seat is not None else SPECTATOR
        codes = a.codes_for(str(seat)) if seat >= 0 else []
        name = a.slots[seat].name if seat >= 0 else ""
        log.info("%s takes seat %s at table %s", shown_identity(claim.identity), seat, a.game.game)
        if a.durable is not None:  # write before you tell: the table, its codes and the seat's owner
            why = await a.durable.settled()
            if why:
                log.error(
                    "table %s: seating %s is not saved: %s", a.game.game, shown_identity(claim.identity), why
                )
                raise ValueError(f"{PAUSED} Try again in a minute.")
        return (
            a,
            bound,
            lp.Seated(
                table=a.game.game,
                seat=seat,
                name=name,
                packs=list(a.game.packs),
                dirs=self.table_content(a),
                code=codes[0] if codes and not claim.identity.startswith("key:") else "",
            ),
        )

    @contextlib.contextmanager
    def _trading(self, visit: Visit | None, kind: str, table: str) -> Iterator[None]:
        """Trade the visitor's ticket for one of ``kind`` at ``table`` (the host's limits: seats, spectators
        per table, sessions), or raise ValueError with the reason; traded back if the block fails."""
        if visit is None:  # not a session (tests, tools): no limits
            yield
            return
        addr = visit.ticket.addr if visit.ticket is not None else ""
        visit.release()
        ticket = self.gate.admit(kind, table, addr)
        if isinstance(ticket, str):
            self._back_to_visitor(visit, addr)
            raise ValueError(ticket)
        visit.ticket = ticket
        try:
            yield
        except BaseException:
            visit.release()
            self._back_to_visitor(visit, addr)
            raise

    def _back_to_visitor(self, visit: Visit, addr: str) -> None:
        ticket = self.gate.admit(VISITOR, "", addr)  # room: the visitor's own ticket was given back just now
        visit.ticket = ticket if isinstance(ticket, Ticket) else None


async def settle(service: asyncio.Future[Any]) -> None:
    """The lobby app has ended, so its socket has too: its service (or the game it became) ends on its
    own; given 3 s, then cancelled."""
    if not service.done():
        await asyncio.wait({service}, timeout=3.0)
    if not service.done():
        service.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await service


def levels() -> tuple[str, ...]:
    from mqtui.bots import BOT_KINDS

    return tuple(BOT_KINDS)


def seats_for(request: lp.Create) -> list[SeatRec]:
    """The seats of a table a visitor creates (theirs first). ValueError when the request is not sound."""
    name = " ".join(request.name.split())[:NAME_LIMIT] or NAMES[0]
    if not name.isprintable():
        raise ValueError("a name is letters, digits and spaces")
    if not 1 <= len(request.others) <= 5:
        raise ValueError("a table has 2 to 6 seats")
    names = [n for n in NAMES if n.lower() != name.split()[0].lower()]  # no two Anns
    seats = [SeatRec(name=name, colour=COLOURS[0], kind=HUMAN)]
    for i, kind in enumerate(request.others, start=1):
        if kind == lp.OPEN:
            seats.append(SeatRec(name=names[i - 1], colour=COLOURS[i], kind=HUMAN))
        elif kind in levels():
            seats.append(SeatRec(name=f"{names[i - 1]} ({kind})", colour=COLOURS[i], kind=kind))
        else:
            raise ValueError(f"{kind!r} is neither an open seat nor a computer level")
    return seats


# -- mqtui serve (lobby mode) ---------------------------------------------------------------------------


def lobby_banner(host: LobbyHost, addr: str, problems: list[str], codes_file: Path | None = None) -> str:
    """What a lobby host says at start (``addr`` "": no SSH, a lobby for browsers); with ``codes_file``,
    the tables' join codes are in that file."""
    t = host.tables
    target = f"[{addr}]" if ":" in addr else addr
    port = f"-p {host.port} " if addr and host.port != 22 else ""
    lines = [
        f'mqtui serve: host "{host.name}", {len(t.tables)} table(s) from {t.folder} (at most {t.max_tables})'
    ]
    if addr:
        lines += [
            f"SSH on {addr}:{host.port}. Visitors open the lobby with:  ssh {port}{target}",
            "  (any SSH key, or Enter at the 'Join code' prompt; a seat's join code goes straight to the seat)",
        ]
    else:
        lines.append("No SSH (--no-ssh): visitors come by browser (below)")
    for info in t.infos():
        a = t.tables[info.id]
        who = ", ".join(f"{s.name}" for s in info.seats)
        state = "over" if info.over else f"round {info.round}"
        lines.append(f"  table {info.id}  {state:<9} {who}")
        for i, slot in enumerate(a.slots):
            codes = a.codes_for(str(i))
            if slot.human and codes and codes_file is None:
                join = f"ssh {port}code-{codes[0]}@{target}" if addr else f"join code {codes[0]}"
                lines.append(f"    seat {i}  {slot.name:<14} {join}")
    if codes_file is not None and t.tables:
        lines.append(f"  (the seats' join codes are in {codes_file}; --print-codes shows them here)")
    lines.extend(f"  not opened: {p}" for p in problems)
    if host.fingerprint:
        lines.append(f"Host key {host.fingerprint}: visitors can compare it with what ssh shows them")
    lines.append(
        f"Tables end {t.idle:g} s after their last player left, or {t.finished_keep:g} s after the game is over."
    )
    lines.append("Ctrl+C stops the server; every table is saved and comes back at the next start.")
    return "\n".join(lines)


async def serve_lobby(
    opts: ServeOptions, ready: asyncio.Future[Any] | None = None, door: OpensDoor | None = None
) -> int:
    """``mqtui serve`` without ``--new``/``--load``: many tables, a lobby for visitors (``door``: the
    browsers' front door beside SSH, ``--web``)."""
    from mqtui.net.options import ServeError, host_log, show_codes, stop_on_signals, write_codes
    from mqtui.paths import data_dir

    for flag, given in (
        ("--local-seat", opts.local_seat is not None),
        ("--socket", bool(opts.socket)),
        ("--save", bool(opts.save)),
        ("--keys", bool(opts.keys)),
        ("--pack", bool(opts.packs)),
    ):
        if given:
            raise ServeError(f"{flag} needs --new or --load (a single-table host); the lobby picks per table")
    if not opts.ssh and not opts.web:
        raise ServeError("--no-ssh leaves a lobby no front door: give --web (a lobby for browsers only)")
    config = opts.table_config()
    folder = Path(opts.tables) if opts.tables else data_dir() / "tables"
    tables = Tables(
        folder,
        config,
        idle=opts.idle,
        max_tables=opts.max_tables,
    )
    unlog = host_log(sys.stdout, opts)
    host = LobbyHost(None, app=opts.app, tables=tables, name=opts.name or "mqtui", limits=opts.limits)
    prepare_host(host, opts)
    stop = stop_on_signals()
    admin = None
    web: FrontDoor | None = None
    try:
        problems = await tables.load_all()
        if opts.ssh:  # (--web --no-ssh: a lobby for browsers only; the host's limits and list still hold)
            await host.listen_or_explain(opts.host, opts.port, data_dir() / "ssh_host_key")
        admin = await start_admin(host, opts.admin_socket, opts.metrics)
        await tables.start()
        if opts.fork:
            await host.start_forks()
        if door is not None:
            web = await door(host, opts)
        full = lobby_banner(host, opts.host if opts.ssh else "", problems)
        codes_file = folder / "join-codes.txt"
        write_codes(codes_file, full)  # for the host's user only
        shown = (
            full
            if show_codes(opts, sys.stdout)
            else lobby_banner(host, opts.host if opts.ssh else "", problems, codes_file)
        )
        print(shown, flush=True)
        if web is not None:
            print(web.banner(opts.web), flush=True)
        if ready is not None and not ready.done():
            ready.set_result(host)
        await stop.wait()
        print("mqtui serve: stopping; saving every table...", flush=True)
    finally:
        host.closing = True
        if web is not None:
            await web.close()
        if admin is not None:
            await admin.close()
        await tables.close()
        await host.close()
        unlog()
    print(f"mqtui serve: {len(tables.tables)} table(s) saved in {tables.folder}", flush=True)
    return 0
