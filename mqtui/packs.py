"""Content packs by name: the shipped ones (``seeds/packs``) and the player's own (``DATA/packs``).

A pack is a content folder layered on the base (see ``docs/content.md``); its *name* is its folder's
name, which is what ``--pack NAME`` takes and what a save records. A shipped pack wins over a player's
folder of the same name. A pack that does not load on the base is *broken*: it is listed with its
errors (file and entry) and left out of every game, never fatal.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mqtui import paths

if TYPE_CHECKING:
    from mqtui.engine.game import Engine


class PackError(Exception):
    """A pack that is not installed or does not load; the message is one line."""


@dataclass(frozen=True)
class Pack:
    name: str  # the folder's name: what --pack and saves use
    path: Path
    title: str = ""  # pack.toml's name (else the folder's)
    description: str = ""
    user: bool = False  # in the player's data folder rather than shipped
    errors: tuple[str, ...] = field(default=(), compare=False)  # empty: it loads on the base

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def label(self) -> str:
        return self.title or self.name


def _folders() -> dict[str, tuple[Path, bool]]:
    """Pack folders by name: the shipped ones, then the player's whose names are not taken."""
    out: dict[str, tuple[Path, bool]] = {}
    for root, user in ((paths.SEEDS_DIR / "packs", False), (paths.user_packs_dir(), True)):
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir()):
            if folder.is_dir() and not folder.name.startswith(".") and folder.name not in out:
                out[folder.name] = (folder, user)
    return out


def scan() -> list[Pack]:
    """Every pack folder, checked against the base content (broken ones carry their errors)."""
    from mqtui.engine.content import ContentError, load_content, pack_info

    out = []
    for name, (folder, user) in _folders().items():
        try:
            info = pack_info(folder)
            load_content([paths.BASE_CONTENT_DIR, folder])
        except ContentError as exc:
            out.append(Pack(name, folder, user=user, errors=tuple(exc.errors)))
            continue
        title, text = (info.name, info.description) if info else ("", "")
        out.append(Pack(name, folder, title, text, user))
    return out


def available() -> list[Pack]:
    """The packs a game can use (those that load)."""
    return [p for p in scan() if p.ok]


# Shipped packs renamed since a release, old name -> new: saves record the old name (issue 17 took the
# shipped pack's name away from the publisher's product).
RENAMED = {"looking-for-trouble": "standing-room-only"}


def find(name: str) -> Path | None:
    """The folder of the pack ``name`` (or of the shipped pack it was renamed to), or None."""
    if not name or Path(name).name != name:
        return None
    folders = _folders()
    found = folders.get(name) or folders.get(RENAMED.get(name, ""))
    return found[0] if found else None


def missing_pack(names: Iterable[str]) -> str | None:
    """Why a save made with the packs ``names`` cannot be opened here (one line), or None if it can.

    The one place that decides this for saves (``mqtui load``, Continue, ``check``, ``replay``, served
    games); saves that carry their content's definitions may relax it."""
    for name in names:
        if find(name) is None:
            return f"this save needs the content pack {name!r}, which is not installed here"
    return None


def content_dirs(names: Sequence[str]) -> list[Path]:
    """The content folders of a game with the packs ``names``: the base, then each pack in order."""
    out = [paths.BASE_CONTENT_DIR]
    for name in names:
        folder = find(name)
        if folder is None:
            have = ", ".join(_folders()) or "none"
            raise PackError(f"no content pack {name!r} is installed (installed: {have})")
        out.append(folder)
    return out


def engine_for(names: Sequence[str] = ()) -> Engine:
    """An engine for the base content plus the packs ``names``; raises PackError. The folders are
    looked up each time; an engine is made once per content (its files' hash)."""
    from mqtui.engine.content import ContentError, load_content

    if len(set(names)) != len(names):
        raise PackError("a pack is named twice")
    dirs = content_dirs(names)
    try:
        content = load_content(dirs)
    except ContentError as exc:
        raise PackError(f"the content pack cannot be used: {exc.errors[0] if exc.errors else exc}") from None
    return _engine(content.version, tuple(dirs))


@functools.lru_cache(maxsize=8)
def _engine(version: str, dirs: tuple[Path, ...]) -> Engine:
    from mqtui.engine.content import load_content
    from mqtui.engine.game import Engine

    del version  # only part of the cache key
    return Engine(load_content(dirs))


def describe(names: Sequence[str]) -> str:
    """The packs of a game for a screen: "Standing Room Only, My Pack" ("" for the base game)."""
    if not names:
        return ""
    titles = {p.name: p.label for p in scan()}
    return ", ".join(titles.get(n) or titles.get(RENAMED.get(n, ""), n) for n in names)


def game_packs(store: object) -> tuple[str, ...]:
    """The packs (names) a game's store plays with; () for the base game or a store that does not say."""
    packs = getattr(store, "packs", ())
    return tuple(packs) if isinstance(packs, Sequence) and not isinstance(packs, str) else ()
