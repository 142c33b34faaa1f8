"""Check boxes and radio buttons whose state is in the text ("[x]", "(•)"), not in colour alone
(Textual's draw the same "X" or "●" on or off: under NO_COLOR they cannot be told apart)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox, RadioButton


class TextCheckbox(Checkbox):
    @property
    def _button(self) -> Content:
        return Content.assemble(("[x]" if self.value else "[ ]", self.get_visual_style("toggle--button")))


class TextRadioButton(RadioButton):
    @property
    def _button(self) -> Content:
        return Content.assemble(("(•)" if self.value else "( )", self.get_visual_style("toggle--button")))
