"""``mqtui serve``: host one game for players who connect with plain ``ssh``."""

from __future__ import annotations

import argparse
import os
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mqtui.net.options import ServeOptions

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
browsers too:      mqtui serve --host 0.0.0.0 --web 0.0.0.0:8080        (visitors: http://HOST:8080/)
more in docs/ssh.md and docs/web.md.
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
    # numbers whose defaults are ServeOptions' own (the field is the flag's name, --max-rate's is ``rate``)
    add_numbers(
        parser,
        (
            "--timeout",
            "seconds before an away player's decision is made for them (default %(default)g; 0: never)",
        ),
        ("--turn-timeout", "same for a connected player (default %(default)g: never)"),
        ("--abandon", "seconds away before a bot takes the seat (default %(default)g; 0: never)"),
        ("--bot-delay", "seconds before each computer decision (default %(default)g)"),
        ("--max-rate", "messages a second one client may send (default %(default)g)"),
    )
    add_limit_arguments(parser)
    parser.add_argument(
        "--web",
        metavar="[ADDR:]PORT",
        default="",
        help="browsers too, at this port (ADDR default 127.0.0.1): the same lobby and tables (docs/web.md)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        default="",
        help="the address browsers use, e.g. https://games.example.org behind a TLS reverse proxy",
    )
    parser.add_argument("--socket", metavar="PATH", help="also take protocol clients on this Unix socket")
    parser.add_argument(
        "--no-ssh", action="store_true", help="no SSH server (with --web, --socket or --local-seat)"
    )
    parser.add_argument("--local-seat", type=int, metavar="SEAT", help="play SEAT in this terminal too")
    lobby = parser.add_argument_group("lobby (no --new/--load): many tables, saved in the tables folder")
    lobby.add_argument("--name", default="", help="the host's name, shown at the top of the lobby")
    lobby.add_argument("--tables", metavar="DIR", help="tables folder (default: DATA/tables)")
    add_numbers(
        lobby,
        ("--idle", "seconds without a player before a table is abandoned (default %(default)g; 0: never)"),
        ("--max-tables", "tables at once (default %(default)g)"),
    )
    parser.add_argument(
        "--no-fork", action="store_true", help="start each session's app afresh (slower, more memory)"
    )
    parser.add_argument(
        "--admin-socket",
        metavar="PATH",
        help="the socket of 'mqtui admin' (default: DATA/admin.sock; mode 0600)",
    )
    add_operator_arguments(parser)
    parser.add_argument(
        "--print-codes",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show the join codes in the start-up text (default: only on a terminal; always in NAME.codes)",
    )
    parser.add_argument("--app", default="auto", choices=("auto", "mqapp", "standin"), help=argparse.SUPPRESS)


class AddsArguments(Protocol):
    """A parser or one of its argument groups."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action: ...


def add_numbers(parser: AddsArguments, *options: tuple[str, str]) -> None:
    """Number options of ServeOptions, each with the field's default and type."""
    from mqtui.net.options import ServeOptions

    defaults = ServeOptions()
    for flag, text in options:
        default = getattr(defaults, _field(flag))
        parser.add_argument(flag, type=type(default), default=default, help=text)


def _field(flag: str) -> str:
    name = flag.removeprefix("--").replace("-", "_")
    return "rate" if name == "max_rate" else name


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The limits by kind of a public server (docs/ssh.md, 'Limits'); the defaults are Limits' own."""
    from mqtui.net.limits import Limits

    d = Limits()
    group = parser.add_argument_group("limits (each refusal tells the person why)")
    for flag, text in (
        ("--max-players", "sessions at a seat, whole host"),
        ("--max-spectators", "spectators per table with an app of their own"),
        ("--max-watchers", "spectators per table on its shared views (0: none, every spectator gets an app)"),
        ("--max-sessions", "sessions of every kind; --max-players of them are kept for players"),
        ("--max-unauthenticated", "connections still signing in"),
        ("--max-signing-in-per-address", "connections still signing in from one address (IPv6: a /64)"),
        ("--login-timeout", "seconds a connection has to sign in"),
        ("--max-idle", "connections signed in without a session yet"),
        ("--max-idle-per-address", "connections signed in without a session yet, from one address"),
        ("--idle-timeout", "seconds a signed-in connection has to open its session"),
        ("--max-sessions-per-address", "sessions of every kind from one address"),
        ("--max-failures", "wrong join codes from one address in 10 minutes before it is refused"),
        ("--linger", "seconds a session leaves a message up for its player (its seat's code, why it ended)"),
    ):
        default = getattr(d, _field(flag))
        group.add_argument(
            flag, type=type(default), default=default, metavar="N", help=f"{text} (default {default:g})"
        )


def add_operator_arguments(parser: argparse.ArgumentParser) -> None:
    """Session containment, the message of the day and the log (docs/ssh.md); defaults from their
    classes."""
    from mqtui.net.contain import Containment
    from mqtui.net.options import ServeOptions

    c, d = Containment(), ServeOptions()
    group = parser.add_argument_group("each session's app (docs/ssh.md, 'Session containment'; 0: no limit)")
    for flag, metavar, text in (
        ("--session-memory", "MIB", "private memory of a session's app, MiB (RLIMIT_DATA)"),
        ("--session-files", "N", "open files of a session's app (RLIMIT_NOFILE)"),
        ("--session-nice", "N", "niceness added to a session's app, 0-19 (the host keeps its own)"),
        ("--session-cpu", "S", "CPU-seconds a session's app may use in all, a runaway guard (RLIMIT_CPU)"),
        (
            "--session-cpu-max",
            "PERCENT",
            "percent of one core a session's app may use at most (cgroup cpu.max)",
        ),
    ):
        default = getattr(c, flag.removeprefix("--session-").replace("-", "_"))
        group.add_argument(
            flag, type=int, default=default, metavar=metavar, help=f"{text}; default {default}"
        )
    group.add_argument(
        "--session-cgroup", metavar="DIR", default="",
        help="a cgroup v2 folder this user may write (made if missing): each session's app gets a cgroup there",
    )  # fmt: skip
    ops = parser.add_argument_group("running it")
    ops.add_argument(
        "--metrics", metavar="[ADDR:]PORT",
        help="the figures over HTTP for a scraper: GET /metrics (Prometheus), /health (JSON); ADDR default 127.0.0.1",
    )  # fmt: skip
    ops.add_argument(
        "--motd", metavar="FILE", help="a message of the day, shown at sign-in (read again when it changes)"
    )
    ops.add_argument(
        "--log-file", metavar="FILE", help="the host's log to this file, rotated (default: standard output)"
    )
    for flag, text in (
        ("--log-max-bytes", "rotate the log file at this size"),
        ("--log-backups", "old log files kept"),
    ):
        default = getattr(d, _field(flag))
        ops.add_argument(flag, type=int, default=default, metavar="N", help=f"{text} (default {default})")


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


def _options(args: argparse.Namespace) -> ServeOptions:
    """ServeOptions from the arguments: each field from the option of its name, but for the few below."""
    from mqtui.net.contain import Containment
    from mqtui.net.limits import Limits
    from mqtui.net.options import ServeOptions

    given = vars(args)
    options: dict[str, Any] = {f.name: given[f.name] for f in fields(ServeOptions) if f.name in given}
    options.update(
        seed=args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big"),
        packs=args.packs or [],
        rate=args.max_rate,
        ssh=not args.no_ssh,
        fork=not args.no_fork,
        limits=Limits(**{f.name: given[f.name] for f in fields(Limits) if f.name in given}),
        contain=Containment(
            **{
                f.name: given[f"session_{f.name}"]
                for f in fields(Containment)
                if f"session_{f.name}" in given
            }
        ),
    )
    return ServeOptions(**options)
