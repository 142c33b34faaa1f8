"""A dialog that asks which of several legal actions to take (or of other choices: a recap's lines)."""

from __future__ import annotations

from typing import TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from mqtui.ui.screens.dialog import Dialog

Choice = TypeVar("Choice")


class ChooseAction(Dialog[Choice]):
    """Pick one action (Enter) or cancel (Escape)."""

    DEFAULT_CSS = """
    ChooseAction > Vertical { width: 70; max-height: 80%; }
    ChooseAction Label { width: 1fr; text-style: bold; margin-bottom: 1; }
    ChooseAction OptionList { height: auto; max-height: 20; border: none; }
    """

    def __init__(self, title: str, choices: list[tuple[str, Choice]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield OptionList(
                *[
                    Option(Text.assemble((f"{i + 1} " if i < 9 else "  ", "bold"), label), id=str(i))
                    for i, (label, _) in enumerate(self.choices)
                ]
            )
            yield Label("Enter: choose · Esc: cancel", classes="hint")

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key.isdigit() and 1 <= int(key) <= min(9, len(self.choices)):
            # stop it here: otherwise the key reaches the app after this dialog is gone, and the
            # screen below (the game, whose digits pick actions) would act on it too
            event.stop()
            event.prevent_default()
            self.dismiss(self.choices[int(key) - 1][1])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index][1])
