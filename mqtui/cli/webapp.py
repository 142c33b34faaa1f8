"""The program the web host starts for each phase of a browser's session: ``python -m mqtui.cli.webapp
lobby --fd N`` (the lobby) or ``seat --fd N`` (a seat or a spectator's place); see
:mod:`mqtui.net.webclient`. The game's app is the one :func:`mqtui.cli.seatapp.seat_app` picks."""

from __future__ import annotations

import argparse

from mqtui.cli.packopt import add_dir_option
from mqtui.cli.seatapp import add_app_options, seat_app


def main(argv: list[str] | None = None) -> int:
    from mqtui.net import webclient
    from mqtui.net.contain import apply_from_env

    apply_from_env()  # a session's app: the host's limits first (mqtui.net.contain), as over SSH
    from mqtui.net.limits import Limits

    p = argparse.ArgumentParser(prog="python -m mqtui.cli.webapp", description=webclient.__doc__)
    p.add_argument("phase", choices=("lobby", "seat"))
    p.add_argument("--fd", type=int, required=True, help="a connected socket to the lobby or the seat")
    add_dir_option(p, "content folder (repeat), or one content file")
    add_app_options(p)
    p.add_argument(
        "--refresh", type=float, default=Limits().lobby_refresh, help="seconds between looks at the list"
    )
    args = p.parse_args(argv)
    return webclient.run(args, seat_app(args.app))


if __name__ == "__main__":
    from mqtui.net.remote import run_program

    run_program(main)  # (the process ends with its app: see run_program)
