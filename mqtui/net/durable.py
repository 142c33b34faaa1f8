"""Write before you tell: no client sees a state before it is on disk.

The authority submits a save after every accepted action (encoded on the event loop, written and
fsynced by the save module's writer thread), each with a number of its own. :class:`Durable` hears
from that thread after every write (:meth:`heard`): :meth:`wait` returns once the state with the given
number (and everything before it) is on disk, and the authority's writers wait on it before they send a
view or a result. So a player who saw the result of an action can kill the server with ``kill -9`` at
any moment afterwards and find the action in the save.

A write that fails is never taken for done: the writer tries again by itself, and meanwhile nobody is
told of the states it holds. ``on_trouble`` hears when saving starts failing (with the reason) and
when it works again (with ""), so that the table can pause and say so.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable

FLUSH_TIMEOUT = 30.0


class Durable:
    def __init__(self, on_trouble: Callable[[str], None] | None = None) -> None:
        self.on_trouble = on_trouble
        self.target = -1  # the newest state number submitted
        self.done = -1  # the newest state number known to be on disk
        self.asked = -1  # the newest save's number (a save may hold the same state as the one before)
        self.saved = -1  # the newest save's number known to be on disk
        self.error = ""  # why the last write failed ("" while saving works)
        self._states: deque[tuple[int, int]] = deque()  # (save number, state number) not yet on disk
        self._changed = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def submitted(self, n: int) -> int:
        """A save of state ``n`` is about to be submitted: its number (the tag the writer reports)."""
        if self._loop is None:
            with contextlib.suppress(RuntimeError):
                self._loop = asyncio.get_running_loop()
        self.asked += 1
        self.target = max(self.target, n)
        self._states.append((self.asked, n))
        return self.asked

    def heard(self, tag: int, error: str) -> None:
        """The writer's report on save ``tag`` (any thread): on disk, or why not."""
        loop = self._loop
        if loop is None or loop.is_closed():
            self._heard(tag, error)
            return
        try:
            loop.call_soon_threadsafe(self._heard, tag, error)
        except RuntimeError:  # the loop has closed meanwhile: nobody waits any more
            self._heard(tag, error)

    def _heard(self, tag: int, error: str) -> None:
        if not error:
            self.saved = max(self.saved, tag)
            while self._states and self._states[0][0] <= tag:
                self.done = max(self.done, self._states.popleft()[1])
        trouble = bool(error) != bool(self.error)
        self.error = error
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        if trouble and self.on_trouble is not None:
            self.on_trouble(error)

    async def wait(self, n: int) -> None:
        """Return once state ``n`` is on disk (at once if it was never submitted)."""
        while self.done < n <= self.target:
            await self._changed.wait()

    async def settled(self, timeout: float = FLUSH_TIMEOUT) -> str:
        """Wait until every save submitted so far is on disk: "" then, else why it is not (a failed
        write, or no answer within ``timeout`` seconds)."""
        want = self.asked
        try:
            async with asyncio.timeout(timeout):
                while self.saved < want:
                    if self.error:
                        return self.error
                    await self._changed.wait()
        except TimeoutError:
            return f"the save was not written within {timeout:g} s"
        return ""
