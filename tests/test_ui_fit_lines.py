"""``fit_lines``: a pane's text cut to its lines, and how many lines it takes (the hero sheet lays the
screen out again only when that number changes, and reads it from the fit instead of wrapping the
text a second time)."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from mqtui.ui.describe import fit_lines, fit_lines_counted

TEXTS = [
    Text("Ann"),
    Text.assemble(
        ("Level 3", "bold"), "  power 7\n", ("Hat of Hats", "italic"), " +2 (worn)\n\nHand: 5 cards"
    ),
    Text("a long line of words that goes on and on past the edge of any small pane " * 3),
    Text("漢字の名前 with wide letters " * 4 + "\n\tand a tab"),
    Text("Unbreakable" + "x" * 50),
]


@pytest.mark.parametrize("width", [0, 1, 9, 24, 43, 120])
@pytest.mark.parametrize("height", [0, 1, 3, 40])
def test_the_lines_a_fitted_text_takes_are_the_lines_it_wraps_to(width: int, height: int) -> None:
    console = Console(width=max(width, 1), color_system=None)
    for text in TEXTS:
        before = (text.plain, list(text.spans))
        fitted, lines = fit_lines_counted(text, width, height)
        assert (text.plain, list(text.spans)) == before  # (the pane keeps its text to fit it again)
        assert fitted.plain == fit_lines(text, width, height).plain
        wrapped = len(fitted.wrap(console, max(width, 1)))
        if width > 0 and height > 0:
            assert wrapped <= height
            assert lines == (wrapped if fitted is text else None)
            if fitted is not text:  # cut: the last line says there is more
                assert fitted.plain.endswith("…") and wrapped == height
        else:
            assert fitted is text and lines is None
