"""The dialogs' common part: a bordered box in the middle of the screen, over what is below it; Esc
cancels (the answer is None). Each dialog sets its own width (``X > Vertical { width: N; }``)."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen

from mqtui.ui.screens.steady import StyledAtMount

Answer = TypeVar("Answer")


class Dialog(StyledAtMount, ModalScreen[Answer | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]
    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > Vertical { width: 64; max-width: 95%; height: auto; max-height: 95%;
        border: thick $accent; background: $panel; padding: 0 1; }
    """

    def action_cancel(self) -> None:
        self.dismiss(None)
