"""A pane's content in parts, each part drawn once for its width and kept (a ``Visual``).

A Static showing ``Group(a, b, c)`` draws all of it again when any part changes: the combat pane's
header, its table of both sides and its notes are drawn again for each player who passes in a fight
window, though only the "still to decide" note changed. ``Parts`` draws each part on its own (the
same lines a Group gives: each part starts on a new line) and keeps the lines of each part by a key
that says what the part shows (``PartCache``), so a new note draws only the note.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual, Visual

if TYPE_CHECKING:
    from textual.css.styles import RulesMap
    from textual.widget import Widget

Part = tuple[Hashable, RenderableType]
"""A key that says what a part shows (two parts with one key look the same), and the part."""


class PartCache:
    """The lines of parts already drawn, by (key, width, base style); a widget keeps one."""

    LIMIT = 64

    def __init__(self) -> None:
        self._lines: dict[tuple[Hashable, int, object], list[Strip]] = {}

    def lines(
        self, widget: Widget, part: Part, width: int, style: Style, options: RenderOptions | None
    ) -> list[Strip]:
        key = (part[0], width, style.rich_style)
        lines = self._lines.get(key)
        if lines is None:
            if len(self._lines) >= self.LIMIT:
                self._lines.clear()
            if options is None:  # (as Visual.to_strips passes them; RichVisual looks up no style by name)
                options = RenderOptions(_style, widget.styles)  # type: ignore[arg-type]
            lines = self._lines[key] = RichVisual(widget, part[1]).render_strips(width, None, style, options)
        return lines

    def clear(self) -> None:
        self._lines.clear()


class Parts:
    """What a Static shows (``static.update(Parts(...))``): the parts one under another, as
    ``Group(*parts)`` would show them. Printed to a Rich console, it is that Group."""

    def __init__(self, widget: Widget, cache: PartCache, parts: Sequence[Part]) -> None:
        self.widget = widget
        self.cache = cache
        self.parts = tuple(parts)

    def visualize(self) -> Visual:
        return PartsVisual(self)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Group(*(renderable for _key, renderable in self.parts))


class PartsVisual(Visual):
    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    def lines(self, width: int, style: Style, options: RenderOptions | None = None) -> list[Strip]:
        """Every line of the parts at ``width`` (``render_strips`` gives as many as fit a height)."""
        p = self.parts
        return [line for part in p.parts for line in p.cache.lines(p.widget, part, width, style, options)]

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        strips = self.lines(width, style, options)
        return strips if height is None else strips[:height]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return RichVisual(self.parts.widget, Group(*(r for _k, r in self.parts.parts))).get_optimal_width(
            rules, container_width
        )

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines(width, self.parts.widget.visual_style, None))


def changed_rows(widget: Widget, old: object, new: Parts) -> list[int] | None:
    """The rows of ``widget``'s content that ``new`` draws differently from ``old`` (a row of a part
    drawn before is the very same Strip); None when that is not known (``old`` is not Parts) or the
    pane's height follows its lines and their number changed (a layout, and the whole pane drawn)."""
    if not isinstance(old, Parts) or old.cache is not new.cache:
        return None
    width, style = widget.size.width, widget.visual_style
    before = PartsVisual(old).lines(width, style)
    after = PartsVisual(new).lines(width, style)
    if len(before) != len(after) and widget.styles.auto_dimensions:
        return None
    rows = min(max(len(before), len(after)), widget.size.height)
    return [y for y in range(rows) if y >= len(before) or y >= len(after) or before[y] is not after[y]]


def _style(style: str | Style) -> Style:
    return style if isinstance(style, Style) else Style.parse(style)
