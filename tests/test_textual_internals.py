"""Guards of mqtui/ui/textual_internals.py: each fails, naming the entry, when a Textual or Rich release
changes an internal that mqtui relies on (read that entry's note, then fix or drop it)."""

from __future__ import annotations

import subprocess
import sys

from rich.segment import Segment
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.dom import DOMNode
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import RichLog, Static
from waiting import wait_until

from mqtui.ui import textual_internals as ti
from mqtui.ui.textual_internals import forget_log_lines, log_line, log_size_known, update_scrollbars


async def test_entry_1_the_key_parser_turns_bytes_into_keys_and_a_lone_esc_into_escape_on_its_tick() -> None:
    parser = ti.XTermParser(False)
    keys = [e.key for e in parser.feed("\x1b[Aq") if isinstance(e, events.Key)]
    assert keys == ["up", "q"], "entry 1 (XTermParser.feed) changed"
    assert not list(parser.feed("\x1b")), "entry 1: a lone Esc is held until its time is up"
    got: list[str] = []

    def escaped() -> bool:
        got.extend(e.key for e in parser.tick() if isinstance(e, events.Key))
        return bool(got)

    await wait_until(escaped, what="entry 1 (XTermParser.tick): the held Esc")
    assert got == ["escape"]


class Gated(ti.ActionGate):
    BINDINGS = [
        Binding("x", "shown", "Shown", id="t.shown"),
        Binding("y", "refused", "Refused", id="t.refused"),
    ]
    ran: list[str]

    def compose(self) -> ComposeResult:
        self.ran = []
        yield Static("gated")

    def allows_action(self, action: str, node: DOMNode) -> bool:
        return action != "refused"

    def action_shown(self) -> None:
        self.ran.append("shown")

    def action_refused(self) -> None:
        self.ran.append("refused")


async def test_entry_2_the_state_of_every_binding_goes_through_the_gate() -> None:
    app = Gated()
    async with app.run_test() as pilot:
        shown = {b.binding.id for b in app.screen.active_bindings.values()}
        assert "t.shown" in shown
        assert "t.refused" not in shown, "entry 2: Screen.active_bindings no longer asks _check_action_state"
        await pilot.press("x", "y")
        assert app.ran == ["shown"], "entry 2: a refused binding ran (App.run_action)"


class Logged(App[None]):
    def compose(self) -> ComposeResult:
        yield RichLog(id="log")
        yield ScrollableContainer(Static("x\n" * 50), id="box")


async def test_entry_3_a_richlogs_lines_set_and_forgotten_are_drawn_afresh() -> None:
    app = Logged()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(RichLog)
        await wait_until(lambda: log_size_known(log), what="entry 3 (RichLog._size_known)")
        log.write("old line")
        await pilot.pause()
        assert log_line(log, 0, 0, 20).text.startswith("old line"), "entry 3 (RichLog._render_line)"
        log.lines = [Strip([Segment("new line")])]
        forget_log_lines(log)
        assert log_line(log, 0, 0, 20).text.startswith("new line"), "entry 3 (RichLog._line_cache)"


async def test_entry_4_a_scrolling_widgets_bars_follow_its_virtual_size() -> None:
    app = Logged()
    async with app.run_test(size=(40, 10)) as pilot:
        box = app.query_one("#box", ScrollableContainer)
        await pilot.pause()
        update_scrollbars(box, Size(30, 80))
        assert box.vertical_scrollbar.window_virtual_size == 80, "entry 4 (Widget._scroll_update)"


def test_entry_5_exit_at_once_ends_the_process_with_its_code_and_waits_for_no_thread() -> None:
    program = (
        "import threading, time\n"
        "from mqtui.ui.textual_internals import exit_at_once\n"
        "threading.Thread(target=time.sleep, args=(600,)).start()\n"  # (sys.exit would wait for it)
        "exit_at_once(3)\n"
    )
    ended = subprocess.run([sys.executable, "-c", program], timeout=60, check=False)
    assert ended.returncode == 3, "entry 5 (os._exit)"
