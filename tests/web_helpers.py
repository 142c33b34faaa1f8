"""A browser as textual-serve's page is one, without the browser: an aiohttp client that loads a page of
the web host (keeping its cookie), opens the websocket the page names with the page's ``Origin``, and
speaks the page's protocol (``stdin``, ``resize``, ``ping`` messages; the app's output in binary
frames). It keeps every byte the websocket brought, and :meth:`WebTerm.expect` wakes when more come.
Used by tests/test_net_web.py and bench/web.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time

import aiohttp

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78cDEHM]"
)
SOCKET_URL = re.compile(r'data-session-websocket-url="([^"]+)"')


class WebTerm:
    """One browser's session (see the module's docstring)."""

    def __init__(self, base: str, session: aiohttp.ClientSession | None = None) -> None:
        self.base = base.rstrip("/")
        self.http = session or aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.raw = bytearray()
        self.chunks: list[tuple[float, int]] = []  # (time.perf_counter(), bytes) of each frame
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.closed = asyncio.Event()
        self._more = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def page(self, path: str = "/") -> tuple[int, str]:
        async with self.http.get(self.base + path) as response:
            return response.status, await response.text()

    async def open(
        self, path: str = "/", size: tuple[int, int] = (150, 45), origin: str | None = None
    ) -> None:
        """Load the page at ``path`` and open its websocket (raises if the host refuses either)."""
        status, html = await self.page(path)
        assert status == 200, f"{path}: {status} {html}"
        found = SOCKET_URL.search(html)
        assert found is not None, html
        url = f"{found.group(1)}?width={size[0]}&height={size[1]}"
        self.ws = await self.http.ws_connect(url, origin=origin or self.base, max_msg_size=0)
        self.closed.clear()
        self._reader = asyncio.ensure_future(self._read(self.ws))
        await self.ws.send_str(json.dumps(["resize", {"width": size[0], "height": size[1]}]))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        try:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.chunks.append((time.perf_counter(), len(message.data)))
                    self.raw += message.data
                    self._more.set()
        finally:
            self.closed.set()
            self._more.set()

    def last(self) -> float:
        """When the latest frame came (0 before any)."""
        return self.chunks[-1][0] if self.chunks else 0.0

    def last_between(self, t0: float, t1: float) -> float | None:
        times = [t for t, _ in self.chunks if t0 < t <= t1]
        return times[-1] if times else None

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def mark(self) -> int:
        return len(self.raw)

    async def expect(self, pattern: str, since: int = 0, timeout: float = 60.0) -> re.Match[str]:
        """Until ``pattern`` is in what came after byte ``since`` (the screen's text, escapes left out)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            found = re.search(pattern, ANSI.sub("", self.raw[since:].decode("utf-8", "replace")))
            if found:
                return found
            if self.closed.is_set():
                raise AssertionError(f"the session ended without {pattern!r}: {self.text()[-600:]!r}")
            self._more.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._more.wait(), max(0.01, end - loop.time()))
            if loop.time() > end:
                raise AssertionError(f"{pattern!r} did not come within {timeout:g} s: {self.text()[-600:]!r}")

    async def type(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def send(self, message: object) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps(message))

    async def close(self, session: bool = True) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader
        if session:
            await self.http.close()
