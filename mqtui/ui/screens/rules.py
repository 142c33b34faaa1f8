"""The rules reference: docs/rules.md shown with Textual's Markdown viewer."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, MarkdownViewer

from mqtui.paths import DOCS_DIR
from mqtui.ui.screens.steady import StyledAtMount

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
        yield MarkdownViewer(rules_markdown(), show_table_of_contents=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).document.focus()

    def action_toc(self) -> None:
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_close(self) -> None:
        self.app.pop_screen()
