"""``mqtui check``, ``mqtui replay`` and ``mqtui saves``."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from engine_helpers import engine

from mqtui import saves
from mqtui.cli import main
from mqtui.store import LocalStore, Seat

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "fixtures" / "minimal_content"
SEATS = (Seat("Ann", "red"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))


@functools.cache
def game(rounds: int = 5) -> LocalStore:
    store = LocalStore.new(engine(), SEATS, 41, bot_delay=0)
    pick = random.Random(41)
    while store.state.round <= rounds:
        if not store.step_bot():
            who = store.engine.deciding(store.state)
            store.apply(pick.choice(store.engine.legal(store.state, who)))
    return store


def good_file(folder: Path, name: str = "good.mqsave") -> Path:
    path = folder / name
    path.write_bytes(game().to_bytes())
    return path


def tampered_file(folder: Path) -> Path:
    data = saves.decode(game().to_bytes())
    data.state.heroes[0].gold += 50
    path = folder / "tampered.mqsave"
    path.write_bytes(saves.encode(data))
    return path


def test_check_good_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = good_file(tmp_path)
    assert main(["check", str(good)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{good}: ok: {saves.describe(saves.summarise(game().state, saves.read(good).seats, len(game().actions)))}"
        f"; content {game().engine.content.version} (base), as installed"
    ]
    assert "3 players: Ann (red)" in out[0] and "round 6" in out[0] and "Ann's turn" in out[0]
    bad = tmp_path / "bad.mqsave"
    bad.write_bytes(good.read_bytes()[:500])
    junk = tmp_path / "junk.mqsave"
    junk.write_bytes(b"junk")
    assert main(["check", str(good), str(bad), str(junk), str(tmp_path / "missing.mqsave")]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(f"{good}: ok")
    assert lines[1] == f"{bad}: bad: truncated: 500 of {good.stat().st_size} bytes"
    assert lines[2] == f"{junk}: bad: not an mqtui save (no 'mqtui-save' marker at the start)"
    assert lines[3].endswith("missing.mqsave: bad: no such file")


def test_check_verify_finds_a_log_that_does_not_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tampered = tampered_file(tmp_path)
    assert main(["check", str(tampered)]) == 0  # consistent on its own
    capsys.readouterr()
    assert main(["check", "--verify", str(tampered)]) == 2
    (line,) = capsys.readouterr().out.splitlines()
    assert "does not reproduce the snapshot" in line and "heroes[0].gold" in line


def test_check_old_formats_and_other_content(capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = sorted(str(p) for p in (ROOT / "saves").glob("format-*.mqsave"))
    assert main(["check", "--content", str(MINIMAL), "--verify", *fixtures]) in (0, 2)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(fixtures) and all(": ok: 3 players" in line for line in lines)
    assert "format 0 (will be upgraded)" in lines[0]


def test_replay_prints_the_log_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = good_file(tmp_path)
    assert main(["replay", str(good), "--verify"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "start" and out[1].startswith("       A new game: Ann, Bob, Cy.")
    assert f"    1  {game().actions[0]}" in out
    assert (
        out[-1]
        == f"{good}: {len(game().actions)} actions replayed: the log reproduces the saved state exactly"
    )
    tampered = tampered_file(tmp_path)
    assert main(["replay", "-q", str(tampered)]) == 0
    assert "differs from the saved state" in capsys.readouterr().out
    assert main(["replay", "-q", "--verify", str(tampered)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "does not reproduce the snapshot" in err[0]


def test_replay_private_lines_for_a_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = good_file(tmp_path)
    main(["replay", str(good)])
    public = capsys.readouterr().out
    main(["replay", str(good), "--seat", "0"])
    private = capsys.readouterr().out
    assert "You draw" in private and "You draw" not in public


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = good_file(tmp_path)
    assert main(["replay", str(good), "--json", "--verify"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] and doc["verified"] and doc["seed"] == 41 and doc["players"] == ["Ann", "Bob", "Cy"]
    assert len(doc["actions"]) == len(game().actions) + 1  # the start, then every action
    assert doc["actions"][1]["action"] == str(game().actions[0])
    junk = tmp_path / "junk.mqsave"
    junk.write_bytes(b"\x95\xaamqtui-save")
    assert main(["replay", str(junk), "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert not doc["ok"] and doc["error"].startswith("truncated")


def test_saves_lists_the_data_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["saves"]) == 0
    assert capsys.readouterr().out.startswith("no saves in ")
    folder = saves.saves_dir()
    folder.mkdir(parents=True)
    good_file(folder, "first game.mqsave")
    (folder / "broken.mqsave").write_bytes(b"junk")
    assert main(["saves"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"saves in {folder}:"
    first = next(line for line in out if "first game" in line)
    assert "3 players: Ann (red) L" in first and "Ann's turn" in first
    assert "unreadable: not an mqtui save" in next(line for line in out if "broken" in line)
    assert main(["saves", "--json"]) == 0
    doc = {e["name"]: e for e in json.loads(capsys.readouterr().out)}
    assert doc["first game"]["header"]["summary"]["round"] == 6 and doc["broken"]["error"]


def test_the_global_data_dir_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "elsewhere"
    (other / "saves").mkdir(parents=True)
    good_file(other / "saves")
    assert main(["--data-dir", str(other), "saves"]) == 0
    out = capsys.readouterr().out
    assert f"saves in {other / 'saves'}:" in out and "good" in out
