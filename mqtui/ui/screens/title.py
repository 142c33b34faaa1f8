"""The title screen: new game, the tutorial, continue, load, rules, cards, settings, quit."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from mqtui.ui.appref import mq_app
from mqtui.ui.saving import latest_autosave
from mqtui.ui.screens.steady import SteadyScreen
from mqtui.ui.settings import Settings
from mqtui.ui.widgets.footer import QuietFooter

LOGO = r"""
 __  __ _   _ _  _  ___ _  _ _  _____ _  _    ___  _   _ ___ ___ _____
|  \/  | | | | \| |/ __| || | |/ /_ _| \| |  / _ \| | | | __/ __|_   _|
| |\/| | |_| | .` | (__| __ | ' < | || .` | | (_) | |_| | _|\__ \ | |
|_|  |_|\___/|_|\_|\___|_||_|_|\_\___|_|\_|  \__\_\\___/|___|___/ |_|
"""

MENU = (
    ("new", "n", "New game"),
    ("tutorial", "t", "Learn to play (tutorial)"),
    ("continue", "c", "Continue the last game"),
    ("load", "l", "Load a saved game"),
    ("rules", "r", "Rules"),
    ("cards", "k", "Card browser"),
    ("settings", "s", "Settings"),
    ("quit", "q", "Quit"),
)


def opponents_line(settings: Settings) -> str:
    """Which computer players a new game brings, and where to change that."""
    return f"Computer opponents: {settings.opponents}. Change them on the New game screen (n)."


class TitleScreen(SteadyScreen[None]):
    BINDINGS = [
        Binding(key, f"menu('{what}')", label, id=f"title.{what}", show=False) for what, key, label in MENU
    ]
    DEFAULT_CSS = """
    TitleScreen { align: center middle; }
    TitleScreen #logo { text-align: center; color: $accent; text-style: bold; }
    TitleScreen #tagline { text-align: center; color: $foreground 70%; text-style: italic; margin-bottom: 1; }
    TitleScreen Center { height: auto; }
    TitleScreen #opponents { text-align: center; margin-bottom: 1; }
    TitleScreen OptionList { width: 44; height: auto; border: round $primary; }
    TitleScreen.-short #logo { display: none; }
    """

    def compose(self) -> ComposeResult:
        lines = LOGO.strip("\n").splitlines()
        width = max(map(len, lines))
        yield Static("\n".join(line.ljust(width) for line in lines), id="logo")
        yield Static("Kick down the door. Kill the monster. Steal the treasure.", id="tagline")
        yield Static(id="opponents")
        with Center():
            yield OptionList(id="menu")
        yield QuietFooter()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Fill the menu when the screen is shown, the first time too (after it mounts). Textual
        calls SteadyScreen's handler as well."""
        self.refresh_menu()

    def refresh_menu(self) -> None:
        menu = self.query_one("#menu", OptionList)
        has_save = latest_autosave() is not None
        options = []
        for what, key, label in MENU:
            disabled = what == "continue" and not has_save
            prompt = Text.assemble((f"{key}  ", "bold"), label)
            if disabled:
                prompt.append("  (none yet)", "dim")
            options.append(Option(prompt, id=what, disabled=disabled))
        menu.set_options(options)  # (in one go: the list is measured and drawn once)
        self.query_one("#opponents", Static).update(opponents_line(mq_app(self).settings))
        menu.highlighted = [what for what, _, _ in MENU].index("continue") if has_save else 0
        menu.focus()
        self.set_class(self.app.size.height < 20, "-short")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "menu" and parameters == ("continue",):
            return latest_autosave() is not None or None
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_menu(event.option.id)

    def action_menu(self, what: str) -> None:
        app = mq_app(self)
        menu: dict[str, Callable[[], None]] = {
            "new": app.title_new,
            "tutorial": app.title_tutorial,
            "continue": app.title_continue,
            "load": app.title_load,
            "rules": app.title_rules,
            "cards": app.title_cards,
            "settings": app.title_settings,
            "quit": app.title_quit,
        }
        menu[what]()
