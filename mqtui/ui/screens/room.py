"""The room inspector in full: rule, Deal, flavour, search state, who and what is there, arrows."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class RoomScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="room.close"),
        Binding("i", "close", "Close", show=False, id="room.close2"),
        Binding("enter", "close", "Close", show=False, id="room.close3"),
    ]
    DEFAULT_CSS = """
    RoomScreen { align: center middle; }
    RoomScreen > VerticalScroll { width: 76; max-width: 95%; height: auto; max-height: 90%;
        border: thick $accent; background: $panel; padding: 0 1; }
    """

    def __init__(self, details: Text) -> None:
        super().__init__()
        self.details = details

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.details)
            yield Static(Text("Esc: close", "dim"))

    def action_close(self) -> None:
        self.dismiss(None)
