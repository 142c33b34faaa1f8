"""Which app a networked seat runs, chosen here (the command line's business), and the program the SSH
host starts for a seat: ``python -m mqtui.cli.seatapp --fd N`` (see :mod:`mqtui.net.client`; the
lobby's is :mod:`mqtui.cli.lobbyapp`). The network code gets the app as a factory and never names one.

``--app`` (or ``MQTUI_NET_APP``, which wins) picks it: ``mqapp`` the full app, ``standin`` the small
plain one, ``auto`` the full app unless it fails to start (a half-built app must not lock players out).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from mqtui.cli.packopt import add_dir_option

if TYPE_CHECKING:
    from textual.app import App

    from mqtui.net.client import AppFactory
    from mqtui.store import GameStore

APPS = ("auto", "mqapp", "standin")


def seat_app(choice: str = "auto") -> AppFactory:
    """The factory of a networked seat's app (``choice``: one of :data:`APPS`); with ``remote``, the app's
    served form, whose commands and keys are an allow list (:mod:`mqtui.net.remote_app`)."""
    choice = os.environ.get("MQTUI_NET_APP", choice)
    if choice not in APPS:
        raise ValueError(f"unknown app {choice!r} (one of {', '.join(APPS)})")

    def make(store: GameStore, remote: bool = False) -> App[None]:
        if choice != "standin":
            try:
                from mqtui.ui.app import MQApp

                full = MQApp
                if remote:
                    from mqtui.net.served import RemoteMQApp

                    full = RemoteMQApp
                return full(
                    store=store, save_settings_file=False
                )  # a remote player keeps the host's settings
            except Exception as exc:
                if choice == "mqapp":
                    raise
                print(f"mqtui: the full app failed to start ({exc}); using the plain one", file=sys.stderr)
        from mqtui.net.standin import RemoteStandInApp, StandInApp

        return (RemoteStandInApp if remote else StandInApp)(store)

    return make


def add_app_options(parser: argparse.ArgumentParser) -> None:
    """``--app`` (see :func:`seat_app`), ``--linger`` and ``--heartbeat``, shared by the seat's and the
    lobby's program (the SSH host passes its limits' values: see ``SSHHost.app_options``)."""
    from mqtui.net.limits import Limits

    d = Limits()
    parser.add_argument("--app", default="auto", choices=APPS)
    parser.add_argument(
        "--linger", type=float, default=d.linger, help="seconds to leave a closing message up"
    )
    parser.add_argument(
        "--heartbeat", type=float, default=d.heartbeat, help="seconds between a served app's pings"
    )


def main(argv: list[str] | None = None) -> int:
    from mqtui.net.contain import apply_from_env

    apply_from_env()  # a session's app: the host's limits first (mqtui.net.contain)
    from mqtui.net import client
    from mqtui.net.protocol import ANY_SEAT

    p = argparse.ArgumentParser(prog="python -m mqtui.cli.seatapp", description=client.__doc__)
    p.add_argument("--fd", type=int, help="a connected socket bound to a seat (from the SSH server)")
    p.add_argument("--socket", help="a served game's Unix socket")
    p.add_argument("--code", default="", help="join code (with --socket)")
    p.add_argument("--want", type=int, default=ANY_SEAT, help="the seat wanted with a table code; -1 watches")
    p.add_argument("--name", default="", help="your name, for the server's log")
    add_dir_option(p, "content folder (repeat), or one content file")
    add_app_options(p)
    args = p.parse_args(argv)
    if args.fd is None and not args.socket:
        p.error("give --fd or --socket")
    return client.run(args, seat_app(args.app))


if __name__ == "__main__":
    from mqtui.net.remote import run_program

    run_program(main)  # (the process ends with its app: see run_program)
