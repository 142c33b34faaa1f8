"""``mqtui play``: the title screen (also what ``mqtui`` with no command runs)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqtui.ui.app import MQApp
    from mqtui.ui.session import SeatSpec

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


def make_app(
    args: argparse.Namespace,
    *,
    new_game: Sequence[SeatSpec] | None = None,
    seed: int | None = None,
    packs: Sequence[str] = (),
    load: Path | None = None,
    replay: Path | None = None,
    replay_seat: int | None = None,
) -> MQApp:
    """The app for ``args`` (--theme, --speed where the command has them) and what it opens at once."""
    from mqtui.ui.app import MQApp
    from mqtui.ui.settings import BOT_SPEEDS, load_settings

    settings = load_settings()
    if getattr(args, "theme", None):
        settings.theme = args.theme
    delay = BOT_SPEEDS[args.speed] if getattr(args, "speed", None) else None
    return MQApp(
        settings=settings,
        bot_delay=delay,
        save_on_signals=True,
        new_game=new_game,
        seed=seed,
        packs=packs,
        load=load,
        replay=replay,
        replay_seat=replay_seat,
    )


def run_app(app: MQApp) -> int:
    """Run the app; its exit code (128 + the signal when SIGTERM or SIGHUP ended a game, after saving it)."""
    from mqtui.net.remote_app import use_session_driver

    use_session_driver(app)  # a quit gives the terminal back without waiting out Textual's input polls
    app.run()
    return int(app.return_code or 0)


def run(args: argparse.Namespace) -> int:
    return run_app(make_app(args))
