"""Apps served over SSH: what they offer is an allow list, and their terminal is the session's.

The app of an SSH session runs on the host, so every command that reaches outside the game would act on
the host: a screenshot writes a file into the host's home folder, saving or loading opens the host's save
folder, the title screen starts local games on the host, Ctrl+Z would stop the process. A
:class:`RemoteApp` offers only what its class lists, one list for a player and one for a spectator
(:class:`Allowed`): the palette's commands (the app's own, by id, and Textual's system commands, by
title) and the key bindings of mqtui's screens and widgets (by binding id). A command or a key added
later is not offered over SSH until it is added to a list (tests/test_net_remote.py holds the lists
against what the palette and the footer show). The methods that would write or open something on the
host answer "not over SSH" as well.

Its driver is :class:`SessionDriver`: Textual's Linux driver, whose input thread sleeps until a key comes
(an idle session costs no CPU), wakes at once when the app stops, ends on a hung-up terminal, and never
stops the process for Ctrl+Z.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import selectors
import signal
import sys
import threading
from codecs import getincrementaldecoder
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.constants import ESCAPE_DELAY
from textual.dom import DOMNode
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.screen import Screen

from mqtui.net.remote import NOT_HERE
from mqtui.net.viewmarks import FRAME_BEGIN, FRAME_END, READY, SHARED_VIEW_ENV
from mqtui.ui.textual_internals import ActionGate, XTermParser


@dataclass(frozen=True)
class Allowed:
    """What a remote app offers one kind of visitor."""

    commands: frozenset[str] = frozenset()
    """The app's own palette commands, by id (``mqtui.ui.commands``)."""
    system: frozenset[str] = frozenset()
    """Textual's system commands, by title."""
    bindings: frozenset[str] = frozenset()
    """Key bindings of mqtui's screens and widgets, by id (Textual's own widgets keep theirs: moving
    in a list, typing in a field)."""


@functools.cache
def binding_ids(node_class: type[DOMNode], action: str) -> frozenset[str] | None:
    """The ids of the bindings of ``action`` that mqtui's classes among ``node_class`` and its bases
    declare; None when none does (a binding of Textual's own, or no binding at all)."""
    ids: set[str] = set()
    ours = False
    for cls in node_class.__mro__:
        if not cls.__module__.startswith("mqtui."):
            continue
        for binding in Binding.make_bindings(vars(cls).get("BINDINGS", ())):
            if binding.action == action:
                ours = True
                if binding.id is not None:
                    ids.add(binding.id)
    return frozenset(ids) if ours else None


class RemoteApp(ActionGate):
    """The allow lists of an app served over SSH (put it first among an app's bases).

    A subclass names its lists in :attr:`PLAYER` and :attr:`SPECTATOR` and says whose eyes it shows
    (:meth:`remote_seat`: below 0, a spectator's)."""

    PLAYER: ClassVar[Allowed] = Allowed()
    SPECTATOR: ClassVar[Allowed] = Allowed()
    DRIVER: ClassVar[type[Driver] | None] = None
    """The driver of every served app of this process (None: :class:`SessionDriver`); a browser's
    session process sets its own (:mod:`mqtui.net.webclient`)."""

    def remote_seat(self) -> int:
        """The seat this session plays (below 0: it watches)."""
        return 0

    @property
    def allowed(self) -> Allowed:
        return self.SPECTATOR if self.remote_seat() < 0 else self.PLAYER

    def allows_command(self, command_id: str) -> bool:
        return command_id in self.allowed.commands

    def allows_action(self, action: str, node: DOMNode) -> bool:
        ids = binding_ids(type(node), action)
        return ids is None or not ids.isdisjoint(self.allowed.bindings)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        system = self.allowed.system
        return [cmd for cmd in super().get_system_commands(screen) if cmd.title in system]

    def get_driver_class(self) -> type[Driver]:
        return self.DRIVER or session_driver() or super().get_driver_class()

    def pop_screen(self) -> AwaitComplete:
        """Enter pressed twice at once in the command palette dismisses it twice, and Textual ends the
        app on the second ("Can't pop screen"): a stream of keys found it. The last screen stays."""
        if len(self.screen_stack) <= 1:
            return AwaitComplete()
        return super().pop_screen()

    def refuse(self, *_: Any, **__: Any) -> Any:
        """What a remote app says instead of writing or opening anything on the host."""
        with contextlib.suppress(Exception):
            self.notify(NOT_HERE, severity="warning")

    # (Textual's ways of writing a file, starting a browser, or stopping the process, all on the host)
    action_screenshot = deliver_screenshot = save_screenshot = refuse
    deliver_text = deliver_binary = open_url = action_suspend_process = refuse


# -- the session's driver ---------------------------------------------------------------------------------


def session_driver() -> type[Driver] | None:
    """:class:`SessionDriver` where Textual would use its Linux driver (None elsewhere)."""
    return None if sys.platform == "win32" else SessionDriver


def use_session_driver(app: App[Any]) -> None:
    """``app`` runs on :class:`SessionDriver` where it would run on Textual's Linux driver (a local game
    too: a quit gives the terminal back at once, and an idle app's input thread sleeps)."""
    driver = session_driver()
    if driver is not None and getattr(app, "driver_class", None) is LinuxDriver:  # (a stand-in app: none)
        app.driver_class = driver


class WakingEvent(threading.Event):
    """A driver's exit event whose setting also wakes its input thread (through a pipe)."""

    def __init__(self) -> None:
        super().__init__()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        self.closed = False

    def set(self) -> None:
        super().set()
        if not self.closed:
            with contextlib.suppress(OSError):
                os.write(self.wake_w, b"!")

    def clear(self) -> None:
        super().clear()
        self.drain()

    def drain(self) -> None:
        """Empty the pipe (the flag stays as it is)."""
        if not self.closed:
            with contextlib.suppress(OSError):
                while os.read(self.wake_r, 512):
                    pass

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.wake_r)
            os.close(self.wake_w)


class SessionDriver(LinuxDriver):
    """Textual's Linux driver with an input loop that sleeps until a byte comes.

    Textual's loop looks every 0.1 s whether to stop (most of an idle session's CPU, and an app took
    0.1-0.2 s to end after its last screen: a player leaving a table waited that long for the lobby, a
    stopping host for each of its apps), and spins on a terminal that has hung up. This one waits for
    a byte or the stop (:class:`WakingEvent`); after a byte, briefly, until the parser has had its time
    to tell a lone Esc from the start of a key's sequence. For a :class:`RemoteApp`, SIGTSTP stops
    nothing."""

    def __init__(
        self, app: Any, *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.session_app: App[Any] = app  # (our own reference: Textual's Driver keeps it private)
        if isinstance(app, RemoteApp):  # (Textual's answer to it is SIGSTOP: the host's process)
            signal.signal(signal.SIGTSTP, signal.SIG_IGN)
        self.exit_event = WakingEvent()
        self.debug_keys = debug

    def close(self) -> None:
        super().close()
        if isinstance(self.exit_event, WakingEvent):
            self.exit_event.close()

    def start_application_mode(self) -> None:
        super().start_application_mode()  # type: ignore[no-untyped-call]
        if os.environ.get(SHARED_VIEW_ENV):  # the watchers' shared view (mqtui.net.watchers)
            asyncio.get_running_loop().add_signal_handler(
                signal.SIGUSR1, lambda: self.session_app.call_later(self.whole_screen)
            )
            self.write(READY)
            self.flush()

    def whole_screen(self) -> None:
        """Write the whole screen after a marker, for the watchers who need all of it (the host asks with
        SIGUSR1): the screen is painted again, every cell of it (Textual's own update, of the screen's
        whole region), and the end marker follows once that is drawn. What else is drawn meanwhile is
        in the frame too: every watcher gets the frame's bytes (:mod:`mqtui.net.watchers`)."""
        self.write(FRAME_BEGIN)
        self.session_app.screen.refresh()
        self.session_app.call_after_refresh(self.frame_end)

    def frame_end(self) -> None:
        self.write(FRAME_END)
        self.flush()

    def run_input_thread(self) -> None:
        """Read the terminal, as Textual's thread does, until the exit event is set."""
        stop = self.exit_event
        assert isinstance(stop, WakingEvent)
        fileno = self.fileno
        parser = XTermParser(self.debug_keys)
        decode = getincrementaldecoder("utf-8")().decode
        selector = selectors.SelectSelector()
        selector.register(stop.wake_r, selectors.EVENT_READ)
        selector.register(fileno, selectors.EVENT_READ)
        reading = True
        settle = ESCAPE_DELAY  # (the parser's time for a lone Esc)
        quiet = 2  # waits without a byte since the last byte (the parser's timeout: two, to be sure)

        def read(final: bool = False) -> bool:
            """Feed what the terminal has; False at its end (EOF, or a hung-up terminal)."""
            try:
                data = os.read(fileno, 4096)
            except OSError:
                data = b""
            if not data:
                return False
            for event in parser.feed(decode(data, final=final)):
                self.process_message(event)
            return True

        try:
            while not stop.is_set():
                ready = selector.select(settle if quiet < 2 else None)
                got = reading and any(key.fd == fileno for key, _ in ready)
                if not stop.is_set() and any(key.fd == stop.wake_r for key, _ in ready):
                    stop.drain()  # (a wake-up left over: never a busy loop; a stop set meanwhile stays set)
                if got and not read():
                    reading = False
                    selector.unregister(fileno)  # at its end: wait for the stop only
                quiet = 0 if got else quiet + 1
                for event in parser.tick():
                    self.process_message(event)
            if reading and any(key.fd == fileno for key, _ in selector.select(0)):
                read(final=True)
            for event in parser.tick():
                self.process_message(event)
        finally:
            selector.close()
            with contextlib.suppress(Exception):
                for _event in parser.feed(""):
                    pass
