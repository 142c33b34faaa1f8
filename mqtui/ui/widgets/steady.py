"""Panes whose changes do not lay the whole screen out again (or twice).

Textual lays out the whole screen whenever a widget's scrollable (virtual) size changes. Two cases
cost a layout for nothing:

- a pane whose size the layout itself just changed (a footer key with new words, a pane that grew):
  its virtual size follows, and Textual asks for a second layout of the whole screen, which places
  everything where the first one did (``SteadySize``);
- a scrolling pane of a set size (not ``auto``) that got new lines (a log line written, an option
  list refilled): only its scroll bar needs drawing again, unless the bar appears or goes, which
  changes the room for the text (Textual's scroll-bar switch asks for that layout itself)
  (``SteadyScroll``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.widgets import ContentSwitcher

from mqtui.ui.textual_internals import update_scrollbars

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object


class SteadySize(_Base):
    """Mix in before a widget class (``class Pane(SteadySize, Static)``); for widgets that do not
    scroll (the layout that resized one has drawn it already)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)


class SteadySwitcher(SteadySize, ContentSwitcher):
    """A ContentSwitcher (it does not scroll) whose pane switched, or resized, is laid out once."""


class SteadyScroll(_Base):
    """Mix in before a scrolling widget class (``class Log(SteadyScroll, RichLog)``)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    _sized: object = None

    def lines_region(self) -> Region:
        """The pane's lines (in its own coordinates): neither its border nor its scroll bar."""
        lines = self.scrollable_content_region
        return Region(0, 0, lines.width, lines.height)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """(As Textual's scrolling views, but the lines drawn again for a new position leave out the bar.)"""
        if self.show_vertical_scrollbar:
            self.vertical_scrollbar.position = new_value
        if round(old_value) != round(new_value):
            self.refresh(self.lines_region())

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # Textual's scrolling views take every layout for a new size (they compare their parent's size
        # with their own) and draw their scroll bars again in the next frame; same sizes, same bars.
        sized = (size, virtual_size, container_size, self.styles.gutter)
        if sized == self._sized:
            return False
        self._sized = sized
        return super()._size_updated(size, virtual_size, container_size, layout)

    def watch_virtual_size(self, size: Size) -> None:
        if self.styles.auto_dimensions:  # the pane's own height follows its lines
            self.refresh(layout=True)
        elif self.is_mounted:
            update_scrollbars(self, size)  # the scroll bar (a layout only if it appears or goes)
