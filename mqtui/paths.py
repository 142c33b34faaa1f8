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


# Save file naming: here rather than in mqtui.saves so that the title screen can look for a game to
# continue without importing the save machinery (mqtui.saves re-exports these).
SAVE_SUFFIX = ".mqsave"
AUTOSAVE_SLOT = "autosave"


def saves_dir() -> Path:
    """The user's save folder: ``data_dir()/saves`` ($MQTUI_DATA or ``--data-dir`` move it)."""
    return data_dir() / "saves"


def latest_autosave(folder: Path | None = None) -> Path | None:
    """The newest autosave (``autosave*.mqsave``) in ``folder`` (default: the save folder), or None."""
    found = []
    for p in (folder or saves_dir()).glob(f"{AUTOSAVE_SLOT}*{SAVE_SUFFIX}"):
        try:
            found.append((p.stat().st_mtime, p))
        except OSError:
            continue
    return max(found)[1] if found else None
