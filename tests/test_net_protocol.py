"""The game authority and its protocol, without SSH: seats, refusals, redaction, faults, saves."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import msgspec
import pytest
from waiting import wait_until as _until

from mqtui import saves
from mqtui.engine.actions import Action, IllegalAction
from mqtui.engine.game import Engine
from mqtui.engine.state import HIDDEN
from mqtui.net import persist
from mqtui.net.authority import Authority
from mqtui.net.identity import normalise_code, parse_seat_spec
from mqtui.net.netstore import JoinRefused, NetStore
from mqtui.net.protocol import (
    MAX_CLIENT_FRAME,
    PROTO_VERSION,
    Act,
    Bye,
    Hello,
    Ping,
    ProtocolError,
    Refused,
    Result,
    Snap,
    Welcome,
    decode_client,
    decode_server,
    encode,
    read_frame,
)
from mqtui.net.ptyrelay import child_env
from mqtui.net.table import TableConfig, parse_new_spec, played_words, safe_choice
from mqtui.store import LogLine, Snapshot


class Table:
    """An authority on a Unix socket in a temporary folder."""

    def __init__(self, authority: Authority, path: str) -> None:
        self.a = authority
        self.path = path

    def code(self, spec: str) -> str:
        return self.a.codes_for(spec)[0]

    async def join(self, engine: Engine, spec: str, **kw: object) -> NetStore:
        return await NetStore.open_unix(engine, self.path, code=self.code(spec), **kw)  # type: ignore[arg-type]

    async def raw(self, spec: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, Welcome]:
        """A hand-driven client: hello, then frames as the test likes."""
        reader, writer = await asyncio.open_unix_connection(self.path)
        writer.write(
            encode(Hello(proto=PROTO_VERSION, content=self.a.engine.content.version, code=self.code(spec)))
        )
        welcome = decode_server(await _frame(reader))
        assert isinstance(welcome, Welcome)
        return reader, writer, welcome


async def _frame(reader: asyncio.StreamReader, timeout: float = 5.0) -> bytes:
    body = await asyncio.wait_for(read_frame(reader, 1 << 24), timeout)
    assert body is not None
    return body


async def _next_result(reader: asyncio.StreamReader) -> Result:
    for _ in range(50):
        msg = decode_server(await _frame(reader))
        if isinstance(msg, Result):
            return msg
    raise AssertionError("no result")


async def _open(engine: Engine, tmp_path: Path, spec: str = "2", **config: float) -> Table:
    cfg = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0, guess_delay=0.01)
    for k, v in config.items():
        setattr(cfg, k, v)
    a = Authority.new(engine, parse_new_spec(spec), 11, save_path=tmp_path / "game.mqsave", config=cfg)
    await a.start()
    path = str(tmp_path / "s")
    await a.serve_unix(path)
    return Table(a, path)


@pytest.fixture
async def table(engine: Engine, tmp_path: Path) -> AsyncIterator[Table]:
    t = await _open(engine, tmp_path)
    yield t
    await t.a.close()


# -- frames -----------------------------------------------------------------------------------------


async def test_frames_round_trip_and_bad_frames_are_protocol_errors() -> None:
    act = Act(id=3, action=Action(1, "move", 2), expect_n=7)
    frame = encode(act)
    assert decode_client(frame[4:]) == act
    for data in (
        struct.pack(">I", MAX_CLIENT_FRAME + 1) + b"x",  # over the cap: refused before reading
        struct.pack(">I", 0),  # empty
        struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1",  # not msgpack
        struct.pack(">I", 10) + b"abc",  # cut short
    ):
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        with pytest.raises(ProtocolError):
            body = await read_frame(reader, MAX_CLIENT_FRAME)
            decode_client(body or b"")
    with pytest.raises(ProtocolError):
        decode_client(msgspec.msgpack.encode({"type": "act", "id": "x"}))
    with pytest.raises(ProtocolError):  # a server message is not a client message
        decode_client(encode(Refused(reason="no"))[4:])


# -- seats and views --------------------------------------------------------------------------------


async def test_each_player_gets_their_own_view_and_every_change(engine: Engine, table: Table) -> None:
    s0 = await table.join(engine, "0")
    s1 = await table.join(engine, "1")
    assert (s0.seat, s1.seat) == (0, 1)
    assert [s.kind for s in s0.seats] == ["human", "remote"]
    state = table.a.state
    for store, me in ((s0, 0), (s1, 1)):
        view = store.snapshot().view
        assert view.heroes[me].hand == state.heroes[me].hand
        other = 1 - me
        assert view.heroes[other].hand == [HIDDEN] * len(state.heroes[other].hand)
        assert set(view.dxm) <= {HIDDEN} and view.rng == 0 and view.seed == 0
    first = s0.snapshot()
    assert first.deciding == 0 and first.legal
    await s0.send(safe_choice(first.legal))
    await _until(lambda: s0.snapshot().n == s1.snapshot().n == first.n + 1)
    assert s1.snapshot().deciding == 1 and s1.snapshot().legal and not s0.snapshot().legal
    # each seat reads its own private log lines and never the other's
    assert any(line.text.startswith("You draw") for line in s0.snapshot().log)
    mine = {line.text for line in s0.snapshot().log if line.text.startswith("You draw")}
    assert not mine & {line.text for line in s1.snapshot().log}
    # the wire carries each entry's kind: a private draw is a "draw" for both, its cards only for s0
    drawn = [line for line in s0.snapshot().log if line.text.startswith("You draw")]
    assert {line.kind for line in drawn} == {"draw"}
    assert [line.kind for line in s1.snapshot().log] == [line.kind for line in s0.snapshot().log]
    await s0.close()
    await s1.close()


async def test_the_player_who_acted_hears_first_and_the_others_a_moment_later(
    engine: Engine, tmp_path: Path
) -> None:
    """On a busy host the acting player's app draws the result before the table's other apps wake
    (``others_after``)."""
    later = 1.0  # (long enough that the acting player's "at once" holds on a loaded machine)
    t = await _open(engine, tmp_path, others_after=later)
    try:
        s0, s1 = await t.join(engine, "0"), await t.join(engine, "1")
        heard: dict[tuple[int, int], float] = {}
        loop = asyncio.get_running_loop()

        def hear(seat: int) -> Callable[[Snapshot], None]:
            def heard_it(snap: Snapshot) -> None:
                heard.setdefault((seat, snap.n), loop.time())

            return heard_it

        for store in (s0, s1):
            store.subscribe(hear(store.seat))
        first = s0.snapshot()
        sent = loop.time()
        await s0.send(safe_choice(first.legal))
        n = first.n + 1
        await _until(lambda: (1, n) in heard)
        assert heard[(0, n)] - sent < later  # at once...
        assert heard[(1, n)] - sent >= later * 0.9  # ...the other seat only after the pause
        assert heard[(1, n)] > heard[(0, n)]
        await s0.close()
        await s1.close()
    finally:
        await t.a.close()


async def test_out_of_turn_stale_and_other_seat_actions_are_refused(engine: Engine, table: Table) -> None:
    s1 = await table.join(engine, "1")
    n = table.a.state.n
    with pytest.raises(IllegalAction, match="decision"):
        await s1.send(Action(1, "done"))
    with pytest.raises(IllegalAction, match="seat 1, not seat 0"):
        await s1.send(Action(0, "done"))  # refused by the store already...
    reader, writer, _ = await table.raw("1")
    writer.write(encode(Act(id=1, action=Action(0, "done"), expect_n=n)))  # ...and by the authority
    result = await _next_result(reader)
    assert not result.ok and "you play seat 1" in result.reason
    reader0, writer0, _ = await table.raw("0")
    writer0.write(encode(Act(id=2, action=Action(0, "done"), expect_n=n - 1)))
    result = await _next_result(reader0)
    assert not result.ok and "stale" in result.reason
    writer0.write(encode(Act(id=3, action=Action(0, "move", 99), expect_n=n)))
    result = await _next_result(reader0)
    assert not result.ok
    assert table.a.state.n == n  # nothing changed
    writer0.write(encode(Act(id=4, action=Action(0, "done"), expect_n=n)))
    result = await _next_result(reader0)
    assert result.ok and table.a.state.n == n + 1
    # an action kind that does not exist is not even a message: the connection is cut off
    writer0.write(encode(Act(id=5, action=Action(0, "nonsense", 99), expect_n=n + 1)))  # type: ignore[arg-type]
    msgs = []
    while (body := await asyncio.wait_for(read_frame(reader0, 1 << 24), 5.0)) is not None:
        msgs.append(decode_server(body))
    assert isinstance(msgs[-1], Bye) and "protocol error" in msgs[-1].reason and "nonsense" in msgs[-1].reason
    assert table.a.state.n == n + 1
    writer.close()
    writer0.close()
    await s1.close()


async def test_spectators_see_only_public_information(engine: Engine, table: Table) -> None:
    watcher = await table.join(engine, "watch")
    assert watcher.seat == -1
    view = watcher.snapshot().view
    assert all(set(h.hand) <= {HIDDEN} for h in view.heroes)
    assert not any(line.text.startswith("You ") for line in watcher.snapshot().log)
    with pytest.raises(IllegalAction, match="watch"):
        await watcher.send(Action(0, "done"))
    await watcher.close()


async def test_wrong_code_other_content_and_old_protocol_are_refused(engine: Engine, table: Table) -> None:
    with pytest.raises(JoinRefused, match="unknown join code"):
        await NetStore.open_unix(engine, table.path, code="ZZZZZZ")
    for hello in (
        Hello(proto=PROTO_VERSION, content="not-this", code=table.code("0")),
        Hello(proto=PROTO_VERSION + 9, content=engine.content.version, code=table.code("0")),
    ):
        reader, writer = await asyncio.open_unix_connection(table.path)
        writer.write(encode(hello))
        msg = decode_server(await _frame(reader))
        assert isinstance(msg, Refused)
        writer.close()
    assert normalise_code(f"code-{table.code('0').lower()}") == table.code("0")


async def test_table_code_picks_a_free_seat_and_a_second_login_replaces_the_first(
    engine: Engine, table: Table
) -> None:
    s0 = await table.join(engine, "0")
    picker = await table.join(engine, "any")
    assert picker.seat == 1  # seat 0 is owned through its code
    with pytest.raises(JoinRefused, match="every seat is taken"):
        await table.join(engine, "any")  # the same table code does not take the first picker's seat
    assert not picker.closed.is_set()
    again = await table.join(engine, "0")
    await _until(lambda: s0.closed.is_set())
    assert "again" in s0.close_reason and again.seat == 0
    for store in (picker, again):
        await store.close()


# -- faults -----------------------------------------------------------------------------------------


async def test_garbage_oversized_and_flooding_clients_are_cut_off(engine: Engine, table: Table) -> None:
    s0 = await table.join(engine, "0")
    for junk in (
        b"\x00\x00\x00\x05hello",
        struct.pack(">I", 1 << 30),
        encode(Act(id=1, action=Action(1, "done"), expect_n=0)),  # an act before the hello
    ):
        reader, writer = await asyncio.open_unix_connection(table.path)
        writer.write(junk)
        await writer.drain()
        for _ in range(3):
            body = await asyncio.wait_for(read_frame(reader, 1 << 24), 5.0)
            if body is None:
                break
            assert isinstance(decode_server(body), Bye | Refused)
        writer.close()
    # garbage after a good hello
    reader, writer, _ = await table.raw("1")
    writer.write(b"\x00\x00\x00\x03\xc1\xc1\xc1")
    msgs = []
    while (body := await asyncio.wait_for(read_frame(reader, 1 << 24), 5.0)) is not None:
        msgs.append(decode_server(body))
    assert isinstance(msgs[-1], Bye) and "protocol error" in msgs[-1].reason
    # a flood of actions for another seat: refused, then cut off
    reader, writer, _ = await table.raw("1")
    for i in range(400):
        writer.write(encode(Act(id=i, action=Action(0, "done"), expect_n=0)))
    await writer.drain()
    refused = 0
    try:
        while (body := await asyncio.wait_for(read_frame(reader, 1 << 24), 5.0)) is not None:
            msg = decode_server(body)
            if isinstance(msg, Result):
                assert not msg.ok
                refused += 1
    except ConnectionResetError:
        pass  # cut off with our flood still unread
    assert 0 < refused < 400
    assert table.a.slots[1].conn is None
    # the game is unharmed and the good client still plays
    n = table.a.state.n
    await s0.send(Action(0, "done"))
    assert table.a.state.n == n + 1
    await s0.close()


async def test_an_engine_failure_leaves_the_game_unchanged(
    engine: Engine, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    s0 = await table.join(engine, "0")
    before = msgspec.msgpack.encode(table.a.state)

    def broken(s, action, expect_n=None):  # type: ignore[no-untyped-def]
        s.heroes[0].gold = 12345
        s.n += 1
        raise RuntimeError("boom")

    monkeypatch.setattr(table.a.engine, "apply", broken)
    with pytest.raises(IllegalAction, match="unchanged"):
        await s0.send(Action(0, "done"))
    assert msgspec.msgpack.encode(table.a.state) == before
    await s0.close()


async def test_an_away_player_is_not_waited_for_forever(engine: Engine, tmp_path: Path) -> None:
    t = await _open(engine, tmp_path, timeout=0.05)
    # nobody at the table: no automatic decision is even scheduled (not a late one: none), so nothing
    # moves however long the table stays empty
    assert t.a.next_auto() is None
    assert t.a.state.n == 0
    s0 = await t.join(engine, "0")
    await s0.send(Action(0, "done"))  # seat 1 never came: its setup is done for it
    await _until(lambda: s0.snapshot().deciding == 0 and s0.snapshot().n >= 2)
    assert any("Bob is away" in line.text and "'done'" in line.text for line in s0.snapshot().log)
    assert s0.seat_infos[1].status == "auto"
    await s0.close()
    await t.a.close()


async def test_an_abandoned_seat_goes_to_a_bot_until_its_player_returns(
    engine: Engine, tmp_path: Path
) -> None:
    t = await _open(engine, tmp_path, abandon=0.05)
    s0 = await t.join(engine, "0")
    await s0.send(Action(0, "done"))
    await _until(lambda: s0.snapshot().deciding == 0 and s0.snapshot().n >= 2)
    assert any("computer player takes" in line.text for line in s0.snapshot().log)
    s1 = await t.join(engine, "1")
    await _until(lambda: any("is back" in line.text for line in s0.snapshot().log))
    assert t.a.slots[1].status() == "here"
    for store in (s0, s1):
        await store.close()
    await t.a.close()


async def test_a_dropped_player_reconnects_to_their_seat_and_hand(engine: Engine, table: Table) -> None:
    s1 = await table.join(engine, "1")
    hand = s1.snapshot().view.heroes[1].hand
    await s1.close()
    await _until(lambda: table.a.slots[1].conn is None)
    back = await table.join(engine, "1")
    assert back.seat == 1 and back.snapshot().view.heroes[1].hand == hand
    assert back.snapshot().log == s1.snapshot().log
    await back.close()


async def test_the_game_resumes_from_its_autosave(engine: Engine, tmp_path: Path) -> None:
    t = await _open(engine, tmp_path)
    s0 = await t.join(engine, "0")
    s1 = await t.join(engine, "1")
    for _ in range(6):
        store = (s0, s1)[t.a.engine.deciding(t.a.state)]
        await _until(lambda: store.snapshot().n == t.a.state.n)  # noqa: B023 (a player acts on what they see)
        await store.send(safe_choice(store.snapshot().legal))
    await _until(lambda: t.a.saves >= 2)
    n, code1, hand1 = t.a.state.n, t.code("1"), t.a.state.heroes[1].hand
    await s0.close()
    await s1.close()
    await t.a.close()
    saved, header = persist.load(tmp_path / "game.mqsave")
    assert saved.state.n == n and saved.codes and saved.seats[1].owner
    assert header.content == engine.content.version
    # it is an ordinary save: the save module reads, checks and replays it
    data = saves.load(tmp_path / "game.mqsave", engine, check_log=True)
    assert data.state.n == n
    b = Authority(engine, saved, tmp_path / "game.mqsave", TableConfig(bot_delay=0, timeout=0, abandon=0))
    await b.start()
    await b.serve_unix(str(tmp_path / "s2"))
    back = await NetStore.open_unix(engine, str(tmp_path / "s2"), code=code1)
    assert back.snapshot().n == n and back.snapshot().view.heroes[1].hand == hand1
    await back.close()
    await b.close()
    with pytest.raises(persist.SaveError):
        (tmp_path / "junk").write_bytes(b"\x81\xa5magic\xa3bad")
        persist.load(tmp_path / "junk")
    (tmp_path / "game.mqsave.net").write_bytes(b"\x81\xa5magic\xa3bad")
    with pytest.raises(persist.SaveError, match="not a served-game file"):
        persist.load(tmp_path / "game.mqsave")


async def test_no_undo_over_the_network(engine: Engine, table: Table) -> None:
    s0 = await table.join(engine, "0")
    assert not s0.can_undo() and not s0.can_redo()
    with pytest.raises(IllegalAction):
        await s0.undo()
    assert "decision" in s0.explain(Action(1, "done"))
    assert await s0.ping() < 1.0
    await s0.close()


# -- small parts ------------------------------------------------------------------------------------


def test_seat_lists_and_key_file_seats() -> None:
    seats = parse_new_spec("Ann,Bob:green,bot")
    assert [(s.name, s.colour, s.kind) for s in seats] == [
        ("Ann", "red", "human"),
        ("Bob", "green", "human"),
        ("Cy (bot)", "blue", "normal"),
    ]
    assert len(parse_new_spec("4")) == 4
    with pytest.raises(ValueError):
        parse_new_spec("1")
    assert parse_seat_spec("seat=2") == 2 and parse_seat_spec("any") == "any"
    with pytest.raises(ValueError):
        parse_seat_spec("9")


def test_the_app_gets_the_clients_terminal_and_sensible_colours() -> None:
    base = {
        "PATH": "/bin",
        "COLORTERM": "truecolor",
        "COLUMNS": "80",
        "SSH_AUTH_SOCK": "/x",
        "MQTUI_DATA": "/d",
    }
    env = child_env("xterm-256color", {}, base)
    assert env["TERM"] == "xterm-256color" and env["TEXTUAL_COLOR_SYSTEM"] == "256"
    assert "COLORTERM" not in env and "COLUMNS" not in env and "SSH_AUTH_SOCK" not in env
    assert env["PATH"] == "/bin" and env["MQTUI_DATA"] == "/d"
    assert child_env("xterm-direct", {}, base)["COLORTERM"] == "truecolor"
    assert child_env("xterm", {"COLORTERM": "truecolor"}, base)["COLORTERM"] == "truecolor"
    assert child_env("linux", {}, base)["TEXTUAL_COLOR_SYSTEM"] == "standard"
    assert child_env("bad term; rm -rf", {}, base)["TERM"] == "xterm-256color"
    assert child_env("xterm", {"NO_COLOR": ""}, base)["NO_COLOR"] == "1"


def test_key_files_map_keys_to_seats(tmp_path: Path) -> None:
    import asyncssh

    from mqtui.net.identity import KeyTable

    k0, k1, stranger = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    path = tmp_path / "keys"
    path.write_text(
        "# seats\n"
        f"0 {k0.export_public_key().decode().strip()} ann\n"
        f"watch {k1.export_public_key().decode().strip()}\n"
        "7 ssh-ed25519 AAAA bad\n"
    )
    keys = KeyTable(path)
    c0, c1 = keys.lookup(k0), keys.lookup(k1)
    assert c0 is not None and c0.seat == 0 and "ann" in c0.label
    assert c1 is not None and c1.seat == -1
    assert keys.lookup(stranger) is None
    assert len(keys.errors) == 1


def test_snap_messages_decode_with_their_types(engine: Engine) -> None:
    state, _ = engine.new_game([("A", "red"), ("B", "blue")], 1)
    snap = Snap(
        n=0,
        seat=0,
        deciding=0,
        over=False,
        view=state,
        legal=[Action(0, "done")],
        log_base=0,
        log=[LogLine("draw", "x")],
    )
    back = decode_server(encode(snap)[4:])
    assert isinstance(back, Snap) and back.view.heroes[0].hand == state.heroes[0].hand
    assert back.log == [LogLine("draw", "x")]
    assert isinstance(decode_client(encode(Ping(id=1))[4:]), Ping)


def test_an_address_that_keeps_failing_to_sign_in_is_blocked() -> None:
    from mqtui.net.limits import Gate, Limits

    gate = Gate(Limits(max_failures=5))
    for _ in range(4):
        gate.failed("10.0.0.9")
    assert not gate.blocked("10.0.0.9")
    gate.failed("10.0.0.9")
    assert gate.blocked("10.0.0.9") and not gate.blocked("10.0.0.8")
    assert "wrong join codes" in gate.blocked_reason("10.0.0.9")


def test_the_table_never_names_a_secret_card_it_plays_for_someone(engine: Engine) -> None:
    names = engine.cards.names
    uid = 5
    public, private = played_words(names, Action(1, "charity", uid))
    assert names[uid] not in public and names[uid] in private
    assert played_words(names, Action(1, "move", 2)) == ("move S", "move S")


async def test_players_with_nothing_to_play_pass_at_once_and_the_table_hears_one_state(
    engine: Engine, tmp_path: Path
) -> None:
    """In Ann's fight Bob and Cy hold no card: when Ann passes, the host passes for them in the same
    step (as their apps would), so nobody's app is handed their windows one by one."""
    from ui_helpers import add_monster, add_room, empty_hands, store_for

    from mqtui.engine.game import copy_state
    from mqtui.engine.state import DX, DY

    store = store_for((("Ann", "human"), ("Bob", "human"), ("Cy", "human")), seed=5)
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "goblin-middle-manager", 0, -1, "red")
    north = next(d for d in range(4) if (DX[d], DY[d]) == (0, -1))
    store.apply(Action(0, "move", north))
    s = store.state
    assert s.combat is not None and engine.deciding(s) == 0  # Ann's window in her own fight
    game = persist.ServedGame(
        game="fight", content=engine.content.version, seats=parse_new_spec("Ann,Bob,Cy"), state=s,
        log=list(store.log), start=copy_state(s),  # (the game begins here, as arranged)
    )  # fmt: skip
    cfg = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0, others_after=0.0)
    a = Authority(engine, game, tmp_path / "game.mqsave", cfg)
    await a.start()
    path = str(tmp_path / "s")
    await a.serve_unix(path)
    t = Table(a, path)
    try:
        ann, bob, cy = [await t.join(engine, str(seat)) for seat in range(3)]
        seen: list[tuple[int, int]] = []  # (seat, seat deciding) of every snapshot Bob's and Cy's apps get
        for other in (bob, cy):
            other.subscribe(lambda snap, me=other.seat: seen.append((me, snap.deciding)))
        before = len(a.actions)
        await ann.send(Action(0, "pass"))
        await _until(
            lambda: len(a.actions) >= before + 3 and bob.snapshot().n == cy.snapshot().n == a.state.n
        )
        assert [(x.seat, x.kind) for x in a.actions[before:]][:3] == [(0, "pass"), (1, "pass"), (2, "pass")]
        assert (1, 1) not in seen and (2, 2) not in seen  # neither was handed a window of their own
        await ann.close()
        await bob.close()
        await cy.close()
    finally:
        await a.close()
