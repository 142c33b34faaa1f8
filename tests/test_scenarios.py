"""Every scenario in seeds/scenarios passes; a failing one reports a readable diff; the CLI exits 0/1."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from engine_helpers import engine

from mqtui import paths
from mqtui.cli import scenario as cli
from mqtui.engine.scenario import ScenarioError, build, from_dict, load, resolve_action, run, scenario_files

SCENARIOS = scenario_files([paths.SEEDS_DIR / "scenarios"])
SECTIONS = ("1", "2", "3.1", "3.2", "3.3", "3.4", "4", "5", "6", "7", "8")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    result = run(engine(), load(path))
    assert result.ok, result.report()


def test_every_rules_section_has_a_scenario():
    covered = {r for p in SCENARIOS for r in load(p).rules}
    missing = [s for s in SECTIONS if s not in covered]
    assert not missing, f"no scenario covers RULES.md section(s) {missing}"
    assert len(SCENARIOS) >= 40


FAILING = """
title = "Meant to fail: Ann does not reach Level 5 by walking"

[[hero]]
name = "Ann"

[[hero]]
name = "Bob"

[[room]]
id = "pawn-shop"
at = [1, 0]

[[step]]
do = "0 move E"
events = ["Ann flies"]

[[step.hero]]
seat = 0
level = 5
at = [1, 0]
"""


def test_failing_scenario_gives_a_readable_diff(tmp_path):
    path = tmp_path / "fails.toml"
    path.write_text(FAILING)
    result = run(engine(), load(path))
    assert not result.ok
    report = result.report()
    assert "FAIL" in report and "Meant to fail" in report
    assert "after step 1 `0 move E`: hero 0 (Ann) level: expected 5, got 1" in report
    assert "events: expected a line containing 'Ann flies'; there was none" in report
    assert "| > 0 move E" in report and "Ann goes east through a passage" in report
    assert "at:" not in report.split("what happened")[0]  # the position matched


def test_expected_illegal_action_that_is_legal_fails():
    sc = from_dict(
        {"title": "t", "hero": [{}, {}], "step": [{"do": "0 end", "illegal": "no"}]},
    )
    result = run(engine(), sc)
    assert result.failures == ["step 1 `0 end`: expected IllegalAction containing 'no'; it was legal"]


def test_unexpected_illegal_action_fails_with_the_engines_reason():
    sc = from_dict({"title": "t", "hero": [{}, {}], "step": [{"do": "1 end"}]})
    result = run(engine(), sc)
    assert len(result.failures) == 1 and "it is Ann's decision now" in result.failures[0]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"hero": [{}]}, "2 to 6 heroes"),
        ({"hero": [{"hand": ["no-such-card"]}, {}]}, "unknown card id"),
        ({"hero": [{"race": "warrior-card"}, {}]}, "not a race card"),
        ({"hero": [{"equipped": ["montage"]}, {}]}, "not a treasure card"),
        ({"hero": [{"at": [3, 3]}, {}]}, "no room is placed"),
        ({"hero": [{}, {}], "room": [{"id": "nowhere", "at": [1, 0]}]}, "unknown room id"),
        ({"hero": [{}, {}], "room": [{"id": "pawn-shop", "at": [1, 0], "connections": {"W": "wall"}}]}, "Entrance"),
        ({"hero": [{}, {}], "room": [{"id": "coat-check", "at": [1, 0]}, {"id": "lost-and-found", "at": [2, 0]}]}, "other face"),
        ({"hero": [{}, {}], "monster": [{"card": "damp-squib", "at": [0, 0]}]}, "never the Entrance"),
        ({"hero": [{}, {}], "phase": "lunch"}, 'phase: unknown phase "lunch" \\(expected one of: setup, turn,'),
        ({"hero": [{"lvl": 3}, {}]}, r"hero\[0\]\.lvl: unknown field \(known: at, backpack,"),
        ({"hero": [{}, {}], "decks": {"bag": ["portal"]}}, 'decks.bag\\[0\\]: unknown connection "portal"'),
        ({"hero": [{"colour": "pink"}, {}]}, r'hero\[0\]\.colour: unknown colour "pink"'),
        ({"hero": [{"hand": ["alleged-sword", "alleged-sword"]}, {}]}, "no copy of 'alleged-sword' is left"),
    ],
)  # fmt: skip
def test_broken_scenarios_are_reported(data, message):
    with pytest.raises(ScenarioError, match=message):
        build(engine(), data)


def test_card_ids_resolve_to_cards_the_acting_seat_holds():
    s, _ = build(engine(), {"hero": [{"hand": ["hard-hat"]}, {"hand": ["hard-hat"]}]})
    a = resolve_action(engine(), s, "0 equip {hard-hat}")
    assert a.kind == "equip" and a.a in s.heroes[0].hand
    with pytest.raises(ScenarioError, match="nobody holds"):
        resolve_action(engine(), s, "0 equip {alleged-sword}")


def _args(paths_: list[str], **kw) -> argparse.Namespace:
    return argparse.Namespace(
        paths=paths_, verbose=kw.get("verbose", False), quiet=kw.get("quiet", True), dirs=None
    )


def test_cli_exits_0_when_all_pass(capsys):
    assert cli.run(_args([str(SCENARIOS[0]), str(SCENARIOS[1])])) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out


def test_cli_exits_1_with_a_diff_when_one_fails(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(FAILING)
    assert cli.run(_args([str(SCENARIOS[0]), str(bad)])) == 1
    out = capsys.readouterr().out
    assert "hero 0 (Ann) level: expected 5, got 1" in out and "1 passed, 1 failed" in out


def test_cli_reports_an_unreadable_file(tmp_path, capsys):
    bad = tmp_path / "broken.toml"
    bad.write_text("title = ")
    assert cli.run(_args([str(bad)])) == 1
    assert "FAIL" in capsys.readouterr().out


def test_cli_names_the_file_and_the_field_of_a_scenario_that_does_not_decode(tmp_path, capsys):
    bad = tmp_path / "typo.toml"
    bad.write_text('title = "t"\n[[hero]]\nlvl = 2\n[[hero]]\n')
    assert cli.run(_args([str(bad)])) == 1
    out = capsys.readouterr().out
    assert f"FAIL {bad}: hero[0].lvl: unknown field (known: " in out and out.count(str(bad)) == 1


def test_cli_accepts_a_folder(capsys):
    assert cli.run(_args([str(Path(paths.SEEDS_DIR / "scenarios"))])) == 0
    assert f"{len(SCENARIOS)} passed" in capsys.readouterr().out
