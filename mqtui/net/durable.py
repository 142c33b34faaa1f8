"""Write before you tell: no client sees a state before it is on disk.

The authority submits a save after every accepted action (encoded on the event loop, written and
fsynced by the save module's writer thread). :class:`Durable` follows those writes: :meth:`wait` returns
once the state with the given number (and everything before it) is on disk, and the authority's writers
wait on it before they send a view or a result. So a player who saw the result of an action can kill the
server with ``kill -9`` at any moment afterwards and find the action in the save. One flush is in
flight at a time and covers every save submitted before it, so a burst of actions costs one wait.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger("mqtui.net")

FLUSH_TIMEOUT = 30.0


class Durable:
    def __init__(self, flush: Callable[[float], bool]) -> None:
        self._flush = flush  # blocks until everything submitted so far is on disk; False on timeout
        self.target = -1  # the newest state number submitted
        self.done = -1  # the newest state number known to be on disk
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def submitted(self, n: int) -> None:
        """A save of state ``n`` was submitted."""
        self.target = max(self.target, n)
        if self._task is None or self._task.done():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop: nobody to tell
                return
            self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.done < self.target:
            target = self.target
            try:
                ok = await loop.run_in_executor(None, self._flush, FLUSH_TIMEOUT)
            except Exception:
                log.exception("waiting for the save failed")
                ok = False
            if not ok:
                log.error("the save of state %d was not written in %g s", target, FLUSH_TIMEOUT)
            self.done = max(self.done, target)
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()

    async def wait(self, n: int) -> None:
        """Return once state ``n`` is on disk (at once if it was never submitted)."""
        while self.done < n and self.target >= n:
            if self._task is None or self._task.done():
                self.submitted(self.target)  # restart a flusher that was never started
                if self._task is None:
                    return
            await self._changed.wait()
