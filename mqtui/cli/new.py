"""``mqtui new``: start a game at once, e.g. ``mqtui new --players "Ann:human,Bob:bot,Cy:hard"``."""

from __future__ import annotations

import argparse
import sys

from mqtui.cli.packopt import add_pack_option, pack_engine
from mqtui.cli.play import add_common, make_app, run_app

HELP = "start a new game directly (default: you against three computer players, easy until you pick others)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        metavar="LIST",
        help=(
            "comma-separated seats NAME[:KIND[:COLOUR]], 2 to 6 of them. KIND: human (default), "
            "bot (= normal), random, easy, normal, hard. COLOUR: red, blue, green, yellow, orange, purple "
            '(default: the first free). Example: "Ann:human,Bob:bot,Cy:hard:green"'
        ),
    )
    parser.add_argument("--seed", type=int, help="seed for the shuffles and dice (default: random)")
    add_pack_option(parser)
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    from mqtui.ui.session import build_seats, default_specs, parse_players
    from mqtui.ui.settings import load_settings

    try:
        if args.players is not None:
            specs = parse_players(args.players)
        else:
            specs = default_specs(kind=load_settings().opponents)
        build_seats(specs)  # check the table before the screen opens
    except ValueError as exc:
        print(f"mqtui new: {exc}", file=sys.stderr)
        return 2
    if pack_engine(args, "new") is None:  # and the packs
        return 2
    return run_app(make_app(args, new_game=specs, seed=args.seed, packs=args.packs))
