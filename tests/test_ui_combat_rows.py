"""The combat pane draws again only the rows of the fight that changed (a new note, a new sum): what it
shows is then what a whole new drawing of the pane shows, cell for cell."""

from __future__ import annotations

import random

import pytest
from textual.geometry import Region
from textual.strip import Strip
from ui_helpers import local_app, settle, store_for

import mqtui.ui.widgets.combat as combat
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.widgets.combat import CombatPane


def cells(strips: list[Strip]) -> list[list[tuple[str, object]]]:
    return [[(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]


@pytest.mark.slow
async def test_a_fight_drawn_row_by_row_is_the_fight_drawn_whole(monkeypatch) -> None:
    partial = 0
    changed_rows = combat.changed_rows

    def counted(*args: object) -> list[int] | None:
        nonlocal partial
        rows = changed_rows(*args)  # type: ignore[arg-type]
        partial += rows is not None
        return rows

    monkeypatch.setattr(combat, "changed_rows", counted)
    store = store_for((("Ann", "human"), ("Bob", "human"), ("Cy", "human")), seed=11, setup_done=False)
    app = local_app(store, handoff=False)
    rng = random.Random(11)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(120):
            who = store.engine.deciding(store.state)
            if who < 0:
                break
            fought = store.state.combat is not None
            store.apply(rng.choice(list(store.engine.legal(store.state, who))))
            if not fought and store.state.combat is None:
                # no fight before or after the step: nothing is drawn row by row (a pane still showing
                # the last result is drawn whole), so the screen just takes the next state it is given
                continue
            await settle(pilot, app)
            (game,) = [s for s in app.screen_stack if isinstance(s, GameScreen)]
            for pane in game.query(CombatPane):
                if not pane.display or not pane.size:
                    continue
                whole = Region(0, 0, *pane.outer_size)
                shown = cells(pane.render_lines(whole))
                pane.refresh()  # forget every drawn row
                assert cells(pane.render_lines(whole)) == shown
    assert partial > 5  # fights were drawn row by row


def test_the_fights_two_sides_are_drawn_as_richs_own_grids_draw_them(monkeypatch) -> None:
    """The two sides next to each other, and each side's terms (their columns' widths worked out
    without measuring the share-of-the-room columns) are the very lines Rich's grids draw, at widths
    down to none, for sides of any length with short or long words (a die not rolled...)."""
    from rich.console import Console
    from rich.measure import Measurement
    from rich.segment import Segment

    rng = random.Random(7)
    console = Console(width=200, color_system="truecolor")
    words = ["Level", "Hard Hat", "Flask of Bravado (thrown by Cy)", "… 3 more", "x" * 40, "Sword"]

    def drawn(width: int, terms: list[list[tuple[str, int]]], die: str, total: int | None) -> list[object]:
        heroes = combat.side("Heroes", terms[0], die, total, "green")
        monsters = combat.side("Monsters", terms[1], die, total, "red")
        lines = console.render_lines(
            combat.side_by_side(heroes, monsters), console.options.update_width(width)
        )
        return [list(Segment.simplify(line)) for line in lines]

    measured: list[object] = []  # what Rich measured (the cells of the share-of-the-room columns: none)
    measure = Measurement.get

    def counted(console: object, options: object, renderable: object) -> Measurement:
        measured.append(renderable)
        return measure(console, options, renderable)  # type: ignore[arg-type]

    monkeypatch.setattr(Measurement, "get", counted)
    for width in [*range(0, 13), 16, 24, 33, 47, 60, 80, 120]:  # (every small width: where the room runs out)
        values = [-5, 3, 12, 120, -1000]
        terms = [[(rng.choice(words), rng.choice(values)) for _ in range(rng.randint(0, 6))] for _ in (0, 1)]
        die, total = rng.choice([("–", None), ("4 +1", 17), ("6+6+5 -2", 115)])
        measured.clear()
        ours = drawn(width, terms, die, total)
        names = {label for side in terms for label, _ in side} | {"Heroes", "Monsters", "total"}
        shown = {str(r) for r in measured}
        assert width < 40 or not names & shown, width  # (a pane's usual widths: no label measured)
        if width in (2, 3):
            continue  # (the two sides' gap and no room left: Rich squeezes them by what it measured there)
        with monkeypatch.context() as m:
            m.setattr(combat, "SHARE_WIDTH", None)  # Rich's own grids, measuring every cell
            assert ours == drawn(width, terms, die, total), width
