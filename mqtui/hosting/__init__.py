"""Hosting one game: what the local store, the network authority and the simulator share.

- :class:`Host` (``host.py``): the game's record (state, action log, event log), an action applied with
  rollback, and a computer player's turn (decide from the seat's view, then apply);
- :class:`UndoHistory` (``undo.py``): the undo rule, who may take back what and when a reveal forbids it;
- :class:`SaveEncoder` (``saving.py``): a game as a save file's bytes, encoded incrementally;
- :func:`seat_view` (``seatview.py``): one seat's view of the state with its legal actions.

Pure Python: no Textual or Rich, no sockets, no clocks. Each caller keeps what is its own: the local
store its pacing, listeners and autosave; the authority its connections and timers; the simulator its
statistics.
"""

from __future__ import annotations

from mqtui.hosting.host import Host, Hosted, Step
from mqtui.hosting.saving import SaveEncoder, SeatLike, seat_recs
from mqtui.hosting.seatview import SeatView, seat_view
from mqtui.hosting.undo import REVEALING, UNDOABLE, UndoHistory, reveals

__all__ = [
    "REVEALING",
    "UNDOABLE",
    "Host",
    "Hosted",
    "SaveEncoder",
    "SeatLike",
    "SeatView",
    "Step",
    "UndoHistory",
    "reveals",
    "seat_recs",
    "seat_view",
]
