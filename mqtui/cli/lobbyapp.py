"""The program the SSH host starts for a lobby visitor: ``python -m mqtui.cli.lobbyapp --fd N`` (see
:mod:`mqtui.net.lobbyclient`); the game it leads to runs the app :func:`mqtui.cli.seatapp.seat_app` picks."""

from __future__ import annotations

from mqtui.cli.seatapp import seat_app


def main(argv: list[str] | None = None) -> int:
    from mqtui.net import lobbyclient

    return lobbyclient.main(argv, seat_app)


if __name__ == "__main__":
    raise SystemExit(main())
