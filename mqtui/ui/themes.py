"""Themes as data: ``themes/*.toml`` files loaded into Textual :class:`~textual.theme.Theme` values.

Textual's ``Theme`` is a plain dataclass with no file loader, so this module decodes the files into
msgspec Structs (:class:`ThemeFile`: known keys only, the right types, numbers in range) and then
checks that every colour, and every game colour variable, parses as a colour.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import msgspec
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
Fraction = Annotated[float, msgspec.Meta(ge=0, le=1)]


class ThemeTable(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The ``[theme]`` table: Textual's Theme fields, and a label for menus."""

    name: str
    label: str = ""
    primary: str
    secondary: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    dark: bool = True
    luminosity_spread: Fraction = 0.15
    text_alpha: Fraction = 0.95
    ansi: bool = False


class ThemeFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    theme: ThemeTable
    variables: dict[str, str] = {}  # CSS variables; the game's own (GAME_VARIABLES) must be colours


class ThemeError(ValueError):
    """A theme file is not valid; the message says which file and why."""


@dataclass(frozen=True)
class LoadedThemes:
    themes: dict[str, Theme]
    labels: dict[str, str]  # theme name -> label for menus
    errors: list[str]  # one line per file that could not be loaded


def _check_colour(where: str, key: str, value: str) -> None:
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeError(f"{where}: {key} = {value!r} is not a colour") from None


def parse_theme(data: dict[str, object], where: str = "theme") -> tuple[Theme, str]:
    """Build a Theme (and its label) from the decoded TOML of one theme file; raises ThemeError."""
    try:
        file = msgspec.convert(data, ThemeFile)
    except msgspec.ValidationError as exc:
        from mqtui.engine.decode import problem  # only for the words: no engine module at start-up

        field, message = problem(exc, ThemeFile, data)
        raise ThemeError(f"{where}: {field}: {message}" if field else f"{where}: {message}") from None
    table = file.theme
    if not table.name.strip():
        raise ThemeError(f"{where}: theme.name: must not be empty")
    values = msgspec.structs.asdict(table)
    label = values.pop("label")
    for key in _COLOUR_FIELDS:
        if values[key] is not None:
            _check_colour(where, f"theme.{key}", values[key])
    for key, value in file.variables.items():
        if key in GAME_VARIABLES:
            _check_colour(where, f"variables.{key}", value)
    theme = Theme(**values, variables=dict(file.variables))
    return theme, label or table.name


# Decoded theme files, by path, modification time and size: every app (each UI test, each SSH
# session) loads the themes, and a file that has not changed need not be decoded again.
_DECODED: dict[tuple[str, int, int], dict[str, object]] = {}


def _decoded(path: Path) -> dict[str, object]:
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    data = _DECODED.get(key)
    if data is None:
        data = _DECODED[key] = tomllib.loads(path.read_text(encoding="utf-8"))
    return data


def load_theme_file(path: Path) -> tuple[Theme, str]:
    try:
        data = _decoded(path)
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
