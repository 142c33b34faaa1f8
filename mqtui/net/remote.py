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
import sys
import traceback
from collections.abc import AsyncIterator, Callable, Iterable
from inspect import isclass
from typing import Any, NoReturn

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
    except BaseException:
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


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
    prompt_input_stop()


def _no_driver_suspend() -> None:
    """Textual's Linux driver answers SIGTSTP with SIGSTOP: make that answer nothing."""
    with contextlib.suppress(ImportError, AttributeError):
        from textual.drivers.linux_driver import LinuxDriver

        def ignore(self: Any, *_: Any) -> None:
            return None

        LinuxDriver._sigtstp_application = ignore  # type: ignore[method-assign]


def prompt_input_stop() -> None:
    """Textual's Linux driver reads the terminal in a thread that looks every 0.1 s whether to stop,
    and once more after that: an app took 0.1-0.2 s to end after its last screen (a player leaving a
    table waited that long for the lobby, a stopping host for each of its apps). Here the driver's
    stop also wakes that thread's wait, through a pipe of this process. (Local games use it too.)

    With the stop on the pipe, that thread also no longer wakes 10 times a second for nothing (most
    of an idle session's CPU): it waits for a byte, or, while its parser holds a lone Esc (the key, or
    the start of a sequence), until the parser's time for it is up, as Textual's tick would find it."""
    import selectors
    import threading
    import types

    with contextlib.suppress(ImportError):
        from textual._time import get_time
        from textual._xterm_parser import XTermParser
        from textual.drivers import linux_driver

        driver = linux_driver.LinuxDriver
        if getattr(driver, "_prompt_stop", False):
            return  # (already, in this process)
        wake_r, wake_w = os.pipe()
        owner = os.getpid()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        stopping = threading.Event()  # a driver's input is stopping: the pipe stays readable until done
        reading = threading.local()  # the parser of this input thread (made just after its selector)

        class WatchedParser(XTermParser):
            """The input thread's parser, known to its selector."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                reading.parser = self

        def wait_for(timeout: float | None) -> float | None:
            """How long the input thread may wait: until a byte comes (or the stop), or until a pending
            Esc is due (Textual's ``Parser.tick`` looks at ``_timeout_time``; without it, its poll)."""
            due = getattr(getattr(reading, "parser", None), "_timeout_time", timeout)
            if timeout is None or due is timeout or os.getpid() != owner:  # (a forked child: not its pipe)
                return timeout
            return None if due is None else max(0.0, due - get_time())

        def drain() -> None:
            with contextlib.suppress(OSError):
                while os.read(wake_r, 512):
                    pass

        class WakingEvent(threading.Event):
            """The driver's exit event: setting it also makes the wake pipe readable."""

            def set(self) -> None:
                super().set()
                stopping.set()
                with contextlib.suppress(OSError):
                    os.write(wake_w, b"!")

            def clear(self) -> None:
                super().clear()
                stopping.clear()
                drain()

        class WakingSelector(selectors.SelectSelector):
            """The input thread's selector: it also wakes on the pipe, and reports only the terminal."""

            def __init__(self) -> None:
                super().__init__()
                super().register(wake_r, selectors.EVENT_READ)

            def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
                ready = super().select(wait_for(timeout))
                if not stopping.is_set() and any(key.fd == wake_r for key, _ in ready):
                    drain()  # (a wake-up left over from another driver: never a busy loop)
                return [(key, ev) for key, ev in ready if key.fd != wake_r]

        init = driver.__init__

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            init(self, *args, **kwargs)
            self.exit_event = WakingEvent()

        driver.__init__ = __init__  # type: ignore[method-assign]
        shim = types.SimpleNamespace(
            SelectSelector=WakingSelector, EVENT_READ=selectors.EVENT_READ, SelectorKey=selectors.SelectorKey
        )
        # (what its input thread makes its selector with; not an attribute the module exports)
        setattr(linux_driver, "selectors", shim)  # noqa: B010
        setattr(linux_driver, "XTermParser", WatchedParser)  # noqa: B010  (what the thread makes)
        driver._prompt_stop = True  # type: ignore[attr-defined]


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
