"""Browsers at a served game (``mqtui serve --web``), through the page's own protocol: a client that loads
the host's page and speaks textual-serve's websocket protocol as the page does (tests/web_helpers.py),
reading the very bytes a browser gets. The seats run the plain stand-in app (as the SSH tests do), so
that what is typed and looked for does not depend on the full app's layout; the real browser is in
tests/test_net_browser.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from secrets_helpers import public_names, secret_names
from ssh_helpers import quick
from waiting import wait_until
from web_helpers import WebTerm

from mqtui.bots import make_bot
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.engine.view import view_for
from mqtui.net.authority import Authority
from mqtui.net.identity import KeyTable
from mqtui.net.limits import Limits
from mqtui.net.sshserver import SSHHost
from mqtui.net.table import TableConfig, parse_new_spec
from mqtui.net.web import WebApp, WebHost, parse_web

pytestmark = pytest.mark.slow  # app processes per browser: seconds each


@dataclass
class Site:
    authority: Authority
    host: SSHHost
    web: WebHost
    base: str
    terms: list[WebTerm]

    def code(self, spec: str) -> str:
        return self.authority.codes_for(spec)[0]

    def browser(self) -> WebTerm:
        term = WebTerm(self.base)
        self.terms.append(term)
        return term


async def open_site(engine: Engine, tmp: Path, limits: Limits | None = None, seats: str = "2") -> Site:
    config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
    a = Authority.new(engine, parse_new_spec(seats), 21, tmp / "game.mqsave", config, KeyTable(None))
    await a.start()
    host = SSHHost(a, app="standin", limits=limits or quick())
    web_host = WebHost(host, folder=tmp)
    await web_host.listen("127.0.0.1", 0)
    return Site(a, host, web_host, f"http://127.0.0.1:{web_host.port}", [])


async def close_site(site: Site) -> None:
    for term in site.terms:
        await term.close()
    await site.web.close()
    await site.host.close()
    await site.authority.close()


@pytest.fixture
async def site(engine: Engine, tmp_path: Path) -> AsyncIterator[Site]:
    s = await open_site(engine, tmp_path)
    try:
        yield s
    finally:
        await close_site(s)


@pytest.mark.slow(seconds=25)
async def test_two_browsers_play_a_whole_game_and_get_only_their_own_seats_view(site: Site) -> None:
    """Over a whole game, no card another seat holds (and this one never saw) is in any byte a browser got."""
    a = site.authority
    terms = (site.browser(), site.browser())
    for seat, term in enumerate(terms):
        await term.open(f"/join/{site.code(str(seat))}")
        await term.expect(rf"seat {seat} {a.slots[seat].name}")
    bots = [make_bot("normal", seed) for seed in (1, 2)]
    public: list[set[str]] = [set(), set()]
    checked = actions = 0
    while a.state.stage != STAGE_OVER and actions < 2000:
        who = a.engine.deciding(a.state)
        action = bots[who].choose(a.engine, view_for(a.state, who), who, a.engine.legal(a.state, who)).action
        ok, why = a.apply(action)
        assert ok, why
        actions += 1
        for seat, term in enumerate(terms):
            public[seat] |= public_names(a, seat)
            if actions % 25 == 0:  # (the apps draw the newest state: let them catch up now and then)
                await term.expect(rf"state {a.state.n} ", timeout=120)
            hidden = secret_names(a, seat, public[seat])
            raw = bytes(term.raw).decode("utf-8", "replace")
            leaked = {name for name in hidden if name in raw or name in term.text()}
            assert not leaked, f"seat {seat}'s browser got another player's cards: {leaked}"
            checked += len(hidden)
    assert a.state.stage == STAGE_OVER, "the game ended"
    for term in terms:
        await term.expect(r"game over", timeout=120)
    assert checked > 100, "there were hidden cards to look for"
    for seat, term in enumerate(terms):  # the check could see a hand: each browser got its own
        shown = {a.engine.cards.names[u] for u in a.state.heroes[seat].hand}
        assert not shown or any(name in term.text() for name in shown)


async def test_a_browser_plays_by_its_keys_and_a_refused_action_says_why(site: Site) -> None:
    a = site.authority
    ann, bob = site.browser(), site.browser()
    await ann.open(f"/join/{site.code('0')}")
    await bob.open(f"/join/{site.code('1')}")
    await ann.expect(r"seat 0 Ann")
    await bob.expect(r"seat 1 Bob")
    who = a.engine.deciding(a.state)
    other = (ann, bob)[1 - who]
    mark = other.mark()
    await other.type(f"{1 - who} done\r")
    await other.expect(r"refused: .*decision", since=mark)
    n = a.state.n
    await (ann, bob)[who].type("1\r")  # the first of its legal actions, by its number
    await wait_until(lambda: a.state.n > n)
    for term in (ann, bob):
        await term.expect(rf"state {a.state.n} ")


async def test_a_returning_browser_gets_its_seat_back_and_a_code_moves_the_seat(site: Site) -> None:
    ann = site.browser()
    await ann.open(f"/join/{site.code('0')}")
    await ann.expect(r"seat 0 Ann")
    await ann.close(session=False)  # the tab is closed; the browser (its cookie) stays
    await wait_until(lambda: site.authority.slots[0].conn is None)
    mark = ann.mark()
    await ann.open("/")  # the host's address alone: this browser's seat
    await ann.expect(r"seat 0 Ann", since=mark)
    await wait_until(lambda: site.authority.slots[0].conn is not None)
    # a new browser with no cookie, on a one-table host, is told where to go
    stranger = site.browser()
    await stranger.open("/")
    await stranger.expect(r"open the link the host gave you")
    await stranger.closed.wait()
    # the seat's code in another browser takes the seat; the first is told why it ends
    other = site.browser()
    mark = ann.mark()
    await other.open(f"/join/{site.code('0')}")
    await other.expect(r"seat 0 Ann")
    await ann.expect(r"you connected again from somewhere else", since=mark)
    await ann.closed.wait()
    # the watch code's link: the public view
    watcher = site.browser()
    await watcher.open(f"/join/{site.code('watch')}")
    await watcher.expect(r"spectator")


async def test_the_websocket_is_only_for_this_hosts_pages_and_a_bad_code_is_counted(
    engine: Engine, tmp_path: Path
) -> None:
    site = await open_site(engine, tmp_path, quick(max_failures=3))
    try:
        term = site.browser()
        status, html = await term.page(f"/join/{site.code('0')}")
        assert status == 200
        url = html.split('data-session-websocket-url="')[1].split('"')[0]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await term.http.ws_connect(url, origin="http://evil.example")  # another site's page
        assert refused.value.status == 403
        stranger = aiohttp.ClientSession()  # the right origin, but not the browser the page was for
        try:
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await stranger.ws_connect(url, origin=site.base)
        finally:
            await stranger.close()
        with pytest.raises(aiohttp.WSServerHandshakeError):  # a page's ticket is good once
            await term.http.ws_connect(url, origin=site.base)
        # nothing of the host's files: no downloads, no folder listings
        for path in ("/download/x", "/static/", "/static/../game.mqsave", "/game.mqsave"):
            async with term.http.get(site.base + path) as response:
                assert response.status in (403, 404), path
        async with aiohttp.ClientSession() as fresh, fresh.get(site.base + "/") as response:
            assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
            assert response.headers["Referrer-Policy"] == "no-referrer"
            cookie = response.headers["Set-Cookie"]  # a new browser gets its signed token
            assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
            token = cookie.split("=", 1)[1].split(";")[0]
            assert site.web.browsers.identity(token) is not None
            assert site.web.browsers.identity(token[:-1] + ("0" if token[-1] != "0" else "1")) is None
        for _ in range(3):
            status, text = await term.page("/join/WRONG1")
            assert status == 404 and "no table here has that join code" in text
        status, text = await term.page(f"/join/{site.code('0')}")  # even a good code, now
        assert status == 429 and "too many wrong join codes" in text
    finally:
        await close_site(site)


async def test_the_operator_lists_a_browsers_session_and_kicks_it(site: Site) -> None:
    ann = site.browser()
    await ann.open(f"/join/{site.code('0')}")
    await ann.expect(r"seat 0 Ann")
    (live,) = site.host.live.values()
    assert live.who.startswith("browser:") and live.seat == 0 and live.addr == "127.0.0.1"
    mark = ann.mark()
    assert site.host.kick(live.id, "please take a break")
    await ann.expect(r"mqtui: please take a break", since=mark)
    await ann.closed.wait()
    await wait_until(lambda: not site.host.live and site.authority.slots[0].conn is None)


async def test_a_browsers_input_is_guarded_and_its_size_clamped(engine: Engine, tmp_path: Path) -> None:
    site = await open_site(engine, tmp_path, quick(flood_burst=64 * 1024.0, flood_rate=1024.0))
    try:
        ann = site.browser()
        await ann.open(f"/join/{site.code('0')}", size=(100, 30))
        await ann.expect(r"size 100x30")
        await ann.send(["resize", {"width": 10000, "height": 10000}])
        await ann.expect(r"size 400x150")
        guard = next(iter(site.web.sessions)).guard
        await ann.type("x" * 20000)  # a paste far past the input budget: cut to it, the rest dropped
        await wait_until(lambda: guard.dropped >= 20000 - 1024)
        mark = ann.mark()
        for _ in range(8):  # then more than anyone types or pastes: the session is ended
            await ann.type("y" * 16000)
        await ann.expect(r"this session was ended: it sent more than anyone types", since=mark)
        await ann.closed.wait()
        await wait_until(lambda: site.authority.slots[0].conn is None)
    finally:
        await close_site(site)


async def test_the_limits_per_address_hold_for_browsers(engine: Engine, tmp_path: Path) -> None:
    site = await open_site(engine, tmp_path, quick(max_sessions_per_address=1))
    try:
        ann, bob = site.browser(), site.browser()
        await ann.open(f"/join/{site.code('0')}")
        await ann.expect(r"seat 0 Ann")
        await bob.open(f"/join/{site.code('1')}")
        await bob.expect(r"your address already has 1 sessions here, its limit")
        await bob.closed.wait()
        assert site.authority.slots[1].conn is None
    finally:
        await close_site(site)


async def test_an_apps_requests_for_links_and_files_reach_no_page() -> None:
    sent: list[object] = []

    class Socket:
        async def send_bytes(self, data: bytes) -> None:
            sent.append(data)

        async def send_str(self, data: str) -> None:
            sent.append(data)

        async def close(self) -> None:
            sent.append("close")

    app = WebApp(["true"], {}, -1, Socket())  # type: ignore[arg-type]
    await app.on_packet(
        b"M", json.dumps({"type": "open_url", "url": "file:///etc/passwd", "new_tab": True}).encode()
    )
    await app.on_packet(
        b"M", json.dumps({"type": "deliver_file_start", "key": "k", "path": "/etc/passwd"}).encode()
    )
    await app.on_packet(b"M", json.dumps({"type": "exit"}).encode())
    await app.on_packet(b"P", b"\x00")
    await app.on_packet(b"D", b"screen")
    assert sent == [b"screen"]


def test_the_web_option_takes_a_port_or_an_address_and_a_port() -> None:
    assert parse_web("8080") == ("127.0.0.1", 8080)
    assert parse_web("0.0.0.0:80") == ("0.0.0.0", 80)
    assert parse_web("[::1]:8080") == ("::1", 8080)
    with pytest.raises(ValueError, match="give a port"):
        parse_web("web")


async def serve_web(tmp_path: Path, *more: str) -> tuple[asyncio.subprocess.Process, str]:
    """A real ``mqtui serve --web 127.0.0.1:0 MORE`` and its banner, up to the browsers' lines."""
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), HOME=str(tmp_path), TERM="xterm-256color")
    argv = [sys.executable, "-m", "mqtui", "serve", "--port", "0", "--web", "127.0.0.1:0", "--no-fork", *more]
    proc = await asyncio.create_subprocess_exec(
        *argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    assert proc.stdout is not None
    text = ""
    try:
        while "a seat's link" not in text:
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line, text
            text += line.decode()
    except BaseException:
        proc.kill()
        await proc.wait()
        raise
    return proc, text


async def stop_serving(proc: asyncio.subprocess.Process) -> str:
    proc.send_signal(signal.SIGTERM)
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, out.decode()
    return out.decode()


@pytest.mark.parametrize("ssh", [True, False], ids=["beside-ssh", "no-ssh"])
async def test_serve_with_web_hosts_the_lobby_for_browsers(tmp_path: Path, ssh: bool) -> None:
    """``mqtui serve --web``: its banner names the browsers' address, where a browser lands in the lobby;
    with ``--no-ssh`` too (a lobby for browsers only: no SSH port is opened)."""
    proc, text = await serve_web(
        tmp_path, "--tables", str(tmp_path / "tables"), *([] if ssh else ["--no-ssh"])
    )
    try:
        assert ("SSH on 127.0.0.1:" in text) == ssh, text
        if not ssh:
            assert "No SSH (--no-ssh): visitors come by browser" in text and "ssh_host_key" not in str(
                list((tmp_path / "data").rglob("*"))
            )
        found = re.search(r"Browsers: (http://127\.0\.0\.1:\d+)/ \(the lobby\)", text)
        assert found, text
        term = WebTerm(found.group(1))
        try:
            await term.open("/")
            await term.expect(r"mqtui lobby")
            await term.expect(r"New table")
        finally:
            await term.close()
    finally:
        await stop_serving(proc)


async def test_a_one_table_host_for_browsers_only_seats_a_browser_by_its_link(tmp_path: Path) -> None:
    """``mqtui serve --new Ann,Bob --web ADDR:PORT --no-ssh``: no SSH port, the seats' join codes in the
    banner (``--print-codes``), and a browser at a seat's link plays that seat; the game is saved at the
    end as beside SSH."""
    save = tmp_path / "t.mqsave"
    proc, text = await serve_web(
        tmp_path, "--new", "Ann,Bob", "--save", str(save), "--no-ssh", "--print-codes", "--app", "standin"
    )
    try:
        assert "SSH on" not in text and "Join codes (one per seat):" in text, text
        code = re.search(r"seat 1  Bob .* (\S+)\n", text)
        found = re.search(r"Browsers: (http://127\.0\.0\.1:\d+)/", text)
        assert code and found, text
        term = WebTerm(found.group(1))
        try:
            await term.open(f"/join/{code.group(1)}")
            await term.expect(r"seat 1 Bob - state 0 ")
        finally:
            await term.close()
    finally:
        out = await stop_serving(proc)
    assert f"saved to {save}" in out and save.exists()
