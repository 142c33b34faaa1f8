"""Save and load dialogs."""

from __future__ import annotations

import time
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from mqtui.ui.appref import mq_app
from mqtui.ui.saving import SaveFailed, list_saves, saves_dir, slot_for
from mqtui.ui.screens.dialog import Dialog


def save_name(text: str) -> Path:
    """A file in the saves folder for a name typed by the player; a name that is not a plain name
    (a "/", a "~": a path) is refused with SaveFailed, which says what a name may hold (the dialog
    said "saved in ...": a path would have been saved elsewhere, missing from the load dialog)."""
    return slot_for(text.strip())


class SaveDialog(Dialog[Path]):
    """Asks for a name; returns the path to save to."""

    DEFAULT_CSS = """
    SaveDialog Label { width: 1fr; margin: 1 0 0 0; }
    """

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Save the game"
            yield Label(f"Name (letters, digits, spaces and _.+-; saved in {saves_dir()}):")
            yield Input(value=time.strftime("game-%Y%m%d-%H%M"), id="name")
            yield Label("Enter: save · Esc: cancel", classes="hint", id="save-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            return
        try:
            path = save_name(event.value)
        except SaveFailed as exc:
            self.query_one("#save-hint", Label).update(str(exc))
            return
        self.dismiss(path)


class LoadDialog(Dialog[Path]):
    """Lists the saved games (in progress, saved by name, finished; newest first); a path can be typed
    too. Enter loads a game in progress (a finished one opens in the replay view); ``r`` replays."""

    BINDINGS = [
        Binding("r", "replay", "Replay", id="load.replay"),
    ]
    DEFAULT_CSS = """
    LoadDialog > Vertical { width: 124; max-height: 90%; }
    LoadDialog OptionList { height: auto; max-height: 10; text-wrap: nowrap; text-overflow: ellipsis; }
    LoadDialog Label { width: 1fr; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        self.saves = list_saves()
        with Vertical() as box:
            box.border_title = "Load a game"
            if self.saves:
                yield OptionList(
                    *[
                        Option(
                            Text.assemble(
                                (path.stem, "bold"),
                                "\n",
                                (f"  {when}", "dim"),
                                no_wrap=True,
                                overflow="ellipsis",
                            ),
                            id=str(i),
                        )
                        for i, (path, when, _over) in enumerate(self.saves)
                    ],
                    id="saves",
                )
            else:
                yield Label("No saved games yet.")
            yield Label("Or type a file path:")
            yield Input(placeholder="path/to/game.mqsave", id="path")
            yield Label("Enter: load (a finished game: replay) · r: replay · Esc: cancel", classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        path, _, over = self.saves[event.option_index]
        if over:
            self._replay(path)
        else:
            self.dismiss(path)

    def action_replay(self) -> None:
        if not self.saves:
            return
        index = self.query_one("#saves", OptionList).highlighted
        if index is not None:
            self._replay(self.saves[index][0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return bool(self.saves) and not self.query_one("#path", Input).has_focus
        return True

    def _replay(self, path: Path) -> None:
        self.dismiss(None)
        self.app.call_later(mq_app(self).open_replay, path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.dismiss(Path(event.value.strip()).expanduser())
