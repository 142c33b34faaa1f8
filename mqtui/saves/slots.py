"""Where each game's files live: one autosave per game, and a history of finished games.

- Every local game autosaves to its own file, ``saves/autosave-<id>.mqsave`` (``<id>``: when the game
  was first saved and a few random letters), so a new game or a loaded save never replaces another
  game's autosave. An autosave resumed with Continue (or loaded) keeps writing to the same file.
- A finished game moves, with its backups, to ``saves/finished/finished-<id>.mqsave``: it is kept, never
  deleted by the program, and can be replayed.
- :func:`list_games` lists a save folder for ``mqtui saves`` and the load dialog: each game with its
  state (in progress, finished, saved by name, unreadable) and its backups.

Only file names and places are decided here; the files' contents are :mod:`mqtui.saves.codec`'s.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from mqtui.atomic import private_dir
from mqtui.paths import AUTOSAVE_SLOT, saves_dir
from mqtui.saves.files import SaveEntry, backup_path, list_saves
from mqtui.saves.model import SUFFIX

FINISHED = "finished"  # the history folder, under the save folder; also the finished files' prefix
_ID = re.compile(r"[0-9]{8}-[0-9]{6}-[a-z0-9]{4}")

IN_PROGRESS = "in progress"
DONE = "finished"
NAMED = "saved"
UNREADABLE = "unreadable"


def history_dir(folder: Path | None = None) -> Path:
    """Finished games: ``finished/`` in the save folder."""
    return (folder or saves_dir()) / FINISHED


def new_game_id(now: float | None = None) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return f"{stamp}-{''.join(secrets.choice(alphabet) for _ in range(4))}"


def new_autosave_path(folder: Path | None = None) -> Path:
    """A fresh autosave file for a new game (or a game loaded from a named save): no other game's."""
    folder = folder or saves_dir()
    while True:
        path = folder / f"{AUTOSAVE_SLOT}-{new_game_id()}{SUFFIX}"
        if not path.exists() and not history_path(path).exists():
            return path


def is_autosave(path: Path | str, folder: Path | None = None) -> bool:
    """``path`` is an autosave slot in the save folder (so resuming it may keep writing to it)."""
    path = Path(path)
    name = path.name
    if not (name.startswith(AUTOSAVE_SLOT) and name.endswith(SUFFIX)):
        return False
    try:
        return path.resolve().parent == (folder or saves_dir()).resolve()
    except OSError:
        return False


def game_id(path: Path | str) -> str:
    """The id in an autosave's or a finished game's name ("" for the old shared slot or a named save)."""
    stem = Path(path).name[: -len(SUFFIX)] if Path(path).name.endswith(SUFFIX) else Path(path).name
    for prefix in (f"{AUTOSAVE_SLOT}-", f"{FINISHED}-"):
        if stem.startswith(prefix):
            return stem[len(prefix) :]
    return ""


def history_path(autosave: Path | str, folder: Path | None = None) -> Path:
    """Where a finished game's autosave goes: ``finished/finished-<id>.mqsave``."""
    autosave = Path(autosave)
    key = game_id(autosave) or new_game_id(_mtime(autosave))
    return history_dir(folder or autosave.parent) / f"{FINISHED}-{key}{SUFFIX}"


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def backups_of(path: Path) -> list[Path]:
    """The backups of a save that exist (``.1``, ``.2``, ...), newest first."""
    out = []
    i = 1
    while (b := backup_path(path, i)).exists():
        out.append(b)
        i += 1
    return out


def archive(autosave: Path | str) -> Path:
    """Move a finished game's autosave and its backups into the history; returns the new file.

    Nothing is deleted: if the history already holds a file of that name, a new name is chosen."""
    autosave = Path(autosave)
    target = history_path(autosave)
    while target.exists():
        target = target.with_name(f"{FINISHED}-{new_game_id()}{SUFFIX}")
    private_dir(target.parent)
    olds = backups_of(autosave)
    os.replace(autosave, target)
    for i, old in enumerate(olds, 1):
        with contextlib.suppress(OSError):
            os.replace(old, backup_path(target, i))
    return target


def finished_path_for(folder: Path | None = None) -> Path:
    """A new file in the history, for a finished game that had no autosave."""
    return history_dir(folder) / f"{FINISHED}-{new_game_id()}{SUFFIX}"


# -- listing ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    """One saved game in a listing: its file, what state it is in, and its backups."""

    entry: SaveEntry
    state: str  # IN_PROGRESS, DONE, NAMED or UNREADABLE
    backups: list[Path] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.entry.path

    @property
    def finished(self) -> bool:
        return self.state == DONE


def _state_of(entry: SaveEntry, in_history: bool) -> str:
    if entry.error or entry.header is None:
        return UNREADABLE
    if entry.header.summary.stage == "over" or in_history:
        return DONE
    if entry.name.startswith(AUTOSAVE_SLOT):
        return IN_PROGRESS
    return NAMED


def list_games(folder: Path | None = None) -> list[GameEntry]:
    """Every save in the folder and in its history, newest first: games in progress (autosaves), games
    saved by name, then finished games; each with its backups."""
    folder = folder or saves_dir()
    out = []
    for in_history, where in ((False, folder), (True, history_dir(folder))):
        for e in list_saves(where):
            out.append(GameEntry(e, _state_of(e, in_history), backups_of(e.path)))
    order = {IN_PROGRESS: 0, NAMED: 1, DONE: 2, UNREADABLE: 3}
    out.sort(key=lambda g: (order[g.state], -g.entry.mtime, g.entry.name))
    return out


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The most recent game in progress (an autosave whose game is not over; a damaged one counts if
    it has backups, which loading falls back to), or None."""
    games = [
        g
        for g in list_games(folder)
        if g.state == IN_PROGRESS
        or (g.state == UNREADABLE and g.backups and g.entry.name.startswith(AUTOSAVE_SLOT))
    ]
    return max(games, key=lambda g: g.entry.mtime).path if games else None
