"""A yes-or-no question before a risky action (see :mod:`mqtui.ui.rails`): Enter or y does it, Esc or n
does not. Small enough for 80×24, its keys on its last line."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from mqtui.ui.screens.dialog import Dialog

CONFIRM_HINT = "Enter/y: do it · Esc/n: cancel · Settings: stop asking"


class ConfirmAction(Dialog[bool]):
    """Asks ``question`` about the action ``what`` (its words); dismissed with True to go ahead."""

    DEFAULT_CSS = """
    ConfirmAction > Vertical { width: 60; }
    ConfirmAction #what { text-style: bold; width: 1fr; }
    ConfirmAction #question { width: 1fr; margin: 1 0; }
    ConfirmAction .hint { width: 1fr; color: $text-muted; }
    """

    def __init__(self, what: str, question: str) -> None:
        super().__init__()
        self.what = what
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Are you sure?"
            yield Label(self.what, id="what")
            yield Label(self.question, id="question")
            yield Label(CONFIRM_HINT, classes="hint")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "y", "n"):
            # stopped here: the key must not reach the game screen below once the dialog is gone
            event.stop()
            event.prevent_default()
            self.dismiss(event.key != "n")
