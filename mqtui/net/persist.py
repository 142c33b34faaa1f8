"""Saving and resuming a served game.

The game itself is an ordinary save (:mod:`mqtui.saves`, ``.mqsave``): ``mqtui load``, ``check`` and
``replay`` read it, and any save, a local game's too, can be served with ``mqtui serve --load``. What
only the server needs (the game id, the join codes and who owns each seat, so that players come back to
their seats after a restart) goes in a small sidecar file beside it (``NAME.mqsave.net``): a msgpack map
with a magic marker and a format number checked before the rest is decoded, size-capped before reading.

:class:`Saver` is what the authority calls after every accepted action: it encodes the game on the
event loop (tens of microseconds; the action log is encoded incrementally) and hands the bytes to the
save module's writer thread, which coalesces and writes atomically with backups.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from mqtui import saves
from mqtui.engine.actions import Action, Event
from mqtui.engine.defs import Content
from mqtui.engine.game import Engine
from mqtui.engine.state import State
from mqtui.hosting import SaveEncoder, seat_recs
from mqtui.saves import SaveError
from mqtui.saves.autosave import Listener as SaveListener

__all__ = ["SaveError", "Saver", "SeatRec", "ServedGame", "load", "sidecar_path"]

MAGIC = "mqtui-served-game"
FORMAT = 1
MAX_SIDECAR = 256 * 1024
LOG_KEPT = 2000  # log events kept in the save (the UI's scrollback after a restart)


class SeatRec(msgspec.Struct, kw_only=True):
    name: str
    colour: str
    kind: str = "human"
    owner: str = ""  # the identity that claimed the seat ("key:SHA256:...", "code:XXXX")


class ServedGame(msgspec.Struct, kw_only=True):
    """A served game in memory."""

    game: str  # a short id for this game
    content: str  # content version
    packs: list[str] = []  # content packs (names under seeds/packs) on top of the base content
    seats: list[SeatRec]
    state: State
    log: list[Event] = []
    actions: list[Action] = []
    start: State | None = None  # the first state, when the game did not begin at its seed
    codes: dict[str, str] = {}  # join code -> "0".."5", "any" or "watch"
    defs: saves.Defs | None = None  # a loaded game: the content its save carries (saves.engine_of)


class Sidecar(msgspec.Struct, kw_only=True):
    magic: str = MAGIC
    format: int = FORMAT
    game: str = ""
    content: str = ""
    codes: dict[str, str] = {}
    owners: list[str] = []


class _Head(msgspec.Struct):
    magic: str = ""
    format: int = 0


_encoder = msgspec.msgpack.Encoder()
_head = msgspec.msgpack.Decoder(_Head)
_sidecar = msgspec.msgpack.Decoder(Sidecar)


def sidecar_path(path: Path) -> Path:
    return path.with_name(path.name + ".net")


def content_dirs(packs: list[str]) -> list[str]:
    """The content folders for a list of pack names (base first); raises PackError for a missing pack."""
    from mqtui.packs import content_dirs as dirs

    return [str(d) for d in dirs(packs)]


def client_content(engine: Engine, packs: list[str], save_path: Path) -> list[str]:
    """What the players' apps load as content (``--dir``): the installed folders when the game plays
    with the installed content, else the game's own content (a game loaded from a save made before the
    content changed), written beside the save as ``NAME.mqsave.content``."""
    from mqtui.engine.content import ContentError, load_content

    dirs = content_dirs(packs)
    try:
        same = load_content(dirs).version == engine.content.version
    except ContentError:
        same = False
    if same:
        return dirs if packs else []
    return [str(saves.defs.write_defs(engine.content, save_path.with_name(save_path.name + ".content")))]


class Saver:
    """Autosave of one served game: the save and its sidecar, written together by the save module's
    writer thread (which coalesces, and tries again while a write fails). ``listener`` hears each
    attempt with the state number it held and why it failed ("" if it did not)."""

    def __init__(
        self, path: Path, content: Content | None = None, listener: SaveListener | None = None
    ) -> None:
        self.path = path
        self._encoder = SaveEncoder(content, LOG_KEPT)  # with the game's own content
        self._writer = saves.AutoSaver(path, listener=listener)

    def encode(self, g: ServedGame) -> bytes:
        return self._encoder.encode(g.state, g.seats, g.actions, g.log, g.packs, g.start)

    def sidecar(self, g: ServedGame) -> bytes:
        return _encoder.encode(
            Sidecar(game=g.game, content=g.content, codes=g.codes, owners=[s.owner for s in g.seats])
        )

    def submit(self, g: ServedGame, tag: int = 0) -> None:
        """Queue a save of ``g`` (returns at once); the listener hears ``tag`` when it is written."""
        self._writer.submit(self.encode(g), tag, self._side(g))

    def write_now(self, g: ServedGame, tag: int = 0) -> bool:
        """Write the save of ``g`` at once; False if it could not be written."""
        return self._writer.write_now(self.encode(g), tag, self._side(g))

    def _side(self, g: ServedGame) -> tuple[Path, bytes]:
        return sidecar_path(self.path), self.sidecar(g)  # 0600: join codes are secrets

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every submitted save is on disk."""
        return self._writer.flush(timeout)

    @property
    def writes(self) -> int:
        return self._writer.writes

    @property
    def error(self) -> str:
        return self._writer.error

    def close(self) -> None:
        self._writer.close()


def load(path: Path) -> tuple[ServedGame, saves.Header]:
    """Read a save (and its sidecar, if there is one). Raises SaveError. Content is checked later."""
    game, header, _ = recover(path)
    return game, header


def recover(path: Path) -> tuple[ServedGame, saves.Header, str]:
    """:func:`load`, falling back to the save's backups (``.1``, ``.2``) as ``mqtui load`` does; the
    third value says which backup was used and why ("" if the save itself was read). The join codes
    and seat owners come from the sidecar of ``path`` either way."""
    data, used, why = saves.read_with_backups(path)
    note = f"{path.name} could not be read ({why}); resumed from its backup {used.name}" if why else ""
    side = _read_sidecar(sidecar_path(path))
    owners = side.owners if side is not None and len(side.owners) == len(data.seats) else []
    seats = [
        SeatRec(name=s.name, colour=s.colour, kind=s.kind, owner=owners[i] if owners else "")
        for i, s in enumerate(data.seats)
    ]
    game = ServedGame(
        game=side.game if side is not None and side.game else path.stem.removeprefix("served-")[:16],
        content=data.header.content,
        packs=list(data.header.packs),
        seats=seats,
        state=data.state,
        log=data.log,
        actions=data.actions,
        start=data.start,
        codes=dict(side.codes) if side is not None else {},
        defs=data.defs,
    )
    return game, data.header, note


def open_game(path: Path) -> tuple[ServedGame, Engine, str]:
    """A served game to resume from ``path`` (or its backups, see :func:`recover`), checked against the
    content it began with (the save carries it): the game, its engine and the note of :func:`recover`.
    Raises SaveError (or the content's errors)."""
    game, _, note = recover(path)
    data = to_save_data(game)
    engine = saves.engine_of(data)
    saves.validate(data, engine)
    return game, engine, note


def to_save_data(g: ServedGame) -> saves.SaveData:
    """The game as the save module's value (for validation and replay checks)."""
    seats = seat_recs(g.seats)
    return saves.SaveData(
        header=saves.make_header(g.state, seats, len(g.actions), g.packs),
        seed=g.state.seed,
        seats=seats,
        actions=g.actions,
        state=g.state,
        start=g.start,
        log=g.log,
        defs=g.defs,
    )


def _read_sidecar(path: Path) -> Sidecar | None:
    try:
        if path.stat().st_size > MAX_SIDECAR:
            raise SaveError(f"{path}: too large for a served-game file")
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        head = _head.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise SaveError(f"{path}: not a served-game file") from None
    if head.magic != MAGIC:
        raise SaveError(f"{path}: not a served-game file")
    if head.format > FORMAT:
        raise SaveError(f"{path}: written by a newer mqtui (format {head.format})")
    try:
        return _sidecar.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SaveError(f"{path}: damaged: {exc}") from None
