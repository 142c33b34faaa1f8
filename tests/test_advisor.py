"""The advisor: the hard bot's choice for the seat, explained in one line, from the seat's own view
only; and ``mqtui hint FILE`` on the fixture saves and on saves waiting at each kind of decision."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bot_helpers import hidden_variants, positions, same_games

from mqtui.bots import advice as advice_module
from mqtui.bots.advice import Advice, advise, you
from mqtui.bots.hard import HardBot
from mqtui.bots.normal import decide
from mqtui.cli import main
from mqtui.engine.game import Engine
from mqtui.engine.state import ACT, FLEE, INVITE, WINDOW, State
from mqtui.engine.view import view_for
from mqtui.store import LocalStore, Seat

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "fixtures" / "minimal_content"


pytestmark = same_games


@pytest.fixture(autouse=True)
def _no_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The look-ahead's step budget alone decides (a loaded machine must not cut it short)."""
    monkeypatch.setattr(advice_module, "ADVICE_MS", 600_000.0)


def quick() -> HardBot:
    """The advisor's hard bot on a smaller step budget (the same code: for the sweeps)."""
    return HardBot(0, steps=40, samples=2, deadline_ms=600_000.0)


def ask(engine: Engine, s: State, bot: HardBot | None = None) -> Advice | None:
    seat = engine.deciding(s)
    return advise(engine.blind(), view_for(s, seat), seat, list(engine.legal(s, seat)), bot=bot)


@pytest.mark.slow
def test_the_advice_is_the_same_whatever_the_other_seats_hold(engine: Engine) -> None:
    rnd = random.Random(9)
    checked = 0
    for s, _seat, other in hidden_variants(engine, range(100, 106), every=5, rnd=rnd):
        assert ask(engine, s, quick()) == ask(engine, other, quick())
        checked += 1
    assert checked >= 100


@pytest.mark.slow
def test_the_advice_is_the_hard_bots_legal_choice_in_one_line(engine: Engine) -> None:
    kinds: set[str] = set()
    for s in positions(engine, range(100, 104), every=3, drivers="normal"):
        seat = engine.deciding(s)
        legal = list(engine.legal(s, seat))
        advice = ask(engine, s, quick())
        assert advice is not None
        assert advice.action in legal
        assert advice.action == quick().choose(engine.blind(), view_for(s, seat), seat, legal).action
        assert advice.text and "\n" not in advice.text and len(advice.text) < 160
        kinds.add(s.frames[-1].kind)
    assert {ACT, WINDOW} <= kinds


def _first(engine: Engine, want: str, own_fight: bool = False) -> State:
    for s in positions(engine, range(100, 130), every=1, drivers="normal", top=want):
        f = s.frames[-1] if s.frames else None
        if f is None or f.kind != want or len(s.heroes) != 4:
            continue
        if own_fight and (s.combat is None or f.stage != "pre" or f.seat != s.combat.active):
            continue
        return s
    raise AssertionError(f"no {want} position")


def test_in_its_own_fight_the_player_hears_the_odds_and_the_escape(engine: Engine) -> None:
    s = _first(engine, WINDOW, own_fight=True)
    advice = ask(engine, s)
    assert advice is not None
    assert "% to win now" in advice.text
    assert "escape on" in advice.text or "boss" in advice.text


def test_a_helper_who_turns_the_fight_is_named(engine: Engine) -> None:
    for s in positions(engine, range(100, 140), every=1, drivers="normal", top=WINDOW):
        f = s.frames[-1] if s.frames else None
        if f is None or f.kind != WINDOW or s.combat is None or f.stage != "pre" or f.seat != s.combat.active:
            continue
        if not any(a.kind == "invite" for a in engine.legal(s, f.seat)):
            continue
        advice = ask(engine, s)
        assert advice is not None
        if "'s help for" in advice.text:
            assert advice.text.count("%") >= 2
            return
    raise AssertionError("no fight where a helper was suggested")


def test_an_invitation_is_answered_with_the_odds(engine: Engine) -> None:
    s = _first(engine, INVITE)
    advice = ask(engine, s)
    assert advice is not None
    assert advice.text.startswith(("Accept:", "Decline:"))
    assert "% to win with your help" in advice.text


def test_bot_reasons_are_turned_into_advice() -> None:
    assert you("goes after Slime in Cellar (wins 60%)") == "go after Slime in Cellar (wins 60%)"
    assert you("searches the Vault") == "search the Vault"
    assert you("won't help Ann") == "won't help Ann"
    assert you("explores N (expects +0.9)") == "explore N (worth +0.9 Level on average)"
    assert you("calls X into its own fight") == "call X into your own fight"


# -- mqtui hint ----------------------------------------------------------------------------------------


def hint(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["hint", *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


FIXTURES = sorted((ROOT / "saves").glob("**/*.mqsave"))


@pytest.mark.parametrize("path", FIXTURES, ids=[str(p.relative_to(ROOT / "saves")) for p in FIXTURES])
def test_hint_reads_the_fixture_saves(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    code, out = hint(capsys, str(path))
    assert code == 0
    assert out["name"] == "Ann" and out["advice"]


def test_hint_reads_an_old_save_against_the_content_it_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = hint(capsys, str(ROOT / "saves" / "format-0.mqsave"), "--content", str(MINIMAL))
    assert code == 0 and out["advice"]


def test_hint_reads_the_sample_save(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hint", str(ROOT / "saves" / "sample.mqsave")])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("Ann: ")


def _save_at(engine: Engine, want: str, path: Path) -> State:
    """Play normal choices for four people at one terminal until ``want`` is the decision; save there."""
    seats = tuple(
        Seat(n, c)
        for n, c in zip(("Ann", "Bob", "Cy", "Di"), ("red", "blue", "green", "yellow"), strict=True)
    )
    for seed in range(1, 60):
        store = LocalStore.new(engine, seats, seed, bot_delay=0)
        s = store.state
        while s.stage != "over" and s.round <= 30:
            f = s.frames[-1]
            if f.kind == want and (want != WINDOW or (s.combat is not None and f.seat == s.combat.active)):
                store.save(path)
                return s
            seat = engine.deciding(s)
            store.apply(decide(engine.cards, view_for(s, seat), seat, list(engine.legal(s, seat))).action)
    raise AssertionError(f"no game reached a {want} decision")


@pytest.mark.parametrize("want", [ACT, WINDOW, INVITE, FLEE])
def test_hint_on_a_save_at_each_kind_of_decision(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str], want: str
) -> None:
    path = tmp_path / f"{want}.mqsave"
    s = _save_at(engine, want, path)
    seat = engine.deciding(s)
    code, out = hint(capsys, str(path))
    assert code == 0
    assert out["seat"] == seat
    expected = ask(engine, s)
    assert expected is not None
    assert out["action"] == str(expected.action)  # the same advice, in the player's words
    said, meant = str(out["advice"]).split(": ", 1)[-1].lower(), expected.text.split(": ", 1)[-1].lower()
    said, meant = said.split("…")[0], meant.split("…")[0]  # (longer labels are cut sooner)
    n = min(40, len(said), len(meant))
    assert said[:n] == meant[:n]
    if want == WINDOW:
        assert "% to win now" in str(out["advice"])
    if want == INVITE:
        assert str(out["advice"]).startswith(("Accept:", "Decline:"))
    if want == FLEE:
        assert "Flee" in str(out["advice"])


def test_hint_names_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "junk.mqsave"
    bad.write_bytes(b"not a save")
    assert main(["hint", str(bad)]) == 2
    assert "mqtui hint" in capsys.readouterr().err
