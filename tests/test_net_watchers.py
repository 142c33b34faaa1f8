"""Spectators on a table's shared view (mqtui.net.watchers): real OpenSSH watchers of one table share one
app, a late one gets the whole screen, keys do what the module says, a slow one stalls nobody, and no
hand card reaches a watcher's bytes."""

from __future__ import annotations

import asyncio
import time

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
        if who == 0:  # (once her app shows this state: typed into an older one, it is not legal there)
            await player.expect(rf"seat 0 Ann - state {n} ")
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


class _Channel:
    """A watcher's SSH channel: what was written to it, and what it holds back (``stalled``: a client that
    stopped reading, whose window is full, until :meth:`take`)."""

    def __init__(self, stalled: bool = False) -> None:
        self.stalled = stalled
        self.written = bytearray()
        self.writes = 0
        self.held = 0
        self.took = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.written += data
        self.writes += 1
        if self.stalled:
            self.held += len(data)

    def get_write_buffer_size(self) -> int:
        return self.held

    def take(self) -> None:
        """The client reads again: its window takes what was held back."""
        self.held = 0
        self.took.set()


class _Stdout:
    def __init__(self, channel: _Channel) -> None:
        self.channel = channel

    def write(self, data: bytes) -> None:
        self.channel.write(data)

    async def drain(self) -> None:
        if self.channel.held:
            await self.channel.took.wait()


class _Process:
    def __init__(self, channel: _Channel) -> None:
        self.channel = channel
        self.stdout = _Stdout(channel)


def _bare_view() -> w.SharedView:
    view = w.SharedView.__new__(w.SharedView)  # (its stream alone: no app, no host)
    view.watchers, view.marks, view.child = set(), w.Marks(), None
    view.pending, view._flusher = [], None
    view.ready = view.closing = False
    view.asked, view.frames, view._timer, view._linger = -1e9, 0, None, None
    view._stop = asyncio.Event()
    return view


def _watcher(view: w.SharedView, channel: _Channel, limit: int = 4096) -> w.Watcher:
    watcher = w.Watcher(_Process(channel), limit)  # type: ignore[arg-type]
    watcher.on_room = view.want_frame
    view.watchers.add(watcher)
    return watcher


async def test_a_slow_watcher_is_skipped_to_a_new_frame_and_stalls_nobody() -> None:
    view = _bare_view()
    asked: list[float] = []
    view._ask = lambda: asked.append(0.0)  # type: ignore[method-assign]  # (no app to signal)
    slow_out, quick_out = _Channel(stalled=True), _Channel()
    slow, quick = _watcher(view, slow_out), _watcher(view, quick_out)
    writers = [asyncio.ensure_future(x.write_loop()) for x in (slow, quick)]
    try:
        view.feed(b"startup " + w.READY.encode() + b"pending ")  # nobody has a frame yet: nothing goes out
        assert (slow.state, quick.state) == (w.WAITING, w.WAITING)
        frame = w.FRAME_BEGIN.encode() + b"WHOLE-1" + w.FRAME_END.encode()
        view.feed(frame[:5])  # a marker cut between two reads
        view.feed(frame[5:] + b" step-1")
        await _until(lambda: b"step-1" in quick_out.written and bool(slow_out.written))
        assert (slow.state, quick.state) == (w.LIVE, w.LIVE)
        assert quick_out.written.startswith(w.RESYNC) and quick_out.writes == 1, "one write, the frame's"
        asked.clear()  # (the newcomers' frame)
        for k in range(2, 40):  # the slow one's channel takes nothing; it is skipped past its limit
            view.feed(f" step-{k} ".encode() * 40)
            await _until(lambda: not view.pending)  # (as between two reads of the app's output)
            assert slow_out.held <= 4096 + 400, "what a slow watcher holds back is bounded"
        await _until(lambda: b"step-39" in quick_out.written)
        assert slow.state == w.WAITING and slow.drops >= 1
        assert b"step-39" not in slow_out.written
        assert b"WHOLE-1" in quick_out.written and b"startup" not in quick_out.written
        assert not asked, "no frame is asked for a watcher that has no room for it"
        slow_out.take()  # it reads again: it asks for a frame
        await _until(lambda: bool(asked))
        before = len(slow_out.written)
        view.feed(w.FRAME_BEGIN.encode() + b"WHOLE-2" + w.FRAME_END.encode() + b" step-40")
        await _until(lambda: b"step-40" in quick_out.written)
        # an up-to-date watcher gets the frame too: what changed while it was drawn is in it
        assert quick_out.written.endswith(b"WHOLE-2 step-40")
        assert slow.state == w.LIVE, "the slow one starts again at the frame"
        assert slow_out.written[before:] == w.RESYNC + b"WHOLE-2 step-40"
    finally:
        for task in writers:
            task.cancel()


async def test_the_last_watcher_leaving_while_a_frame_is_due_still_stops_the_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(w, "VIEW_LINGER", 0.05)
    view = _bare_view()
    view._ask = lambda: None  # type: ignore[method-assign]  # (no app to signal)
    view.ready = True
    view.asked = time.monotonic()  # a frame was just asked for: the next one waits for its timer
    leaving = _watcher(view, _Channel())
    view.want_frame()
    assert view._timer is not None, "(a frame is due)"
    view.watchers.discard(leaving)  # the last watcher goes (serve's end) while that frame is due
    view.watcher_left(0)
    await _until(view._stop.is_set, 10)  # its app is stopped after the linger, as for any last watcher


async def test_a_burst_of_reads_goes_to_each_watcher_in_one_write() -> None:
    view = _bare_view()
    outs = [_Channel() for _ in range(3)]
    watchers = [_watcher(view, out) for out in outs]
    for x in watchers:
        x.state = w.LIVE
    screens = [b"\x1b[H" + f"screen {k} ".encode() * 200 for k in range(4)]
    for screen in screens:  # a frame in several reads of the pty, as the app writes it
        view.feed(screen)
    await _until(lambda: not view.pending)
    for out in outs:
        assert out.writes == 1 and bytes(out.written) == b"".join(screens), "every byte, in one write"
    view.feed(b"\x1b[Hlast screen")
    await _until(lambda: all(out.written.endswith(b"last screen") for out in outs))
    assert all(out.writes == 2 for out in outs), "each watcher gets the final screen"
    assert len(b"".join(screens)) > watchers[0].limit, (
        "(a burst past the limit goes to a channel that holds none)"
    )


async def test_a_watcher_whose_channel_closed_is_left_out_and_its_session_ends() -> None:
    view = _bare_view()

    class _Closed(_Channel):
        def write(self, data: bytes) -> None:
            raise BrokenPipeError("Channel not open for sending")

    gone, fine = _watcher(view, _Closed()), _watcher(view, out := _Channel())
    gone.state = fine.state = w.LIVE
    ended = asyncio.ensure_future(gone.write_loop())
    view.feed(b"a frame")
    await _until(lambda: bytes(out.written) == b"a frame")
    await asyncio.wait_for(ended, 10)  # (its writer loop returns: serve() ends that session)
    assert gone.broken and gone.state == w.LIVE
