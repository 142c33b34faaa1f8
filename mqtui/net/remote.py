"""A served player's app gets the game and nothing of the host: the process side.

The app of an SSH session runs on the host, so every command that reaches outside the game would act on
the host. The app itself is a :class:`mqtui.net.remote_app.RemoteApp`, whose commands and keys are an
allow list. This module holds what runs before any app (it imports no Textual): :func:`quiet_terminal`
makes sure no byte a player types is ever a signal (Ctrl+Z, Ctrl+C, Ctrl+\\), even before the app has
started, and :func:`run_program` ends a session's process with its app.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn

NOT_HERE = "Not over SSH: this game runs on the host's machine, which keeps its files to itself."


def run_program(main: Callable[[], int | None]) -> NoReturn:
    """Run a session's program (its ``main``) and end the process with it: its exit code, its output
    flushed, and no thread left waited for. Python waits for every thread before it exits, and Textual's
    input thread, if its app ended without stopping it, spins on a terminal that has hung up (seen: an
    orphaned session app at a third of a core for an hour). A session's process never outlives its app."""
    code = 1
    try:
        code = int(main() or 0)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, int | None):
            print(exc.code, file=sys.stderr)  # (argparse's errors and the like: what Python would print)
    except BaseException as exc:
        _out_of_memory(probe=not isinstance(exc, MemoryError))  # (then no traceback: words)
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        if code:
            _out_of_memory()
        # (imported here, once the app has run: this module imports no Textual, and by now it is loaded)
        from mqtui.ui.textual_internals import exit_at_once

        exit_at_once(code)


def _out_of_memory(probe: bool = True) -> None:
    """A contained session's app (:mod:`mqtui.net.contain`) that ends in error for want of memory ends in
    words, with its own exit code (the host logs it); else nothing."""
    from mqtui.net import contain

    c = contain.from_env()
    if c is not None and c.memory and (not probe or contain.out_of_memory()):
        contain.end(contain.EXIT_MEMORY, c)


def quiet_terminal(fd: int = 0) -> None:
    """No typed byte is a signal, and nothing stops this process (before and while the app runs)."""
    for sig in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_IGN)
    if not os.isatty(fd):
        return
    import termios

    with contextlib.suppress(termios.error, OSError):
        attrs = termios.tcgetattr(fd)
        attrs[3] &= ~(termios.ISIG | termios.ICANON | termios.ECHO | termios.IEXTEN)
        attrs[0] &= ~(termios.IXON | termios.IXOFF)
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
