"""The easy bot: legal like the others (tests/test_bots.py also checks that it is deterministic and
blind to hidden cards), and friendly: it leaves other heroes' ordinary fights alone, offers help on
fair terms, and still beats random play."""

from __future__ import annotations

import pytest
from bot_helpers import ending, legal_choices_everywhere, positions, same_games

from mqtui.bots import make_bot
from mqtui.bots.easy import EasyBot, fair_terms
from mqtui.engine.game import Engine
from mqtui.engine.heroes import MAX_LEVEL
from mqtui.engine.state import STAGE_OVER, WINDOW, State
from mqtui.engine.view import view_for
from mqtui.sim import play_game

pytestmark = same_games


@pytest.mark.slow
def test_easy_bot_chooses_only_legal_actions(engine: Engine) -> None:
    games = (("random", range(1, 5)), ("easy", range(30, 34)))
    assert legal_choices_everywhere(engine, EasyBot, games) >= 800


def _others_fights(engine: Engine) -> list[State]:
    """Fight windows before the dice where the deciding seat is not fighting."""
    out = []
    for s in positions(engine, range(100, 104), every=1, drivers="normal", top=WINDOW):
        c = s.combat
        f = s.frames[-1] if s.frames else None
        if c is None or f is None or f.kind != WINDOW or f.stage != "pre":
            continue
        if f.seat in (c.active, c.helper):
            continue
        if any(a.kind in ("enhance", "use", "wander") for a in engine.legal(s, f.seat)):
            out.append(s)
    return out


@pytest.mark.slow
def test_easy_bot_leaves_ordinary_fights_alone_where_the_normal_bot_interferes(engine: Engine) -> None:
    meddled = normal_meddled = 0
    fights = _others_fights(engine)
    assert len(fights) >= 30
    for s in fights:
        seat = engine.deciding(s)
        c = s.combat
        assert c is not None
        legal = list(engine.legal(s, seat))
        levels = sum(engine.cards.monster[m.card].levels for m in s.monsters if m.id in c.monsters)
        decisive = c.boss or s.heroes[c.active].level + levels >= MAX_LEVEL
        easy = EasyBot(1).choose(engine, view_for(s, seat), seat, legal)
        normal = make_bot("normal", 1).choose(engine, view_for(s, seat), seat, legal)
        normal_meddled += normal.action.kind != "pass"
        if not decisive:
            assert easy.action.kind == "pass", easy
        meddled += easy.action.kind != "pass"
    assert normal_meddled > meddled


def test_fair_terms_are_half_the_treasure() -> None:
    assert fair_terms(1, 0) == (1, 0)
    assert fair_terms(2, 0) == (1, 0)
    assert fair_terms(3, 500) == (2, 0)
    assert fair_terms(0, 150) == (0, 100)
    assert fair_terms(0, 50) == (0, 0)


@pytest.mark.slow
def test_easy_bot_offers_help_on_fair_terms(engine: Engine) -> None:
    invites = 0
    for s in positions(engine, range(30, 36), every=1, drivers="easy", top=WINDOW):
        c = s.combat
        f = s.frames[-1] if s.frames else None
        if c is None or f is None or f.kind != WINDOW or f.seat != c.active or f.stage != "pre":
            continue
        seat = f.seat
        choice = EasyBot(7).choose(engine, view_for(s, seat), seat, list(engine.legal(s, seat)))
        if choice.action.kind != "invite":
            continue
        invites += 1
        total = min(3, sum(engine.cards.monster[m.card].treasures for m in s.monsters if m.id in c.monsters))
        assert (choice.action.b, choice.action.c) == fair_terms(total, s.heroes[seat].gold)
    assert invites >= 3
    # and among themselves, easy bots see their games through (these six, of two to four players)
    for seed in range(30, 36):
        end = ending(engine, seed, "easy")
        assert end.stage == STAGE_OVER and end.winners


def test_easy_bot_beats_random_bots(engine: Engine) -> None:
    wins = sum(
        0 in play_game(engine, ["easy", "random", "random", "random"], seed).winners for seed in range(4)
    )
    assert wins >= 3


def test_easy_is_offered_wherever_players_are_chosen(capsys: pytest.CaptureFixture[str]) -> None:
    from mqtui.cli import main
    from mqtui.net.table import parse_new_spec
    from mqtui.ui.screens.new_game import kind_options
    from mqtui.ui.session import build_seats, parse_players

    assert [s.kind for s in build_seats(parse_players("Ann,Bob:easy"))] == ["human", "easy"]
    assert [s.kind for s in parse_new_spec("Ann,easy,Cy:green:easy")] == ["human", "easy", "easy"]
    assert "easy" in [value for _, value in kind_options(False)]
    assert main(["sim", "--games", "2", "--bots", "easy,random", "--players", "2", "--json"]) == 0
    assert '"easy"' in capsys.readouterr().out
