"""Choosing the content packs of a new game: every installed pack that loads, ticked or not.

Broken packs (their files have errors) are listed below, left out, with their first error."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from mqtui.packs import Pack
from mqtui.ui.screens.dialog import Dialog


class PackChooser(Dialog[list[str]]):
    """Tick packs (Space), Enter: done, Escape: no change. Dismisses with the chosen pack names.

    A ticked pack shows ``[x]``, an unticked one ``[ ]``: not colour alone (NO_COLOR, screen readers)."""

    BINDINGS = [
        Binding("space", "tick", "Tick", id="packs.tick"),
        Binding("enter", "done", "Done", id="packs.done", priority=True),
    ]
    DEFAULT_CSS = """
    PackChooser > Vertical { width: 72; max-height: 90%; }
    PackChooser #packs-title { text-style: bold; margin-bottom: 1; }
    PackChooser OptionList { height: auto; max-height: 12; border: none; }
    PackChooser #broken { color: $warning; height: auto; }
    PackChooser .hint { color: $foreground 70%; }
    """

    def __init__(self, packs: Sequence[Pack], chosen: Sequence[str]) -> None:
        super().__init__()
        self.packs = [p for p in packs if p.ok]
        self.broken = [p for p in packs if not p.ok]
        self.chosen = [name for name in chosen if any(p.name == name for p in self.packs)]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Content packs for this game", id="packs-title")
            if self.packs:
                yield OptionList(*[Option(self._prompt(p)) for p in self.packs], id="pack-list")
            else:
                yield Static("No packs are installed.")
            if self.broken:
                lines = [f"Left out (broken): {p.name}: {p.errors[0]}" for p in self.broken]
                yield Static(Text("\n".join(lines)), id="broken")
            yield Label("Space: tick or untick · Enter: done · Esc: no change", classes="hint")

    def _prompt(self, pack: Pack) -> Text:
        box = "[x] " if pack.name in self.chosen else "[ ] "
        about = f"  {pack.description}" if pack.description else ""
        text = Text.assemble((box, "bold"), (pack.label, "bold"), (about, "dim"))
        return text

    def action_tick(self) -> None:
        if not self.packs:
            return
        options = self.query_one("#pack-list", OptionList)
        if options.highlighted is None:
            return
        pack = self.packs[options.highlighted]
        if pack.name in self.chosen:
            self.chosen.remove(pack.name)
        else:
            self.chosen.append(pack.name)
        options.replace_option_prompt_at_index(options.highlighted, self._prompt(pack))

    def action_done(self) -> None:
        self.dismiss([p.name for p in self.packs if p.name in self.chosen])  # in the listed order
