"""A served player's app gets the game and nothing of the host.

The app of an SSH session runs on the host, so every command that reaches outside the game would act on
the host: a screenshot writes a file into the host's home folder and shows its path, saving or loading
opens the host's save folder, the title screen starts local games on the host, Ctrl+Z would stop the
process. :func:`lock_down` leaves a remote app only game commands: the palette keeps the game's actions,
the help, rules and card screens, themes (for this session only), the keys panel and quit, and the
methods behind the rest answer "not over SSH". :func:`quiet_terminal` makes sure no byte a player types
is ever a signal (Ctrl+Z, Ctrl+C, Ctrl+\\), even before the app has started.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
from collections.abc import AsyncIterator, Callable, Iterable
from inspect import isclass
from typing import Any

# palette entries that reach outside the game (files, folders, settings, local games, the process)
DENIED = re.compile(
    r"screenshot|save|load|export|import|settings|file|folder|path|new game|title|continue|suspend|shell",
    re.IGNORECASE,
)
GAME_PROVIDER = re.compile(r"Legal|Action")  # the palette's game moves: every legal action, by name
SYSTEM_ALLOWED = ("Theme", "Quit", "Keys", "Maximize", "Minimize")
# what the app must not do for a remote player (names of App methods and actions)
BLOCKED_METHODS = (
    "action_screenshot",
    "deliver_screenshot",
    "save_screenshot",
    "deliver_text",  # Textual writes a delivered file into the host's downloads folder
    "deliver_binary",
    "open_url",  # a link in a help or rules page would start a browser on the host
    "action_suspend_process",
    "save_dialog",
    "open_file",
    "title_new",
    "title_load",
    "title_continue",
    "title_settings",
)
NOT_HERE = "Not over SSH: this game runs on the host's machine, which keeps its files to itself."


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
    _no_driver_suspend()


def _no_driver_suspend() -> None:
    """Textual's Linux driver answers SIGTSTP with SIGSTOP: make that answer nothing."""
    with contextlib.suppress(ImportError, AttributeError):
        from textual.drivers.linux_driver import LinuxDriver

        def ignore(self: Any, *_: Any) -> None:
            return None

        LinuxDriver._sigtstp_application = ignore  # type: ignore[method-assign]


def allowed(text: str) -> bool:
    return not DENIED.search(text)


def _hit_text(hit: Any) -> str:
    text = getattr(hit, "text", None)
    if not text:
        shown = getattr(hit, "prompt", None) or getattr(hit, "display", "")
        text = getattr(shown, "plain", None) or str(shown)
    return f"{text} {getattr(hit, 'help', '') or ''}"


def _filtered(provider: type[Any]) -> type[Any]:
    """The same provider, without the hits that reach outside the game."""

    class Filtered(provider):  # type: ignore[misc]
        async def discover(self) -> AsyncIterator[Any]:
            async for hit in super().discover():
                if allowed(_hit_text(hit)):
                    yield hit

        async def search(self, query: str) -> AsyncIterator[Any]:
            async for hit in super().search(query):
                if allowed(_hit_text(hit)):
                    yield hit

    Filtered.__name__ = Filtered.__qualname__ = f"Remote{provider.__name__}"
    return Filtered


def _providers(source: Iterable[Any]) -> set[Any]:
    """The app's providers; all but the game's moves (whose card names may hold any word) filtered."""
    out = set()
    for p in source:
        cls = p if isclass(p) else p()  # lazily loaded providers are functions returning the class
        out.add(cls if GAME_PROVIDER.search(cls.__name__) else _filtered(cls))
    return out


def lock_down(app: Any) -> Any:
    """Leave ``app`` only game commands (see the module's docstring); returns it."""
    app.COMMANDS = _providers(type(app).COMMANDS)
    system: Callable[[Any], Iterable[Any]] = app.get_system_commands

    def get_system_commands(screen: Any) -> Iterable[Any]:
        for cmd in system(screen):
            if cmd.title in SYSTEM_ALLOWED:
                yield cmd

    app.get_system_commands = get_system_commands
    for name in BLOCKED_METHODS:
        if hasattr(app, name):
            setattr(app, name, _refusal(app))
    app.pop_screen = _no_empty_stack(app)
    return app


def _no_empty_stack(app: Any) -> Callable[[], Any]:
    """Enter pressed twice at once in the command palette dismisses it twice, and Textual ends the app
    on the second ("Can't pop screen"): a stream of keys found it. Popping the last screen does nothing."""
    pop = app.pop_screen

    def pop_screen() -> Any:
        if len(app.screen_stack) <= 1:
            from textual.await_complete import AwaitComplete

            return AwaitComplete()
        return pop()

    return pop_screen


def _refusal(app: Any) -> Callable[..., None]:
    def refuse(*_: Any, **__: Any) -> None:
        with contextlib.suppress(Exception):
            app.notify(NOT_HERE, severity="warning")

    return refuse
