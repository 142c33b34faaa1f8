"""The program the SSH host starts for a lobby visitor: ``python -m mqtui.cli.lobbyapp --fd N`` (see
:mod:`mqtui.net.lobbyclient`); the game it leads to runs the app :func:`mqtui.cli.seatapp.seat_app` picks."""

from __future__ import annotations

import argparse

from mqtui.cli.seatapp import add_app_options, seat_app


def main(argv: list[str] | None = None) -> int:
    from mqtui.net import lobbyclient

    p = argparse.ArgumentParser(prog="python -m mqtui.cli.lobbyapp", description=lobbyclient.__doc__)
    p.add_argument("--fd", type=int, required=True, help="a connected socket to the host's lobby")
    add_app_options(p)
    args = p.parse_args(argv)
    return lobbyclient.run(args, seat_app(args.app))


if __name__ == "__main__":
    raise SystemExit(main())
