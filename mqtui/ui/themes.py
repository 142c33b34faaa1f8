"""Themes as data: ``themes/*.toml`` files loaded into Textual :class:`~textual.theme.Theme` values.

Textual's ``Theme`` is a plain dataclass with no file loader, so this module reads the files and
validates them (known keys only, colours that parse, every game colour variable a valid colour).
A theme file looks like::

    [theme]
    name = "mq-dark"
    label = "Dungeon dark"      # shown in the settings screen
    primary = "#C8963E"         # any Theme field: colours, dark, luminosity_spread, ...

    [variables]                 # CSS variables; the game's own are listed in GAME_VARIABLES
    mq-red = "#E5534B"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

from mqtui.paths import THEMES_DIR, user_themes_dir

DEFAULT_THEME = "mq-dark"

# The game's colour variables and their fallbacks (used when a theme does not set one).
GAME_VARIABLES: dict[str, str] = {
    "mq-red": "#E5534B",
    "mq-blue": "#4C8DF6",
    "mq-green": "#4FB35A",
    "mq-yellow": "#E3C341",
    "mq-orange": "#EE8A2F",
    "mq-purple": "#B07AE8",
    "mq-monster": "#E06C75",
    "mq-treasure": "#E5C07B",
    "mq-dxm": "#98C379",
    "mq-curse": "#C678DD",
    "mq-door": "#D19A66",
    "mq-wall": "#8A8178",
    "mq-good": "#7BC27B",
    "mq-bad": "#E36464",
}

_COLOUR_FIELDS: tuple[str, ...] = ("primary", "secondary", "warning", "error", "success", "accent")
_COLOUR_FIELDS += ("foreground", "background", "surface", "panel", "boost")
_FIELDS = {f.name for f in fields(Theme)}


class ThemeError(ValueError):
    """A theme file is not valid; the message says which file and why."""


@dataclass(frozen=True)
class LoadedThemes:
    themes: dict[str, Theme]
    labels: dict[str, str]  # theme name -> label for menus
    errors: list[str]  # one line per file that could not be loaded


def _check_colour(where: str, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise ThemeError(f"{where}: {key} must be a colour string, not {type(value).__name__}")
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeError(f"{where}: {key} = {value!r} is not a colour") from None
    return value


def parse_theme(data: dict[str, object], where: str = "theme") -> tuple[Theme, str]:
    """Build a Theme (and its label) from the decoded TOML of one theme file; raises ThemeError."""
    unknown = set(data) - {"theme", "variables"}
    if unknown:
        raise ThemeError(f"{where}: unknown table(s) {', '.join(sorted(unknown))}")
    table = data.get("theme")
    if not isinstance(table, dict):
        raise ThemeError(f"{where}: missing [theme] table")
    values = dict(table)
    label = values.pop("label", None)
    name = values.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ThemeError(f"{where}: [theme] needs a name")
    if "primary" not in values:
        raise ThemeError(f"{where}: [theme] needs a primary colour")
    bad = set(values) - (_FIELDS - {"variables"})
    if bad:
        raise ThemeError(f"{where}: unknown theme key(s) {', '.join(sorted(bad))}")
    for key in _COLOUR_FIELDS:
        if key in values:
            _check_colour(where, key, values[key])
    for key in ("dark", "ansi"):
        if key in values and not isinstance(values[key], bool):
            raise ThemeError(f"{where}: {key} must be true or false")
    for key in ("luminosity_spread", "text_alpha"):
        if key in values:
            v = values[key]
            if not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 1:
                raise ThemeError(f"{where}: {key} must be a number from 0 to 1")
            values[key] = float(v)
    raw_vars = data.get("variables", {})
    if not isinstance(raw_vars, dict):
        raise ThemeError(f"{where}: [variables] must be a table")
    variables: dict[str, str] = {}
    for key, value in raw_vars.items():
        if not isinstance(value, str):
            raise ThemeError(f"{where}: variable {key} must be a string")
        if key in GAME_VARIABLES:
            _check_colour(where, key, value)
        variables[key] = value
    theme = Theme(**values, variables=variables)
    return theme, str(label) if label else name


def load_theme_file(path: Path) -> tuple[Theme, str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ThemeError(f"{path.name}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThemeError(f"{path.name}: not valid TOML: {exc}") from None
    return parse_theme(data, path.name)


def load_themes(folder: Path | None = None) -> LoadedThemes:
    """Every valid theme in ``folder`` (default: the shipped themes, then the player's own in the data
    folder's ``themes/``, which may replace a shipped one by name); bad files are reported, not fatal."""
    folders = [THEMES_DIR, user_themes_dir()] if folder is None else [folder]
    themes: dict[str, Theme] = {}
    labels: dict[str, str] = {}
    errors: list[str] = []
    files = [p for f in folders if f.is_dir() for p in sorted(f.glob("*.toml"))]
    for path in files:
        try:
            theme, label = load_theme_file(path)
        except ThemeError as exc:
            errors.append(str(exc))
            continue
        themes[theme.name] = theme
        labels[theme.name] = label
    if DEFAULT_THEME not in themes:
        themes[DEFAULT_THEME] = Theme(name=DEFAULT_THEME, primary="#C8963E", dark=True)
        labels[DEFAULT_THEME] = "Dungeon dark (built in)"
    return LoadedThemes(themes, labels, errors)
