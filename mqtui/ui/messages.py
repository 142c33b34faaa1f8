"""Messages that panes and screens send each other."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message

from mqtui.engine.actions import Action
from mqtui.store import Snapshot


class SnapshotArrived(Message):
    """The store published a new snapshot (posted from the store's listener)."""

    def __init__(self, snapshot: Snapshot) -> None:
        super().__init__()
        self.snapshot = snapshot


class ActionChosen(Message):
    """A pane asks the game screen to send this action to the store."""

    def __init__(self, action: Action) -> None:
        super().__init__()
        self.action = action


class ActionsOffered(Message):
    """A pane offers several actions for one choice (the game screen asks the player which)."""

    def __init__(self, title: str, actions: list[Action]) -> None:
        super().__init__()
        self.title = title
        self.actions = actions


class RoomSelected(Message):
    """The map cursor moved to a cell (placed or not)."""

    def __init__(self, x: int, y: int) -> None:
        super().__init__()
        self.x = x
        self.y = y


class Explain(Message):
    """A pane wants to tell why something cannot be done now (with the store's reason for ``action``)."""

    def __init__(self, text: str, action: Action | None = None) -> None:
        super().__init__()
        self.text = text
        self.action = action


class CardHighlighted(Message):
    """The hand's highlighted card changed (its full text goes under the hand)."""

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text


class CharityRequested(Message):
    """A pane asks the game screen for the charity dialog (choose the cards over the hand limit)."""
