"""Saving and loading local games from the app, through the store and :mod:`mqtui.saves`.

The store owns the format: ``store.save(path)``, ``store.autosave_to(path)`` (a background writer
that saves after every change), ``store.autosave()`` and ``LocalStore.load(path, engine)``. This
module only adds the app's conveniences: names typed by a player, the list for the load dialog, and
tolerance of stores that cannot save (a networked game is saved by its server).

The save machinery (:mod:`mqtui.saves`, the store, the engine) is imported when first needed, so the
title screen can ask :func:`latest_autosave` without loading it.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mqtui import paths
from mqtui.paths import latest_autosave as latest_autosave  # (re-exported for the screens)
from mqtui.paths import saves_dir as saves_dir

if TYPE_CHECKING:
    from mqtui.store import GameStore, LocalStore

SUFFIX = paths.SAVE_SUFFIX


class SaveFailed(Exception):
    """The game could not be saved or loaded; the message says why (one line)."""


def autosave_path() -> Path:
    from mqtui import saves

    return saves.autosave_path()


def can_save(store: GameStore) -> bool:
    return callable(getattr(store, "save", None))


def save_game(store: GameStore, path: Path) -> Path:
    """Save ``store`` to ``path`` now; raises SaveFailed."""
    from mqtui import saves

    save = getattr(store, "save", None)
    if not callable(save):
        raise SaveFailed("this game cannot be saved from here")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        save(path)
    except (saves.SaveError, OSError) as exc:
        raise SaveFailed(str(exc)) from None
    return Path(path)


def load_game(path: Path, bot_delay: float = 0.4) -> LocalStore:
    """Open a saved game as a local store; raises SaveFailed."""
    from mqtui import saves
    from mqtui.store import LocalStore

    try:
        return LocalStore.load(path, engine_for_save(path), bot_delay=bot_delay)
    except saves.SaveError as exc:
        raise SaveFailed(str(exc)) from None
    except OSError as exc:
        raise SaveFailed(f"cannot read {path}: {exc.strerror or exc}") from None


def engine_for_save(path: Path) -> Any:
    """The engine for a save's packs (the base content if its header cannot be read: the load then
    says why). Raises SaveError naming a pack the save needs that is not installed here."""
    from mqtui import saves
    from mqtui.packs import PackError, missing_pack
    from mqtui.ui.session import engine

    try:
        packs = saves.read_header(path)[1].packs
    except (saves.SaveError, OSError):
        packs = []
    why = missing_pack(packs)
    if why:
        raise saves.SaveError(why)
    try:
        return engine(packs)
    except PackError as exc:
        raise saves.SaveError(str(exc)) from None


def start_autosave(store: GameStore, path: Path | None = None) -> bool:
    """Save after every change (on the store's background writer); False if the store cannot."""
    from mqtui import saves

    hook: Any = getattr(store, "autosave_to", None)
    if not callable(hook):
        return False
    try:
        hook(path or autosave_path())
    except (saves.SaveError, OSError):
        return False
    return True


def autosave(store: GameStore) -> Path | None:
    """Save now where "Continue" finds it; None if it cannot be saved."""
    from mqtui import saves

    hook: Any = getattr(store, "autosave", None)
    if callable(hook):
        with contextlib.suppress(saves.SaveError, OSError):
            result = hook()
            return Path(result) if isinstance(result, str | Path) else autosave_path()
        return None
    if not can_save(store):
        return None
    try:
        return save_game(store, autosave_path())
    except SaveFailed:
        return None


def stop_autosave(store: GameStore) -> None:
    """The final autosave, then stop the writer (quitting or leaving the game)."""
    close: Any = getattr(store, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()


def list_saves() -> list[tuple[Path, str]]:
    """Saved games, newest first, with one line each for the load dialog."""
    from mqtui import saves

    out = []
    for entry in saves.list_saves():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.mtime))
        if entry.error:
            what = f"unreadable: {entry.error}"
        elif entry.header is not None:
            what = saves.describe(entry.header.summary)
        else:
            what = ""
        out.append((entry.path, f"{when} · {what}"))
    return out


def slot_for(name: str) -> Path:
    """The file for a save name typed by the player; raises SaveFailed for a bad name."""
    from mqtui import saves

    try:
        return saves.slot_path(name)
    except saves.SaveError as exc:
        raise SaveFailed(str(exc)) from None
