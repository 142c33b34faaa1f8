"""Game colours as Rich styles, from the current theme's variables (``mq-red``, ``mq-treasure``, ...)."""

from __future__ import annotations

from rich.style import Style
from textual.app import App
from textual.color import Color, ColorParseError

from mqtui.ui.themes import GAME_VARIABLES


def theme_style(app: App[object], name: str, bold: bool = False) -> Style:
    """A Rich style in the theme's colour for ``name`` ("red", "treasure", "good", ...)."""
    var = f"mq-{name}"
    value = app.theme_variables.get(var) or GAME_VARIABLES.get(var, "")
    try:
        colour = Color.parse(value).rich_color
    except ColorParseError:
        return Style(bold=bold)
    return Style(color=colour, bold=bold)
