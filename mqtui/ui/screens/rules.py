"""The rules reference: docs/rules.md shown with Textual's Markdown viewer."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Markdown, MarkdownViewer
from textual.widgets.markdown import MarkdownTableOfContents

from mqtui.paths import DOCS_DIR
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.widgets.footer import QuietFooter

MISSING = """\
# Rules

The full rules reference (`docs/rules.md`) is not installed here.

## The game in a nutshell

* **Goal:** be the first hero to reach **Level 10** (only by killing a monster), then return to the
  Entrance and beat the **Level 20 boss**.
* **Your turn:** draw a DxM card, then spend your **3 Moves**: go through passages and doors
  (1 Move), locked or hidden doors (3), explore unknown space (a new room and a new monster appear),
  search a room, take its Deal, pick up loot. Space ends your action phase.
* **Combat:** your Level plus your items against the monsters' Levels; each side adds a d6; you must
  be **higher** to win. Anyone may play cards to change the fight; you may ask a hero nearby to help.
* **Win:** gain levels and Treasure. **Lose:** lose 1 Life, roll to escape each monster's Bad Stuff,
  then flee. At 0 Life you die and come back at the Entrance.
* **Charity:** more than 5 cards in hand at the end of your turn? Give the extras to the lowest-level
  hero.
* **Monster phase:** the colour die picks a colour; every monster follows its room's arrow of that
  colour.
"""


def rules_path() -> Path:
    return DOCS_DIR / "rules.md"


def rules_markdown() -> str:
    try:
        return rules_path().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return MISSING


def focus_styles_inside(stylesheet: Stylesheet, node: DOMNode) -> bool:
    """Whether a rule could style something inside ``node`` by ``node``'s focus: a selector with
    ``:focus`` that ``node`` may match (by type, class or id) with more of the selector after it."""
    return any(
        "focus" in selector.pseudo_classes and selector._check(node)
        for rule in stylesheet.rules
        if "focus" in rule.pseudo_classes
        for selectors in rule.selector_set
        for selector in selectors.selectors[:-1]
    )


class RulesText(Markdown):
    """The rules text, focused so that the arrow and page keys scroll it.

    Textual styles a widget and everything in it again when it gains or loses the focus (a rule may
    style what is inside a focused widget): here that is the ~400 blocks of the rules, each time the
    screen opens and closes, about half a CPU-second each. No rule styles them by the text's focus
    (``focus_styles_inside``), so only the text itself is styled again; should a rule ever do so,
    everything is, as Textual does it. (Textual 8.2.8: ``Widget.watch_has_focus``,
    ``App.update_styles``.)"""

    def watch_has_focus(self, has_focus: bool) -> None:
        try:
            stylesheet = self.app.stylesheet
        except RuntimeError:  # (Textual's NoActiveAppError: no app, as the widget goes)
            return
        if focus_styles_inside(stylesheet, self):
            super().watch_has_focus(has_focus)
        else:
            stylesheet.update_nodes([self], animate=True)


class RulesViewer(MarkdownViewer):
    """Textual's Markdown viewer, its document a :class:`RulesText`."""

    def __init__(self, markdown: str, *, show_table_of_contents: bool = True) -> None:
        super().__init__(markdown, show_table_of_contents=show_table_of_contents)

    def compose(self) -> ComposeResult:
        text = RulesText()
        text.can_focus = True
        yield text
        yield MarkdownTableOfContents(text)


class RulesScreen(StyledAtMount, Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back", id="rules.close"),
        Binding("q", "close", "Back", show=False, id="rules.close2"),
        Binding("t", "toc", "Contents", id="rules.toc"),
    ]
    DEFAULT_CSS = """
    RulesScreen MarkdownViewer { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield RulesViewer(rules_markdown(), show_table_of_contents=False)
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).document.focus()

    def action_toc(self) -> None:
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_close(self) -> None:
        self.app.pop_screen()
