"""What reaches the terminal, frame by frame, adds up to what the screen shows.

The game screen's panes draw only their rows that changed in a frame (Widget.refresh of a region).
A virtual 80x24 terminal here applies every frame's update as a real terminal would; after each frame
it must hold, cell for cell (character and style), a full drawing of the screen.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.segment import ControlType
from rich.style import Style
from textual.screen import Screen
from ui_helpers import local_app, settle, store_for

from mqtui.ui.screens.game import GameScreen

W, H = 80, 24
Cell = tuple[str, Style | None]


class Terminal:
    """The cells of a terminal that was sent the app's updates."""

    def __init__(self) -> None:
        self.cells: list[list[Cell]] = [[(" ", None)] * W for _ in range(H)]
        self.console = Console(width=W, height=H, color_system="truecolor", file=io.StringIO())

    def apply(self, update: RenderableType) -> None:
        x = y = 0
        for segment in self.console.render(update, self.console.options):
            if segment.control:
                for control in segment.control:
                    if control[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = int(control[1]), int(control[2])  # type: ignore[misc]
                continue
            text = segment.text
            if "\n" in text:
                for line in text.split("\n")[:-1]:
                    put(self.cells, x, y, line, segment.style)
                    x, y = 0, y + 1
                text = text.rpartition("\n")[2]
            x = put(self.cells, x, y, text, segment.style)


def put(cells: list[list[Cell]], x: int, y: int, text: str, style: Style | None) -> int:
    """Write ``text`` (no line break) into row ``y`` from column ``x``, as a terminal does (cut at the
    edge; a wide character takes its cell and the next one's place); returns the column after it."""
    one_each = _ONE_CELL.issuperset(text) or _one_cell_each(text)
    width = len(text) if one_each else cell_len(text)
    if 0 <= y < H and x < W:
        row = cells[y]
        if one_each and x >= 0:  # (most text) the row's cells in one go
            end = min(x + width, W)
            row[x:end] = [(char, style) for char in text[: end - x]]
        else:
            column = x
            for char in text:
                if 0 <= column < W:
                    row[column] = (char, style)
                column += cell_len(char)
    return x + width


_ONE_CELL: set[str] = set()  # the characters seen so far that take one cell


def _one_cell_each(text: str) -> bool:
    if any(cell_len(char) != 1 for char in set(text)):
        return False
    _ONE_CELL.update(text)
    return True


# -- the one place these tests reach below Textual's public API (checked against Textual 8.2.8) -----------
# They check what a real terminal would show after each frame the app sends, and a headless app sends
# its frames nowhere: no public name gives them, nor the whole screen as Textual would draw it at once.
# ``Screen._compositor`` (``render_update(screen_stack=...)``: the next frame, ``render_strips()``: the
# whole screen), ``Screen._compositor_refresh`` (where Textual sends a frame: replaced here, as Textual's
# own does it for the screen on top), ``App._background_screens``, ``Screen._dirty_widgets``.


def compositor(screen: Screen[object]) -> Any:
    return screen._compositor


def drawn_whole(screen: Screen[object]) -> list[list[Cell]]:
    cells: list[list[Cell]] = [[(" ", None)] * W for _ in range(H)]
    for y, strip in enumerate(compositor(screen).render_strips()):
        x = 0
        for segment in strip:
            x = put(cells, x, y, segment.text, segment.style)
    return cells


def to_terminal(monkeypatch: pytest.MonkeyPatch, terminal: Terminal) -> list[int]:
    """Send every frame of the screen on top to ``terminal``; the number of frames sent, in a list."""
    frames = [0]
    textual_refresh = Screen._compositor_refresh

    def refresh(screen: Screen[object]) -> None:
        if screen is not screen.app.screen:
            textual_refresh(screen)
            return
        update = compositor(screen).render_update(screen_stack=screen.app._background_screens)
        if update is not None:
            terminal.apply(update)
            frames[0] += 1
        screen._dirty_widgets.clear()

    monkeypatch.setattr(Screen, "_compositor_refresh", refresh)
    return frames


@pytest.mark.slow
async def test_each_frame_leaves_the_terminal_as_the_screen_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    frames = to_terminal(monkeypatch, terminal)
    store = store_for((("Ann", "human"), ("Bob", "human"), ("Cy", "human")), seed=11, setup_done=False)
    app = local_app(store, handoff=False)  # (each decision shown through its player's eyes)
    rng = random.Random(11)
    async with app.run_test(size=(W, H)) as pilot:
        await settle(pilot, app)
        for _ in range(40):
            who = store.engine.deciding(store.state)
            store.apply(rng.choice(list(store.engine.legal(store.state, who))))
            await settle(pilot, app)  # (ends with a frame)
            assert isinstance(app.screen, GameScreen)
            whole = drawn_whole(app.screen)
            wrong = [(x, y) for y in range(H) for x in range(W) if whole[y][x] != terminal.cells[y][x]]
            assert not wrong, f"{len(wrong)} cells differ, the first at {wrong[0]}"
    assert frames[0] > 40
