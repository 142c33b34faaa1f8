"""User settings, remembered between runs in ``settings.json`` in the data folder."""

from __future__ import annotations

import contextlib
from pathlib import Path

import msgspec

from mqtui.atomic import write_atomic
from mqtui.paths import data_dir
from mqtui.seat_kinds import SeatKind
from mqtui.ui.themes import DEFAULT_THEME

SETTINGS_FILE = "settings.json"
BOT_SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.15, "normal": 0.5, "slow": 1.2}


class Settings(msgspec.Struct, kw_only=True):
    theme: str = DEFAULT_THEME
    bot_delay: float = BOT_SPEEDS["normal"]  # seconds between computer actions
    # seconds before passing in another player's fight when you could play a card (0: always ask);
    # a window in which you can only pass passes at once
    pass_countdown: int = 3
    handoff: bool = True  # hide the hand between human players on one keyboard
    opponents: str = SeatKind.EASY  # the computer players of a new game, until the player picks others
    advisor: bool = True  # offer the advisor (key w, a line in the fight pane)
    # ask before a fight you are very unlikely to win, a card given away, a card played for the other side
    confirm_risky: bool = True
    # binding id to keys ("game.search": "j"), checked by mqtui.ui.keymap before the app uses it
    keymap: dict[str, object] = msgspec.field(default_factory=dict)


def settings_path() -> Path:
    return data_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults when there are none or they cannot be read."""
    path = settings_path() if path is None else path
    try:
        return msgspec.json.decode(path.read_bytes(), type=Settings)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically; failures (read-only folder) are ignored."""
    path = settings_path() if path is None else path
    with contextlib.suppress(OSError):
        write_atomic(path, msgspec.json.format(msgspec.json.encode(settings)))


def speed_name(delay: float) -> str:
    return min(BOT_SPEEDS, key=lambda name: abs(BOT_SPEEDS[name] - delay))
