"""The program behind a lobby session (started as ``python -m mqtui.cli.lobbyapp --fd N``).

The SSH host starts it like the game client (its own process and pty; ``--fd`` is one end of a socket
pair whose other end is the host's lobby service). It shows the lobby; once the visitor has a seat, the
same connection carries the game and the usual app (:func:`mqtui.net.client.run_app`) takes over.
"""

from __future__ import annotations

import argparse
import asyncio
import socket

from textual.app import App

from mqtui.net import lobbyproto as lp
from mqtui.net.client import AppFactory
from mqtui.net.lobbyproto import BACK_TO_LOBBY
from mqtui.net.remote_app import Allowed, RemoteApp

LOBBY = frozenset(
    {"lobby.new", "lobby.take", "lobby.watch", "lobby.code", "lobby.refresh", "lobby.quit"}
    | {"new.create", "dialog.cancel", "cycle.next", "cycle.previous"}
)
"""The keys of the lobby and its dialogs (a seat to pick, a new table, a join code)."""


class LobbyApp(RemoteApp, App[lp.Seated | None]):
    """Only the lobby screen; its answer is the app's result. A served app: its keys are the lobby's."""

    TITLE = "mqtui lobby"
    ENABLE_COMMAND_PALETTE = False  # a visitor gets only the lobby's own commands
    PLAYER = SPECTATOR = Allowed(bindings=LOBBY)

    def __init__(self, link: lp.LobbyLink, refresh: float | None = None) -> None:
        super().__init__()
        self.link = link
        self.list_every = refresh  # seconds between two looks at the list (None: the screen's default)

    def on_mount(self) -> None:
        from mqtui.ui.screens.lobby import LobbyScreen

        self.push_screen(LobbyScreen(self.link, self.list_every), self.exit)


async def _main(args: argparse.Namespace, factory: AppFactory) -> int:
    sock = socket.socket(fileno=args.fd)
    reader, writer = await asyncio.open_connection(sock=sock)
    link = lp.LobbyLink(reader, writer)
    seated = await LobbyApp(link, args.refresh).run_async()  # a served app: nothing of the host's
    if seated is None:
        writer.close()
        return 0
    if seated.shared:  # the host shows this session the table's shared view (mqtui.net.watchers)
        writer.close()
        return lp.WATCH_SHARED
    from mqtui.net.client import content_engine, play_to_end
    from mqtui.net.netstore import JoinRefused, NetStore

    where = f"seat {seated.seat} ({seated.name})" if seated.seat >= 0 else "a spectator's place"
    print(f"mqtui: table {seated.table}, {where}.", flush=True)
    if seated.again:
        print(f"To come back to this seat later: {seated.again}  (keep the code to yourself)", flush=True)
    engine = content_engine(seated.dirs)
    try:
        store = await NetStore.connect(engine, reader, writer, name=seated.name)
    except (JoinRefused, OSError) as exc:
        print(f"mqtui: could not join the table: {exc}", flush=True)
        await asyncio.sleep(args.linger)
        return 2
    if seated.again:
        await asyncio.sleep(args.linger)  # time to read the code
    code = await play_to_end(store, factory, args.linger, True, args.heartbeat)  # game commands, heartbeat
    if code == 0 or store.close_reason.startswith("this table has ended"):
        return BACK_TO_LOBBY  # they left the table, or it ended: back to the list of tables
    return code


def run(args: argparse.Namespace, factory: AppFactory) -> int:
    """The lobby's program (its command line: :mod:`mqtui.cli.lobbyapp`); ``factory``: the game's app."""
    from mqtui.net.client import take_terminal
    from mqtui.net.remote import quiet_terminal

    quiet_terminal()  # first: no byte typed while the app starts may stop or kill it
    take_terminal()
    return asyncio.run(_main(args, factory))
