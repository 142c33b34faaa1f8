"""A screen that opens with one styling and one layout (what every UI test and first screen pays).

Textual styles a new screen's widgets as they mount, then again when the screen is first shown
(``ScreenResume``), and again when its breakpoint classes arrive with its first ``Resize``; and at
start it sends the same size twice, each time laying the whole screen out again. A
:class:`SteadyScreen` has its breakpoint classes from the start (the panes mount styled for the size
the screen opens at), skips the restyle of its first showing, and lets the ``Resize`` its own layout
sends it go by when it is laid out at that size with the breakpoint classes it has. A real resize is
handled as before; the breakpoint classes change first, so :meth:`SteadyScreen.resized` reads the
new ones.

:class:`StyledAtMount` gives any other screen (the dialogs, the reference screens) the first part:
no restyle of the whole screen when it is first shown, a moment after its widgets were styled as
they mounted.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.geometry import Size
from textual.screen import Screen

ResultType = TypeVar("ResultType")


class StyledAtMount:
    """Mixed into a screen class (before ``Screen`` or ``ModalScreen``): its first showing does not
    style its widgets again. Textual sends a pushed screen ``ScreenResume`` as it pushes it; the
    screen's widgets are styled as they mount (its ``DEFAULT_CSS`` comes with it, before), and a
    change of their classes or pseudo classes after that restyles them itself. Later showings (a
    screen shown again) are as Textual does them. (Textual 8.2.8: ``App.push_screen``,
    ``Screen._on_screen_resume``; ``tests/test_ui_styles.py`` counts the stylings.)"""

    _styled_at_mount = True

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._styled_at_mount:
            self._styled_at_mount = False
            event.refresh_styles = False


class SteadyScreen(Screen[ResultType]):
    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        self._shown_once = False

    def on_compose(self) -> None:
        """(Before Textual's own handler composes the screen and mounts its widgets.)"""
        self.update_classes(self.breakpoint_classes(self.app.size))

    def breakpoint_classes(self, size: Size) -> dict[str, bool]:
        """The breakpoint classes for ``size``, each on or off (as Textual sets them on a resize)."""
        across, down = self.HORIZONTAL_BREAKPOINTS, self.VERTICAL_BREAKPOINTS  # (None: the app's)
        across = self.app.HORIZONTAL_BREAKPOINTS if across is None else across
        down = self.app.VERTICAL_BREAKPOINTS if down is None else down
        classes: dict[str, bool] = {}
        for points, length in ((across or [], size.width), (down or [], size.height)):
            chosen = max((point for point in points if length >= point[0]), default=None)
            classes.update((name, (at, name) == chosen) for at, name in points)
        return classes

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._shown_once:  # its widgets were styled as they mounted, a moment ago
            self._shown_once = True
            event.refresh_styles = False

    def on_resize(self, event: events.Resize) -> None:
        classes = self.breakpoint_classes(event.size)
        if (
            event is not getattr(self.app, "terminal_resize", event)
            and event.size == self.size
            and all(self.has_class(name) == on for name, on in classes.items())
        ):
            # Laid out at this size already (the Resize its first layout sends it): no second layout.
            # (Never the terminal's Resize: the app hands that one event to every screen, and this
            # would stop it for all of them. MQApp passes on no Resize of the size it has already.)
            event.prevent_default()
        else:
            self.update_classes(classes)
        self.resized()

    def resized(self) -> None:
        """After a resize, with the breakpoint classes of the new size."""
