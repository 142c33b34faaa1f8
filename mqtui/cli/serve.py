"""``mqtui serve``: host one game for players who connect with plain ``ssh``."""

from __future__ import annotations

import argparse
import os
from typing import Any

HELP = (
    "host games over SSH: with no --new/--load, a lobby of many tables ('ssh -p PORT HOST'); with "
    "--new/--load, one table whose players join with 'ssh -p PORT code-XXXXXX@HOST'"
)


EPILOG = """\
words: the HOST is this server (named with --name); a TABLE is one game on it, known by an
8-character id; a SEAT is one hero's place at a table (0, 1, ...), played by a person, by the
computer (random, easy, normal or hard) or open for a person to take; a SPECTATOR watches a table.

a public server:   mqtui serve --host 0.0.0.0 --name "Ann's dungeon"   (visitors: ssh -p 2222 HOST)
one game:          mqtui serve --host 0.0.0.0 --new "Ann,Bob,hard"     (players: ssh -p 2222 code-XXXXXX@HOST)
more in docs/ssh.md.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    parser.add_argument("--port", type=int, default=2222, help="SSH port (default 2222; 0 picks a free one)")
    game = parser.add_mutually_exclusive_group()
    game.add_argument(
        "--new",
        metavar="SEATS",
        default=None,
        help="host this one new game instead of a lobby: a player count ('3') or seats "
        "'NAME[:COLOUR][:KIND],...' where KIND is human (default) or a bot (bot, random, easy, normal, "
        "hard), e.g. 'Ann,Bob:blue,bot'",
    )
    game.add_argument("--load", metavar="FILE", help="host this one saved game instead of a lobby")
    parser.add_argument("--seed", type=int, help="seed of a new game (default: random)")
    parser.add_argument(
        "--save", metavar="FILE", help="autosave file (default: the --load file, or a new one)"
    )
    parser.add_argument("--keys", metavar="FILE", help="keys file: 'SEAT KEYTYPE KEY [COMMENT]' lines")
    parser.add_argument(
        "--pack", action="append", dest="packs", metavar="NAME", help="content pack of a new game (repeat)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds before an away player's decision is made for them (default 60; 0: never)",
    )
    parser.add_argument(
        "--turn-timeout", type=float, default=0.0, help="same for a connected player (default 0: never)"
    )
    parser.add_argument(
        "--abandon",
        type=float,
        default=300.0,
        help="seconds away before a bot takes the seat (default 300; 0: never)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds before each computer decision (default 0.6)"
    )
    parser.add_argument(
        "--max-rate", type=float, default=20.0, help="messages a second one client may send (default 20)"
    )
    add_limit_arguments(parser)
    parser.add_argument("--socket", metavar="PATH", help="also take protocol clients on this Unix socket")
    parser.add_argument("--no-ssh", action="store_true", help="no SSH server (with --socket or --local-seat)")
    parser.add_argument("--local-seat", type=int, metavar="SEAT", help="play SEAT in this terminal too")
    lobby = parser.add_argument_group("lobby (no --new/--load): many tables, saved in the tables folder")
    lobby.add_argument("--name", default="", help="the host's name, shown at the top of the lobby")
    lobby.add_argument("--tables", metavar="DIR", help="tables folder (default: DATA/tables)")
    lobby.add_argument(
        "--idle",
        type=float,
        default=3600.0,
        help="seconds without a player before a table is abandoned (default 3600; 0: never)",
    )
    lobby.add_argument("--max-tables", type=int, default=20, help="tables at once (default 20)")
    parser.add_argument(
        "--no-fork", action="store_true", help="start each session's app afresh (slower, more memory)"
    )
    parser.add_argument("--app", default="auto", choices=("auto", "mqapp", "standin"), help=argparse.SUPPRESS)


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The limits by kind of a public server (docs/ssh.md, 'Limits')."""
    from mqtui.net.limits import Limits

    d = Limits()
    group = parser.add_argument_group("limits (each refusal tells the person why)")
    for flag, kind, default, text in (
        ("--max-players", int, d.max_players, "sessions at a seat, whole host"),
        ("--max-spectators", int, d.max_spectators, "spectators per table"),
        (
            "--max-sessions",
            int,
            d.max_sessions,
            "sessions of every kind; --max-players of them are kept for players",
        ),
        ("--max-unauthenticated", int, d.max_unauthenticated, "connections still signing in"),
        ("--login-timeout", float, d.login_timeout, "seconds a connection has to sign in"),
        (
            "--max-failures",
            int,
            d.max_failures,
            "wrong join codes from one address in 10 minutes before it is refused",
        ),
    ):
        group.add_argument(
            flag, type=kind, default=default, metavar="N", help=f"{text} (default {default:g})"
        )


def limits_from(args: argparse.Namespace) -> Any:
    from mqtui.net.limits import Limits

    return Limits(
        max_players=args.max_players,
        max_spectators=args.max_spectators,
        max_sessions=args.max_sessions,
        max_unauthenticated=args.max_unauthenticated,
        login_timeout=args.login_timeout,
        max_failures=args.max_failures,
    )


def run(args: argparse.Namespace) -> int:
    import asyncio

    from mqtui.cli.seatapp import seat_app
    from mqtui.net.options import ServeError
    from mqtui.net.serve import serve

    try:
        return asyncio.run(serve(_options(args), app=seat_app(args.app)))
    except ServeError as exc:
        print(f"mqtui serve: {exc}")
        return 2
    except KeyboardInterrupt:
        return 130


def _options(args: argparse.Namespace) -> Any:
    from mqtui.net.serve import ServeOptions

    return ServeOptions(
        host=args.host,
        port=args.port,
        new=args.new,
        load=args.load,
        seed=args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big"),
        save=args.save,
        keys=args.keys,
        packs=args.packs or [],
        timeout=args.timeout,
        turn_timeout=args.turn_timeout,
        abandon=args.abandon,
        bot_delay=args.bot_delay,
        rate=args.max_rate,
        socket=args.socket,
        ssh=not args.no_ssh,
        local_seat=args.local_seat,
        app=args.app,
        name=args.name,
        tables=args.tables,
        idle=args.idle,
        max_tables=args.max_tables,
        fork=not args.no_fork,
        limits=limits_from(args),
    )
