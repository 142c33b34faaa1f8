"""The whole message history on one screen (as NetHack's ^P and DCSS's ^P): every log line the
viewer may read, scrollable, newest at the bottom."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from mqtui.store import Snapshot
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.widgets.footer import QuietFooter
from mqtui.ui.widgets.log import GameLog


class HistoryScreen(StyledAtMount, Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back", id="history.close"),
        Binding("L,f3,q", "close", "Back", id="history.close2", show=False),
        Binding("home", "top", "Top", id="history.top"),
        Binding("end", "bottom", "Newest", id="history.bottom"),
    ]
    DEFAULT_CSS = """
    HistoryScreen #history-title { height: 1; background: $primary 30%; padding: 0 1; text-style: bold; }
    HistoryScreen GameLog { height: 1fr; border: none; padding: 0 1; }
    """

    def __init__(self, snap: Snapshot) -> None:
        super().__init__()
        self.snap = snap

    def compose(self) -> ComposeResult:
        lines = len(self.snap.log)
        yield Static(
            f"Message history: {lines} lines · ↑↓ PgUp PgDn to scroll · Esc: back", id="history-title"
        )
        yield GameLog(id="history")
        yield QuietFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        log = self.query_one(GameLog)
        log.snapshot = self.snap
        log.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_top(self) -> None:
        self.query_one(GameLog).scroll_home(animate=False)

    def action_bottom(self) -> None:
        self.query_one(GameLog).scroll_end(animate=False)
