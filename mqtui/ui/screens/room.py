"""Pages of text over the game: the room inspector in full (rule, Deal, flavour, search state, who and
what is there, arrows), the computer players' reasons, and (a subclass) the help's keys."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from mqtui.ui.screens.steady import StyledAtMount


class RoomScreen(StyledAtMount, ModalScreen[None]):
    """A page of text, scrolled with the arrows, closed with Esc (and the key that opened it)."""

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

    def __init__(self, details: RenderableType, title: str = "", subtitle: str = "") -> None:
        super().__init__()
        self.details = details
        self.title_text = title
        self.subtitle = subtitle

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = self.title_text
            scroll.border_subtitle = self.subtitle
            yield Static(self.details)
            if not self.subtitle:
                yield Static(Text("Esc: close", "dim"))

    def action_close(self) -> None:
        self.dismiss(None)
