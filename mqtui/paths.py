"""Where things live: the shipped content, and the user's data folder (overridable for tests)."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
SEEDS_DIR = Path(os.environ.get("MQTUI_SEEDS", PROJECT_DIR / "seeds"))
BASE_CONTENT_DIR = SEEDS_DIR / "base"
THEMES_DIR = Path(os.environ.get("MQTUI_THEMES", PROJECT_DIR / "themes"))
DOCS_DIR = PROJECT_DIR / "docs"


def data_dir() -> Path:
    """The user's data folder (saves, settings): $MQTUI_DATA, else the platform's default."""
    env = os.environ.get("MQTUI_DATA")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("mqtui", appauthor=False))
