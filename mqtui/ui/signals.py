"""SIGTERM and SIGHUP while a local game is open: save it at once, then end the app.

A closed terminal or a dropped SSH connection sends SIGHUP; ``kill`` and a shutdown send SIGTERM.
The store's own handler (:func:`mqtui.store.install_signal_handlers`) writes the autosave on the spot
(the background writer may be a step behind, and a signal's default action would end the process
before it caught up). After SIGTERM the app then ends as it does on quit, giving the terminal back;
after SIGHUP the process ends at once (there is no terminal left, and Textual's shutdown was seen to
hang writing to the dead one). Either way the exit code is 128 + the signal's number. The command line turns this on
(``MQApp(save_on_signals=True)``); apps driven inside a test process leave the signals alone.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from typing import Any

from textual.app import App

from mqtui.ui.textual_internals import exit_at_once

SIGNALS = ("SIGTERM", "SIGHUP")


def save_on_signals(app: App[Any], store: object) -> Callable[[], None]:
    """While ``store`` (a local game) is open in ``app``; returns what puts the old handlers back."""
    from mqtui.store import LocalStore, install_signal_handlers

    if not isinstance(store, LocalStore):
        return lambda: None  # a networked game is saved by its server
    loop = asyncio.get_running_loop()
    undo: list[Callable[[], None]] = []
    for name in SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue

        def end(code: int = 128 + int(number), hang_up: bool = name == "SIGHUP") -> None:
            if hang_up:  # the terminal is gone: nothing to give back, and the app's shutdown can block
                exit_at_once(code)  # writing to it; the save is on disk already
            loop.call_soon_threadsafe(app.exit, None, code)  # (safe from a signal handler)

        undo.append(install_signal_handlers(store, on_exit=end, signals=(name,)))

    def restore() -> None:
        for off in reversed(undo):
            off()

    return restore
