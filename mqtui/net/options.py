"""What ``mqtui serve`` was asked to do (its options), the error it reports in one line, and the setup
every host shares (its log, and stopping on a signal).

Apart from :mod:`mqtui.net.serve` so that the lobby host (:mod:`mqtui.net.lobby`), which ``serve`` starts,
needs nothing of ``serve`` itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from mqtui.net.contain import Containment
from mqtui.net.limits import Limits

if TYPE_CHECKING:
    import asyncio

    from mqtui.net.table import TableConfig

# asyncio and logging are imported where they are used: every ``mqtui`` command builds ``serve``'s
# options from ServeOptions' defaults, and needs neither (asyncio alone is ~35 ms of each start)


class FrontDoor(Protocol):
    """Another way in beside SSH, started with the host (the browsers': ``mqtui.net.web.WebHost``)."""

    def banner(self, addr: str) -> str: ...

    async def close(self) -> None: ...


OpensDoor = Callable[[Any, "ServeOptions"], Awaitable[FrontDoor | None]]
"""What starts a front door for a host (an SSH host) and the options (None: not asked for)."""


class ServeError(Exception):
    """A problem with the options or the files: reported in one line."""


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 2222
    new: str | None = None
    load: str | None = None
    seed: int = 0
    save: str | None = None
    keys: str | None = None
    packs: list[str] = field(default_factory=list)
    timeout: float = 60.0
    turn_timeout: float = 0.0
    abandon: float = 300.0
    bot_delay: float = 0.6
    rate: float = 20.0
    socket: str | None = None
    ssh: bool = True
    local_seat: int | None = None
    app: str = "auto"
    name: str = ""  # lobby mode: the host's name, shown to visitors
    tables: str | None = None  # lobby mode: the tables folder (default DATA/tables)
    idle: float = 3600.0  # lobby mode: a table without players this long is abandoned
    max_tables: int = 20
    fork: bool = True  # session apps forked from a pre-imported parent (net.forkserver)
    print_codes: bool | None = None  # the banner shows the join codes (None: only to a terminal)
    admin_socket: str | None = None  # mqtui admin's socket (None: DATA/admin.sock)
    limits: Limits = field(default_factory=Limits)  # by kind, per host and per table (net.limits)
    contain: Containment = field(default_factory=Containment)  # each session app's limits (net.contain)
    motd: str | None = None  # a file holding the message of the day, shown at sign-in
    metrics: str | None = None  # [ADDR:]PORT of GET /metrics (Prometheus) and /health (JSON); loopback
    log_file: str | None = None  # the host's log goes to this file, rotated (None: standard output)
    log_max_bytes: int = 10 * 1024 * 1024  # rotated at this size...
    log_backups: int = 5  # ...keeping this many old files
    web: str = ""  # browsers too, at [ADDR:]PORT (net.web); "" : SSH only
    public_url: str = ""  # the address browsers use, behind a reverse proxy (net.web)

    def table_config(self) -> TableConfig:
        """The settings every table of this host plays by (timeouts, pacing, the action rate)."""
        from mqtui.net.table import TableConfig

        return TableConfig(
            timeout=self.timeout,
            turn_timeout=self.turn_timeout,
            abandon=self.abandon,
            bot_delay=self.bot_delay,
            rate=self.rate,
            burst=max(40.0, 2 * self.rate),
        )


def show_codes(opts: ServeOptions, out: TextIO) -> bool:
    """Whether the banner shows the join codes: when asked (``--print-codes``), else only to a terminal
    (not to a service manager's journal or a log file)."""
    if opts.print_codes is not None:
        return opts.print_codes
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def write_codes(path: Path, text: str) -> None:
    """The join codes, for the host's user only (0600, written atomically)."""
    from mqtui.atomic import write_atomic

    write_atomic(path, (text.rstrip("\n") + "\n").encode())


def host_log(out: TextIO, opts: ServeOptions | None = None) -> Callable[[], None]:
    """Send the host's log (``mqtui.net``, INFO and up) to ``out``, or with ``opts.log_file`` to that
    file, rotated by size (``opts.log_max_bytes``, ``opts.log_backups`` old files kept, mode 0600);
    one line per event (a traceback's lines are joined). Returns the undo."""
    import logging

    from mqtui.net.logline import OneLine, PrivateRotatingFile

    handler: logging.Handler
    if opts is not None and opts.log_file:
        handler = PrivateRotatingFile(
            opts.log_file, maxBytes=opts.log_max_bytes, backupCount=opts.log_backups, encoding="utf-8"
        )
        handler.setFormatter(OneLine("%(asctime)s %(levelname)s %(message)s"))
    else:
        handler = logging.StreamHandler(out)
        handler.setFormatter(OneLine("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("mqtui.net")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False

    def undo() -> None:
        logger.removeHandler(handler)
        handler.close()

    return undo


def stop_on_signals() -> asyncio.Event:
    """An event that SIGINT and SIGTERM set (where the running loop can take signal handlers)."""
    import asyncio
    import contextlib
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop
