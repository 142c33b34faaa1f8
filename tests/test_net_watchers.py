"""Spectators on a table's shared view (mqtui.net.watchers): real OpenSSH watchers of one table share one
app, a late one gets the whole screen, keys do what the module says, a slow one stalls nobody, and no
hand card reaches a watcher's bytes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from secrets_helpers import public_names, secret_names
from ssh_helpers import Term, needs_ssh
from ssh_helpers import fork_server as fork_server  # the fixture, for this module
from test_net_ssh import Server
from test_net_ssh import server as server  # the fixture, for this module
from waiting import wait_until as _until

from mqtui.engine.actions import to_text
from mqtui.net import watchers as w
from mqtui.net.table import safe_choice


def _shared(srv: Server) -> list[w.SharedView]:
    return list(srv.host.views.values())


async def _play(srv: Server, player: Term, actions: int) -> None:
    """The seat-0 player plays ``actions`` of its decisions (the other seat's are played for it here)."""
    a = srv.authority
    for _ in range(actions):
        await _until(lambda: a.engine.deciding(a.state) >= 0)
        who = a.engine.deciding(a.state)
        n = a.state.n
        action = safe_choice(a.engine.legal(a.state, who))
        if who == 0:
            player.type(to_text(action) + "\r")
        else:
            a.apply(action)
        await _until(lambda n=n: a.state.n > n)


pytestmark = [needs_ssh, pytest.mark.slow]


async def test_watchers_of_one_size_share_one_app_a_late_one_gets_the_whole_screen_and_no_hand_card(
    server: Server,
) -> None:
    a = server.authority
    ann = server.ssh(f"code-{server.code('0')}")
    await ann.expect(r"seat 0 Ann - state 0 ")
    watch = f"code-{server.code('watch')}"
    w1, w2 = server.ssh(watch), server.ssh(watch)
    await w1.expect(r"spectator - state 0 ")
    await w2.expect(r"spectator - state 0 ")
    assert len(_shared(server)) == 1, "one app for both"
    assert len(server.host.children) == 2, "Ann's app and the one shared view"
    await _play(server, ann, 4)
    n = a.state.n
    for t in (w1, w2):
        await t.expect(rf"spectator - state {n} ")
    # a watcher who comes now, when nothing changes, still gets the whole screen at once
    late = server.ssh(watch)
    await late.expect(rf"spectator - state {n} ")
    await late.expect(r"Bob")  # (the seats' list, drawn before it came)
    assert len(server.host.children) == 2
    # no card of any hand ever reached a watcher's bytes (the view is seat -1's: public only)
    public = public_names(a, -1)
    secrets = secret_names(a, -1, public)
    assert secrets, "there are hidden cards to look for"
    for t in (w1, w2, late):
        raw = bytes(t.raw).decode("utf-8", "replace")
        leaked = {s for s in secrets if s in raw or s in t.text()}
        assert not leaked, f"a watcher's terminal showed a hand card: {leaked}"
        assert "\x1b]7770" not in raw, "the markers never reach a terminal"


async def test_a_watcher_leaves_with_q_and_the_app_ends_after_the_last_one(server: Server) -> None:
    watch = f"code-{server.code('watch')}"
    w1, w2 = server.ssh(watch), server.ssh(watch)
    await w1.expect(r"spectator - state 0 ")
    await w2.expect(r"spectator - state 0 ")
    (view,) = _shared(server)
    w1.type("q")
    assert await w1.wait() == 0
    assert len(view.watchers) == 1 and not view.closing, "the other one still watches"
    w2.type("\x03")  # Ctrl+C leaves too
    assert await w2.wait() == 0
    await _until(lambda: not server.host.children and not server.host.views, 10)


async def test_a_key_gives_a_watcher_its_own_app_and_a_new_size_its_own_view(server: Server) -> None:
    watch = f"code-{server.code('watch')}"
    w1, w2 = server.ssh(watch), server.ssh(watch)
    await w1.expect(r"spectator - state 0 ")
    await w2.expect(r"spectator - state 0 ")
    w2.resize(100, 30)  # another size: another shared view
    await _until(lambda: any(key[1:3] == (100, 30) for key in server.host.views))
    w2.clear()
    await w2.expect(r"spectator - state 0 ")
    w1.clear()
    w1.type("x")  # a key that needs an app: its own spectator app, and w1's old view ends without it
    await _until(lambda: len(server.host.views) == 1 and len(server.host.children) == 2, 10)
    await w1.expect(r"spectator - state 0 ")
    assert server.host.gate.watching[server.authority.game.game] == 1, "it counts as a spectator's app"


class _Stalled:
    """A watcher's channel that takes nothing (a client that stopped reading)."""

    def __init__(self) -> None:
        self.written = bytearray()

    def write(self, data: bytes) -> None:
        self.written += data

    async def drain(self) -> None:
        await asyncio.Event().wait()  # never


class _Reading(_Stalled):
    async def drain(self) -> None:
        return None


class _Process:
    def __init__(self, stdout: Any) -> None:
        self.stdout = stdout


async def test_a_slow_watcher_is_skipped_to_a_new_frame_and_stalls_nobody() -> None:
    view = w.SharedView.__new__(w.SharedView)  # (its stream alone: no app, no host)
    view.watchers, view.marks, view.child = set(), w.Marks(), None
    view.ready = view.closing = False
    view.asked, view.frames, view._timer = -1e9, 0, None
    slow_out, quick_out = _Stalled(), _Reading()
    slow, quick = w.Watcher(_Process(slow_out), 4096), w.Watcher(_Process(quick_out), 4096)  # type: ignore[arg-type]
    view.watchers = {slow, quick}
    writers = [asyncio.ensure_future(x.write_loop()) for x in (slow, quick)]
    try:
        view.feed(b"startup " + w.READY.encode() + b"pending ")  # nobody has a frame yet: nothing goes out
        assert (slow.state, quick.state) == (w.WAITING, w.WAITING)
        frame = w.FRAME_BEGIN.encode() + b"WHOLE-1" + w.FRAME_END.encode()
        view.feed(frame[:5])  # a marker cut between two reads
        view.feed(frame[5:] + b" step-1")
        await _until(lambda: b"step-1" in quick_out.written and bool(slow_out.written))
        assert (slow.state, quick.state) == (w.LIVE, w.LIVE)
        for k in range(2, 40):  # the slow one's channel takes nothing; its buffer fills and is dropped
            view.feed(f" step-{k} ".encode() * 40)
            await _until(lambda: not quick.buf)  # (as between two reads of the app's output)
        await _until(lambda: b"step-39" in quick_out.written)
        assert slow.state == w.WAITING and slow.drops >= 1 and len(slow.buf) <= 4096
        assert b"WHOLE-1" in quick_out.written and b"startup" not in quick_out.written
        view.feed(w.FRAME_BEGIN.encode() + b"WHOLE-2" + w.FRAME_END.encode() + b" step-40")
        await _until(lambda: b"step-40" in quick_out.written)
        # an up-to-date watcher gets the frame too: what changed while it was drawn is in it
        assert quick_out.written.endswith(b"WHOLE-2 step-40")
        assert slow.state == w.LIVE and b"WHOLE-2" in slow.buf, "the slow one starts again at the frame"
    finally:
        for task in writers:
            task.cancel()
