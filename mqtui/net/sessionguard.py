"""What keeps one SSH session from jamming its app, the server or the other sessions.

The relay (:mod:`mqtui.net.ptyrelay`) asks a :class:`SessionGuard` about every chunk of input and every
window-size change, and runs its :meth:`~SessionGuard.watch` beside the copying:

- keyboard input reaches the app as valid UTF-8 (the app's terminal decoder gives up on anything else:
  random bytes ended the session's app) and at a bounded rate: a paste of a few KiB goes through at
  once, a 10 MiB paste or a stream of random bytes is cut down to what a person could type and the rest
  is dropped, never queued, so the app never sits on a backlog it cannot work through;
- a session that sends more than anyone could type or paste (``flood_burst`` bytes at once, then
  ``flood_rate`` a second: a client pushing 100 MiB/s cost the server half a core only to drop it) is
  ended (:attr:`SessionGuard.flooded` says why);
- window sizes are clamped to a sane maximum and a storm of changes reaches the app as at most ten
  changes a second (the newest size wins);
- an app that is stopped (SIGSTOP), that leaves its input unread for ``stall`` seconds, or that sends
  nothing to the game for ``silent`` seconds (a session's app pings every ``heartbeat`` seconds while
  its event loop runs, so a hung app falls silent) is ended,
  which frees its session's slot. The app is looked at every ``CHECK_EVERY`` seconds, or more often
  when these limits are shorter (a quarter of the shorter one).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import time
from collections.abc import Callable

from mqtui.net.limits import Limits, clamp_size

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"  # bracketed paste: the app waits for the end
RESIZE_EVERY = 0.1  # seconds between window-size changes passed to the app
CHECK_EVERY = 0.5  # seconds between looks at the app (at most)
HEARTBEAT = Limits().heartbeat  # seconds between the pings of a session's app (mqtui.net.client)


def process_state(pid: int) -> str:
    """The kernel's one-letter state of a process ("R", "S", "T" stopped, ...); "" if unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return ""
    end = data.rfind(b")")  # the command name may hold spaces and parentheses
    return data[end + 2 : end + 3].decode("ascii", "replace") if end >= 0 else ""


class SessionGuard:
    """The limits of one session's app (see the module's docstring)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.tokens = self.limits.input_burst
        self.refilled = time.monotonic()
        self.dropped = 0  # input bytes dropped
        self.budget = self.limits.flood_burst  # bytes the session may still send before it is ended
        self.flooded = ""  # why the session is to be ended for what it sent ("" while it is not)
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._pasting = False  # the app got a paste's start and waits for its end
        self._tail = b""  # the last bytes passed or dropped, to find markers split between chunks
        self._tail_dropped = False  # the previous chunk's last bytes were dropped
        self.resizes_applied = 0
        self.writing_since: float | None = None  # when the relay started waiting for the app to read
        self._last_resize = 0.0
        self._pending_size: tuple[int, int, int, int] | None = None
        self._resize_timer: asyncio.TimerHandle | None = None

    # -- input ----------------------------------------------------------------------------------------

    def room(self) -> int:
        """How many bytes of input the app would get now."""
        elapsed = time.monotonic() - self.refilled
        return int(min(self.limits.input_burst, self.tokens + elapsed * self.limits.input_rate))

    def take(self, data: bytes) -> bytes:
        """The part of ``data`` the app gets now; the rest is dropped."""
        now = time.monotonic()
        lim = self.limits
        elapsed = now - self.refilled
        self.tokens = min(lim.input_burst, self.tokens + elapsed * lim.input_rate)
        self.budget = min(lim.flood_burst, self.budget + elapsed * lim.flood_rate) - len(data)
        if self.budget < 0 and not self.flooded:
            self.flooded = (
                f"it sent more than anyone types or pastes (over {lim.flood_burst / 2**20:g} MiB at once, "
                f"then {lim.flood_rate / 1024:g} KiB a second)"
            )
        self.refilled = now
        n = min(len(data), int(self.tokens))
        self.tokens -= n
        self.dropped += len(data) - n
        passed = self._utf8.decode(data[:n]).encode("utf-8") if n else b""  # invalid bytes become U+FFFD
        seen, offset, tail_dropped = self._tail + data, len(self._tail), self._tail_dropped
        self._tail, self._tail_dropped = seen[-(len(PASTE_END) - 1) :], n < len(data)
        if self._pasting or PASTE_START in seen:
            # a paste cut short must still end, or the app would take every later key as pasted text
            start, end = seen.rfind(PASTE_START), seen.rfind(PASTE_END)
            if start > end:
                self._pasting = True
            elif end >= 0:
                self._pasting = False
                cut = end + len(PASTE_END) > offset + n or (end < offset and tail_dropped)
                if cut:  # the end marker itself was (partly) dropped
                    passed += PASTE_END
        return passed

    # -- window size ----------------------------------------------------------------------------------

    def resize(
        self, apply: Callable[[int, int, int, int], None], cols: int, rows: int, pw: int, ph: int
    ) -> None:
        """Pass a window-size change on (clamped), at most every RESIZE_EVERY seconds."""
        clamped = clamp_size(self.limits, cols, rows)
        if clamped != (cols, rows):
            pw = ph = 0  # the pixel size no longer matches
        self._pending_size = (*clamped, pw, ph)
        if self._resize_timer is not None:
            return  # already scheduled: it will use the newest size
        wait = self._last_resize + RESIZE_EVERY - time.monotonic()
        if wait <= 0:
            self._apply(apply)
        else:
            self._resize_timer = asyncio.get_running_loop().call_later(wait, self._apply, apply)

    def _apply(self, apply: Callable[[int, int, int, int], None]) -> None:
        self._resize_timer = None
        size, self._pending_size = self._pending_size, None
        if size is None:
            return
        self._last_resize = time.monotonic()
        self.resizes_applied += 1
        with contextlib.suppress(OSError):
            apply(*size)

    def close(self) -> None:
        if self._resize_timer is not None:
            self._resize_timer.cancel()
            self._resize_timer = None

    # -- the app's health -----------------------------------------------------------------------------

    async def watch(self, pid: int, heard: Callable[[], float | None] | None = None) -> str:
        """Return (why) once the app should be ended: stopped, not reading its input, or silent.

        ``heard`` gives the ``time.monotonic()`` of the app's latest message to the game (None while
        it has no connection to the game)."""
        stall, silent = self.limits.stall, self.limits.silent
        every = max(0.01, min(CHECK_EVERY, stall / 4, silent / 4))
        stopped_since: float | None = None
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            if process_state(pid) in ("T", "t"):
                stopped_since = stopped_since or now
                if now - stopped_since >= stall:
                    return "its app was stopped"
            else:
                stopped_since = None
            since = self.writing_since
            if since is not None and now - since >= stall:
                return f"its app did not read its input for {stall:g} s"
            last = heard() if heard is not None else None
            if last is not None and now - last >= silent:
                return f"its app stopped answering for {silent:g} s"
