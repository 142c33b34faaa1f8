"""Settings: theme (previewed live), computer speed, the pass countdown, hot-seat hand-off."""

from __future__ import annotations

import msgspec
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Label, OptionList, RadioSet
from textual.widgets.option_list import Option

from mqtui.ui.flow import COUNTDOWNS
from mqtui.ui.screens.dialog import Dialog
from mqtui.ui.settings import BOT_SPEEDS, Settings, speed_name
from mqtui.ui.widgets.footer import QuietFooter
from mqtui.ui.widgets.toggles import TextCheckbox, TextRadioButton

SHORT = 30  # a screen less tall than this has no blank line above the headings


class SettingsScreen(Dialog[Settings], inherit_bindings=False):
    """Esc leaves the settings as they were, and says so when something had been changed; the footer
    names both keys (an 80x24 screen has room for the buttons too, on a short screen the headings lose
    the blank line above them)."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="settings.save"),
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),  # (in this order in the footer)
    ]
    DEFAULT_CSS = """
    SettingsScreen OptionList { height: auto; max-height: 8; }
    SettingsScreen.-short OptionList { max-height: 6; }
    SettingsScreen RadioSet { width: 1fr; layout: horizontal; height: auto; }
    SettingsScreen RadioSet > RadioButton { width: auto; margin-right: 2; }
    SettingsScreen Label { margin-top: 1; text-style: bold; }
    SettingsScreen.-short Label { margin-top: 0; }
    SettingsScreen Horizontal { height: auto; align: right middle; margin-top: 1; }
    SettingsScreen Button { margin-left: 1; }
    """

    def __init__(self, settings: Settings, labels: dict[str, str]) -> None:
        super().__init__()
        self.settings = settings
        self.labels = labels
        self.original_theme = settings.theme
        self.original = msgspec.structs.replace(settings)  # (a theme previewed changes ``settings``)
        if self.app.size.height < SHORT:  # (styled once, as it mounts, for the height it opens at)
            self.add_class("-short", update=False)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT, "-short")

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
            yield Label("While playing")
            yield TextCheckbox(
                "Advisor: what the computer would do (w)", self.settings.advisor, id="advisor", compact=True
            )
            yield TextCheckbox(
                "Ask before risky actions", self.settings.confirm_risky, id="risky", compact=True
            )
            with Horizontal():
                yield Button("Save (Ctrl+S)", variant="primary", id="save", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)
        yield QuietFooter(compact=True, show_command_palette=False)

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
            confirm_risky=self.query_one("#risky", Checkbox).value,
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def action_save(self) -> None:
        self.dismiss(self._result())

    def action_cancel(self) -> None:
        if self._result() != self.original:
            self.notify("Nothing was changed (Esc). Ctrl+S saves the settings.", title="Settings not saved")
        self.app.theme = self.original_theme
        self.dismiss(None)
