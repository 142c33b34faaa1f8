"""Shown instead of a broken layout when the terminal is smaller than the game needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from mqtui.ui.screens.steady import StyledAtMount

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmallScreen(StyledAtMount, Screen[None]):
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen Static { width: auto; max-width: 100%; height: auto; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="message")

    def on_mount(self) -> None:
        self.show(*self.app.size)

    def show(self, width: int, height: int) -> None:
        self.query_one("#message", Static).update(
            f"Please enlarge the terminal\nto at least {MIN_WIDTH}×{MIN_HEIGHT}\n(now {width}×{height})"
        )
