"""Messages that panes and screens send each other (Textual messages as dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message

from mqtui.engine.actions import Action
from mqtui.store import Snapshot


@dataclass
class SnapshotArrived(Message):
    """The store published a new snapshot (posted from the store's listener)."""

    snapshot: Snapshot


@dataclass
class ActionChosen(Message):
    """A pane asks the game screen to send this action to the store."""

    action: Action


@dataclass
class ActionsOffered(Message):
    """A pane offers several actions for one choice (the game screen asks the player which)."""

    title: str
    actions: list[Action]


@dataclass
class RoomSelected(Message):
    """The map cursor moved to a cell (placed or not)."""

    x: int
    y: int


@dataclass
class Explain(Message):
    """A pane wants to tell why something cannot be done now (with the store's reason for ``action``)."""

    text: str
    action: Action | None = None


@dataclass
class CardHighlighted(Message):
    """The hand's highlighted card changed (its full text goes under the hand)."""

    text: Text


class CharityRequested(Message):
    """A pane asks the game screen for the charity dialog (choose the cards over the hand limit)."""
