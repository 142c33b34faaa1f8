"""The operator's tool: ``mqtui admin`` talks to a running ``mqtui serve`` over a local Unix socket.

The socket (default ``DATA/admin.sock``) is mode 0600 in the data folder (0700): only the host's own
user can open it. One request per connection: a line of JSON in, a line of JSON out.

| ``cmd`` | fields | what it does |
|---|---|---|
| ``list`` | | the tables (seats, who is here, spectators), the sessions (id, address, identity, table, seat, since) and the bans |
| ``kick`` | ``id``, ``why`` | ends that session (its person reads why) |
| ``ban`` | ``what``, ``note`` | bans an address, a range or a key (``SHA256:...``), kept on disk; ends the sessions it covers |
| ``unban`` | ``what`` | lifts a ban |
| ``say`` | ``text``, ``table`` | a message shown in the log of every player at that table (``table`` ""): every table) |
| ``close`` | ``table``, ``why`` | closes a table: its players read why, its game is saved (a one-table host stops) |
| ``motd`` | ``text`` (optional) | the message of the day shown at sign-in: sets it (``""``: none), or shows it |
| ``health`` | | the host's figures (:mod:`mqtui.net.figures`): ``figures`` as JSON, ``prometheus`` as text |

Join codes are never listed: a session signed in with one shows as "a join code".

With ``mqtui serve --metrics [ADDR:]PORT`` the host also answers HTTP on that port (loopback unless an
address is given): ``GET /metrics``, the figures in Prometheus' text format, for a scraper;
``GET /health``, the same as JSON. Nothing else is served there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (only for the type: sshserver imports nothing of this module)
    from mqtui.net.sshserver import SSHHost

log = logging.getLogger("mqtui.net")

MAX_REQUEST = 16 * 1024


def default_socket() -> Path:
    from mqtui.paths import data_dir

    return data_dir() / "admin.sock"


class AdminServer:
    """Answers ``mqtui admin`` for one host."""

    def __init__(self, host: SSHHost, path: Path) -> None:
        self.host = host
        self.path = path
        self._server: asyncio.AbstractServer | None = None
        self.metrics: MetricsServer | None = None  # GET /metrics, if asked (start_admin)

    async def start(self) -> None:
        from mqtui.atomic import private_dir

        private_dir(self.path.parent)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        old = os.umask(0o177)  # the socket is born 0600: nobody else can connect, not even for a moment
        try:
            self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
        finally:
            os.umask(old)
        self.path.chmod(0o600)
        log.info("admin socket %s (mqtui admin)", self.path)

    async def close(self) -> None:
        if self.metrics is not None:
            await self.metrics.close()
        if self._server is None:
            return  # (never made: there is no socket of ours to remove)
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2.0)
        with contextlib.suppress(OSError):
            self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), 10.0)
            try:
                request = json.loads(line[:MAX_REQUEST])
                if not isinstance(request, dict):
                    raise ValueError("a request is a JSON object")
                answer = await self.answer(request)
            except (ValueError, TypeError, KeyError) as exc:
                answer = {"ok": False, "error": str(exc)}
            writer.write(json.dumps(answer).encode() + b"\n")
            await writer.drain()
        except (TimeoutError, ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        host, cmd = self.host, request.get("cmd")
        if cmd == "list":
            return {"ok": True, **self.listing()}
        if cmd == "kick":
            sid = int(request["id"])
            if not host.kick(sid, str(request.get("why") or "the host ended your session")):
                return {"ok": False, "error": f"there is no session {sid}"}
            return {"ok": True}
        if cmd == "ban":
            entry = host.gate.ban(str(request["what"]), str(request.get("note", "")))
            kicked = [
                s.id
                for s in list(host.live.values())
                if host.gate.banned(s.addr, s.who) == entry
                and host.kick(s.id, "you are banned from this server")
            ]
            log.info("banned %s%s", entry, f" (ended sessions {kicked})" if kicked else "")
            return {"ok": True, "ban": entry, "kicked": kicked}
        if cmd == "unban":
            if not host.gate.unban(str(request["what"])):
                return {"ok": False, "error": f"{request['what']} is not banned"}
            return {"ok": True}
        if cmd == "say":
            text = " ".join(str(request["text"]).split())[:500]
            table = str(request.get("table", ""))
            tables = [a for a in host.tables_now() if not table or a.game.game == table]
            if not tables:
                return {"ok": False, "error": f"there is no table {table}"}
            reached = sum(a.message(f"Message from the host: {text}") for a in tables)
            log.info("message to %s: %s", table or "every table", text)
            return {"ok": True, "reached": reached}
        if cmd == "close":
            why = " ".join(str(request.get("why", "")).split())[:200]
            error = await host.close_table(str(request["table"]), why)
            return {"ok": not error, **({"error": error} if error else {})}
        if cmd == "motd":
            if "text" in request:
                return {"ok": True, "motd": host.set_motd(str(request["text"]))}
            return {"ok": True, "motd": host.read_motd()}
        if cmd == "health":
            from mqtui.net.figures import health, prometheus

            figures = health(host)
            return {"ok": True, "figures": figures, "prometheus": prometheus(figures)}
        return {"ok": False, "error": f"unknown command {cmd!r}"}

    def listing(self) -> dict[str, Any]:
        host = self.host
        tables = [
            {
                "id": a.game.game,
                "round": int(a.state.round),
                "paused": a.paused,
                "seats": [
                    {"seat": i, "name": info.name, "kind": info.kind, "status": info.status}
                    for i, info in enumerate(a.seat_infos())
                ],
                "spectators": len(a.spectators),
            }
            for a in host.tables_now()
        ]
        sessions = [
            {
                "id": s.id,
                "addr": s.addr,
                "who": s.who,
                "table": s.table,
                "seat": s.seat,
                "since": round(s.since),
            }
            for s in host.live.values()
        ]
        return {"tables": tables, "sessions": sessions, "bans": dict(host.gate.bans)}


class MetricsServer:
    """``GET /metrics`` (Prometheus text) and ``GET /health`` (JSON) over plain HTTP, for scrapers."""

    def __init__(self, host: SSHHost) -> None:
        self.host = host
        self._server: asyncio.Server | None = None

    async def start(self, where: str) -> None:
        addr, _, port = where.rpartition(":")
        self._server = await asyncio.start_server(self._serve, addr.strip("[]") or "127.0.0.1", int(port))
        log.info("figures on http://%s:%d/metrics", addr or "127.0.0.1", self.port)

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from mqtui.net.figures import health, prometheus

        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10.0)
            words = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            method, path = words[0], (words[1] if len(words) > 1 else "").split("?", 1)[0]
            if method != "GET" or path not in ("/metrics", "/health"):
                status, kind, body = "404 Not Found", "text/plain", b"GET /metrics or /health\n"
            elif path == "/metrics":
                status, kind = "200 OK", "text/plain; version=0.0.4; charset=utf-8"
                body = prometheus(health(self.host)).encode()
            else:
                status, kind, body = "200 OK", "application/json", json.dumps(health(self.host)).encode()
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (
            TimeoutError,
            ConnectionError,
            OSError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
        ):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()


async def start_metrics(host: SSHHost, where: str | None) -> MetricsServer | None:
    """The figures over HTTP at ``where`` (``[ADDR:]PORT``), or None (not asked, or it cannot listen:
    said in the log, the host runs on)."""
    if not where:
        return None
    metrics = MetricsServer(host)
    try:
        await metrics.start(where)
    except (OSError, ValueError) as exc:
        log.warning("no figures over HTTP at %s: %s", where, exc)
        return None
    return metrics


async def request(path: Path, req: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """Send one request to the admin socket at ``path``; its answer."""
    reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), timeout)
    try:
        writer.write(json.dumps(req).encode() + b"\n")
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
    finally:
        writer.close()
    answer: dict[str, Any] = json.loads(line)
    return answer


async def start_admin(host: SSHHost, path: str | None, metrics: str | None = None) -> AdminServer:
    """The admin socket of ``host`` (``mqtui admin``) at ``path`` (None: DATA/admin.sock), and with
    ``metrics`` the figures over HTTP there (:class:`MetricsServer`). What cannot be made is said in the
    log, and the host runs on without it."""
    admin = AdminServer(host, Path(path) if path else default_socket())
    try:
        await admin.start()
    except OSError as exc:
        log.warning("no admin socket at %s: %s", admin.path, exc.strerror or exc)
    admin.metrics = await start_metrics(host, metrics)
    return admin
