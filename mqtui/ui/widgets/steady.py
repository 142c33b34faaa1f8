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

And the scroll bar of such a pane is drawn again only when it looks different (``QuietBar``): a log
that grows by a line while it shows its end moves its bar's thumb by less than a cell, mostly.
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING

from rich.console import RenderableType
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.widgets import ContentSwitcher

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


class QuietBar(ScrollBar):
    """A scroll bar drawn again when it looks different, not whenever its numbers change."""

    window_virtual_size: Reactive[int] = Reactive(100, repaint=False)
    window_size: Reactive[int] = Reactive(0, repaint=False)
    position: Reactive[float] = Reactive(0, repaint=False)
    _drawn: object = None  # how the bar looked when it was last drawn
    _pending = False

    def _look(self) -> object:
        """The bar's cells for its numbers now (as ``ScrollBar.render`` draws them, in any colours)."""
        virtual = self.window_virtual_size
        window = self.window_size if self.window_size < virtual else 0
        size = self.size.height if self.vertical else self.size.width
        bar = ScrollBarRender.render_bar(
            size, ceil(virtual), ceil(window), self.position, self.thickness, self.vertical
        )
        return self.size, tuple(bar.segments)

    def _changed(self) -> None:
        # (looked at once the numbers have all changed: a new line changes the size, then the position)
        if not self._pending:
            self._pending = True
            self.call_later(self._relook)

    def _relook(self) -> None:
        self._pending = False
        if self._look() != self._drawn:
            self.refresh()

    def _watch_window_virtual_size(self) -> None:
        self._changed()

    def _watch_window_size(self) -> None:
        self._changed()

    def _watch_position(self) -> None:
        self._changed()

    def render(self) -> RenderableType:
        self._drawn = self._look()
        return super().render()


class SteadyScroll(_Base):
    """Mix in before a scrolling widget class (``class Log(SteadyScroll, RichLog)``)."""

    def _scroll_update(self, virtual_size: Size) -> None:
        """(As Textual's, but the bar is not asked to redraw: it does so when it looks different.)"""
        bar = self.vertical_scrollbar if self.show_vertical_scrollbar else None
        if not isinstance(bar, QuietBar) or self.show_horizontal_scrollbar:
            super()._scroll_update(virtual_size)
            return
        self._refresh_scrollbars()
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            bar.window_virtual_size = virtual_size.height
            bar.window_size = self.container_size.height - self.scrollbar_size_horizontal
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """(As Textual makes it, a ``QuietBar``.)"""
        if self._vertical_scrollbar is None:
            bar = QuietBar(vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)
            bar.display = False
            self._vertical_scrollbar = bar
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    _sized: object = None

    def lines_region(self) -> Region:
        """The pane's lines (in its own coordinates): neither its border nor its scroll bar, which draws
        itself when it looks different (a region across its column would draw it again as well)."""
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
            self._scroll_update(size)  # the scroll bar (a layout only if it appears or goes)
