"""Autosave off the UI's path: a writer thread that always writes the newest bytes it was given.

The store encodes the game on its own thread (tens of microseconds) and hands the bytes to
:meth:`AutoSaver.submit`, which returns at once. The writer thread does the slow part (write, fsync,
backups, rename). Submissions that arrive while it is writing coalesce: only the latest is written.
:meth:`write_now` writes synchronously (quit, SIGHUP); a write never replaces a newer one.

A write that fails (a full disk, a folder made read-only) is never counted as done: the bytes stay
pending and the thread tries again, after 0.2 s, then twice as long each time up to
:data:`RETRY_MAX`, until a write succeeds or something newer replaces them. :attr:`AutoSaver.error`
says why while it fails, and the ``listener`` (on the writer thread) hears every attempt, so that the
caller can stop telling people of changes that are not on disk and tell them when they are again.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from pathlib import Path

from mqtui.saves.files import BACKUPS, write_atomic

RETRY_FIRST = 0.2  # seconds before the first retry of a failed write...
RETRY_MAX = 5.0  # ...doubling up to this

Listener = Callable[[int, str], None]  # (the tag of the bytes just written or not, why not or "")
_Job = tuple[bytes, int, tuple[Path, bytes] | None]  # the save, its tag, a file to write first


class AutoSaver:
    def __init__(self, path: Path | str, backups: int = BACKUPS, listener: Listener | None = None) -> None:
        self.path = Path(path)
        self.backups = backups
        self.listener = listener  # called on the writing thread after each attempt (see Listener)
        self.error = ""  # the last write's failure, "" if it worked
        self.writes = 0  # files written (coalesced submissions are not counted)
        self.failures = 0  # writes that failed (each retry counts)
        self._cond = threading.Condition(threading.RLock())
        self._io = threading.RLock()
        self._pending: _Job | None = None
        self._seq = 0  # the newest submission's number
        self._written = 0  # the newest number on disk, for flush()
        self._done = 0  # the same, guarded by the file lock
        self._side = b""  # the companion file's bytes last written
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"autosave {self.path.name}", daemon=True)
        self._thread.start()
        atexit.register(self.close)

    def submit(self, data: bytes, tag: int = 0, side: tuple[Path, bytes] | None = None) -> None:
        """Queue ``data`` as the newest save; returns at once. ``tag`` comes back to the listener;
        ``side`` (a path and its bytes) is written first, atomically and without backups, if its bytes
        changed since it was last written (the save counts as written only once both are)."""
        with self._cond:
            if self._closed:
                return
            self._seq += 1
            self._pending = (data, tag, side)
            self._cond.notify_all()

    def _write(self, job: _Job, seq: int) -> bool:
        """Write ``job`` (number ``seq``); False if it failed (it is then pending again)."""
        data, tag, side = job
        error = ""
        with self._io:
            if seq > self._done:  # else something newer is already on disk
                try:
                    if side is not None and side[1] != self._side:
                        write_atomic(side[0], side[1], backups=0)
                        self._side = side[1]
                    write_atomic(self.path, data, self.backups)
                    self.writes += 1
                    self._done = seq
                except OSError as exc:
                    error = f"cannot save to {self.path}: {exc.strerror or exc}"
                    self.failures += 1
                self.error = error
        # never wait for the condition while holding the file lock: a signal handler on the main
        # thread may hold the condition while it waits for the file lock
        with self._cond:
            if error:
                if self._pending is None and not self._closed:  # try these bytes again
                    self._pending = job
            else:
                self._written = max(self._written, seq)
            self._cond.notify_all()
        if self.listener is not None:
            self.listener(tag, error)
        return not error

    def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._pending is None:
                    return
                job, seq, self._pending = self._pending, self._seq, None
            if self._write(job, seq):
                delay = RETRY_FIRST
                continue
            with self._cond:  # a failed write: wait before the next try (or until closed)
                self._cond.wait_for(lambda: self._closed, delay)
            delay = min(RETRY_MAX, delay * 2)

    def write_now(self, data: bytes, tag: int = 0, side: tuple[Path, bytes] | None = None) -> bool:
        """Write ``data`` at once on this thread (for quitting and signal handlers); False if it failed
        (the thread then keeps trying, as after any failed write)."""
        with self._cond:
            self._seq += 1
            seq = self._seq
            self._pending = None
        return self._write((data, tag, side), seq)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything submitted is on disk; False on timeout (or if it cannot be written)."""
        with self._cond:
            target = self._seq
            self._cond.wait_for(lambda: self._written >= target or not self._thread.is_alive(), timeout)
            return self._written >= target

    def close(self, timeout: float = 5.0) -> bool:
        """Write what is pending (a writer that is failing gets a second at most), then stop the thread."""
        ok = self.flush(min(timeout, 1.0) if self.error else timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        atexit.unregister(self.close)
        return ok
