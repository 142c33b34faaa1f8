"""Check boxes and radio buttons whose state is in the text ("[x]", "(•)"), not in colour alone
(Textual's draw the same "X" or "●" on or off: under NO_COLOR they cannot be told apart)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox, RadioButton


def _drawn(button: Checkbox | RadioButton, marks: tuple[str, str]) -> Content:
    """The toggle as Textual draws it (its label after the button), the button ``marks`` (off, on)."""
    mark = Content.assemble((marks[button.value], button.get_visual_style("toggle--button")))
    label = button.label.pad(1, 1).stylize_before(button.get_visual_style("toggle--label"))
    return Content.assemble(mark, label)


class TextCheckbox(Checkbox):
    def render(self) -> Content:
        return _drawn(self, ("[ ]", "[x]"))


class TextRadioButton(RadioButton):
    def render(self) -> Content:
        return _drawn(self, ("( )", "(•)"))
