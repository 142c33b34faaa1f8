"""Where things live: the shipped content, and the user's data folder (overridable for tests)."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def shipped(name: str) -> Path:
    """A folder shipped with the program (``seeds``, ``themes``, ``docs``), found through the package.

    The folders live at the top of the repository; ``mqtui/_data/NAME`` links to them, and a built
    wheel or sdist carries their files there. So an installed copy finds its own content in any
    working folder, and an editable install (``pip install -e .``, ``./play``) sees the repository's.
    """
    path = Path(str(resources.files("mqtui") / "_data" / name))
    if path.is_file():  # the link checked out as a text file (git on Windows without symlinks)
        path = (path.parent / path.read_text(encoding="utf-8").strip()).resolve()
    return path


PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent  # kept for old callers; nothing is looked up here
SEEDS_DIR = Path(os.environ.get("MQTUI_SEEDS") or shipped("seeds"))
BASE_CONTENT_DIR = SEEDS_DIR / "base"
THEMES_DIR = Path(os.environ.get("MQTUI_THEMES") or shipped("themes"))
DOCS_DIR = Path(os.environ.get("MQTUI_DOCS") or shipped("docs"))


def data_dir() -> Path:
    """The user's data folder (saves, settings): $MQTUI_DATA, else the platform's default."""
    env = os.environ.get("MQTUI_DATA")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("mqtui", appauthor=False))


def user_packs_dir() -> Path:
    """Content packs the player adds (one folder each), next to the shipped ``seeds/packs``."""
    return data_dir() / "packs"


def user_themes_dir() -> Path:
    """Themes the player adds (``*.toml``), loaded after the shipped ``themes/``."""
    return data_dir() / "themes"


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
