"""The save format (mqtui.saves): round trips, standard msgpack, format checks, migrations, bad files,
atomic writes with backups, slots, and the fixture saves under ``saves/``."""

from __future__ import annotations

import functools
import io
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import msgpack
import msgspec
import pytest
from engine_helpers import engine

from mqtui import __version__, saves
from mqtui.engine.actions import Action
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine, copy_state
from mqtui.saves import migrate
from mqtui.saves.codec import pack_file
from mqtui.saves.model import FORMAT, MAX_FILE, PREFIX_SIZE, Header
from mqtui.store import LocalStore, Seat

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "saves"
MINIMAL = ROOT / "tests" / "fixtures" / "minimal_content"
SEATS = (Seat("Ann", "red"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))


def play(store: LocalStore, rounds: int, seed: int = 1) -> LocalStore:
    """Bots play their seats; the humans choose at random (seeded)."""
    pick = random.Random(seed)
    while store.state.stage != "over" and store.state.round <= rounds:
        if not store.step_bot():
            who = store.engine.deciding(store.state)
            store.apply(pick.choice(store.engine.legal(store.state, who)))
    return store


@functools.cache
def game_bytes(rounds: int = 6, seed: int = 5) -> bytes:
    return play(LocalStore.new(engine(), SEATS, seed, bot_delay=0), rounds, seed).to_bytes()


def reseal(prefix_fmt: int, header: bytes, body: bytes) -> bytes:
    """A file with a correct prefix (lengths and checksum) around any header and body bytes."""
    return pack_file(header, body, fmt=prefix_fmt)


def parts(data: bytes) -> tuple[bytes, bytes]:
    _, hlen, _, _ = saves.codec.read_prefix(data)
    return data[PREFIX_SIZE : PREFIX_SIZE + hlen], data[PREFIX_SIZE + hlen :]


def expect_bad(tmp_path: Path, data: bytes, *words: str, eng: Engine | None = None) -> str:
    """The file is refused with one line containing ``words``, and is left exactly as it was."""
    path = tmp_path / "bad.mqsave"
    path.write_bytes(data)
    before = path.stat()
    with pytest.raises(saves.SaveError) as info:
        saves.load(path, eng or engine(), check_log=True)
    msg = str(info.value)
    assert "\n" not in msg and msg
    for w in words:
        assert w in msg, (w, msg)
    after = path.stat()
    assert path.read_bytes() == data
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
    return msg


# -- round trips ------------------------------------------------------------------------------------


def test_round_trip_keeps_everything() -> None:
    store = play(LocalStore.new(engine(), SEATS, 3, bot_delay=0), 5, 3)
    data = saves.decode(store.to_bytes())
    assert data.state == store.state
    assert data.actions == store.actions
    assert data.seed == store.state.seed == 3
    assert [(p.name, p.colour, p.kind) for p in data.seats] == [(s.name, s.colour, s.kind) for s in SEATS]
    assert data.log == store.log[-len(data.log) :] and len(data.log) == min(150, len(store.log))
    assert data.start is None  # a game from the seed replays from the seed
    assert data.header.content == engine().content.version
    assert data.header.program == __version__
    assert data.header.summary.actions == len(store.actions)
    saves.validate(data, engine())
    assert saves.verify(data, engine()) == store.state


def test_a_game_from_a_position_keeps_its_start_state() -> None:
    state, _ = engine().new_game([("Ann", "red"), ("Bob", "blue")], 11)
    state.heroes[0].gold = 1234  # a hand-made position: replaying from the seed would not reach it
    store = play(
        LocalStore(engine(), state, (Seat("Ann", "red", "random"), Seat("Bob", "blue", "random")), 0), 3
    )
    data = saves.decode(store.to_bytes())
    assert data.start is not None and data.start.heroes[0].gold == 1234
    assert saves.verify(data, engine()) == store.state


def test_the_action_buffer_follows_undo_and_new_actions() -> None:
    store = play(LocalStore.new(engine(), SEATS, 8, bot_delay=0), 2, 8)
    buf = saves.ActionBuffer()
    decode = msgspec.msgpack.Decoder(list[Action])
    assert decode.decode(buf.sync(store.actions)) == store.actions
    acts = list(store.actions)
    acts.pop()
    acts.pop()
    assert decode.decode(buf.sync(acts)) == acts
    acts.append(store.actions[0])  # a different action where one was cut off
    assert decode.decode(buf.sync(acts)) == acts
    assert decode.decode(buf.sync(store.actions)) == store.actions


def test_a_save_is_standard_msgpack_with_string_keys() -> None:
    data = game_bytes()
    unpacker = msgpack.Unpacker(io.BytesIO(data), raw=False)  # strict_map_key: string keys only
    prefix, header, body = list(unpacker)
    assert prefix[0] == "mqtui-save" and prefix[1] == FORMAT
    assert prefix[2] + prefix[3] + PREFIX_SIZE == len(data)
    assert prefix[4] == zlib.crc32(data[PREFIX_SIZE:])
    assert header["content"] == engine().content.version
    assert [p["name"] for p in header["summary"]["players"]] == ["Ann", "Bob", "Cy"]
    assert set(body) == {"seed", "seats", "actions", "snapshot", "start", "log", "content"}
    # the content the game was made with, readable with any zlib and msgpack
    content = msgpack.unpackb(zlib.decompress(body["content"]["data"]), raw=False)
    assert body["content"]["version"] == content["version"] == header["content"]
    assert [m["name"] for m in content["monsters"]] == [m.name for m in engine().content.monsters]
    decoded = saves.decode(data)
    assert len(body["actions"]) == len(decoded.actions)
    first = decoded.actions[0]
    assert body["actions"][0][:2] == [first.seat, first.kind]
    state = body["snapshot"]["state"]
    assert state["seed"] == 5 and len(state["heroes"]) == 3
    assert dict(map(tuple, body["snapshot"]["maps"]["grid"])) == decoded.state.grid


def test_int_keyed_state_maps_are_all_moved_out() -> None:
    """Every State map with int keys is stored as pairs, including ones the engine adds later."""
    names = {name for name, _ in saves.model.INT_MAPS}
    assert {"grid", "edges"} <= names
    body = list(msgpack.Unpacker(io.BytesIO(game_bytes()), raw=False))[2]
    assert set(body["snapshot"]["maps"]) == names
    for name in names:
        assert body["snapshot"]["state"][name] == {}


# -- format, version and migrations -----------------------------------------------------------------


def test_a_newer_format_is_refused_before_its_body_is_read(tmp_path: Path) -> None:
    header = msgspec.msgpack.encode(Header(program="9.1.0", reader="9.0.0", content="x"))
    data = reseal(FORMAT + 1, header, b"\xc1 not msgpack at all")
    msg = expect_bad(tmp_path, data, f"save format {FORMAT + 1}", "mqtui 9.0.0 or newer", __version__)
    assert "damaged" not in msg


def test_a_newer_format_with_an_unreadable_header_still_says_what_is_needed(tmp_path: Path) -> None:
    data = reseal(77, b"\xc1\xc1", b"")
    expect_bad(tmp_path, data, "save format 77", "a newer mqtui")


def test_format_0_migrates_to_exactly_the_current_fixture() -> None:
    old = saves.read(FIXTURES / "format-0.mqsave")
    new = saves.read(FIXTURES / f"format-{FORMAT}.mqsave")
    assert old.format == 0 and new.format == FORMAT
    assert old.state == new.state
    assert old.actions == new.actions
    assert old.seats == new.seats and old.seed == new.seed
    assert old.log == [] and new.log


def test_a_migrated_save_is_written_back_in_the_current_format() -> None:
    old = saves.read(FIXTURES / "format-0.mqsave")
    again = saves.decode(saves.encode(old))
    assert again.format == FORMAT and again.state == old.state and again.actions == old.actions


def test_a_format_without_a_reader_is_too_old(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(migrate.READERS, 0)
    expect_bad(tmp_path, (FIXTURES / "format-0.mqsave").read_bytes(), "format 0 is too old")


def test_the_migration_chain_runs_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake chain 0 -> 1 -> 2 -> 3 with a fake current format 3: each step runs once, in order."""
    ran: list[int] = []
    expected = saves.read(FIXTURES / "format-1.mqsave").seed + 1000

    def spy(version: int) -> None:
        real = migrate.STEPS[version]

        def step(d: migrate.Plain) -> migrate.Plain:
            ran.append(version)
            return real(d)

        monkeypatch.setitem(migrate.STEPS, version, step)

    def step2(d: migrate.Plain) -> migrate.Plain:
        ran.append(2)
        d = dict(d)
        d["seed"] = d["seed"] + 1000  # a visible change
        return d

    spy(0)
    spy(1)
    monkeypatch.setattr(migrate, "FORMAT", 3)
    monkeypatch.setitem(migrate.STEPS, 2, step2)
    _, body = parts((FIXTURES / "format-0.mqsave").read_bytes())
    game = migrate.upgrade(0, body)
    assert ran == [0, 1, 2]
    assert game.seed == expected


def test_a_format_0_action_that_does_not_parse_is_one_clear_line(tmp_path: Path) -> None:
    header, body = parts((FIXTURES / "format-0.mqsave").read_bytes())
    plain = msgpack.unpackb(body, raw=False, strict_map_key=False)
    plain["actions"][3] = "0 fly north"
    data = reseal(0, header, msgpack.packb(plain))
    expect_bad(tmp_path, data, "action 4", "fly")


def test_fixture_saves_validate_against_their_content() -> None:
    eng = Engine(load_content([MINIMAL]))
    for path in sorted(FIXTURES.glob("format-*.mqsave")):
        data = saves.read(path)
        why = saves.content_mismatch(data, eng)
        # (no skip: the old formats' fixtures cannot be made again, so their content is frozen)
        assert not why, f"{path.name}: {why}; tests/fixtures/minimal_content must stay as they were made"
        saves.validate(data, eng)


# -- bad files --------------------------------------------------------------------------------------


def test_missing_empty_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(saves.SaveError, match="no such file"):
        saves.read(tmp_path / "nothing.mqsave")
    with pytest.raises(saves.SaveError, match="is a folder"):
        saves.read(tmp_path)
    expect_bad(tmp_path, b"", "not an mqtui save")
    expect_bad(tmp_path, b"hello world, this is not a save at all, honestly", "not an mqtui save")
    expect_bad(tmp_path, msgpack.packb({"magic": "mqtui-save"}), "not an mqtui save")


def test_truncated_anywhere(tmp_path: Path) -> None:
    data = game_bytes()
    for cut in [*range(0, 40), *range(40, len(data), 97), len(data) - 1]:
        expect_bad(tmp_path, data[:cut], "")
    msg = expect_bad(tmp_path, data[: len(data) // 2])
    assert msg.startswith("truncated")
    expect_bad(tmp_path, data + b"\x00", "unexpected bytes")


def test_random_bytes(tmp_path: Path) -> None:
    rnd = random.Random(1)
    for n in (1, 31, 32, 33, 1000, 100_000):
        expect_bad(tmp_path, rnd.randbytes(n))
        expect_bad(tmp_path, game_bytes()[:12] + rnd.randbytes(n))


def test_a_flipped_byte_is_caught_by_the_checksum(tmp_path: Path) -> None:
    data = bytearray(game_bytes())
    data[len(data) // 2] ^= 0x20
    expect_bad(tmp_path, bytes(data), "checksum")


def test_absurd_sizes_are_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.mqsave"
    with open(huge, "wb") as f:
        f.write(game_bytes()[:PREFIX_SIZE])
        f.truncate(MAX_FILE + 10)  # sparse: nothing is really written, and nothing must be read
    with pytest.raises(saves.SaveError, match="too large"):
        saves.read(huge)
    with pytest.raises(saves.SaveError, match="too large"):
        saves.read_header(huge)
    head = bytearray(game_bytes()[:PREFIX_SIZE])
    struct.pack_into(">I", head, 18, 0xFFFFFFF0)  # header length
    expect_bad(tmp_path, bytes(head) + b"\x00" * 100, "absurd")
    head = bytearray(game_bytes()[:PREFIX_SIZE])
    struct.pack_into(">I", head, 23, 0xFFFFFFF0)  # body length
    expect_bad(tmp_path, bytes(head) + b"\x00" * 100, "truncated")


def test_absurd_lengths_inside(tmp_path: Path) -> None:
    header, _ = parts(game_bytes())
    # a map that claims 4 billion entries, an array that claims 4 billion actions
    expect_bad(tmp_path, reseal(FORMAT, header, b"\xdf\xff\xff\xff\xff"), "damaged game data")
    expect_bad(
        tmp_path, reseal(FORMAT, header, b"\x81\xa7actions\xdd\xff\xff\xff\xff\x00"), "damaged game data"
    )
    expect_bad(tmp_path, reseal(FORMAT, b"\xdf\xff\xff\xff\xff", b""), "damaged header")


def test_deep_nesting(tmp_path: Path) -> None:
    header, body = parts(game_bytes())
    plain = msgpack.unpackb(body, raw=False)
    deep = b"\x91" * 100_000 + b"\x00"
    # as an unknown field (skipped by the decoder), and in place of the log
    packed = msgpack.packb({**plain, "extra": 0})
    bomb = packed.replace(b"\xa5extra\x00", b"\xa5extra" + deep)
    expect_bad(tmp_path, reseal(FORMAT, header, bomb), "damaged game data")
    packed = msgpack.packb({**plain, "log": 0})
    expect_bad(tmp_path, reseal(FORMAT, header, packed.replace(b"\xa3log\x00", b"\xa3log" + deep)), "damaged")
    expect_bad(tmp_path, reseal(FORMAT, deep[-60_000:], body), "damaged header")


def test_valid_msgpack_of_the_wrong_shape(tmp_path: Path) -> None:
    header, body = parts(game_bytes())
    for wrong in (msgpack.packb(1), msgpack.packb([1, 2, 3]), msgpack.packb({"seed": "x"}), b"\xc0"):
        expect_bad(tmp_path, reseal(FORMAT, header, wrong), "damaged game data")
        expect_bad(tmp_path, reseal(FORMAT, wrong, body), "damaged header")


def edit(mutate: object) -> tuple[bytes, bytes]:
    """The fixture game's header and its body after ``mutate(plain_body)``."""
    header, body = parts(game_bytes())
    plain = msgpack.unpackb(body, raw=False)
    mutate(plain)  # type: ignore[operator]
    return header, msgpack.packb(plain)


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (
            lambda b: b["snapshot"]["state"]["heroes"][0].__setitem__("level", "ten"),
            ("Expected `int`", "level"),
        ),
        (lambda b: b["snapshot"]["state"].__setitem__("dxm", {"a": 1}), ("Expected `array`",)),
        (lambda b: b.__setitem__("seats", b["seats"][:1]), ("seats",)),
        (lambda b: b["seats"][0].__setitem__("name", "x" * 500), ("name",)),
        (lambda b: b["actions"].__setitem__(0, [0, "move", "N"]), ("actions",)),
        (lambda b: b["snapshot"]["maps"]["grid"].__setitem__(0, [1, "x"]), ("grid",)),
        (lambda b: b["snapshot"]["maps"].__setitem__("weird", []), ("unknown state map",)),
        (lambda b: b["snapshot"]["state"].__setitem__("rng", 1.5), ("Expected `int`", "rng")),
    ],
)
def test_wrong_types(tmp_path: Path, mutate: object, words: tuple[str, ...]) -> None:
    expect_bad(tmp_path, reseal(FORMAT, *edit(mutate)), *words)


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda b: b["snapshot"]["state"]["heroes"][0]["hand"].append(99_999), ("#99999", "does not exist")),
        (lambda b: b["snapshot"]["state"]["heroes"][1]["hand"].append(-7), ("#-7",)),
        (lambda b: b["snapshot"]["state"]["dxm"].pop(), ("nowhere",)),
        (
            lambda b: b["snapshot"]["state"]["heroes"][0]["hand"].append(b["snapshot"]["state"]["dxm"][0]),
            ("two places",),
        ),
        (
            lambda b: b["snapshot"]["state"]["dxm"].append(b["snapshot"]["state"]["monster_deck"].pop()),
            ("the DxM deck is a monster card",),
        ),
        (lambda b: b["snapshot"]["state"]["rooms"][0].__setitem__("room", 5000), ("room 5000",)),
        (lambda b: b["snapshot"]["state"].__setitem__("active", 9), ("active seat 9",)),
        (
            lambda b: next(h for h in b["snapshot"]["state"]["heroes"] if not h.get("dead")).__setitem__(
                "x", 300
            ),
            ("outside the dungeon",),
        ),
        (lambda b: b["snapshot"]["state"].__setitem__("n", 3), ("the log has",)),
        (lambda b: b["actions"].pop(), ("the log has",)),
        (lambda b: b["actions"][3].__setitem__(0, 7), ("action 4 is by seat 7",)),
        (lambda b: b["seats"][1].__setitem__("kind", "wizard"), ("unknown kind 'wizard'",)),
        (lambda b: b["seats"][1].__setitem__("name", "Zed"), ("seat 1 is Zed",)),
        (lambda b: b["snapshot"]["state"]["frames"].clear(), ("nobody has anything to decide",)),
        (lambda b: b["snapshot"]["state"]["frames"][-1].__setitem__("seat", 8), ("seat 8",)),
        (lambda b: b["snapshot"]["state"].__setitem__("bag", ["trapdoor"]), ("unknown connection",)),
    ],
)
def test_dangling_ids_and_inconsistencies(tmp_path: Path, mutate: object, words: tuple[str, ...]) -> None:
    expect_bad(tmp_path, reseal(FORMAT, *edit(mutate)), "inconsistent game", *words)


def test_a_log_that_does_not_reproduce_the_snapshot(tmp_path: Path) -> None:
    data = saves.decode(game_bytes())
    data.state.heroes[1].gold += 100  # consistent on its own: only replaying the log finds it
    tampered = saves.encode(data)
    path = tmp_path / "tampered.mqsave"
    path.write_bytes(tampered)
    saves.load(path, engine())  # passes without the log check
    msg = expect_bad(tmp_path, tampered, "does not reproduce", "heroes[1].gold")
    assert "by the log" in msg
    data = saves.decode(game_bytes())
    data.actions[5] = Action(data.actions[5].seat, "search")
    expect_bad(tmp_path, saves.encode(data), "action 6", "does not replay")


def test_other_content_is_refused() -> None:
    data = saves.read(FIXTURES / "format-1.mqsave")
    assert saves.content_mismatch(data, engine())  # the base content is not the fixtures' content
    with pytest.raises(saves.SaveError, match=r"made with content .* but the loaded content is"):
        saves.validate(data, engine())


# -- files ------------------------------------------------------------------------------------------


def test_atomic_writes_keep_backups(tmp_path: Path) -> None:
    path = tmp_path / "slot.mqsave"
    versions = [f"version {i}".encode() for i in range(5)]
    for v in versions:
        saves.write_atomic(path, v)
    assert path.read_bytes() == versions[4]
    assert saves.backup_path(path, 1).read_bytes() == versions[3]
    assert saves.backup_path(path, 2).read_bytes() == versions[2]
    assert not saves.backup_path(path, 3).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["slot.mqsave", "slot.mqsave.1", "slot.mqsave.2"]
    saves.write_atomic(path, b"no backups", backups=0)
    assert saves.backup_path(path, 1).read_bytes() == versions[3]


def test_a_damaged_slot_falls_back_to_its_backup(tmp_path: Path) -> None:
    path = tmp_path / "slot.mqsave"
    good = game_bytes()
    saves.write_atomic(path, good)
    saves.write_atomic(path, good[:-10])
    data, used, why = saves.read_with_backups(path)
    assert used == saves.backup_path(path, 1) and "truncated" in why
    assert data.state == saves.decode(good).state
    path.write_bytes(b"junk")
    saves.backup_path(path, 1).write_bytes(b"junk")
    with pytest.raises(saves.SaveError, match="not an mqtui save"):
        saves.read_with_backups(path)


def test_stale_temporary_files_of_dead_writers_are_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "slot.mqsave"
    ended = subprocess.Popen([sys.executable, "-S", "-c", ""])
    ended.wait()
    pid = ended.pid  # a pid that no longer runs
    stale = tmp_path / f".slot.mqsave.{pid}.1.0.tmp"
    stale.write_bytes(b"half a save")
    mine = tmp_path / f".other.mqsave.{pid}.1.0.tmp"
    mine.write_bytes(b"another slot's")
    saves.write_atomic(path, b"new")
    assert not stale.exists() and mine.exists()


def test_slots_live_in_the_data_folder(tmp_path: Path) -> None:
    assert saves.saves_dir() == tmp_path / "data" / "saves"
    assert saves.slot_path("my game") == tmp_path / "data" / "saves" / "my game.mqsave"
    assert saves.slot_path("x.mqsave").name == "x.mqsave"
    for bad in ("../evil", "a/b", "", ".hidden", "x" * 80, "a\\b"):
        with pytest.raises(saves.SaveError, match="not a save name"):
            saves.slot_path(bad)


def test_listing_reads_only_headers(tmp_path: Path) -> None:
    folder = saves.saves_dir()
    folder.mkdir(parents=True)
    header, _ = parts(game_bytes())
    (folder / "a.mqsave").write_bytes(game_bytes())
    # a good header with a damaged body: the listing still shows it (only `check` reads bodies)
    (folder / "b.mqsave").write_bytes(reseal(FORMAT, header, b"\xc1" * 50))
    (folder / "c.mqsave").write_bytes(b"junk")
    (folder / "a.mqsave.1").write_bytes(game_bytes())  # backups are not listed
    entries = {e.name: e for e in saves.list_saves()}
    assert set(entries) == {"a", "b", "c"}
    assert entries["a"].header is not None and entries["a"].header.summary.players[0].name == "Ann"
    assert entries["b"].header is not None and not entries["b"].error
    assert "not an mqtui save" in entries["c"].error


def test_reading_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "ro.mqsave"
    path.write_bytes(game_bytes())
    path.chmod(0o444)
    before = path.stat().st_mtime_ns
    data = saves.load(path, engine(), check_log=True)
    LocalStore.load(path, engine(), bot_delay=0, verify=True)
    assert data.state.seed == 5 and path.stat().st_mtime_ns == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro.mqsave"]


def test_copying_a_decoded_state_is_the_same_state() -> None:
    data = saves.decode(game_bytes())
    assert copy_state(data.state) == data.state
