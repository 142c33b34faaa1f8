"""Many tables on one host: what the lobby lists, creates and seats people at.

Each table is an ordinary served game (an :class:`~mqtui.net.authority.Authority`) saved as it goes in
the host's tables folder (``DATA/tables/GAME.mqsave`` with its ``.net`` sidecar of join codes and seat
owners), so every table comes back when the host restarts. A table lives until it is

- **finished**: the game is over and nobody has been connected to it for ``finished_keep`` seconds
  (default 5 minutes: the players can read the end), or
- **abandoned**: no player (spectators do not count) has been connected for ``idle`` seconds
  (default 1 hour; counted from the host's start for tables loaded after a restart).

Then it is closed and its files move to ``DATA/tables/ended/``, where ``mqtui load``/``replay`` still
read them; the lobby no longer lists it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqtui import saves
from mqtui.engine.content import ContentError, load_content
from mqtui.engine.game import Engine
from mqtui.engine.state import STAGE_OVER
from mqtui.net import persist
from mqtui.net.authority import Authority
from mqtui.net.identity import SPECTATOR, Claim, KeyTable, normalise_code
from mqtui.net.lobbyproto import TableInfo
from mqtui.net.table import TableConfig
from mqtui.packs import PackError

log = logging.getLogger("mqtui.net")

IDLE = 3600.0  # no player connected this long: the table is abandoned
FINISHED_KEEP = 300.0  # a finished table stays listed this long after its last visitor left
MAX_TABLES = 20
PER_ADDRESS = 2  # open tables one address may have created (a visitor cannot fill the host alone)
REAP_EVERY = 15.0


def is_over(a: Authority) -> bool:
    return bool(a.state.stage == STAGE_OVER)


@dataclass
class Tables:
    """The tables of one host."""

    folder: Path
    config: TableConfig = field(default_factory=TableConfig)
    idle: float = IDLE
    finished_keep: float = FINISHED_KEEP
    max_tables: int = MAX_TABLES
    per_address: int = PER_ADDRESS
    _creators: dict[str, str] = field(default_factory=dict)  # table -> address of its creator
    tables: dict[str, Authority] = field(default_factory=dict)
    _engines: dict[tuple[str, ...], Engine] = field(default_factory=dict)
    _quiet_since: dict[str, float] = field(default_factory=dict)
    _reaper: asyncio.Task[None] | None = None

    # -- content --------------------------------------------------------------------------------------

    def engine(self, packs: Sequence[str] = ()) -> Engine:
        key = tuple(packs)
        if key not in self._engines:
            self._engines[key] = Engine(load_content(persist.content_dirs(list(key))))
        return self._engines[key]

    @staticmethod
    def available_packs() -> list[str]:
        from mqtui import packs

        return sorted(p.name for p in packs.available())

    # -- life -----------------------------------------------------------------------------------------

    async def load_all(self) -> list[str]:
        """Open every saved table of the folder; one line per table that could not be opened."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            self.folder.chmod(0o700)
        problems: list[str] = []
        for path in sorted(self.folder.glob("*.mqsave")):
            try:
                game, engine, note = persist.open_game(path)  # falls back to its backups, keeping codes
                a = Authority(engine, game, path, self.config, self._keys(path))
            except (saves.SaveError, ValueError, ContentError) as exc:
                problems.append(f"{path.name}: {exc}")
                continue
            if note:
                log.warning("table %s: %s", a.game.game, note)
            await self._open(a)
        return problems

    async def start(self) -> None:
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    async def create(
        self, seats: list[persist.SeatRec], seed: int, packs: Sequence[str], creator: str = ""
    ) -> Authority:
        if len(self.tables) >= self.max_tables:
            raise ValueError(f"this host already has {self.max_tables} tables; join one or try later")
        mine = [t for t, who in self._creators.items() if who == creator and t in self.tables]
        if creator and len(mine) >= self.per_address:
            raise ValueError(
                f"you already started {len(mine)} open tables here ({', '.join(mine)}); join one"
            )
        unknown = [p for p in packs if p not in self.available_packs()]
        if unknown:
            raise ValueError(f"no content pack {unknown[0]!r} here")
        try:
            engine = self.engine(packs)
        except (ContentError, PackError) as exc:
            raise ValueError(f"this host cannot load that content: {str(exc).splitlines()[0]}") from None
        a = Authority.new(engine, seats, seed, None, self.config, packs=list(packs))
        path = self.folder / f"{a.game.game}.mqsave"
        a.keys = self._keys(path)
        a.save_to(path)
        await self._open(a)
        why = await a.durable.settled() if a.durable is not None else ""
        if why:  # write before tell: a table that is not on disk is nobody's to sit at
            log.error("table %s not created: %s", a.game.game, why)
            self.tables.pop(a.game.game, None)
            self._quiet_since.pop(a.game.game, None)
            await a.close("this table could not be saved")
            raise ValueError("the host cannot save a new table right now; try again in a minute")
        if creator:
            self._creators[a.game.game] = creator
        log.info("table %s created: %s", a.game.game, ", ".join(f"{s.name} ({s.kind})" for s in seats))
        return a

    async def _open(self, a: Authority) -> None:
        await a.start()
        self.tables[a.game.game] = a
        self._quiet_since[a.game.game] = time.monotonic()

    @staticmethod
    def _keys(path: Path) -> KeyTable:
        return KeyTable(path.with_name(path.stem + ".keys"))

    async def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        await asyncio.gather(*(a.close() for a in self.tables.values()), return_exceptions=True)

    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(REAP_EVERY)
            try:
                await self.reap()
            except Exception:
                log.exception("reaping tables failed")

    async def reap(self, now: float | None = None) -> list[str]:
        """Close the finished and abandoned tables; their ids."""
        now = time.monotonic() if now is None else now
        gone: list[str] = []
        for tid, a in list(self.tables.items()):
            over = is_over(a)
            busy = bool(a.conns) if over else a.anyone_here()
            if busy:
                self._quiet_since[tid] = now
                continue
            quiet = now - self._quiet_since.setdefault(tid, now)
            limit = self.finished_keep if over else self.idle
            if limit > 0 and quiet >= limit:
                why = "finished" if over else f"abandoned ({limit:g} s without a player)"
                await self.retire(tid, why)
                gone.append(tid)
        return gone

    async def retire(self, tid: str, why: str, told: str = "") -> None:
        """End table ``tid`` (``why``, for the log; ``told``: what its players read, if not that)."""
        a = self.tables.pop(tid)
        self._quiet_since.pop(tid, None)
        self._creators.pop(tid, None)
        await a.close(told or f"this table has ended: {why}")
        if a.save_path is not None:
            ended = self.folder / "ended"
            ended.mkdir(exist_ok=True, mode=0o700)
            for f in self.folder.glob(a.save_path.name + "*"):
                with contextlib.suppress(OSError):
                    f.replace(ended / f.name)
            keys = a.save_path.with_name(a.save_path.stem + ".keys")
            with contextlib.suppress(OSError):
                keys.replace(ended / keys.name)
        log.info("table %s closed: %s", tid, why)

    # -- who sits where -------------------------------------------------------------------------------

    def find_code(self, text: str) -> tuple[Authority, Claim] | None:
        """The table and claim of a join code of any table."""
        code = normalise_code(text)
        if not code:
            return None
        for a in self.tables.values():
            if code in a.game.codes:
                claim = a.claim_for_code(code)
                if claim is not None:
                    return a, claim
        return None

    def find_key(self, key: Any) -> tuple[Authority, Claim] | None:
        """A key listed in a table's keys file, or the owner of exactly one seat at an unfinished table."""
        for a in self.tables.values():
            claim = a.keys.lookup(key)
            if claim is not None:
                return a, claim
        identity = "key:" + str(key.get_fingerprint())
        owned = [
            (a, seat)
            for a in self.tables.values()
            if not is_over(a) and (seat := a.owned_seat(identity)) is not None
        ]
        if len(owned) == 1:
            a, seat = owned[0]
            return a, Claim(seat, identity, "returning key")
        return None

    def infos(self, identity: str = "") -> list[TableInfo]:
        out = []
        for tid, a in self.tables.items():
            owned = a.owned_seat(identity) if identity else None
            out.append(
                TableInfo(
                    id=tid,
                    seats=a.seat_infos(),
                    open=[] if is_over(a) else [i for i, s in enumerate(a.slots) if s.human and not s.owner],
                    round=int(a.state.round),
                    over=is_over(a),
                    spectators=len(a.spectators),
                    packs=list(a.game.packs),
                    mine=-1 if owned is None else owned,
                )
            )
        out.sort(key=lambda t: (t.over, not t.open, t.id))
        return out

    def take(self, tid: str, seat: int, identity: str, label: str) -> tuple[Authority, Claim]:
        """Seat ``identity`` at ``seat`` of table ``tid`` (SPECTATOR to watch). Raises ValueError."""
        a = self.tables.get(tid)
        if a is None:
            raise ValueError(f"there is no table {tid} (any more)")
        if seat == SPECTATOR:
            return a, Claim(SPECTATOR, identity, label)
        if is_over(a):
            raise ValueError(f"the game at table {tid} is over; you can watch it")
        result = a.resolve(Claim(None, identity, label), seat)
        if isinstance(result, str):
            raise ValueError(result)
        a.reserve(result, identity)
        return a, Claim(result, identity, label)


def visitor_identity() -> str:
    """A visitor signed in without a key: someone new each time (a seat's code brings them back)."""
    return "visitor:" + secrets.token_hex(6)
