"""Option lists whose options, made again with the same words, are the same options.

The actions and hand panes set all their options again for each snapshot that changes them: a
player's next decision makes "1 Pass", "2 End phase"... again, though most of them read as before.
``KeptOptions`` hands out the same ``Option`` for the same prompt (it keeps its Textual visual and its
height). (It also kept each option's drawn lines and redrew only the rows that changed, through
OptionList's private parts: bench/redraw.py measured 7-13% for both, under the 20% that keeps an
internal; see docs/textual.md.)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from textual.strip import Strip
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
