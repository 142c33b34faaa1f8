"""Hot seat: hide everything while the keyboard passes from one human player to the next."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from mqtui.ui.screens.steady import StyledAtMount


class HandoffScreen(StyledAtMount, ModalScreen[None]):
    """Covers the whole screen until the next player presses Enter or Space."""

    BINDINGS = [
        Binding("enter", "ready", "I'm ready", id="handoff.ready"),
        Binding("space", "ready", "I'm ready", id="handoff.ready2", show=False),
    ]
    DEFAULT_CSS = """
    HandoffScreen { align: center middle; background: $background; }
    /* (the box is the screen's child: a Center around it kept this rule from applying) */
    HandoffScreen > Vertical { width: 60; max-width: 95%; height: auto; border: double $accent;
        background: $panel; padding: 1 2; }
    HandoffScreen #who { text-style: bold; content-align: center middle; width: 1fr; }
    HandoffScreen #why, HandoffScreen #hint { width: 1fr; content-align: center middle; text-align: center;
        margin-top: 1; }
    """

    def __init__(self, name: str, colour: str, why: str) -> None:
        super().__init__()
        self.player = name
        self.colour = colour
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Pass the keyboard to {self.player} ({self.colour})", id="who")
            yield Static(self.why, id="why")
            yield Static(f"Everyone else: look away.\n{self.player}: press Enter when ready.", id="hint")

    def action_ready(self) -> None:
        self.dismiss(None)
