"""The program behind one networked seat (started as ``python -m mqtui.cli.seatapp``, which picks the app).

The SSH server starts one of these per session, in a pseudo-terminal of its own that becomes the
process's controlling terminal (so window-size changes reach the app), with one end of a socket pair
(``--fd``) already bound to the player's seat. It can also join a server's Unix socket with a join
code (``--socket PATH --code CODE``), which is how a host plays from another terminal of the same
machine. The content is loaded here and must be the same version as the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from mqtui.engine.game import Engine
    from mqtui.net.netstore import NetStore
    from mqtui.store import GameStore

AppFactory = Callable[["GameStore", bool], "App[None]"]
"""A seat's app for its store; with True, its served form (see mqtui.cli.seatapp)."""


def take_terminal() -> None:
    """Make stdin's terminal this process's controlling terminal (we lead a new session)."""
    if not os.isatty(0):
        return
    import fcntl
    import termios

    with contextlib.suppress(OSError):
        os.setsid()
    with contextlib.suppress(OSError):
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def make_app(store: GameStore, factory: AppFactory, remote: bool = False) -> App[None]:
    """The seat's app from ``factory``; with ``remote`` (a served session), its served form (game commands
    only: :class:`mqtui.net.remote_app.RemoteApp`). Its terminal input sleeps until a key comes and stops
    at once (:class:`~mqtui.net.remote_app.SessionDriver`, a served app's driver, and here also that of
    the host's own seat: the host's quit, which stops the server, is not held up by its input thread)."""
    from mqtui.net.remote_app import RemoteApp, use_session_driver

    app = factory(store, remote)
    if remote and not isinstance(app, RemoteApp):
        raise TypeError(f"{type(app).__name__} is not an app to serve: it has no allow lists")
    use_session_driver(app)
    return app


async def run_app(
    store: NetStore, factory: AppFactory, remote: bool = False, heartbeat: float | None = None
) -> int:
    """Run the app on this process's terminal until the player quits or the server goes away.
    ``heartbeat``: seconds between a remote app's pings (default ``sessionguard.HEARTBEAT``)."""
    app = make_app(store, factory, remote)

    async def watch() -> None:
        await store.closed.wait()
        app.exit(return_code=3, message=f"mqtui: {store.close_reason}")

    async def pings() -> None:
        """A served session's app pings while its event loop runs: the server ends one that falls silent."""
        from mqtui.net.sessionguard import HEARTBEAT

        every = heartbeat or HEARTBEAT
        while not store.closed.is_set():
            await asyncio.sleep(every)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(store.ping(), every * 2)

    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(watch())]
    if remote:
        tasks.append(loop.create_task(pings()))
    try:
        await app.run_async()
    finally:
        for task in tasks:
            task.cancel()
    return 3 if store.closed.is_set() and store.close_reason != "closed" else 0


def content_engine(dirs: list[str]) -> Engine:
    """The engine for ``--dir`` arguments: content folders, or one content file (``.content``: a served
    game that goes on with the content its save carries, see ``mqtui.net.persist.client_content``)."""
    from mqtui.engine.content import load_content
    from mqtui.engine.game import Engine

    if len(dirs) == 1 and Path(dirs[0]).is_file():
        from mqtui.saves.defs import engine_from, read_defs

        return engine_from(read_defs(dirs[0]))
    return Engine(load_content(dirs or None))


async def _main(args: argparse.Namespace, factory: AppFactory) -> int:
    from mqtui.net.netstore import JoinRefused, NetStore

    engine = content_engine(args.dirs or [])
    try:
        if args.fd is not None:
            sock = socket.socket(fileno=args.fd)
            store = await NetStore.open_socket(engine, sock, name=args.name)
        else:
            store = await NetStore.open_unix(
                engine, args.socket, code=args.code, want=args.want, name=args.name
            )
    except (JoinRefused, OSError) as exc:
        print(f"mqtui: could not join the game: {exc}", flush=True)
        await asyncio.sleep(args.linger)
        return 2
    return await play_to_end(store, factory, args.linger, args.fd is not None, args.heartbeat)


async def play_to_end(
    store: NetStore,
    factory: AppFactory,
    linger: float,
    remote: bool = False,
    heartbeat: float | None = None,
) -> int:
    """Run the app until it ends; if the server ended it, leave the reason up for ``linger`` seconds.
    ``remote``: a served session's app (game commands only, and a heartbeat; see :func:`run_app`)."""
    try:
        code = await run_app(store, factory, remote, heartbeat)
    finally:
        reason = store.close_reason
        await store.close()
    if code == 3:
        print(f"mqtui: {reason}", flush=True)
        await asyncio.sleep(linger)
    return code


def run(args: argparse.Namespace, factory: AppFactory) -> int:
    """The seat's program (its command line: :mod:`mqtui.cli.seatapp`): join, play, end."""
    if args.fd is not None:
        from mqtui.net.remote import quiet_terminal

        quiet_terminal()  # first: no byte typed while the app starts may stop or kill it
        take_terminal()  # started by the SSH server in a fresh pseudo-terminal
    return asyncio.run(_main(args, factory))
