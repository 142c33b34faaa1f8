"""The log pane wraps a whole log again (a hand-off, a resize) in one pass: the same lines, styles and
entry ends as writing the entries one by one through RichLog."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip

from mqtui.store import LogLine
from mqtui.ui.describe import log_style
from mqtui.ui.themes import GAME_VARIABLES
from mqtui.ui.widgets.log import GameLog

SENTENCE = "the goblin swings a rusty axe at Ann and misses by a whisker then runs"
WORDS = SENTENCE.split(" ")
ENTRIES = tuple(
    LogLine(kind, text)  # type: ignore[arg-type]
    for kind, text in [
        ("turn", "Ann's turn"),
        ("combat", " ".join(WORDS * 3)),
        ("dice", "Ann rolls 4 + 2 = 6"),
        ("result", "Unbreakable" + "x" * 90 + " word"),
        ("level", "Bob goes up to level 3 — 漢字の名前 with wide letters " * 2),
        ("badstuff", "tab\tinside and  double  spaces  " + " ".join(WORDS)),
        ("bot", "ok"),
        ("a-kind-from-a-newer-server", " ".join(reversed(WORDS)) * 2),
    ]
)


class LogApp(App[None]):
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(GAME_VARIABLES)

    def compose(self) -> ComposeResult:
        yield GameLog(id="log")


def cells(strip: Strip) -> list[tuple[str, object]]:
    """Each cell's character and style (segments may be cut differently, no style may be None or
    the null style; what shows is the same)."""
    return [(ch, seg.style or Style.null()) for seg in strip for ch in seg.text]


def shown(log: GameLog) -> tuple[list[str], list[list[tuple[str, object]]], list[int] | None, int]:
    return [s.text for s in log.lines], [cells(s) for s in log.lines], log._ends, log.virtual_size.height


@pytest.mark.parametrize("width", [34, 77])
@pytest.mark.parametrize("max_lines", [2000, 9])
async def test_a_rewritten_log_is_the_log_written_entry_by_entry(width: int, max_lines: int) -> None:
    app = LogApp()
    async with app.run_test(size=(width, 20)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        log.max_lines = max_lines
        entries = ENTRIES * 3
        log._rewrite_each(entries)
        one_by_one = shown(log)
        log._rewrite(entries)
        assert shown(log) == one_by_one
        texts = one_by_one[0]
        assert any(len(t.rstrip()) > width // 2 for t in texts)  # long entries wrapped at the pane width
        assert max(len(t) for t in texts) <= log.scrollable_content_region.width
        assert len(texts) == min(max_lines, len(texts)) and (one_by_one[2] is None) == (max_lines == 9)
        if max_lines == 2000:  # each entry's wrapped lines end where writing them ended them
            assert len(one_by_one[2] or ()) == len(entries) and len(texts) > len(entries)


@pytest.mark.parametrize("width", [34, 77])
@pytest.mark.parametrize("max_lines", [2000, 9])
async def test_new_entries_appended_in_one_pass_are_the_entries_written_one_by_one(
    width: int, max_lines: int
) -> None:
    """What a new snapshot's entries get (``_append``): the lines, styles and entry ends of writing
    them one by one through RichLog."""
    app = LogApp()
    async with app.run_test(size=(width, 20)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        log.max_lines = max_lines
        log._rewrite_each(ENTRIES * 3)
        one_by_one = shown(log)
        log._rewrite_each(ENTRIES[:3])
        log._append(ENTRIES[3:] + ENTRIES * 2)
        assert shown(log) == one_by_one


async def test_log_lines_take_the_panes_new_style() -> None:
    """The pane's style is kept between frames (``render_line``): a new theme restyles the lines."""
    app = LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        log._append(ENTRIES[:2])
        await pilot.pause()

        def fresh(y: int) -> list[tuple[str, object]]:
            return cells(
                log._render_line(log.scroll_offset.y + y, 0, log.scrollable_content_region.width).apply_style(
                    log.rich_style
                )
            )

        before = cells(log.render_line(0))
        assert before == fresh(0)
        app.theme = "textual-light"
        await pilot.pause()
        assert cells(log.render_line(0)) == fresh(0) != before


class TwoLogs(LogApp):
    def compose(self) -> ComposeResult:
        yield GameLog(id="log")
        yield GameLog(id="reference")


@dataclass
class Seen:
    """What the log pane reads of a snapshot: whose log, and its entries."""

    seat: int
    log: tuple[LogLine, ...]


async def test_a_hand_off_back_shows_that_seats_log_as_writing_it_whole_would() -> None:
    """Hot seat: each seat's log as last wrapped comes back at its next turn, with what happened since
    (or without what an undo took back): the same lines, styles and ends as writing it all again."""
    ann = ENTRIES[:4]
    bob = tuple(LogLine(e.kind, "Bob sees: " + e.text) for e in ENTRIES[2:6])
    steps = [
        Seen(0, ann),
        Seen(1, bob),
        Seen(0, ann + ENTRIES[4:6]),  # two entries came since Ann's last turn
        Seen(0, ann + ENTRIES[4:7]),
        Seen(1, bob + ENTRIES[:2]),
        Seen(0, ann + ENTRIES[4:5]),  # an undo took two back
        Seen(1, bob),
    ]
    app = TwoLogs()
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        log, reference = app.query_one("#log", GameLog), app.query_one("#reference", GameLog)
        app.set_focus(None)  # (a focused pane is drawn on another background)
        await pilot.pause()
        for step in steps:
            log.snapshot = step  # type: ignore[assignment]
            reference._rewrite_each(step.log)
            assert shown(log) == shown(reference), step
            assert log.scroll_offset.y == log.max_scroll_y  # the newest lines in view


async def test_a_log_wrapped_again_at_a_width_it_had_before_is_that_width_s_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each entry's lines are kept by what the entry shows and the width (a hand-off, a resize back,
    the replay of the same game wraps nothing again): after a resize there and back, and after a new
    theme, the pane shows what writing the entries one by one at that width, in those styles, shows."""
    app = TwoLogs()
    entries = ENTRIES * 2
    async with app.run_test(size=(34, 40)) as pilot:
        await pilot.pause()
        log, reference = app.query_one("#log", GameLog), app.query_one("#reference", GameLog)
        app.set_focus(None)  # (a focused pane is drawn on another background)
        await pilot.pause()
        log.snapshot = Seen(0, entries)  # type: ignore[assignment]
        await pilot.pause()
        narrow = shown(log)
        await pilot.resize_terminal(77, 40)
        await pilot.pause()
        reference._rewrite_each(entries)
        assert shown(log) == shown(reference) and len(narrow[0]) > len(shown(log)[0])
        wrapped: list[Text] = []
        rows = GameLog._rows
        monkeypatch.setattr(GameLog, "_rows", lambda *a: wrapped.append(a[1]) or rows(*a))
        await pilot.resize_terminal(34, 40)
        await pilot.pause()
        reference._rewrite_each(entries)
        assert shown(log) == shown(reference) == narrow
        assert wrapped == []  # (the entries' lines at this width were kept)
        app.theme = "textual-light"  # other colours for the same entries at the same width
        await pilot.pause()
        log._rewrite(entries)
        reference._rewrite_each(entries)
        assert shown(log) == shown(reference) != narrow
        # each entry drawn in a colour of the theme drawn again, once; a plain one (no colour of its own) kept
        restyled = [e for e in ENTRIES[::-1] if log_style(e.kind)[1]]
        assert [t.plain.split() for t in wrapped] == [
            f"{log_style(e.kind)[0]} {e.text}".split() for e in restyled
        ]
        assert len(restyled) == len(ENTRIES) - 1
