"""The only place mqtui reaches below Textual's and Rich's public API (and uses ``os._exit``).

Everything else in mqtui uses documented names only. Each entry here says why no public way does it,
which version it was checked against, and is guarded by ``tests/test_textual_internals.py``, which fails
(with the entry's name) as soon as an upgrade changes what the entry relies on. When a guard fails: read
the entry's note, check the new release's code, and fix or drop the entry.

Checked against: Textual 8.2.8, Rich 15.0.0.
"""

from __future__ import annotations

import os
from typing import Any, NoReturn

# -- 1. the terminal's key parser ------------------------------------------------------------------------
# The SSH session driver (mqtui.net.remote.SessionDriver) reads its terminal in its own input loop, which
# sleeps until a byte comes (Textual's polls ten times a second: most of an idle session's CPU) and stops
# on a hung-up terminal (Textual's spins). It turns bytes into key events with Textual's own parser, the
# one LinuxDriver uses: only ``XTermParser(debug)``, ``feed(text)`` and ``tick()``, whose meaning Textual's
# drivers rely on too. (Textual 8.2.8: textual/_xterm_parser.py; no public name for it.)
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.dom import DOMNode
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import RichLog

__all__ = [
    "ActionGate",
    "XTermParser",
    "exit_at_once",
    "forget_log_lines",
    "log_line",
    "log_size_known",
    "update_scrollbars",
]


# -- 2. one gate for every key binding's state ------------------------------------------------------------
class ActionGate(App[Any]):
    """An app that can refuse an action of a binding for every node at once: ``allows_action(action, node)``.

    Textual asks ``node.check_action`` of the node that owns a binding, never the app, both when a key is
    pressed (``App.run_action``: public, and overridden here) and when it shows the keys
    (``Screen.active_bindings``, the footer, the keys panel: through ``App._check_action_state``). The
    latter has no public hook, so an app served over SSH would show keys it refuses ("^z Undo" to a
    spectator). (Textual 8.2.8: ``App._check_action_state(action, default_namespace)``, called for each
    binding by ``Screen.active_bindings``.)"""

    def allows_action(self, action: str, node: DOMNode) -> bool:
        return True

    def _check_action_state(self, action: str, default_namespace: DOMNode) -> bool | None:
        if not self.allows_action(action, default_namespace):
            return False
        return super()._check_action_state(action, default_namespace)

    async def run_action(
        self, action: Any, default_namespace: DOMNode | None = None, namespaces: Any = None
    ) -> bool:
        if isinstance(action, str) and not self.allows_action(action, default_namespace or self):
            return False
        return await super().run_action(action, default_namespace, namespaces)


# -- 3. RichLog's line store ---------------------------------------------------------------------------------
# The game log (mqtui.ui.widgets.log.GameLog) is a RichLog that writes its wrapped lines itself (a whole
# log wrapped once, a hot-seat hand-off taking back another seat's lines, an undo dropping the newest
# entries' lines): RichLog has ``write`` and ``clear`` only. After setting ``lines`` it must forget the
# lines RichLog drew from the old ones, and it draws each line as RichLog does, keeping the styled copy.
# (Textual 8.2.8: textual/widgets/_log.py ``RichLog._line_cache``, ``_deferred_renders``, ``_size_known``,
# ``_render_line(y, scroll_x, width)``.) The way out: a ScrollView of its own (docs/textual.md).


def log_size_known(log: RichLog) -> bool:
    """Whether the log knows its width (RichLog defers writes until it does)."""
    return bool(getattr(log, "_size_known", True))


def forget_log_lines(log: RichLog) -> None:
    """After ``log.lines`` was set: RichLog draws every line afresh, and drops writes it had deferred."""
    log._line_cache.clear()
    log._deferred_renders.clear()


def log_line(log: RichLog, y: int, scroll_x: int, width: int) -> Strip:
    """Line ``y`` of the log's lines as RichLog draws it (cropped from ``scroll_x``, ``width`` cells)."""
    return log._render_line(y, scroll_x, width)


# -- 4. a scrolling widget's scroll bars ---------------------------------------------------------------------
# A pane of a set size whose virtual size changed (new lines) updates its scroll bars without the layout of
# the whole screen Textual would ask for (mqtui.ui.widgets.steady.SteadyScroll). (Textual 8.2.8:
# ``Widget._scroll_update(virtual_size)``, what Widget._size_updated calls.)


def update_scrollbars(widget: Widget, virtual_size: Size) -> None:
    widget._scroll_update(virtual_size)


# -- 5. ending a process at once ----------------------------------------------------------------------------
# ``os._exit`` is documented Python (its underscore is historical), but it skips what ``sys.exit`` does:
# Python's wait for every thread, atexit handlers, flushing. That is the point twice: a session's process
# (forked by the fork server, mqtui.net.remote.run_program) must end with its app even if Textual's input
# thread still spins on a hung-up terminal, and after SIGHUP (mqtui.ui.signals) there is no terminal left
# for Textual's shutdown to write to (seen to hang). Callers flush what they need first.


def exit_at_once(code: int) -> NoReturn:
    """End this process now with ``code``: no thread waited for, no atexit handler, nothing flushed."""
    os._exit(code)
