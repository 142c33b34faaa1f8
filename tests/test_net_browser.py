"""A real browser at a served table: headless Chromium from the distribution's packages, driven by
Playwright (its Python package; the browser is the system's, ``/usr/bin/chromium``). Two browser players
and one SSH player play a round at one lobby table, a spectator watches from a browser it took from
the lobby, and a browser that reloads, or opens the host's address again, gets its seat back.

What a browser got is read from the websocket frames the page received (Playwright's ``framereceived``),
the very bytes its xterm.js drew. The seats run the stand-in app (as the SSH tests do); the lobby is the
full lobby app. Without Chromium the test skips and says why; where CI is set it fails instead (.ci/run
installs chromium).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from ssh_helpers import ANSI, SSH_OPTS, Term, needs_ssh, quick
from waiting import wait_until

from mqtui.engine.actions import to_text
from mqtui.net import lobbyproto as lp
from mqtui.net.lobby import LobbyHost, seats_for
from mqtui.net.table import TableConfig, safe_choice
from mqtui.net.tables import Tables
from mqtui.net.web import WebHost

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing() -> str:
    if not os.path.exists(CHROMIUM):
        return "needs Chromium (Debian: apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "needs Playwright (pip install playwright; the dev extra has it)"
    return ""


pytestmark = [
    pytest.mark.skipif(bool(_missing()) and not os.environ.get("CI"), reason=_missing() or "-"),
    needs_ssh,
    pytest.mark.slow(seconds=40),
]


class Tab:
    """One person's browser tab: the page, and every byte its websocket brought."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.raw = bytearray()
        self._more = asyncio.Event()
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.raw += payload
            self._more.set()

    def mark(self) -> int:
        return len(self.raw)

    async def expect(self, pattern: str, since: int = 0, timeout: float = 90.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not re.search(pattern, ANSI.sub(b"", bytes(self.raw[since:])).decode("utf-8", "replace")):
            if loop.time() > end:
                text = ANSI.sub(b"", bytes(self.raw[since:])).decode("utf-8", "replace")
                raise AssertionError(f"{pattern!r} did not reach the browser: {text[-500:]!r}")
            self._more.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._more.wait(), 1.0)

    async def type(self, text: str) -> None:
        await self.page.click("#terminal")
        await self.page.keyboard.type(text)
        await self.page.keyboard.press("Enter")


@pytest.fixture
async def hosted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[LobbyHost, WebHost]]:
    monkeypatch.setenv("MQTUI_NET_APP", "standin")
    tables = Tables(tmp_path / "tables", TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0))
    await tables.load_all()
    await tables.start()
    host = LobbyHost(None, app="standin", tables=tables, name="Test host", limits=quick(lobby_refresh=0.2))
    await host.listen("127.0.0.1", 0, tmp_path / "ssh_host_key")
    web_host = WebHost(host, folder=tmp_path)
    await web_host.listen("127.0.0.1", 0)
    try:
        yield host, web_host
    finally:
        await web_host.close()
        await tables.close()
        await host.close()


async def test_two_browsers_and_an_ssh_player_play_a_round_a_browser_watches_and_one_comes_back(
    hosted: tuple[LobbyHost, WebHost], tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    host, web_host = hosted
    base = f"http://127.0.0.1:{web_host.port}"
    a = await host.tables.create(seats_for(lp.Create(name="Ann", others=[lp.OPEN, lp.OPEN])), 7, [])
    code = [a.codes_for(str(seat))[0] for seat in range(3)]
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    ssh = Term(
        [
            "ssh",
            "-tt",
            "-p",
            str(host.port),
            *SSH_OPTS,
            "-o",
            "PubkeyAuthentication=no",
            f"code-{code[2]}@127.0.0.1",
        ],
        (120, 40),
        env=env,
    )
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            tabs = []
            for _ in range(3):  # Ann, Bob, and a spectator: each a browser of its own (its own cookies)
                context = await browser.new_context(viewport={"width": 1200, "height": 800})
                tabs.append(Tab(await context.new_page()))
            ann, bob, watcher = tabs
            await ann.page.goto(f"{base}/join/{code[0]}")
            await bob.page.goto(f"{base}/join/{code[1]}")
            await ann.expect(r"seat 0 Ann")
            await bob.expect(r"seat 1 Bob")
            await ssh.expect(r"seat 2 ", timeout=90)
            # the spectator comes by the lobby: the host's address, then w on the (only) table
            await watcher.page.goto(f"{base}/")
            await watcher.expect(r"mqtui lobby")
            await watcher.expect(a.game.game)
            await watcher.page.click("#terminal")
            await watcher.page.keyboard.press("w")
            await watcher.expect(r"spectator")
            players: dict[int, Tab | Term] = {0: ann, 1: bob, 2: ssh}
            turns: set[int] = set()
            start = int(a.state.round)
            for _ in range(150):  # a round: every seat has had its turn and the next round began
                if turns == {0, 1, 2} and a.state.round > start:
                    break
                who = a.engine.deciding(a.state)
                n = a.state.n
                text = to_text(safe_choice(a.engine.legal(a.state, who)))
                player = players[who]
                if isinstance(player, Tab):
                    await player.type(text)
                else:
                    player.type(text + "\r")
                await wait_until(lambda n=n: a.state.n > n, timeout=90)
                turns.add(int(a.state.active))
                for tab in (ann, bob, watcher):
                    await tab.expect(rf"state {a.state.n} ")
                await ssh.expect(rf"state {a.state.n} ", timeout=90)
            assert turns == {0, 1, 2} and a.state.round > start, "a whole round was played"
            # a browser that opens the host's address again, or reloads, gets its seat back
            mark = ann.mark()
            await ann.page.goto(f"{base}/")
            await ann.expect(r"seat 0 Ann", since=mark)
            mark = ann.mark()
            await ann.page.reload()
            await ann.expect(r"seat 0 Ann", since=mark)
            await wait_until(lambda: a.slots[0].conn is not None)
        finally:
            await browser.close()
            ssh.close()
