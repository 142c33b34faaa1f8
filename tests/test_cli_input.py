"""Bad command-line input: one line saying what is wrong, exit code 2, nothing created or overwritten."""

from __future__ import annotations

import pytest

from mqtui.cli import main
from mqtui.cli.load import find_save


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("MQTUI_DATA", str(folder))
    return folder


def files(folder) -> dict[str, tuple[int, int]]:
    if not folder.exists():
        return {}
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.rglob("*")}


@pytest.mark.parametrize(
    "players, words",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("Ann,,Bob", "empty seat"),
        (":bot,Ann", "no name"),
        ("Ann\x1b[31m,Bob:bot", "control characters"),
        ("Ann:wizard,Bob", "kind"),
        ("Ann", "2 to 6"),
        ("Ann:human:mauve,Bob", "colour"),
        ("A" * 40 + ",Bob", "at most"),
    ],
)
def test_new_refuses_a_bad_players_list(capsys, data, players: str, words: str) -> None:
    before = files(data)
    assert main(["new", "--players", players]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("mqtui new: ")
    assert files(data) == before


def test_load_refuses_a_folder_a_missing_file_and_a_bad_name(capsys, data, tmp_path) -> None:
    saves = data / "saves"
    saves.mkdir(parents=True)
    kept = saves / "kept.mqsave"
    kept.write_bytes(b"not really a save")
    before = files(data)
    for arg, words in [
        (str(tmp_path), "is a folder"),
        (str(tmp_path / "nope.mqsave"), "no such file"),
        ("sub/dir/x", "no such file"),
        ("bad\x07name", "control characters"),
        ("", "no file given"),
        ("no such game", "no save called"),
        ("kept", "not an mqtui save"),  # found by its name; not a valid save: refused, left as it was
    ]:
        assert main(["load", arg]) == 2, arg
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and err.startswith("mqtui load: "), (arg, err)
    assert files(data) == before


def test_load_finds_a_save_by_its_name(data) -> None:
    saves = data / "saves"
    saves.mkdir(parents=True)
    (saves / "my game.mqsave").write_bytes(b"x")
    assert find_save("my game") == saves / "my game.mqsave"
