"""``mqtui hint FILE``: what the computer would do for the decision waiting in a save, and why."""

from __future__ import annotations

import argparse
import json
import sys

HELP = "print the advisor's line for the decision waiting in a save (for scripts and tests)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the save file (.mqsave)")
    parser.add_argument(
        "--seat", type=int, help="advise this seat (default: the seat whose decision the game waits for)"
    )
    parser.add_argument(
        "--content",
        nargs="+",
        metavar="DIR",
        help="content folders for old saves that do not carry their content (default: the base content and the save's packs)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object: seat, action, advice")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mqtui import saves
    from mqtui.bots.advice import advise
    from mqtui.engine.legal import deciding
    from mqtui.hosting import seat_view
    from mqtui.store import Snapshot
    from mqtui.ui.describe import action_label

    try:
        data = saves.read(args.file)
        engine = saves.engine_of(data, None, [Path(d) for d in args.content] if args.content else None)
        saves.validate(data, engine)
    except saves.SaveError as exc:
        print(f"mqtui hint: {args.file}: {exc}", file=sys.stderr)
        return 2
    state = data.state
    waiting = deciding(state)
    seat = waiting if args.seat is None else args.seat
    if not 0 <= seat < len(state.heroes):
        print(
            "mqtui hint: the game is over: nothing to advise" if seat < 0 else f"mqtui hint: no seat {seat}"
        )
        return 1
    share = seat_view(engine, state, seat)
    snap = Snapshot(share.seat, share.view, share.legal, share.deciding, (), share.n, share.over)
    advice = advise(
        engine.blind(), share.view, seat, list(share.legal), lambda a: action_label(a, snap, engine.cards)
    )
    name = state.heroes[seat].name
    if advice is None:
        text = f"nothing to decide: the game waits for {state.heroes[waiting].name}"
        if args.json:
            print(json.dumps({"seat": seat, "name": name, "action": None, "advice": text}))
        else:
            print(f"{name}: {text}")
        return 1
    if args.json:
        print(json.dumps({"seat": seat, "name": name, "action": str(advice.action), "advice": advice.text}))
    else:
        print(f"{name}: {advice.text}")
    return 0
