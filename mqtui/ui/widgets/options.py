"""Option lists whose options, made again with the same words, are not drawn again.

The actions and hand panes set all their options again for each snapshot that changes them, and an
OptionList forgets every option's drawn lines when its options are set: a player's next decision
draws "1 Pass", "2 End phase"... again, though most of them read as before. ``KeptOptions`` hands out
the same ``Option`` for the same prompt (it keeps its Textual visual and its height), and keeps each
option's drawn lines by the option, its place, its style and the room it had.

Setting the options also redraws the whole pane, its border and every row, though "Waiting for Bo…"
becoming "Waiting for Cy…" changes one row. Changes made in ``rows_only()`` redraw only the rows
that show something else (each row's option, words, line and highlight, before and after), unless
something else asked for the whole pane (a new title, a layout, a redraw asked for before).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.text import Text
from textual.geometry import Region
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from textual.strip import Strip
    from textual.style import Style
    from textual.widgets import OptionList

    _Base = OptionList
else:
    _Base = object

LIMIT = 512  # options (and drawn options) kept at most; then forgotten all at once


class KeptOptions(_Base):
    """Mix in before an OptionList class (``class Pane(KeptOptions, OptionList)``)."""

    _made: dict[tuple[Hashable, str | None, bool], tuple[Option, Text]] | None = None
    _drawn: dict[tuple[object, ...], tuple[object, list[Strip]]] | None = None

    def kept_option(
        self,
        prompt: Text | Callable[[], Text],
        *,
        id: str | None = None,
        disabled: bool = False,
        key: Hashable = None,
    ) -> Option:
        """An option showing ``prompt``: the one made before for the same words and styles, if its
        prompt was not replaced since. With ``key`` (what the prompt is made from: the same key, the
        same words and styles), ``prompt`` may be a function that makes it, called only when no
        option was kept for that key."""
        if self._made is None or len(self._made) > LIMIT:
            self._made = {}
        if key is None:
            assert isinstance(prompt, Text)
            key = prompt.markup
        made = self._made.get((key, id, disabled))
        if made is not None and made[0].prompt is made[1]:
            return made[0]
        text = prompt if isinstance(prompt, Text) else prompt()
        option = Option(text, id=id, disabled=disabled)
        self._made[(key, id, disabled)] = (option, text)
        return option

    def forget_options(self) -> None:
        """Forget the options kept (their prompts' styles changed: a new theme)."""
        self._made = None

    def _get_option_render(self, option: Option, style: Style) -> list[Strip]:
        if self._drawn is None or len(self._drawn) > LIMIT:
            self._drawn = {}
        visual = self._get_visual(option)  # (a new one when the option's prompt is replaced)
        padding = self.get_component_styles("option-list--option").padding
        key = (option, self._option_to_index[option], style, padding, self.scrollable_content_region.width)
        drawn = self._drawn.get(key)
        if drawn is None or drawn[0] is not visual:
            drawn = self._drawn[key] = (visual, super()._get_option_render(option, style))
        return drawn[1]

    def _rows(self, height: int) -> list[object]:
        """What each row shows now: its option, the option's words, its place, which of its lines and
        how it is lit (as OptionList.render_line picks the row's line; the pane's own style and width
        are the same before and after)."""
        lines = self._lines
        top = self.scroll_offset.y
        rows: list[object] = []
        for y in range(top, top + height):
            if y >= len(lines):
                rows.append(None)  # a blank row
                continue
            index, line = lines[y]
            option = self.options[index]
            lit = option.disabled, self.highlighted == index, self._mouse_hovering_over == index
            rows.append((option, option.prompt, index, line, lit))
        return rows

    def _titles(self) -> tuple[object, ...]:
        return tuple(
            None if title is None else (title.plain, tuple(title.spans))
            for title in (self._border_title, self._border_subtitle)
        )

    @contextmanager
    def rows_only(self) -> Iterator[None]:
        """Redraw only the rows that the changes made inside change (see the module's note)."""
        if not self.is_mounted or self._repaint_regions or self._layout_required or not self.size:
            yield  # (not drawn yet, or already to be drawn whole)
            return
        size, height, titles = self.size, self.scrollable_content_region.height, self._titles()
        before = self._rows(height)
        yield
        if self.size != size or self._layout_required or self._titles() != titles:
            return  # drawn whole, as the changes asked
        after = self._rows(height)
        width = self.scrollable_content_region.width
        changed = [y for y, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
        self._repaint_regions.clear()
        if changed:
            self._set_dirty(*(Region(0, y, width, 1) for y in changed))
