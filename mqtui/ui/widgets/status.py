"""The status line at the top of the game screen: the round, whose turn, and what to do now."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from mqtui.store import Seat, Snapshot
from mqtui.ui.describe import prompt
from mqtui.ui.widgets.nolinks import NoLinks


class StatusBar(NoLinks, Static):
    DEFAULT_CSS = """
    StatusBar { height: 1; background: $primary 30%; color: $foreground; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    StatusBar.-yours { background: $accent 45%; text-style: bold; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, seats: tuple[Seat, ...], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seats = seats
        self._key: object = None
        self._text: Text | None = None  # the prompt on show (None: the countdown, or nothing yet)

    def countdown(self, left: int) -> None:
        """Say that the fight window passes by itself in ``left`` seconds (0: back to the prompt)."""
        self._key = self._text = None
        if left <= 0:
            self.watch_snapshot(self.snapshot)
            return
        self.set_class(True, "-yours")
        self.update(
            Text.assemble(
                ("▶ ", "bold"), (f"Passing in {left}…", "bold"), " any key: wait · space: pass now"
            ),
            layout=False,
        )

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        view = snap.view
        key = (snap.n, snap.seat, snap.deciding, bool(snap.legal))
        if key == self._key:
            return
        self._key = key
        yours = snap.deciding == snap.seat and bool(snap.legal)
        self.set_class(yours, "-yours")
        you = view.heroes[snap.seat].name if snap.seat >= 0 else "spectator"
        mark = "▶ " if yours else "  "
        text = Text.assemble(mark, (f"Round {view.round}", "bold"), f" · {you} · ", prompt(snap, self.seats))
        if text != self._text:  # (most actions of others leave the line as it was)
            self._text = text
            self.update(text, layout=False)  # one line, always
