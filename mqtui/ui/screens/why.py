"""Why did the computer do that? The computer players' last reasons, newest first (kept out of the
log, where they read like debug output)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from mqtui.engine.cards import CardTable
from mqtui.store import Reason, Seat, Snapshot
from mqtui.ui.describe import action_label

SHOWN = 12


def reasons_text(reasons: Sequence[Reason], snap: Snapshot, seats: Sequence[Seat], cards: CardTable) -> Text:
    t = Text()
    t.append("Why the computer players did what they did (newest first)\n\n", "bold")
    if not reasons:
        t.append("No computer player has made a choice worth explaining yet.", "italic")
        return t
    for r in reversed(reasons[-SHOWN:]):
        t.append(f"Round {r.round} · {seats[r.seat].name}: ", "bold")
        t.append(action_label(r.action, snap, cards))
        t.append(f"\n    {r.why}\n", "dim")
    return t
