"""Who may sit where: join codes and the per-game keys file.

A *claim* says which seat a connection gets: one seat, ``SPECTATOR`` (watch only) or ``None`` (the
player picks a free seat). Claims come from

- a **join code** the host hands out (one per seat, one "table" code that lets the player pick a free
  seat, and one watch code), typed as the SSH user name ``code-XXXXXX`` or at the ``Join code:``
  prompt; or
- a **public key** listed in the game's keys file, an authorised-keys style text file::

      # SEAT   KEY TYPE     KEY                     COMMENT
      0        ssh-ed25519  AAAAC3NzaC1lZDI1NTE5... ann@laptop
      seat=1   ssh-rsa      AAAAB3NzaC1yc2EAAAA...  bob
      any      ssh-ed25519  AAAAC3NzaC1lZDI1NTE5... carol (picks a free seat)
      watch    ssh-ed25519  AAAAC3NzaC1lZDI1NTE5... dan (spectator)

The file is read again whenever it changes, so the host can add a key while the game runs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPECTATOR = -1
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
ANY = "any"
WATCH = "watch"


@dataclass(frozen=True)
class Claim:
    seat: int | None  # a seat, SPECTATOR, or None: the player picks
    identity: str  # stable across reconnections: "key:SHA256:...", "code:XXXXXX"
    label: str  # for the server's log
    table: str = ""  # on a host of many tables: which one ("" on a single-table host, or for the lobby)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """``code-abc123``, ``ABC-123`` and `` abc123 `` all mean ``ABC123``."""
    t = text.strip().upper()
    if t.startswith("CODE-"):
        t = t[5:]
    return "".join(ch for ch in t if ch.isalnum())


def parse_seat_spec(token: str) -> int | str:
    """``0``, ``seat=0``, ``any``, ``watch`` -> 0, 0, "any", "watch"; ValueError otherwise."""
    t = token.strip().lower()
    if t.startswith("seat="):
        t = t[5:]
    if t in (ANY, WATCH):
        return t
    seat = int(t)
    if not 0 <= seat <= 5:
        raise ValueError(f"seat {seat} is out of range")
    return seat


def code_label(spec: str) -> str:
    """How the log names a sign-in with a join code: never by the code itself (codes are passwords)."""
    return {ANY: "the any-seat code", WATCH: "the watch code"}.get(spec, f"seat {spec}'s code")


def shown_identity(identity: str) -> str:
    """An identity as the log may show it: a join code's is masked (``code:XXXX`` -> ``a join code``)."""
    return "a join code" if identity.startswith("code:") else identity


def claim_for_spec(spec: str, identity: str, label: str) -> Claim:
    """A claim from a stored code target: "0".."5", "any" or "watch"."""
    if spec == WATCH:
        return Claim(SPECTATOR, identity, label)
    if spec == ANY:
        return Claim(None, identity, label)
    return Claim(int(spec), identity, label)


@dataclass(frozen=True)
class KeyEntry:
    target: int | str  # a seat, "any" or "watch"
    data: bytes  # the public key blob
    comment: str
    line: int


class KeyTable:
    """The keys file of one game; reloaded when it changes on disk."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self.entries: list[KeyEntry] = []
        self.errors: list[str] = []
        self.reload()

    def reload(self) -> None:
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except OSError:
            self.entries, self.errors, self._stamp = [], [], None
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return
        self._stamp = stamp
        self.entries, self.errors = parse_keys(self.path.read_text(encoding="utf-8", errors="replace"))

    def has_keys(self) -> bool:
        self.reload()
        return bool(self.entries)

    def lookup(self, key: Any) -> Claim | None:
        """The claim for an asyncssh public key, or None if the key is not listed."""
        self.reload()
        data = bytes(key.public_data)
        for entry in self.entries:
            if entry.data == data:
                identity = "key:" + str(key.get_fingerprint())
                label = f"key {entry.comment or key.get_fingerprint()}"
                if entry.target == WATCH:
                    return Claim(SPECTATOR, identity, label)
                if entry.target == ANY:
                    return Claim(None, identity, label)
                assert isinstance(entry.target, int)
                return Claim(entry.target, identity, label)
        return None


def parse_keys(text: str) -> tuple[list[KeyEntry], list[str]]:
    """Parse a keys file; bad lines are reported and skipped."""
    import asyncssh

    entries: list[KeyEntry] = []
    errors: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 3)
        if len(parts) < 3:
            errors.append(f"line {number}: expected 'SEAT KEYTYPE KEY [COMMENT]'")
            continue
        try:
            target = parse_seat_spec(parts[0])
        except ValueError:
            errors.append(f"line {number}: {parts[0]!r} is not a seat (0-5, any or watch)")
            continue
        try:
            key = asyncssh.import_public_key(f"{parts[1]} {parts[2]}")
        except (asyncssh.KeyImportError, ValueError) as exc:
            errors.append(f"line {number}: not a public key ({exc})")
            continue
        comment = parts[3].strip() if len(parts) > 3 else ""
        entries.append(KeyEntry(target, bytes(key.public_data), comment, number))
    return entries, errors
