"""Option lists that keep their options' drawn lines (``KeptOptions``) still draw what they hold: set
again, reordered, with a prompt replaced, or clicked."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import OptionList

from mqtui.ui.widgets.options import KeptOptions


class Kept(KeptOptions, OptionList):
    pass


class OptionsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        yield Kept()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.chosen.append(event.option_index)


def drawn(pane: Kept) -> list[str]:
    return [pane.render_line(y).text.rstrip() for y in range(pane.option_count)]


def show(pane: Kept, words: list[str]) -> None:
    pane.set_options(pane.kept_option(Text(w), id=w) for w in words)


async def test_kept_options_draw_what_they_hold() -> None:
    app = OptionsApp()
    async with app.run_test(size=(30, 10)) as pilot:
        pane = app.query_one(Kept)
        show(pane, ["Pass", "End phase", "Search"])
        await pilot.pause()
        first = pane.get_option_at_index(0)
        assert drawn(pane) == ["Pass", "End phase", "Search"]
        show(pane, ["Pass", "End phase", "Search"])
        assert pane.get_option_at_index(0) is first  # the same words: the same option
        await pilot.pause()
        assert drawn(pane) == ["Pass", "End phase", "Search"]
        show(pane, ["Search", "Pass"])  # new places (the same options: ids follow the words, as cards)
        await pilot.pause()
        assert drawn(pane) == ["Search", "Pass"]
        await pilot.click(Kept, offset=(2, 1 + pane.gutter.top))
        await pilot.pause()
        assert app.chosen == [1]  # a kept line still says which option it is, in its new place
        pane.replace_option_prompt_at_index(1, Text("Pass (whole)"))
        await pilot.pause()
        assert drawn(pane) == ["Search", "Pass (whole)"]
        show(pane, ["Search", "Pass"])  # the replaced option is not handed out for "Pass" again
        await pilot.pause()
        assert drawn(pane) == ["Search", "Pass"]
