"""The programs behind a browser's session (``python -m mqtui.cli.webapp lobby|seat --fd N``).

The web host (:mod:`mqtui.net.web`) starts one per phase of a browser's session, as the SSH host starts
the lobby's and the seat's programs, with one end of a socket pair (``--fd``) already bound to the
host's lobby service or to the seat at its table's authority. The app is the same served app as over
SSH (its allow lists, its heartbeat); only its driver differs: textual-serve's protocol on the standard
input and output (Textual's :class:`~textual.drivers.web_driver.WebDriver`) instead of a terminal.

Standard output carries that protocol's packets, so nothing else may be written to it: ``print`` goes to
standard error, and a line for the player (why the game ended) is written as terminal text in a packet
of its own (:func:`say`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
from typing import Any

from textual.drivers.web_driver import WebDriver

from mqtui.net.client import AppFactory

ENDED = 10  # a seat's exit code when its table ended (the host opens the lobby again): BACK_TO_LOBBY


class WebSessionDriver(WebDriver):
    """Textual's web driver, which asks the page to open nothing and delivers no file: a served app's
    links and files would be the host's (the host drops such packets too: :mod:`mqtui.net.web`)."""

    def open_url(self, url: str, new_tab: bool = True) -> None:
        pass

    def deliver_binary(self, *args: Any, **kwargs: Any) -> None:
        pass


def say(text: str) -> None:
    """Show ``text`` on the page's terminal (after the app: its screen is left and cleared)."""
    data = ("\x1b[?1049l\x1b[2J\x1b[H" + text.replace("\n", "\r\n") + "\r\n").encode("utf-8")
    os.write(1, b"D" + len(data).to_bytes(4, "big") + data)


async def _lobby(args: argparse.Namespace) -> int:
    from mqtui.net import lobbyproto as lp
    from mqtui.net.lobbyclient import LobbyApp

    reader, writer = await asyncio.open_connection(sock=socket.socket(fileno=args.fd))
    seated = await LobbyApp(lp.LobbyLink(reader, writer), args.refresh).run_async()
    writer.close()  # (seated: the host has the seat and starts its program next)
    return 0 if seated is not None else 1


async def _seat(args: argparse.Namespace, factory: AppFactory) -> int:
    from mqtui.net.client import content_engine, run_app
    from mqtui.net.netstore import JoinRefused, NetStore

    engine = content_engine(args.dirs or [])
    try:
        store = await NetStore.open_socket(engine, socket.socket(fileno=args.fd))
    except (JoinRefused, OSError) as exc:
        say(f"mqtui: could not join the game: {exc}")
        await asyncio.sleep(args.linger)
        return 2
    try:
        code = await run_app(store, factory, True, args.heartbeat)
    finally:
        reason = store.close_reason
        await store.close()
    if code == 3:
        say(f"mqtui: {reason}")
        await asyncio.sleep(args.linger)
        if reason.startswith("this table has ended"):
            return ENDED
    return code


def run(args: argparse.Namespace, factory: AppFactory) -> int:
    """One phase of a browser's session (its command line: :mod:`mqtui.cli.webapp`)."""
    from mqtui.net.remote import quiet_terminal
    from mqtui.net.remote_app import RemoteApp

    sys.stdout = sys.stderr  # (the web driver writes to sys.__stdout__, the packets' pipe)
    quiet_terminal()
    RemoteApp.DRIVER = WebSessionDriver
    return asyncio.run(_lobby(args) if args.phase == "lobby" else _seat(args, factory))
