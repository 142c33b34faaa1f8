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


def new_autosave_path() -> Path:
    """A fresh autosave file, this game's own (never another game's)."""
    from mqtui.saves import slots

    return slots.new_autosave_path()


def autosave_path_for(loaded: Path) -> Path:
    """Where a game loaded from ``loaded`` autosaves: the same file if it is an autosave slot (Continue
    goes on where it was), else a fresh one (a named save is never written over, nor is the autosave
    of another game)."""
    from mqtui.saves import slots

    return Path(loaded) if slots.is_autosave(loaded) else slots.new_autosave_path()


def latest_unfinished() -> Path | None:
    """The most recent game in progress, for Continue (finished games are skipped)."""
    from mqtui.saves import slots

    return slots.latest_unfinished()


def keep_finished(store: GameStore, autosave_file: Path | None) -> Path | None:
    """A finished game goes to the history (``saves/finished/``): its autosave file is moved there, or,
    without one, the game is saved there. Returns the file in the history (None if it cannot be)."""
    from mqtui.saves import slots

    if autosave_file is not None and Path(autosave_file).exists():
        try:
            return slots.archive(autosave_file)
        except OSError:
            return None
    try:
        return save_game(store, slots.finished_path_for())
    except SaveFailed:
        return None


def local_game(store: GameStore) -> LocalStore | None:
    """``store`` if it is a game played on this computer (one it can save), else None."""
    from mqtui.store import LocalStore

    return store if isinstance(store, LocalStore) else None


def save_game(store: GameStore, path: Path) -> Path:
    """Save ``store`` to ``path`` now; raises SaveFailed."""
    from mqtui import saves

    local = local_game(store)
    if local is None:
        raise SaveFailed("this game cannot be saved from here")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        local.save(path)
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


def start_autosave(store: GameStore, path: Path) -> bool:
    """Save to ``path`` after every change (on the store's background writer); False if it cannot."""
    from mqtui import saves

    local = local_game(store)
    if local is None:
        return False
    try:
        local.autosave_to(path)
    except (saves.SaveError, OSError):
        return False
    return True


def stop_autosave(store: GameStore) -> None:
    """The final autosave, then stop the writer (quitting or leaving the game)."""
    local = local_game(store)
    if local is not None:
        with contextlib.suppress(Exception):
            local.close()


def end_autosave_writer(store: GameStore) -> None:
    """The app is closing: the store's background writer writes what is pending, then stops (its
    thread would otherwise keep the whole closed app alive: it holds the app's stderr)."""
    local = local_game(store)
    if local is not None:
        with contextlib.suppress(Exception):
            local.autosave_to(None)


def list_saves() -> list[tuple[Path, str, bool]]:
    """Saved games for the load dialog: games in progress, saved by name, then finished ones, newest
    first in each; one line each, and whether the game is finished."""
    from mqtui.saves import slots

    out = []
    for game in slots.list_games():
        entry = game.entry
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.mtime))
        if entry.error:
            what = f"unreadable: {entry.error}"
        elif entry.header is not None:
            what = _short(entry.header.summary)
        else:
            what = ""
        out.append((entry.path, f"{game.state} · {when} · {what}", game.finished))
    return out


def _short(summary: Any) -> str:
    """Where a game stands and the heroes' levels, in one short line for the load dialog."""
    if summary.stage == "over":
        where = f"won by {' and '.join(summary.winners) or 'nobody'} in round {summary.round}"
    elif summary.turn:
        where = f"round {summary.round}, {summary.turn}'s turn"
    else:
        where = "setting up"
    return f"{where} · " + ", ".join(f"{p.name} L{p.level}" for p in summary.players)


def slot_for(name: str) -> Path:
    """The file for a save name typed by the player; raises SaveFailed for a bad name."""
    from mqtui import saves

    try:
        return saves.slot_path(name)
    except saves.SaveError as exc:
        raise SaveFailed(str(exc)) from None
