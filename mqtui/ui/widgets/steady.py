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

from textual.containers import Horizontal, Vertical
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


class SteadyHorizontal(SteadySize, Horizontal):
    """A Horizontal (it does not scroll) whose panes resized is laid out once."""


class SteadyVertical(SteadySize, Vertical):
    """A Vertical (it does not scroll) whose panes resized is laid out once."""


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


class OutOfView(SteadyScroll):
    """Mix in instead of ``SteadyScroll`` before an OptionList whose CSS hides its scroll bar
    (``overflow-y: hidden``): its subtitle says how many of its entries are out of view above and
    below ("7 in hand · ↑1 ↓3 more"): the words say how many where a bar's thumb only hints, and a
    pane whose height a fight changes is laid out once (Textual lays the screen out again for a
    scroll bar that changed size, appeared or went)."""

    subtitle_words = ""  # what the subtitle says before the entries out of view

    def entry_lines(self) -> list[int]:
        """The line each entry (what the count counts) starts on."""
        return []

    @property
    def allow_vertical_scroll(self) -> bool:
        # (with no scroll bar Textual would not scroll the pane by the mouse's wheel)
        return not self.disabled and self.max_scroll_y > 0

    def say_out_of_view(self) -> None:
        top, rows = round(self.scroll_y), self.scrollable_content_region.height
        lines = self.entry_lines() if rows > 0 else []
        above = sum(1 for line in lines if line < top)
        below = sum(1 for line in lines if line >= top + rows)
        more = " ".join(word for word in (f"↑{above}" if above else "", f"↓{below}" if below else "") if word)
        words = " · ".join(part for part in (self.subtitle_words, f"{more} more" if more else "") if part)
        if words != self.border_subtitle:  # (setting it draws the whole pane again)
            self.border_subtitle = words

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.say_out_of_view()

    def watch_virtual_size(self, size: Size) -> None:
        super().watch_virtual_size(size)
        self.say_out_of_view()

    def on_resize(self) -> None:
        self.say_out_of_view()
