"""Issue 13's last 80×24 slips: a long fight and the last fight's summary fit the combat pane; the
load dialog's rows keep to two lines."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from endgame_helpers import game_until
from rich.console import Console
from textual.geometry import Region
from textual.widgets import OptionList
from ui_helpers import local_app, press, redraw, resize, running, settle, until

from mqtui.engine.combat import hero_terms
from mqtui.saves import slots
from mqtui.ui.app import MQApp
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.saves import LoadDialog
from mqtui.ui.settings import Settings
from mqtui.ui.widgets.combat import CombatPane, fit_terms

LOST_FIGHT = 1154  # seed 7: Ann (10 terms) has just lost to a monster with three enhancers
BIG_FIGHT = 1150  # seed 7: Ann, with 11 terms, decides in a fight


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    monkeypatch.setenv("TERM", "xterm-256color")
    return tmp_path


def shown(pane: CombatPane) -> list[str]:
    """The pane's text as it is laid out in the pane's own width."""
    out = io.StringIO()
    Console(width=pane.content_size.width, file=out, no_color=True).print(pane.render())
    return out.getvalue().rstrip("\n").splitlines()


async def combat_lines(
    actions: int, size: tuple[int, int], show: bool = False, then: tuple[int, int] | None = None
) -> tuple[list[str], int] | tuple[tuple[list[str], int], tuple[list[str], int]]:
    """The combat pane's lines and height in the game after ``actions`` at ``size``; with ``then``, also
    after the terminal is resized to ``then`` (the same app: the fight drawn again for the new size)."""
    app = local_app(game_until(actions))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        game = app.screen
        assert isinstance(game, GameScreen)
        pane = game.query_one("#combat-main", CombatPane)
        if show:  # the fight is over: the pane that shows the last one
            game.query_one("#main").current = "combat-main"  # type: ignore[attr-defined]

        def fitted() -> bool:  # shown, laid out, and its text fitted to its size
            now = (pane.content_size.width, pane.content_size.height)
            return pane.display and now[1] > 0 and pane.fitted_to == now

        if show:
            await until(pilot, fitted, "the pane fitted")
        assert pane.display and pane.content_size.height > 0
        first = shown(pane), pane.content_size.height
        if then is None:
            return first
        before = pane.content_size

        def refitted() -> bool:  # laid out again for the new size, and its text fitted to that
            return game.size == then and pane.content_size != before and fitted()

        await resize(pilot, then, refitted, "the pane fitted to the new size")
        await settle(pilot, app)
        return first, (shown(pane), pane.content_size.height)


def fits_with_both_totals(lines: list[str], height: int) -> None:
    assert len(lines) <= height
    assert sum(len(re.findall(r"\btotal +\d+", line)) for line in lines) == 2
    assert any("more" in line for line in lines)  # the terms that did not fit, summed on one line


async def test_a_long_fight_fits_80x24_with_both_totals() -> None:
    lines, height = await combat_lines(BIG_FIGHT, (80, 24))  # type: ignore[misc]
    fits_with_both_totals(lines, height)


async def test_the_deciding_fight_fits_80x24_and_is_whole_when_there_is_room() -> None:
    """The game's last fight at 80x24, then the terminal made taller (one app: the game played to its
    end once)."""
    (lines, height), (tall, tall_height) = await combat_lines(-1, (80, 24), then=(80, 50))  # type: ignore[misc]
    fits_with_both_totals(lines, height)
    assert len(tall) <= tall_height and not any(" more " in line for line in tall)
    store = game_until(-1)
    c = store.state.combat
    assert c is not None
    last = hero_terms(store.cards, store.state, c)[-1][0]  # the heroes' last term: shown, not summed
    assert any(last[:12] in line for line in tall), (last, tall)


async def test_the_last_fight_summary_fits_80x24_with_both_sums() -> None:
    lines, height = await combat_lines(LOST_FIGHT, (80, 24), show=True)  # type: ignore[misc]
    text = " ".join(lines)
    assert len(lines) <= height
    assert "Last fight:" in text and "= 27)" in text and "= 34)" in text and "loses to" in text


def test_terms_that_do_not_fit_are_summed_on_one_line() -> None:
    terms = [("level", 20), ("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    assert fit_terms(terms, None) == terms and fit_terms(terms, 5) == terms
    assert fit_terms(terms, 3) == [("level", 20), ("a", 1), ("… 3 more", 9)]


@pytest.mark.parametrize("width", [80, 140])
async def test_load_dialog_rows_are_two_lines_cut_at_80_whole_when_wide(width: int) -> None:
    store = game_until(300)  # four heroes: a long line of levels
    store.save(slots.new_autosave_path())
    app = MQApp(settings=Settings(pass_countdown=0), save_settings_file=False, bot_delay=0)
    async with running(app, (width, 24)) as pilot:

        def listed() -> object:
            return (
                isinstance(app.screen, LoadDialog) and app.screen.query_one("#saves", OptionList).option_count
            )

        await press(pilot, "l", listed, "the saves listed")
        await redraw(pilot)
        saves = app.screen.query_one("#saves", OptionList)
        strips = saves.render_lines(Region(0, 0, *saves.outer_size))
        lines = [strip.text.strip(" ▊▎▔▁") for strip in strips]
        lines = [line for line in lines if line]
        assert len(lines) == 2 and lines[0].startswith("autosave-")  # the name, then one line about it
        assert lines[1].startswith("in progress · ") and "round 4, Ann's turn" in lines[1]
        if width == 80:
            assert lines[1].endswith("…")
        else:
            assert lines[1].endswith("Snaggletooth L5")
