"""The log pane wraps a whole log again (a hand-off, a resize) in one pass: the same lines, styles and
entry ends as writing the entries one by one through RichLog."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import RichLog

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


def cells(strip: Strip) -> list[tuple[str, object]]:
    """Each cell's character and style (segments may be cut differently, no style may be None or
    the null style; what shows is the same)."""
    return [(ch, seg.style or Style.null()) for seg in strip for ch in seg.text]


def shown(log: GameLog) -> tuple[list[str], list[list[tuple[str, object]]], int]:
    return [s.text for s in log.lines], [cells(s) for s in log.lines], log.virtual_size.height


def write_each(log: GameLog, entries: tuple[LogLine, ...]) -> list[int]:
    """The reference: ``entries`` written one by one through RichLog's own ``write``, as the pane
    shows each (``line_text``); where each entry's lines end."""
    log.clear()
    ends = []
    for entry in entries:
        log.write(log.line_text(entry), scroll_end=False)
        ends.append(len(log.lines))
    return ends


@dataclass
class Seen:
    """What the log pane reads of a snapshot: whose log, and its entries."""

    seat: int
    log: tuple[LogLine, ...]


class TwoLogs(App[None]):
    """The pane under test and a reference pane of the same width."""

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(GAME_VARIABLES)

    def compose(self) -> ComposeResult:
        yield GameLog(id="log")
        yield GameLog(id="reference")


async def two_logs(app: TwoLogs, pilot: Pilot[None]) -> tuple[GameLog, GameLog]:
    await pilot.pause()
    log, reference = app.query_one("#log", GameLog), app.query_one("#reference", GameLog)
    app.set_focus(None)  # (a focused pane is drawn on another background)
    await pilot.pause()
    return log, reference


@pytest.mark.parametrize("width", [34, 77])
@pytest.mark.parametrize("max_lines", [2000, 9])
async def test_a_rewritten_log_is_the_log_written_entry_by_entry(width: int, max_lines: int) -> None:
    """A seat's first snapshot wraps its whole log in one pass: the lines and styles of writing the
    entries one by one through RichLog (``max_lines`` kept)."""
    app = TwoLogs()
    async with app.run_test(size=(width, 20)) as pilot:
        log, reference = await two_logs(app, pilot)
        log.max_lines = reference.max_lines = max_lines
        entries = ENTRIES * 3
        write_each(reference, entries)
        log.snapshot = Seen(0, entries)  # type: ignore[assignment]
        assert shown(log) == shown(reference)
        texts = shown(log)[0]
        assert any(len(t.rstrip()) > width // 2 for t in texts)  # long entries wrapped at the pane width
        assert max(len(t) for t in texts) <= log.scrollable_content_region.width
        # the newest 9 lines kept, or every entry's lines (more lines than entries: long ones wrapped)
        assert len(texts) == 9 if max_lines == 9 else len(texts) > len(entries)


@pytest.mark.parametrize("width", [34, 77])
@pytest.mark.parametrize("max_lines", [2000, 9])
async def test_new_entries_appended_in_one_pass_are_the_entries_written_one_by_one(
    width: int, max_lines: int
) -> None:
    """What a new snapshot's entries get: the lines and styles of writing them one by one through
    RichLog (the oldest lines dropped past ``max_lines``)."""
    app = TwoLogs()
    async with app.run_test(size=(width, 20)) as pilot:
        log, reference = await two_logs(app, pilot)
        log.max_lines = reference.max_lines = max_lines
        write_each(reference, ENTRIES * 3)
        log.snapshot = Seen(0, ENTRIES[:3])  # type: ignore[assignment]
        log.snapshot = Seen(0, ENTRIES[:3] + ENTRIES[3:] + ENTRIES * 2)  # type: ignore[assignment]
        assert shown(log) == shown(reference)


async def test_log_lines_take_the_panes_new_style() -> None:
    """The pane keeps its style between frames (``render_line``) and draws what RichLog's own
    ``render_line`` draws: a new theme restyles the lines."""
    app = TwoLogs()
    async with app.run_test(size=(40, 20)) as pilot:
        log, _reference = await two_logs(app, pilot)
        log.snapshot = Seen(0, ENTRIES[:2])  # type: ignore[assignment]
        await pilot.pause()
        before = cells(log.render_line(0))
        assert before == cells(RichLog.render_line(log, 0))
        app.theme = "textual-light"
        await pilot.pause()
        assert cells(log.render_line(0)) == cells(RichLog.render_line(log, 0)) != before


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
        log, reference = await two_logs(app, pilot)
        for step in steps:
            log.snapshot = step  # type: ignore[assignment]
            write_each(reference, step.log)
            assert shown(log) == shown(reference), step
            assert log.scroll_offset.y == log.max_scroll_y  # the newest lines in view


async def test_a_log_wrapped_again_at_a_width_it_had_before_is_that_width_s_log() -> None:
    """Each entry's lines are kept by what the entry shows and the width (a hand-off, a resize back,
    the replay of the same game wraps nothing again): after a resize there and back, and after a new
    theme, the pane shows what writing the entries one by one at that width, in those styles, shows;
    the lines of an entry seen at that width are the very lines drawn then (nothing wrapped again)."""
    app = TwoLogs()
    entries = ENTRIES * 2
    async with app.run_test(size=(34, 40)) as pilot:
        log, reference = await two_logs(app, pilot)
        log.snapshot = Seen(0, entries)  # type: ignore[assignment]
        await pilot.pause()
        narrow, narrow_lines = shown(log), list(log.lines)
        await pilot.resize_terminal(77, 40)
        await pilot.pause()
        write_each(reference, entries)
        assert shown(log) == shown(reference) and len(narrow[0]) > len(shown(log)[0])
        await pilot.resize_terminal(34, 40)
        await pilot.pause()
        ends = write_each(reference, entries)
        assert shown(log) == shown(reference) == narrow
        assert all(a is b for a, b in zip(log.lines, narrow_lines, strict=True))  # (kept, not wrapped again)
        app.theme = "textual-light"  # other colours for the same entries at the same width
        await pilot.pause()
        await pilot.resize_terminal(77, 40)  # (the log wrapped again, there and back, in the new colours)
        await pilot.pause()
        await pilot.resize_terminal(34, 40)
        await pilot.pause()
        write_each(reference, entries)
        assert shown(log) == shown(reference) != narrow
        # each entry drawn in a colour of the theme drawn again, once (both copies of it show the same
        # lines); a plain one (no colour of its own) kept from before the new theme
        lines = [log.lines[start:end] for start, end in zip([0, *ends], ends, strict=False)]
        before = [narrow_lines[start:end] for start, end in zip([0, *ends], ends, strict=False)]
        for i, entry in enumerate(entries):
            kept = all(a is b for a, b in zip(lines[i], before[i], strict=True))
            assert kept == (not log_style(entry.kind)[1]), entry
            twin = lines[i % len(ENTRIES) + len(ENTRIES)]
            assert all(a is b for a, b in zip(lines[i], twin, strict=True)), entry
        assert sum(1 for e in ENTRIES if log_style(e.kind)[1]) == len(ENTRIES) - 1
