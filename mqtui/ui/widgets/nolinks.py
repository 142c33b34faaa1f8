"""Panes without clickable links.

Textual looks for ``@click`` links in every line a widget draws (``auto_links``): each line is copied,
segment by segment, to light the link under the mouse. Our panes show no such links (keys do
everything), so that copy gives the very same line: ``NoLinks`` turns the search off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.reactive import Reactive

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object


class NoLinks(_Base):
    """Mix in before a widget class (``class Pane(NoLinks, Static)``)."""

    auto_links: Reactive[bool] = Reactive(False)
