"""Browsers at the same tables: ``mqtui serve --web [ADDR:]PORT``.

The web host is a second front door of the SSH host (:class:`~mqtui.net.sshserver.SSHHost`, or the
lobby's :class:`~mqtui.net.lobby.LobbyHost`): the same tables, authorities, limits (its
:class:`~mqtui.net.limits.Gate`), bans and operator's list. A browser's session runs the same served
apps as an SSH session (the lobby's, then a seat's; their allow lists and heartbeat), each phase in a
process of its own, given one end of a socket pair already bound to the lobby service or to the seat.
Only the terminal differs: textual-serve's page (xterm.js) and its protocol over a websocket, with
Textual's web driver in the app (:mod:`mqtui.net.webclient`).

What is textual-serve's and what is ours, and why:

- its page script and styles (``static/``), its protocol (JSON ``stdin``/``resize``/``ping`` messages
  from the page, the app's output as binary frames) are used as they are;
- its ``Server`` is not: it runs one shell command for every visitor with the host's whole environment,
  serves downloads of files the app delivers (``/download``), a listing of its static folder, and a page
  that loads a web font from a third party. The routes here are our own aiohttp application: ``/`` (the
  lobby, or the browser's own seat), ``/join/CODE`` (a seat's, or the watch code's, link), ``/watch/TABLE``
  (a lobby host's tables), ``/ws/TICKET`` (the websocket a page was given) and the static files;
- nor its ``AppService``, which runs one app process (a shell command) and relays its packets: it has no
  public way to start the process otherwise, so :class:`WebApp` is our own relay, on the same packet
  protocol (Textual's web driver's);
- :class:`WebApp` starts its process with ``exec`` (our arguments, the socket's descriptor, a minimal
  environment: no shell, nothing of the host's session), and drops the app's requests to open a link or
  deliver a file; the page's input goes through the session's
  :class:`~mqtui.net.sessionguard.SessionGuard` first (UTF-8, its rate, the flood limit; sizes clamped).

Who a browser is: a random token in a cookie, signed with the host's key (:class:`Browsers`); the host
keeps, like a known key, the join codes of the seats each browser sat at, so a returning browser goes
straight to its seat (and the seat's code moves it to SSH and back). A websocket is accepted only from a
page this host served (a one-time ticket bound to the cookie) and from this host's origin (``Origin``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import secrets
import socket
import string
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import textual_serve
from aiohttp import WSMsgType, web

from mqtui.atomic import write_atomic
from mqtui.net.authority import Authority
from mqtui.net.contain import ENV as CONTAIN_ENV
from mqtui.net.contain import place_in_cgroup, remove_cgroup
from mqtui.net.identity import SPECTATOR, Claim, normalise_code, shown_identity
from mqtui.net.limits import PLAYER, VISITOR, Limits, Ticket, clamp_size
from mqtui.net.limits import SPECTATOR as WATCHING
from mqtui.net.ptyrelay import Child, child_env, stop
from mqtui.net.sessionguard import SessionGuard
from mqtui.net.sshserver import Live
from mqtui.net.webclient import ENDED

if TYPE_CHECKING:
    from mqtui.net.lobby import LobbyHost
    from mqtui.net.options import ServeOptions
    from mqtui.net.sshserver import SSHHost

log = logging.getLogger("mqtui.net")

COOKIE = "mqtui"
COOKIE_DAYS = 180
TICKET_TTL = 60.0  # seconds a page's websocket ticket is good for
MAX_MESSAGE = 64 * 1024  # the largest websocket message a page may send (a paste is split in chunks)
KEEP_CODES = 8  # seats a browser is remembered at
MAX_PENDING = 4096  # pages served whose websocket has not come yet (each good for TICKET_TTL)
PAGE = string.Template((Path(__file__).with_name("webpage.html")).read_text(encoding="utf-8"))
STATIC = Path(textual_serve.__file__).parent / "static"  # its page script, styles and fonts
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Frame-Options": "DENY",  # (keys typed into a page framed by another site would be that site's)
    "Referrer-Policy": "no-referrer",  # (a /join/CODE page's address holds the code)
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def parse_web(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """``--web [ADDR:]PORT`` -> (address, port); ValueError with the reason."""
    text = text.strip()
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or default_host
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web {text!r}: give a port, or ADDR:PORT (e.g. 8080 or 0.0.0.0:8080)")
    return host, int(port)


class Browsers:
    """Browsers this host knows: cookie tokens signed with the host's key, and the join codes of the
    seats each browser sat at, kept (by a hash of the token, never the token) in ``browsers.json``."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.codes: dict[str, list[str]] = {}
        key = folder / "web-cookie-key" if folder is not None else None
        if key is not None and key.exists():
            self.key = key.read_bytes()
        else:
            self.key = secrets.token_bytes(32)
            if key is not None:
                write_atomic(key, self.key)  # (0600)
        path = self._path()
        if path is not None and path.exists():
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(path.read_text(encoding="utf-8"))
                self.codes = {str(k): [str(c) for c in v][:KEEP_CODES] for k, v in data.items()}

    def _path(self) -> Path | None:
        return self.folder / "web-browsers.json" if self.folder is not None else None

    def _sign(self, token: str) -> str:
        return hmac.new(self.key, token.encode(), hashlib.sha256).hexdigest()[:32]

    def new_cookie(self) -> str:
        token = secrets.token_urlsafe(24)
        return f"{token}.{self._sign(token)}"

    def identity(self, cookie: str | None) -> str | None:
        """The browser's identity (``web:...``) from its cookie; None for none, or a forged one."""
        token, _, sig = (cookie or "").partition(".")
        if not token or not hmac.compare_digest(sig, self._sign(token)):
            return None
        return "web:" + hashlib.sha256(token.encode()).hexdigest()[:16]

    def remember(self, identity: str, code: str) -> None:
        old = self.codes.get(identity, [])
        if old[:1] == [code]:
            return
        self.codes[identity] = [code, *(c for c in old if c != code)][:KEEP_CODES]
        path = self._path()
        if path is not None:
            try:
                write_atomic(path, json.dumps(self.codes).encode())
            except OSError as exc:
                log.error("cannot keep the browsers' seats in %s: %s", path, exc)


@dataclass
class Pending:
    """What a page was served for, until its websocket comes."""

    identity: str
    code: str = ""  # a join code ("" : the lobby, or the browser's own seat)
    table: str = ""  # /watch/TABLE
    made: float = field(default_factory=time.monotonic)


class WebApp:
    """One phase's app process of a browser's session, and the relay between it and the page.

    It speaks the protocol of Textual's web driver (as textual-serve's ``AppService`` does, whose private
    hooks it does not override): after the app's ``__GANGLION__`` line, packets of a type byte (``D``:
    the terminal's output, ``M``: JSON meta, ``P``: a file's chunk), a 4-byte big-endian length and the
    payload, both ways. Unlike ``AppService``: the process is started with ``exec`` (textual-serve runs
    one shell command, the same for every visitor, with the host's whole environment), given our
    arguments, the socket descriptor bound to the lobby or the seat, and
    :func:`~mqtui.net.ptyrelay.child_env`'s environment; the app's requests to open a link or to deliver
    a file are dropped (they would be the host's); its ``exit`` packet does not close the page (the next
    phase's app follows on the same page); what it writes to stderr goes to the host's log."""

    def __init__(self, argv: list[str], env: dict[str, str], fd: int, ws: web.WebSocketResponse) -> None:
        self.argv, self.env, self.fd, self.ws = argv, env, fd, ws
        self.relay: asyncio.Task[None] | None = None  # the app's output to the page, until it ends
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def process(self) -> asyncio.subprocess.Process:
        assert self.proc is not None
        return self.proc

    async def start(self, width: int, height: int) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env={**self.env, "COLUMNS": str(width), "ROWS": str(height)},
            pass_fds=(self.fd,),
            start_new_session=True,
            close_fds=True,
        )
        self.relay = asyncio.create_task(self.run())

    async def send(self, kind: bytes, payload: bytes) -> bool:
        """One packet to the app; False when it has gone."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
            await stdin.drain()
        except (RuntimeError, ConnectionError):
            return False
        return True

    async def send_bytes(self, data: bytes) -> bool:
        return await self.send(b"D", data)

    async def send_meta(self, data: dict[str, str | int | bool | None]) -> bool:
        return await self.send(b"M", json.dumps(data).encode())

    async def set_terminal_size(self, width: int, height: int) -> None:
        await self.send_meta({"type": "resize", "width": width, "height": height})

    async def blur(self) -> None:
        await self.send_meta({"type": "blur"})

    async def focus(self) -> None:
        await self.send_meta({"type": "focus"})

    async def run(self) -> None:
        """The app's terminal output to the page, until the app's output ends."""
        stdout, stderr = self.process.stdout, self.process.stderr
        assert stdout is not None and stderr is not None
        errors = asyncio.ensure_future(stderr.read())
        try:
            for _ in range(10):  # (the prelude: the app's driver says it is there)
                if not (line := await stdout.readline()) or line == b"__GANGLION__\n":
                    break
            while True:
                kind = await stdout.readexactly(1)
                payload = await stdout.readexactly(int.from_bytes(await stdout.readexactly(4), "big"))
                await self.on_packet(kind, payload)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            with contextlib.suppress(Exception):
                if text := (await asyncio.wait_for(errors, 2.0)).decode(errors="replace").strip():
                    log.warning("a browser's app wrote: %s", text)

    async def on_packet(self, kind: bytes, payload: bytes) -> None:
        """A packet of the app's: its terminal's output to the page; nothing else reaches the page (its
        requests to open a link or deliver a file, its ``exit``, a file's chunks)."""
        if kind == b"D":
            await self.ws.send_bytes(payload)
        elif kind == b"M":
            with contextlib.suppress(ValueError, AttributeError):
                if (what := json.loads(payload).get("type")) != "exit":
                    log.info("a browser's app asked for %r: not over the web", what)


class _Door:
    """What the operator's list holds of a browser's session (its ``conn``): ``disconnect`` ends it."""

    def __init__(self, session: WebSession) -> None:
        self.session = session

    def disconnect(self, code: int, reason: str) -> None:
        self.session.end(reason.removeprefix("mqtui: "))


class WebHost:
    """The web front door of an SSH host (see the module's docstring)."""

    def __init__(self, host: SSHHost, public_url: str = "", folder: Path | None = None) -> None:
        self.host = host
        self.public_url = public_url.rstrip("/")
        self.browsers = Browsers(folder)
        self.pending: dict[str, Pending] = {}
        self.sessions: set[WebSession] = set()
        self.runner: web.AppRunner | None = None
        self.site: web.TCPSite | None = None
        self.closing = False

    @property
    def limits(self) -> Limits:
        return self.host.limits

    @property
    def lobby(self) -> LobbyHost | None:
        from mqtui.net.lobby import LobbyHost

        return self.host if isinstance(self.host, LobbyHost) else None

    # -- listening ------------------------------------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        app.add_routes(
            [
                web.get("/", self.page),
                web.get("/join/{code}", self.page),
                web.get("/watch/{table}", self.page),
                web.get("/ws/{ticket}", self.websocket),
                web.get("/favicon.ico", _no_icon),
                web.static("/static", STATIC, show_index=False, follow_symlinks=False),
            ]
        )
        return app

    @web.middleware
    async def _headers(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        for name, value in SECURITY_HEADERS.items():
            if name != "Cache-Control" or not request.path.startswith("/static/"):
                response.headers.setdefault(name, value)
        return response

    async def listen(self, addr: str, port: int) -> None:
        self.runner = web.AppRunner(self.application(), access_log=None, handle_signals=False)
        await self.runner.setup()
        self.site = web.TCPSite(self.runner, addr, port)
        await self.site.start()

    @property
    def port(self) -> int:
        assert self.runner is not None
        for address in self.runner.addresses:
            return int(address[1])
        return 0

    def base_url(self, request: web.Request | None = None) -> str:
        """The address browsers use (``--public-url``; else the one this request came to)."""
        if self.public_url:
            return self.public_url
        if request is not None:
            return f"{request.scheme}://{request.host}"
        assert self.site is not None
        return self.site.name.rstrip("/")

    def banner(self, addr: str) -> str:
        """What the host says about its browsers' address at start (``addr``: ``--web``'s)."""
        host, _ = parse_web(addr)
        base = self.public_url or f"http://{f'[{host}]' if ':' in host else host}:{self.port}"
        lobby = " (the lobby)" if self.lobby is not None else ""
        return (
            f"Browsers: {base}/{lobby}\n  a seat's link: {base}/join/CODE with the seat's join code"
            " (the watch code's link: the public view)"
        )

    async def close(self) -> None:
        self.closing = True
        for session in list(self.sessions):
            session.end("the server is shutting down")
        tasks = [s.task for s in self.sessions if s.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=5.0)
        if self.runner is not None:
            await self.runner.cleanup()

    # -- who is asking --------------------------------------------------------------------------------

    def address(self, request: web.Request) -> str:
        """The visitor's address: the peer's, or behind a reverse proxy on this machine (``--public-url``
        given, the peer a loopback address) the last one its ``X-Forwarded-For`` names."""
        peer = request.remote or ""
        forwarded = request.headers.get("X-Forwarded-For", "")
        if self.public_url and forwarded and _loopback(peer):
            return forwarded.split(",")[-1].strip()
        return peer

    def origin_ok(self, request: web.Request) -> bool:
        """The websocket comes from a page of this host: its ``Origin`` is ``--public-url``'s, or without
        one this request's own host given as an address or ``localhost`` (a name could be anyone's: a
        page of another site whose name resolves here would pass a Host-equals-Origin check)."""
        origin = request.headers.get("Origin", "")
        if self.public_url:
            want = urlsplit(self.public_url)
            return origin == f"{want.scheme}://{want.netloc}"
        got = urlsplit(origin)
        if got.netloc != request.host or got.scheme not in ("http", "https"):
            return False
        name = got.hostname or ""
        if name == "localhost":
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    # -- the page -------------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        addr = self.address(request)
        if why := self.host.gate.banned(addr):
            self.host.repeats.note(
                f"refusing a browser from {addr}", f"banned ({why})", level=logging.INFO, key=(addr, "banned")
            )
            return _text(403, "mqtui: your address is banned from this server")
        cookie = request.cookies.get(COOKIE)
        identity = self.browsers.identity(cookie)
        fresh = ""
        if identity is None:
            fresh = self.browsers.new_cookie()
            identity = self.browsers.identity(fresh)
            assert identity is not None
        pending = Pending(identity)
        if "code" in request.match_info:
            gate = self.host.gate
            if why := gate.blocked_reason(addr):
                return _text(429, f"mqtui: {why}")
            code = normalise_code(request.match_info["code"])
            gate.failed(addr)  # counted before it is looked at (see Gate.attempt)
            if not code or self.host.claim_for_code(code) is None:
                return _text(404, "mqtui: no table here has that join code (ask the host for your link)")
            gate.forgive(addr)
            pending.code = code
        elif "table" in request.match_info:
            lobby = self.lobby
            if lobby is None or request.match_info["table"] not in lobby.tables.tables:
                return _text(404, "mqtui: there is no such table here")
            pending.table = request.match_info["table"]
        self._forget_old()
        if len(self.pending) >= MAX_PENDING:
            return _text(503, "mqtui: too many pages are opening right now; try again in a minute")
        ticket = secrets.token_urlsafe(18)
        self.pending[ticket] = pending
        base = self.base_url(request)
        websocket = ("wss:" if base.startswith("https:") else "ws:") + base.split(":", 1)[1]
        font = request.query.get("fontsize", "16")
        html = PAGE.substitute(
            title=self.lobby.name if self.lobby is not None else "mqtui",
            static=f"{urlsplit(base).path}/static",
            websocket=f"{websocket}/ws/{ticket}",
            font_size=font if font.isdigit() and 8 <= int(font) <= 40 else "16",
            again=request.path_qs.replace('"', "%22"),
        )
        response = web.Response(text=html, content_type="text/html")
        if fresh:
            response.set_cookie(
                COOKIE,
                fresh,
                max_age=COOKIE_DAYS * 86400,
                httponly=True,
                samesite="Lax",
                secure=base.startswith("https:"),
                path=urlsplit(base).path or "/",
            )
        return response

    def _forget_old(self) -> None:
        now = time.monotonic()
        for ticket, p in list(self.pending.items()):
            if now - p.made > TICKET_TTL:
                del self.pending[ticket]

    # -- the websocket --------------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        addr = self.address(request)
        if not self.origin_ok(request):
            origin = request.headers.get("Origin", "")
            self.host.repeats.note(
                f"refusing a websocket from {addr}",
                f"Origin {origin!r}",
                level=logging.INFO,
                key=(addr, origin),
            )
            return _text(403, "mqtui: this page is not one of this host's")
        pending = self.pending.pop(request.match_info["ticket"], None)
        identity = self.browsers.identity(request.cookies.get(COOKIE))
        if pending is None or pending.identity != identity or time.monotonic() - pending.made > TICKET_TTL:
            return _text(403, "mqtui: this page is old; load it again")
        if self.closing or self.host.gate.banned(addr):
            return _text(403, "mqtui: not now")
        ws = web.WebSocketResponse(heartbeat=15.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        width = _number(request.query.get("width"), 80)
        height = _number(request.query.get("height"), 24)
        session = WebSession(self, ws, addr, pending, clamp_size(self.limits, width, height))
        self.sessions.add(session)
        try:
            await session.run()
        finally:
            self.sessions.discard(session)
        return ws


async def _no_icon(_: web.Request) -> web.Response:
    return web.Response(status=204)


def _loopback(addr: str) -> bool:
    try:
        return ipaddress.ip_address(addr).is_loopback
    except ValueError:
        return False


def _number(text: str | None, default: int) -> int:
    return int(text) if text and text.isdigit() else default


def _text(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text + "\n")


class WebSession:
    """One browser's session: its websocket, its guard, and the phases' apps one after another."""

    def __init__(
        self, web_host: WebHost, ws: web.WebSocketResponse, addr: str, pending: Pending, size: tuple[int, int]
    ) -> None:
        self.web = web_host
        self.host = web_host.host
        self.ws = ws
        self.addr = addr
        self.pending = pending
        self.identity = pending.identity
        self.size = (size[0] or 80, size[1] or 24)
        self.guard = SessionGuard(self.host.limits)
        self.app: WebApp | None = None
        self.ended = asyncio.Event()
        self.why = ""
        self.task: asyncio.Task[Any] | None = None
        self.sid = 0
        self._resizes: set[asyncio.Future[None]] = set()

    def end(self, why: str) -> None:
        if not self.why:
            self.why = why
        self.ended.set()

    async def tell(self, text: str) -> None:
        """A line for the person, as terminal text on the page."""
        with contextlib.suppress(Exception):
            await self.ws.send_bytes(("\x1b[?1049l\x1b[2J\x1b[H" + text + "\r\n").encode())

    async def run(self) -> None:
        self.task = asyncio.current_task()
        host = self.host
        host._ids += 1
        self.sid = host._ids
        host.live[self.sid] = Live(self.sid, self.addr, f"browser:{self.identity[4:12]}", _Door(self))
        reader = asyncio.ensure_future(self._read())
        try:
            await self._phases()
        except Exception:
            log.exception("a browser's session failed")
        finally:
            host.live.pop(self.sid, None)
            if self.why:
                await self.tell(f"mqtui: {self.why}")
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            self.guard.close()
            await self.ws.close()

    async def _read(self) -> None:
        """The page's messages: keys to the app of the moment (through the guard), sizes, pings."""
        async for message in self.ws:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, data = json.loads(message.data)
            except (ValueError, TypeError):
                continue
            app = self.app
            if kind == "stdin" and isinstance(data, str):
                keys = self.guard.take(data.encode("utf-8", "replace"))
                if self.guard.flooded:
                    self.end(f"this session was ended: {self.guard.flooded}")
                    return
                if keys and app is not None:
                    self.guard.writing_since = time.monotonic()
                    await app.send_bytes(keys)
                    self.guard.writing_since = None
            elif kind == "resize" and isinstance(data, dict):
                self.guard.resize(self._resize, _int(data.get("width")), _int(data.get("height")), 0, 0)
            elif kind == "ping":
                await self.ws.send_json(["pong", data])
            elif kind in ("blur", "focus") and app is not None:
                await (app.blur() if kind == "blur" else app.focus())
        self.end("")  # the browser left

    def _resize(self, cols: int, rows: int, _pw: int, _ph: int) -> None:
        if cols <= 0 or rows <= 0:
            return
        self.size = (cols, rows)
        if self.app is not None:
            task = asyncio.ensure_future(self.app.set_terminal_size(cols, rows))
            self._resizes.add(task)
            task.add_done_callback(self._resizes.discard)

    # -- the phases -----------------------------------------------------------------------------------

    async def _phases(self) -> None:
        target = self._first()
        lobby = self.web.lobby
        while not self.ended.is_set():
            if isinstance(target, str):
                self.end(target)
                return
            if target is None:
                if lobby is None:
                    self.end("this host has one table: open the link the host gave you (/join/CODE)")
                    return
                target = await self._lobby(lobby)
                if target is None:
                    self.end(self.why)
                    return
                continue
            a, claim = target
            code = await self._seat(a, claim)
            if lobby is None or code not in (0, ENDED) or self.web.closing or lobby.closing:
                self.end(self.why)
                return
            target = None  # done at that table: back to the lobby

    def _first(self) -> tuple[Authority, Claim] | str | None:
        """Where the session begins: the link's seat, the watched table, the browser's own seat, or the
        lobby (None); a string says why nowhere."""
        p = self.pending
        if p.code:
            return self._by_code(p.code) or "that join code is no longer good here"
        lobby = self.web.lobby
        if p.table:
            a = lobby.tables.tables.get(p.table) if lobby is not None else None
            if a is None:
                return "that table has ended"
            return a, Claim(SPECTATOR, self.identity, "a browser (watch link)")
        from mqtui.net.tables import is_over

        found: dict[tuple[str, int | None], tuple[Authority, Claim]] = {}
        for code in self.web.browsers.codes.get(self.identity, []):
            hit = self._by_code(code)
            if hit is not None and not is_over(hit[0]):
                found[(hit[0].game.game, hit[1].seat)] = hit
        return next(iter(found.values())) if len(found) == 1 else None

    def _by_code(self, code: str) -> tuple[Authority, Claim] | None:
        claim = self.host.claim_for_code(code)
        if claim is None or (claim.seat is None and claim.table == "" and self.web.lobby is not None):
            return None  # (an empty code on a lobby host means the lobby)
        a = (
            self.web.lobby.tables.tables.get(claim.table)
            if self.web.lobby is not None
            else self.host.authority
        )
        return (a, claim) if a is not None else None

    async def _lobby(self, lobby: LobbyHost) -> tuple[Authority, Claim] | None:
        """The lobby's app until the visitor takes a seat (where) or leaves (None)."""
        from mqtui.net.lobby import Visit, lobby_claim, settle

        visit = Visit(self._admit(VISITOR), sid=self.sid, shares=False)  # (shared views are SSH's)
        if visit.ticket is None:
            return None
        live = self.host.live.get(self.sid)
        if live is not None:
            live.table, live.seat = "", None
        seated: list[tuple[Authority, Claim]] = []
        ours, theirs = socket.socketpair()
        again = f"{self.web.base_url()}/join/{{code}}"
        service = asyncio.ensure_future(
            lobby.lobby_service(ours, lobby_claim(self.identity), again, self.addr, visit, keep=seated.append)
        )
        try:
            argv = self._argv("lobby", theirs, ["--refresh", f"{self.host.limits.lobby_refresh:g}"])
            await self._run(argv, theirs, None)
        finally:
            visit.release()
            await settle(service)
        if seated and seated[0][1].seat is not None and seated[0][1].seat >= 0:
            a, claim = seated[0]
            codes = a.codes_for(str(claim.seat))
            if codes and not self.ended.is_set():
                await self.tell(
                    f"Seat {claim.seat} at table {a.game.game} is yours: this browser comes back to it by"
                    f" itself.\r\nOn another device, or over SSH, its join code {codes[0]} does:"
                    f" {self.web.base_url()}/join/{codes[0]} (keep it to yourself)."
                )
                await asyncio.sleep(self.host.limits.linger)
        return seated[0] if seated else None

    async def _seat(self, a: Authority, claim: Claim) -> int:
        """Seat ``claim`` at table ``a`` (its seat, or the first free one) and run the seat's app."""
        seat = a.resolve(claim)
        if isinstance(seat, str):
            self.end(seat)
            return 1
        if claim.seat is None:
            a.reserve(seat, claim.identity)
        table = a.game.game
        ticket = self._admit(PLAYER if seat >= 0 else WATCHING, table)
        if ticket is None:
            return 1
        try:
            if seat >= 0:
                codes = a.codes_for(str(seat))
                if codes:
                    self.web.browsers.remember(self.identity, codes[0])  # this browser comes back to it
            live = self.host.live.get(self.sid)
            if live is not None:
                live.table, live.seat = table, seat
            log.info("a browser (%s) sits at table %s seat %s", shown_identity(claim.identity), table, seat)
            ours, theirs = socket.socketpair()
            a.attach(ours, Claim(seat, claim.identity, claim.label or "a browser"))
            host = self.host
            dirs = host.content_dirs if a is host.authority else host.table_content(a)
            argv = self._argv("seat", theirs, [arg for d in dirs for arg in ("--dir", d)])
            return await self._run(argv, theirs, host.last_heard(ours, lambda: a))
        finally:
            ticket.release()

    def _admit(self, kind: str, table: str = "") -> Ticket | None:
        ticket = self.host.gate.admit(kind, table, self.addr)
        if isinstance(ticket, str):
            log.info("refusing a browser's %s session: %s", kind, ticket)
            self.end(ticket)
            return None
        return ticket

    def _argv(self, phase: str, sock: socket.socket, more: list[str]) -> list[str]:
        host = self.host
        fd = ["--fd", str(sock.fileno()), "--app", host.app, *host.app_options()]
        return [sys.executable, "-m", "mqtui.cli.webapp", phase, *fd, *more]

    async def _run(
        self, argv: list[str], theirs: socket.socket, heard: Callable[[], float | None] | None
    ) -> int:
        """Run one phase's app on the page until it ends, the browser leaves, or the guard ends it."""
        env = child_env("xterm-256color", {})
        env.update(
            TEXTUAL_DRIVER="mqtui.net.webclient:WebSessionDriver",
            TEXTUAL_COLOR_SYSTEM="truecolor",
            COLORTERM="truecolor",
            TERM_PROGRAM="textual",
        )
        env[CONTAIN_ENV] = self.host.contain.to_env()  # the operator's session limits, as over SSH
        app = WebApp(argv, env, theirs.fileno(), self.ws)
        try:
            await app.start(*self.size)
        finally:
            theirs.close()
        self.app = app
        proc = app.process
        if self.host.contain.cgroup:  # (the app places itself too; the host's words are the ones logged)
            for problem in place_in_cgroup(Path(self.host.contain.cgroup), proc.pid, self.host.contain):
                self.host.repeats.note("session cgroup", problem)
        waits = {
            asyncio.ensure_future(proc.wait()),
            asyncio.ensure_future(self.ended.wait()),
            asyncio.ensure_future(self.guard.watch(proc.pid, heard)),
        }
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if isinstance(result := task.result(), str):  # the watchdog's reason
                    log.info("ending a browser's session: %s", result)
                    self.end(f"this session was ended: {result}")
            if proc.returncode is None:
                await app.send_meta({"type": "quit"})
                await stop(Child(proc, -1), grace=1.0)
            if app.relay is not None:  # (its last output: the goodbye)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(app.relay), 2.0)
        finally:
            self.app = None
            for task in waits:
                task.cancel()
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, 9)
            remove_cgroup(self.host.contain.cgroup, proc.pid)  # (the app placed itself there, as over SSH)
        code = proc.returncode
        return code if code is not None and code >= 0 else 1


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


async def start_web(host: SSHHost, spec: str, public_url: str = "", folder: Path | None = None) -> WebHost:
    """Listen for browsers at ``spec`` (``[ADDR:]PORT``) beside ``host``; ServeError if it cannot."""
    from mqtui.net.options import ServeError

    try:
        addr, port = parse_web(spec)
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    if public_url and urlsplit(public_url).scheme not in ("http", "https"):
        raise ServeError(f"--public-url {public_url!r}: give http(s)://HOST[:PORT][/PATH]")
    web_host = WebHost(host, public_url, folder)
    try:
        await web_host.listen(addr, port)
    except OSError as exc:
        raise ServeError(f"cannot listen on {addr}:{port} for browsers: {exc.strerror or exc}") from None
    return web_host


async def start_browsers(host: SSHHost, opts: ServeOptions) -> WebHost | None:
    """``mqtui serve --web``'s front door for ``host`` (None without ``--web``)."""
    if not opts.web:
        return None
    from mqtui.paths import data_dir

    return await start_web(host, opts.web, opts.public_url, data_dir())
