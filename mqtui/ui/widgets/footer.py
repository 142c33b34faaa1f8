"""A footer that rebuilds only when the keys it shows really change.

Textual's Footer recomposes on every ``refresh_bindings`` call; the game screen refreshes its bindings
on every snapshot (they follow what is legal), which made the footer rebuild hundreds of times a
second when computer players move fast. This one compares what it would show first.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class QuietFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        self._shown: object = None

    def _signature(self, screen: Screen[object]) -> object:
        return tuple(
            (key, active.binding.description, active.enabled, active.binding.show)
            for key, active in screen.active_bindings.items()
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen:
            signature = self._signature(screen)
            if signature == self._shown:
                return
            self._shown = signature
        super().bindings_changed(screen)
