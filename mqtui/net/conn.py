"""One client connection of a served game, as the authority keeps it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from mqtui.engine.actions import Event
from mqtui.store import LogLine, log_line

FIRST_LOG_LINES = 2000  # a (re)connecting client gets at most this many old log lines


@dataclass(eq=False)
class Conn:
    id: int
    seat: int
    label: str
    writer: asyncio.StreamWriter
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    dirty: bool = True
    seats_dirty: bool = False
    outbox: list[bytes] = field(default_factory=list)
    ev_sent: int = 0  # events of the authority's log already sent as lines
    lines_sent: int = 0  # lines of this seat's log already sent
    tokens: float = 0.0
    refilled: float = field(default_factory=time.monotonic)  # when the latest message was read (or it opened)
    messages: int = 0  # messages read from it after its hello (a served app's heartbeats among them)
    strikes: int = 0
    closed: bool = False
    bytes_out: int = 0
    frames_out: int = 0
    task: asyncio.Task[None] | None = None
    acted_at: float | None = None  # when its latest action was read, until its result is sent (figures)

    def push(self, frame: bytes) -> None:
        self.outbox.append(frame)
        self.wake.set()

    def new_lines(self, log: list[Event]) -> tuple[int, list[LogLine]]:
        """This seat's entries of the events not sent yet, and how many of its entries came before
        them (a first view sends at most :data:`FIRST_LOG_LINES`)."""
        new = [line for e in log[self.ev_sent :] if (line := log_line(e, self.seat))]
        base = self.lines_sent
        if self.ev_sent == 0 and len(new) > FIRST_LOG_LINES:
            base += len(new) - FIRST_LOG_LINES
            new = new[-FIRST_LOG_LINES:]
        self.ev_sent = len(log)
        self.lines_sent = base + len(new)
        return base, new
