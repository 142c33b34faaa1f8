"""The game-state store: the one place the UI reads state from and sends actions to.

- ``protocol.py``: the contract, :class:`Snapshot` (one seat's view, legal actions and log),
  :class:`LogLine`, :class:`Seat`, :class:`Reason` and the :class:`GameStore` protocol;
- ``local.py``: :class:`LocalStore`, a game run in this process (hot-seat humans and computer players,
  undo and redo, saving), built on the hosting core :mod:`mqtui.hosting`.

A networked store (``mqtui.net.netstore``) implements the same protocol by sending actions to a
server and receiving snapshots, so widgets never know the difference (``docs/store.md``).
"""

from __future__ import annotations

from mqtui.seat_kinds import HUMAN, REMOTE, SeatKind
from mqtui.store.local import EXPLAINED_KINDS, LOG_TAIL, LocalStore, install_signal_handlers
from mqtui.store.protocol import (
    PEOPLE,
    GameStore,
    Listener,
    LogLine,
    Reason,
    Seat,
    Snapshot,
    log_line,
)

__all__ = [
    "EXPLAINED_KINDS",
    "HUMAN",
    "LOG_TAIL",
    "PEOPLE",
    "REMOTE",
    "GameStore",
    "Listener",
    "LocalStore",
    "LogLine",
    "Reason",
    "Seat",
    "SeatKind",
    "Snapshot",
    "install_signal_handlers",
    "log_line",
]
