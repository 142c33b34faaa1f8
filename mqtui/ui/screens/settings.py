"""Settings: theme (previewed live), computer speed, the pass countdown, hot-seat hand-off."""

from __future__ import annotations

import msgspec
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Label, OptionList, RadioSet
from textual.widgets.option_list import Option

from mqtui.ui.flow import COUNTDOWNS
from mqtui.ui.screens.dialog import Dialog
from mqtui.ui.settings import BOT_SPEEDS, Settings, speed_name
from mqtui.ui.widgets.toggles import TextCheckbox, TextRadioButton


class SettingsScreen(Dialog[Settings]):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="settings.save"),
    ]
    DEFAULT_CSS = """
    SettingsScreen OptionList { height: auto; max-height: 8; }
    SettingsScreen RadioSet { width: 1fr; layout: horizontal; height: auto; }
    SettingsScreen Label { margin-top: 1; text-style: bold; }
    SettingsScreen Horizontal { height: auto; align: right middle; margin-top: 1; }
    SettingsScreen Button { margin-left: 1; }
    """

    def __init__(self, settings: Settings, labels: dict[str, str]) -> None:
        super().__init__()
        self.settings = settings
        self.labels = labels
        self.original_theme = settings.theme

    def compose(self) -> ComposeResult:
        names = list(self.labels)
        with Vertical() as box:
            box.border_title = "Settings"
            yield Label("Theme (previewed as you move)")
            themes = OptionList(*[Option(self.labels[n], id=n) for n in names], id="themes")
            if self.settings.theme in names:
                themes.highlighted = names.index(self.settings.theme)
            yield themes
            yield Label("Computer players' speed")
            current = speed_name(self.settings.bot_delay)
            with RadioSet(id="speed", compact=True):
                for name in BOT_SPEEDS:
                    yield TextRadioButton(name.capitalize(), value=name == current, id=f"speed-{name}")
            yield Label("In others' fights, when I could play a card, pass after")
            wait = self.settings.pass_countdown
            with RadioSet(id="countdown", compact=True):
                for seconds in COUNTDOWNS:
                    label = f"{seconds} s" if seconds else "Never: ask me"
                    yield TextRadioButton(label, value=seconds == wait, id=f"countdown-{seconds}")
            yield Label("Hot seat")
            yield TextCheckbox(
                "Hide hands between human players", self.settings.handoff, id="handoff", compact=True
            )
            yield TextCheckbox(
                "Advisor: what the computer would do (w)", self.settings.advisor, id="advisor", compact=True
            )
            with Horizontal():
                yield Button("Save (Ctrl+S)", variant="primary", id="save", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # (a highlight since moved on is not previewed: the list sends one for its first option as it
        # is built, before the current theme's; each preview restyles every screen)
        if event.option.id and event.option_index == event.option_list.highlighted:
            self.app.theme = event.option.id

    def _result(self) -> Settings:
        themes = self.query_one("#themes", OptionList)
        option = themes.highlighted_option
        theme = option.id if option is not None and option.id else self.settings.theme
        pressed = self.query_one("#speed", RadioSet).pressed_button
        speed = pressed.id.removeprefix("speed-") if pressed is not None and pressed.id else "normal"
        countdown = self.query_one("#countdown", RadioSet).pressed_button
        return msgspec.structs.replace(
            self.settings,
            theme=theme,
            bot_delay=BOT_SPEEDS.get(speed, BOT_SPEEDS["normal"]),
            pass_countdown=int(countdown.id.removeprefix("countdown-")) if countdown and countdown.id else 3,
            handoff=self.query_one("#handoff", Checkbox).value,
            advisor=self.query_one("#advisor", Checkbox).value,
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        self.dismiss(self._result())

    def action_cancel(self) -> None:
        self.app.theme = self.original_theme
        self.dismiss(None)
