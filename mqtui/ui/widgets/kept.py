"""Panes that draw nothing when they are given the text they show already.

The hero sheet and the room lines are made again whenever what they are made from changes: the hero
(its hand, which the compact sheet does not show), the rooms, the monsters... Textual's ``update``
draws the whole pane (its border and every line) even when the new text is the one on show: ``Kept``
leaves the pane as it is then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

if TYPE_CHECKING:
    from textual.widgets import Static

    _Base = Static
else:
    _Base = object


def looks(text: Text) -> tuple[object, ...]:
    """All that makes how a Text is drawn (Rich's ``==`` compares only its characters and spans)."""
    return (text.plain, tuple(text.spans), text.style, text.justify, text.overflow, text.no_wrap, text.end)


class Kept(_Base):
    """Mix in before Static (``class Pane(Kept, Static)``): ``update`` with a Text drawn as the one on
    show does nothing. (Also after a resize: the layout that resized the pane drew it at its new size,
    so a pane that fits its text to its size again when resized draws nothing if the text is the same.)"""

    _kept: object = None

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        kept = looks(content) if isinstance(content, Text) else None
        if kept is not None and kept == self._kept:
            return  # (same lines: no layout either)
        self._kept = kept
        super().update(content, layout=layout)
