"""Charity in one dialog: choose all the cards over the hand limit at once (space marks a card,
Enter gives or discards the marked ones), instead of one card at a time."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from mqtui.engine.cards import CardTable
from mqtui.ui.describe import card_kind, card_name
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.widgets.footer import QuietFooter


class CharityDialog(StyledAtMount, ModalScreen[list[int] | None]):
    """Mark exactly ``n`` cards of the hand; Enter confirms, Esc puts the choice off."""

    BINDINGS = [
        Binding("enter", "confirm('give')", "Give marked", id="charity.give", priority=True),
        Binding("enter", "confirm('discard')", "Discard marked", id="charity.discard", priority=True),
        Binding("space", "mark", "Mark/unmark", id="charity.mark", priority=True),
        Binding("escape", "later", "Later", id="charity.later"),
    ]
    DEFAULT_CSS = """
    CharityDialog { align: center middle; }
    CharityDialog > Vertical { width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $panel; padding: 0 1; }
    CharityDialog #title { width: 1fr; text-style: bold; }
    CharityDialog #count { width: 1fr; margin-top: 1; }
    CharityDialog OptionList { height: auto; max-height: 14; border: none; padding: 0; }
    """

    def __init__(self, cards: CardTable, hand: list[int], n: int, to: str) -> None:
        """``to``: the hero who gets the cards ("": they are discarded)."""
        super().__init__()
        self.cards = cards
        self.hand = hand
        self.n = n
        self.to = to
        self.marked: list[int] = []  # in the order marked
        # kept, not queried: the game can close this dialog before it has finished opening (the charity
        # ended elsewhere, a hand-off), and then it is mounted without its children
        self._options = OptionList(*[Option(self._prompt(u), id=f"card-{u}") for u in hand])
        self._count_label = Label(id="count")

    def compose(self) -> ComposeResult:
        what = f"give {self.n} to {self.to}" if self.to else f"discard {self.n}"
        with Vertical() as box:
            box.border_title = "Charity"
            yield Label(
                f"You hold {len(self.hand)} cards, {len(self.hand) - self.n} at most: {what}.", id="title"
            )
            yield self._options
            yield self._count_label
        yield QuietFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._count()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "confirm":  # the footer names what Enter does: give or discard
            return (parameters[0] == "give") == bool(self.to)
        return True

    def _prompt(self, uid: int) -> Text:
        mark = "[x] " if uid in self.marked else "[ ] "  # the state in text, not in colour alone
        return Text.assemble(mark, (card_name(self.cards, uid), "bold"), f" — {card_kind(self.cards, uid)}")

    def _chosen(self) -> list[int]:
        return list(self.marked)

    def _count(self) -> None:
        left = self.n - len(self._chosen())
        verb = "give" if self.to else "discard"
        if left > 0:
            text = f"Marked {self.n - left} of {self.n}: mark {left} more (space)."
        elif left < 0:
            text = f"Marked {self.n - left}: {-left} too many (space unmarks)."
        else:
            text = f"Marked {self.n}: Enter to {verb} them."
        self._count_label.update(text)

    def action_mark(self) -> None:
        options = self._options
        i = options.highlighted
        if i is None:
            return
        uid = self.hand[i]
        if uid in self.marked:
            self.marked.remove(uid)
        else:
            self.marked.append(uid)
        options.replace_option_prompt_at_index(i, self._prompt(uid))
        self._count()

    def action_confirm(self, _verb: str = "") -> None:
        chosen = self._chosen()
        if len(chosen) != self.n:
            self.notify(f"Mark exactly {self.n} cards first.", severity="warning")
            return
        self.dismiss(chosen)

    def action_later(self) -> None:
        self.dismiss(None)
