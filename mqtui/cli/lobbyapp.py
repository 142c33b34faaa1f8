"""The program the SSH host starts for a lobby visitor: ``python -m mqtui.cli.lobbyapp --fd N`` (see
:mod:`mqtui.net.lobbyclient`); the game it leads to runs the app :func:`mqtui.cli.seatapp.seat_app` picks."""

from __future__ import annotations

import argparse

from mqtui.cli.seatapp import add_app_options, seat_app


def main(argv: list[str] | None = None) -> int:
    from mqtui.net.contain import apply_from_env

    apply_from_env()  # a session's app: the host's limits first (mqtui.net.contain)
    from mqtui.net import lobbyclient
    from mqtui.net.limits import Limits

    p = argparse.ArgumentParser(prog="python -m mqtui.cli.lobbyapp", description=lobbyclient.__doc__)
    p.add_argument("--fd", type=int, required=True, help="a connected socket to the host's lobby")
    add_app_options(p)
    refresh = Limits().lobby_refresh
    p.add_argument("--refresh", type=float, default=refresh, help="seconds between two looks at the list")
    args = p.parse_args(argv)
    return lobbyclient.run(args, seat_app(args.app))


if __name__ == "__main__":
    from mqtui.net.remote import run_program

    run_program(main)  # (the process ends with its app: see run_program)
