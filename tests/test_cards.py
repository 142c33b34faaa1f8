"""Every card is exercised: each card, room and Search row of the base game and every pack is played in a
position where it is legal, and what it says it does is checked (``tests/cards/*.toml``, written by
``scripts/card_checks.py`` from the content: see there and docs/scenarios.md, "Per-card checks").

A card with no check fails the suite, and so do files that differ from what the script writes now (the
content changed: rerun the script). The terminal summary prints how many card ids are covered.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.engine.scenario import from_dict, run

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "tests" / "cards"
EXTRA = ("card", "case", "xfail")  # the keys a check has besides a scenario's


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("card_checks", ROOT / "scripts" / "card_checks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("card_checks", module)
    spec.loader.exec_module(module)
    return module


script = _script()


@functools.cache
def content() -> Any:
    return load_content(script.content_dirs())


@functools.cache
def card_engine() -> Engine:
    """The engine on the base content and every shipped pack."""
    return Engine(content())


@functools.cache
def _read() -> dict[str, list[dict[str, Any]]]:
    return {
        p.name: tomllib.loads(p.read_text(encoding="utf-8")).get("check", [])
        for p in sorted(CARDS.glob("*.toml"))
    }


def checks() -> dict[str, list[dict[str, Any]]]:
    """The checks of each file under tests/cards/, by file name (a fresh copy of the lists)."""
    return {name: list(entries) for name, entries in _read().items()}


def _params() -> list[Any]:
    out = []
    for name, entries in checks().items():
        for check in entries:
            marks = [pytest.mark.xfail(strict=True, reason=check["xfail"])] if "xfail" in check else []
            out.append(pytest.param(name, check, id=f"{check['card']}: {check['case']}", marks=marks))
    return out


@pytest.mark.parametrize(("name", "check"), _params())
def test_card(name: str, check: dict[str, Any]) -> None:
    where = f"tests/cards/{name}: {check['card']} ({check['case']})"
    sc = from_dict({k: v for k, v in check.items() if k not in EXTRA}, where)
    result = run(card_engine(), sc)
    assert result.ok, result.report()


def coverage(have: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, tuple[set[str], set[str]]]:
    """Per file: the ids the content has, and those its checks (default: the files') cover."""
    have = checks() if have is None else have
    return {
        name: (ids, {c["card"] for c in have.get(name, [])})
        for name, ids in script.covered_ids(content()).items()
    }


def gaps(have: dict[str, list[dict[str, Any]]] | None = None) -> list[str]:
    """What is wrong with the coverage, one line per file: ids without a check, checks of no id."""
    out = []
    for name, (ids, covered) in coverage(have).items():
        if ids - covered:
            out.append(f"tests/cards/{name}: no check for {sorted(ids - covered)}")
        if covered - ids:
            out.append(f"tests/cards/{name}: checks for unknown ids {sorted(covered - ids)}")
    return out


def test_every_card_has_a_check() -> None:
    assert not gaps()


def test_a_card_without_a_check_is_reported() -> None:
    have = checks()
    have["monsters.toml"] = [c for c in have["monsters.toml"] if c["card"] != "damp-squib"]
    have["rooms.toml"] = [*have["rooms.toml"], {"card": "no-such-room"}]
    assert gaps(have) == [
        "tests/cards/monsters.toml: no check for ['damp-squib']",
        "tests/cards/rooms.toml: checks for unknown ids ['no-such-room']",
    ]


def test_the_checks_are_what_the_script_writes() -> None:
    stale = [
        name
        for name, text in script.generate(content()).items()
        if (CARDS / name).read_text(encoding="utf-8") != text
    ]
    assert not stale, f"tests/cards/{', '.join(stale)} out of date: run scripts/card_checks.py"


def summary() -> str:
    """The line the terminal summary prints."""
    cov = coverage()
    cards = [cov[n] for n in ("monsters.toml", "treasure.toml", "dxm.toml")]
    n_cards = sum(len(ids & covered) for ids, covered in cards)
    all_cards = sum(len(ids) for ids, _ in cards)
    rooms, rows = cov["rooms.toml"], cov["tables.toml"]
    every = [c for entries in checks().values() for c in entries]
    return (
        f"per-card: {n_cards}/{all_cards} card ids exercised, {len(rooms[0] & rooms[1])}/{len(rooms[0])} rooms, "
        f"{len(rows[0] & rows[1])}/{len(rows[0])} table entries; {len(every)} checks, "
        f"{sum('xfail' in c for c in every)} marked xfail"
    )
