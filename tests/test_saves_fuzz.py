"""Thousands of mutated saves thrown at the loader (seeded, so every failure is reproducible): each is
either a save that passes every check or a SaveError with one line, never another exception.

Three kinds of mutation: raw bytes (mostly caught by the prefix and checksum), bytes re-sealed with a
correct prefix and checksum (so the decoders see them), and structural edits of the decoded msgpack
(a value of another type, an extreme number, a deep or long container) re-encoded and re-sealed.
"""

from __future__ import annotations

import functools
import random
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import msgspec
import pytest
from engine_helpers import engine

from mqtui import saves
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.saves.codec import pack_file, read_prefix
from mqtui.saves.model import FORMAT, PREFIX_SIZE
from mqtui.store import LocalStore, Seat

ROOT = Path(__file__).resolve().parent.parent
# the edited trees re-encoded: msgspec writes the very bytes msgpack.packb does for them (checked on
# every case of these seeds), in a quarter of the time
pack = msgspec.msgpack.Encoder().encode
SEATS = (Seat("Ann", "red"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))


@functools.cache
def base() -> bytes:
    store = LocalStore.new(engine(), SEATS, 31, bot_delay=0)
    pick = random.Random(31)
    while store.state.round <= 4:
        if not store.step_bot():
            who = store.engine.deciding(store.state)
            store.apply(pick.choice(store.engine.legal(store.state, who)))
    return store.to_bytes()


def split(data: bytes) -> tuple[int, bytes, bytes]:
    fmt, hlen, _, _ = read_prefix(data)
    return fmt, data[PREFIX_SIZE : PREFIX_SIZE + hlen], data[PREFIX_SIZE + hlen :]


def outcome(data: bytes, eng: Engine) -> str:
    """'ok' or 'refused'; anything else fails the test."""
    try:
        save = saves.decode(data)
        saves.validate(save, saves.engine_of(save, eng))
    except saves.SaveError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg
        return "refused"
    return "ok"


def mutate_bytes(rnd: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    op = rnd.randrange(7)
    if op == 0:  # flip bits
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(len(b))
            b[i] ^= 1 << rnd.randrange(8)
    elif op == 1:  # overwrite bytes with interesting values
        for _ in range(rnd.randint(1, 4)):
            b[rnd.randrange(len(b))] = rnd.choice(
                (0x00, 0xFF, 0x7F, 0x80, 0xC0, 0xC1, 0xDC, 0xDD, 0xDE, 0xDF)
            )
    elif op == 2:  # truncate
        del b[rnd.randrange(len(b)) :]
    elif op == 3:  # insert
        i = rnd.randrange(len(b) + 1)
        b[i:i] = rnd.randbytes(rnd.randint(1, 16))
    elif op == 4:  # delete a range
        i = rnd.randrange(len(b))
        del b[i : i + rnd.randint(1, 64)]
    elif op == 5:  # duplicate a range
        i = rnd.randrange(len(b))
        j = min(len(b), i + rnd.randint(1, 256))
        b[j:j] = b[i:j]
    else:  # random garbage
        i = rnd.randrange(len(b))
        b[i : i + 32] = rnd.randbytes(32)
    return bytes(b)


def random_value(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(12)
    if kind == 0:
        return rnd.choice((0, -1, 1, 2**63 - 1, -(2**63), 2**64 - 1, 1000, -1000, 2**31))
    if kind == 1:
        return rnd.choice(("", "x", "human", "random", "red", "passage", "move", "é" * 70, "0 move N"))
    if kind == 2:
        return None
    if kind == 3:
        return rnd.random() * 1e6
    if kind == 4:
        return rnd.choice((True, False))
    if kind == 5:
        return [random_value(rnd, depth + 1) for _ in range(rnd.randint(0, 3))] if depth < 3 else []
    if kind == 6:
        return {"x": 1, "seat": 0} if depth else {}
    if kind == 7:
        nested: Any = 0
        for _ in range(rnd.choice((10, 100, 500))):  # the msgpack packer stops at 512
            nested = [nested]
        return nested
    if kind == 8:
        return list(range(rnd.choice((10, 300, 3000))))
    if kind == 9:
        return b"\x00\x01"
    if kind == 10:
        return rnd.randint(-300, 300)
    return [rnd.randint(-5, 400) for _ in range(rnd.randint(0, 6))]


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of ``value`` and of everything in it, in pre-order (a list's first 40 items only)."""
    out = []
    todo = [(path, value)]
    while todo:
        here, v = todo.pop()
        out.append(here)
        if isinstance(v, dict):
            todo += reversed([((*here, k), c) for k, c in v.items()])
        elif isinstance(v, list):
            todo += reversed([((*here, i), c) for i, c in enumerate(v[:40])])
    return out


def _own(value: Any, own: set[int]) -> Any:
    """``value`` if it is one of ``own``'s containers, else a shallow copy (added to ``own``)."""
    if id(value) in own:
        return value
    copy = list(value) if isinstance(value, list) else dict(value)
    own.add(id(copy))
    return copy


def mutate_structure(
    rnd: random.Random, plain: Any, paths: list[tuple[Any, ...]] | None = None, own: set[int] | None = None
) -> Any:
    """One random edit of ``plain`` (in place), returned. ``paths``: ``nodes(plain)`` without the root,
    when the caller keeps it (it is brought up to date here, so the choices are those of a fresh
    ``nodes``). ``own``: copy on write instead of a whole fresh tree per case: ``plain`` shares its
    containers with a tree that stays as it is, except those in ``own`` (by id), and the containers on
    the edit's path are copied first (the same edits, on a new tree that is returned)."""
    if paths is None:
        paths = nodes(plain)[1:]
    path = rnd.choice(paths)
    if own is not None:
        plain = _own(plain, own)
    parent = plain
    for k in path[:-1]:
        if own is not None:
            parent[k] = _own(parent[k], own)
        parent = parent[k]
    last = path[-1]
    op = rnd.randrange(4)
    stale, fresh = path, True  # the node whose paths the edit changes; is it still there
    if op == 0 or not isinstance(parent, list | dict):
        parent[last] = random_value(rnd)
    elif op == 1 and isinstance(parent, dict):
        del parent[last]
        fresh = False
    elif op == 1:
        parent.pop(last)
        stale = path[:-1]  # the items after it shift
    elif op == 2 and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] = parent[last] + rnd.choice((-1, 1, -1000, 1000, 7))
    elif op == 3 and isinstance(parent, list):
        parent.insert(last, random_value(rnd))
        stale = path[:-1]
    else:
        parent[last] = random_value(rnd)
    # bring ``paths`` up to date: in pre-order a node's paths are one block (itself, then its descendants)
    if stale == path:
        start = paths.index(path)
        new = nodes(parent[last], path) if fresh else []
    else:
        start = paths.index(stale) + 1 if stale else 0
        new = nodes(parent, stale)[1:]
    end = start
    while end < len(paths) and paths[end][: len(stale)] == stale:
        end += 1
    paths[start:end] = new
    return plain


def run_cases(
    n: int, seed: int, make: Callable[[random.Random], bytes], eng: Engine | None = None
) -> dict[str, int]:
    rnd = random.Random(seed)
    counts = {"ok": 0, "refused": 0}
    for case in range(n):
        data = make(rnd)
        try:
            counts[outcome(data, eng or engine())] += 1
        except Exception as exc:  # how to reproduce the very case: the same seed makes the same cases
            pytest.fail(f"case {case} (seed {seed}): {type(exc).__name__}: {exc}")
    return counts


def test_raw_mutations() -> None:
    data = base()
    old = (ROOT / "saves" / "format-0.mqsave").read_bytes()
    counts = run_cases(5000, 1, lambda r: mutate_bytes(r, data if r.random() < 0.8 else old))
    assert counts["refused"] > 4500


def test_resealed_mutations_reach_the_decoders() -> None:
    fmt, header, body = split(base())

    def make(r: random.Random) -> bytes:
        if r.random() < 0.2:
            return pack_file(mutate_bytes(r, header), body, fmt)
        return pack_file(header, mutate_bytes(r, body), fmt)

    counts = run_cases(5000, 2, make)
    assert counts["refused"] > 2000  # the checksum did not stop them: the decoders and checks did


@pytest.mark.slow
def test_structural_mutations_reach_the_checks() -> None:
    fmt, header, body = split(base())
    plain_body = msgpack.unpackb(body, raw=False)
    plain_header = msgpack.unpackb(header, raw=False)
    body_paths, header_paths = nodes(plain_body)[1:], nodes(plain_header)[1:]

    def make(r: random.Random) -> bytes:
        if r.random() < 0.15:
            h = mutate_structure(r, msgpack.unpackb(header, raw=False), list(header_paths))
            return pack_file(pack(h), body, fmt)
        b, paths, own = plain_body, list(body_paths), set[int]()
        for _ in range(r.randint(1, 3)):
            b = mutate_structure(r, b, paths, own)
        return pack_file(header, pack(b), fmt)

    assert plain_body and plain_header
    counts = run_cases(4000, 3, make)
    assert counts["refused"] > 1000 and counts["ok"] > 200  # both paths exercised


@pytest.mark.slow
def test_content_mutations_reach_the_content_checks() -> None:
    """The content a save carries is checked like TOML content: a mutated definition is refused in one
    line or is harmless; the engine never meets a definition the loader would have refused."""
    fmt, header, body = split(base())
    plain_body = msgpack.unpackb(body, raw=False)
    packed = zlib.decompress(plain_body["content"]["data"])
    plain_content = msgpack.unpackb(packed, raw=False)
    content_paths = nodes(plain_content)[1:]

    def make(r: random.Random) -> bytes:
        c, paths, own = plain_content, list(content_paths), set[int]()
        for _ in range(r.randint(1, 3)):
            c = mutate_structure(r, c, paths, own)
        data = zlib.compress(pack(c), 0)  # (stored: the loader reads any level the same)
        b = dict(plain_body, content=dict(plain_body["content"], data=data))
        return pack_file(header, pack(b), fmt)

    counts = run_cases(600, 5, make)
    assert counts["refused"] > 200 and counts["ok"] > 20


def test_old_format_mutations() -> None:
    fmt, header, body = split((ROOT / "saves" / "format-0.mqsave").read_bytes())
    assert fmt == 0 < FORMAT

    plain_body = msgpack.unpackb(body, raw=False, strict_map_key=False)
    body_paths = nodes(plain_body)[1:]

    def make(r: random.Random) -> bytes:
        b = mutate_structure(r, plain_body, list(body_paths), set())
        return pack_file(header, pack(b), fmt)

    eng = Engine(load_content([ROOT / "tests" / "fixtures" / "minimal_content"]))
    assert not saves.content_mismatch(saves.read(ROOT / "saves" / "format-0.mqsave"), eng)
    counts = run_cases(1000, 4, make, eng)
    assert counts["refused"] > 300 and counts["ok"] > 20


def test_kept_paths_follow_the_edits() -> None:
    """The fuzzers keep the list of paths across edits instead of walking the whole tree each time: it
    must stay what a fresh walk gives (else the cases would not be the ones the seeds name). Copied on
    write, the same edits make the same tree and leave the shared one as it was."""
    plain = msgpack.unpackb(split(base())[2], raw=False)
    packed = msgpack.packb(plain)
    rnd = random.Random(6)
    for _ in range(60):
        tree = msgpack.unpackb(packed, raw=False)
        paths = nodes(tree)[1:]
        cow, cow_paths, own = plain, list(paths), set[int]()
        for _ in range(3):
            again = random.Random()
            again.setstate(rnd.getstate())
            tree = mutate_structure(rnd, tree, paths)
            assert paths == nodes(tree)[1:]
            cow = mutate_structure(again, cow, cow_paths, own)
        assert cow == tree and cow_paths == paths
    assert msgpack.packb(plain) == packed
