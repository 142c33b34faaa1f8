"""The game log: every event the viewer may read, newest at the bottom, a symbol and colour by kind."""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import RichLog

from mqtui.store import Snapshot
from mqtui.ui.describe import log_kind

KIND_CLASSES = (
    "win",
    "turn",
    "result",
    "combat",
    "dice",
    "death",
    "level",
    "badstuff",
    "escape",
    "interfere",
    "monster",
    "draw",
    "bot",
    "gold",
)


class GameLog(RichLog):
    """The log pane; scroll with the arrow keys and Page Up/Down when it has focus."""

    COMPONENT_CLASSES = {f"log--{k}" for k in KIND_CLASSES}
    DEFAULT_CSS = """
    GameLog { height: 1fr; background: $surface; scrollbar-size-vertical: 1; overflow-x: hidden; overflow-y: scroll; }
    GameLog > .log--win { color: $accent; text-style: bold; }
    GameLog > .log--turn { color: $primary; text-style: bold; }
    GameLog > .log--result { color: $accent; text-style: bold; }
    GameLog > .log--combat { color: $mq-monster; text-style: bold; }
    GameLog > .log--dice { color: $foreground; }
    GameLog > .log--death { color: $mq-bad; text-style: bold; }
    GameLog > .log--level { color: $mq-good; text-style: bold; }
    GameLog > .log--badstuff { color: $mq-bad; }
    GameLog > .log--escape { color: $mq-good; }
    GameLog > .log--interfere { color: $mq-curse; }
    GameLog > .log--monster { color: $mq-monster; }
    GameLog > .log--draw { color: $mq-dxm; }
    GameLog > .log--bot { color: $foreground 60%; text-style: italic; }
    GameLog > .log--gold { color: $mq-treasure; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=2000, min_width=20)
        self._shown: tuple[str, ...] = ()
        self._wrapped_at = 0

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None or snap.log is self._shown:
            return
        log = snap.log
        old = self._shown
        if len(log) >= len(old) and (not old or log[len(old) - 1] == old[-1]):
            new = log[len(old) :]
        else:
            self.clear()
            new = log
        self._shown = log
        for line in new:
            self.write(self.line_text(line))

    def on_resize(self, event: Resize) -> None:
        """Wrap the whole log again for the new width (RichLog keeps lines as first wrapped)."""
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if self._wrapped_at and width != self._wrapped_at and self._shown:
            self.clear()
            for line in self._shown:
                self.write(self.line_text(line))
        self._wrapped_at = width

    def line_text(self, line: str) -> Text:
        kind, symbol = log_kind(line)
        style = self.get_component_rich_style(f"log--{kind}") if kind in KIND_CLASSES else None
        return Text.assemble((f"{symbol} ", style or ""), (line, style or ""))
