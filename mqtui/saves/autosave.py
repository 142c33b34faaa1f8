"""Autosave off the UI's path: a writer thread that always writes the newest bytes it was given.

The store encodes the game on its own thread (tens of microseconds) and hands the bytes to
:meth:`AutoSaver.submit`, which returns at once. The writer thread does the slow part (write, fsync,
backups, rename). Submissions that arrive while it is writing coalesce: only the latest is written.
:meth:`write_now` writes synchronously (quit, SIGHUP); a write never replaces a newer one.
"""

from __future__ import annotations

import atexit
import threading
from pathlib import Path

from mqtui.saves.files import BACKUPS, write_atomic


class AutoSaver:
    def __init__(self, path: Path | str, backups: int = BACKUPS) -> None:
        self.path = Path(path)
        self.backups = backups
        self.error = ""  # the last write's failure, "" if it worked
        self.writes = 0  # files written (coalesced submissions are not counted)
        self._cond = threading.Condition(threading.RLock())
        self._io = threading.RLock()
        self._pending: bytes | None = None
        self._seq = 0  # the newest submission's number
        self._written = 0  # the newest number on disk (or failed), for flush()
        self._done = 0  # the same, guarded by the file lock
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"autosave {self.path.name}", daemon=True)
        self._thread.start()
        atexit.register(self.close)

    def submit(self, data: bytes) -> None:
        """Queue ``data`` as the newest save; returns at once."""
        with self._cond:
            if self._closed:
                return
            self._seq += 1
            self._pending = data
            self._cond.notify_all()

    def _write(self, data: bytes, seq: int) -> None:
        with self._io:
            if seq > self._done:  # else something newer is already on disk
                try:
                    write_atomic(self.path, data, self.backups)
                    self.error = ""
                    self.writes += 1
                except OSError as exc:
                    self.error = f"autosave to {self.path} failed: {exc.strerror or exc}"
                self._done = seq
        # never wait for the condition while holding the file lock: a signal handler on the main
        # thread may hold the condition while it waits for the file lock
        with self._cond:
            self._written = max(self._written, seq)
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._pending is None:
                    return
                data, seq, self._pending = self._pending, self._seq, None
            self._write(data, seq)

    def write_now(self, data: bytes) -> None:
        """Write ``data`` at once on this thread (for quitting and signal handlers)."""
        with self._cond:
            self._seq += 1
            seq = self._seq
            self._pending = None
        self._write(data, seq)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything submitted is on disk; False on timeout."""
        with self._cond:
            target = self._seq
            return self._cond.wait_for(
                lambda: self._written >= target or not self._thread.is_alive(), timeout
            )

    def close(self, timeout: float = 5.0) -> bool:
        """Write what is pending, then stop the thread."""
        ok = self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        atexit.unregister(self.close)
        return ok
