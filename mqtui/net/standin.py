"""A small plain Textual app for a networked seat: the fallback when the full app is not available.

It shows the seat's hand, whose decision it is, the legal actions and the latest log lines, and takes
actions typed in the game's notation (``0 move N``, or just ``move N``) or by their number in the list.
The SSH tests drive it by typing, so its layout stays simple and its texts stable.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from mqtui.engine.actions import SPECS, Action, EngineError, parse, to_text
from mqtui.net.remote_app import Allowed, RemoteApp
from mqtui.store import GameStore, Snapshot


def describe(store: GameStore, action: Action) -> str:
    text = to_text(action)
    names = store.cards.names
    if "card" in "".join(SPECS.get(action.kind, ())) and 0 <= action.a < len(names):
        text += f"  ({names[action.a]})"
    return text


class StandInApp(App[None]):
    TITLE = "mqtui"
    CSS = """
    #top { height: 2; }
    #body { height: 1fr; }
    #left { width: 1fr; }
    #right { width: 1fr; }
    .box { border: round $accent; padding: 0 1; }
    #hand { height: auto; max-height: 12; }
    #legal { height: 1fr; }
    #log { height: 1fr; }
    #msg { height: 1; color: $warning; }
    """
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="standin.quit")]

    def __init__(self, store: GameStore) -> None:
        super().__init__()
        self.store = store
        self._can_show = False
        self._term_size: tuple[int, int] | None = None
        self._unsubscribe = store.subscribe(self._on_snapshot)

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="hand", classes="box")
                yield Static(id="legal", classes="box")
            yield Static(id="log", classes="box")
        yield Static(id="msg")
        yield Input(
            placeholder="action (e.g. 'done', 'move N') or its number; ctrl+q quits",
            id="cmd",
        )

    def on_mount(self) -> None:
        self._can_show = True
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#legal").border_title = "You may"
        self.query_one("#log").border_title = "Log"
        self._show(self.store.snapshot())
        cmd = self.query_one("#cmd", Input)
        cmd.cursor_blink = False  # no repaints (and bytes) while idle
        cmd.focus()

    def on_resize(self, event: events.Resize) -> None:
        self._term_size = (event.size.width, event.size.height)
        self._show(self.store.snapshot())

    def on_unmount(self) -> None:
        self._unsubscribe()

    def _on_snapshot(self, snap: Snapshot) -> None:
        self._show(snap)

    def _show(self, snap: Snapshot) -> None:
        if not self._can_show:
            return
        store = self.store
        names = store.cards.names
        seats = store.seats
        who = "spectator" if snap.seat < 0 else f"seat {snap.seat} {seats[snap.seat].name}"
        deciding = "game over" if snap.over or snap.deciding < 0 else f"{seats[snap.deciding].name} decides"
        width, height = self._term_size or (self.size.width, self.size.height)
        size = f"{width}x{height}"
        self.query_one("#top", Static).update(
            Text(f"mqtui over SSH - {who} - state {snap.n} - {deciding} - size {size}", no_wrap=True)
        )
        if snap.seat >= 0:
            hand = snap.view.heroes[snap.seat].hand
            lines = [f"#{u} {names[u]}" for u in hand if 0 <= u < len(names)]
            self.query_one("#hand", Static).update(Text("\n".join(lines) or "(no cards)"))
        else:
            self.query_one("#hand", Static).update(Text("(watching)"))
        legal = [f"{i + 1:>2} {describe(store, a)}" for i, a in enumerate(snap.legal[:40])]
        self.query_one("#legal", Static).update(Text("\n".join(legal) or "(not your decision)"))
        self.query_one("#log", Static).update(Text("\n".join(line.text for line in snap.log[-40:])))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        snap = self.store.snapshot()
        msg = self.query_one("#msg", Static)
        try:
            if text.isdigit():
                index = int(text) - 1
                if not 0 <= index < len(snap.legal):
                    raise EngineError(f"there is no action {text}")
                action = snap.legal[index]
            else:
                if not text[0].isdigit():
                    text = f"{snap.seat} {text}"
                action = parse(text)
            await self.store.send(action)
            msg.update(Text(f"sent: {action}"))
        except EngineError as exc:
            msg.update(Text(f"refused: {exc}"))


SYSTEM = frozenset(("Theme", "Quit", "Keys", "Maximize", "Minimize"))
"""Textual's system commands a visitor keeps (not "Screenshot": a file on the host)."""


class RemoteStandInApp(RemoteApp, StandInApp):
    """The plain app, served: it takes moves typed in its one field."""

    PLAYER: ClassVar[Allowed] = Allowed(frozenset(), SYSTEM, frozenset({"standin.quit"}))
    SPECTATOR: ClassVar[Allowed] = PLAYER

    def remote_seat(self) -> int:
        return self.store.snapshot().seat
