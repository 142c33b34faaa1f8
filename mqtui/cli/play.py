"""``mqtui play``: the title screen (also what ``mqtui`` with no command runs)."""

from __future__ import annotations

import argparse
from typing import Any

HELP = "open the title screen: new game, continue, load, rules, settings"


def add_common(parser: argparse.ArgumentParser) -> None:
    """Options shared by play, new and load."""
    parser.add_argument(
        "--speed",
        choices=("instant", "fast", "normal", "slow"),
        help="how fast computer players move (default: the saved setting, normally 'normal')",
    )
    parser.add_argument(
        "--theme", help="colour theme by name, e.g. mq-dark, mq-light, mq-contrast, mq-colourblind"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)


def make_app(args: argparse.Namespace, **kwargs: object):  # type: ignore[no-untyped-def]
    from mqtui.ui.app import MQApp
    from mqtui.ui.settings import BOT_SPEEDS, load_settings

    settings = load_settings()
    if getattr(args, "theme", None):
        settings.theme = args.theme
    delay = BOT_SPEEDS[args.speed] if getattr(args, "speed", None) else None
    return MQApp(settings=settings, bot_delay=delay, save_on_signals=True, **kwargs)  # type: ignore[arg-type]


def run_app(app: Any) -> int:
    """Run the app; its exit code (128 + the signal when SIGTERM or SIGHUP ended a game, after saving it)."""
    app.run()
    return int(app.return_code or 0)


def run(args: argparse.Namespace) -> int:
    return run_app(make_app(args))
