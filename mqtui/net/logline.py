"""The host's log lines: one line per event, so that a log reader (or ``grep``) sees each event whole."""

from __future__ import annotations

import logging
import os
from io import TextIOWrapper
from logging.handlers import RotatingFileHandler


class OneLine(logging.Formatter):
    """A formatter whose every record is one line: the lines of a message or of a traceback are joined
    with `` | ``."""

    def format(self, record: logging.LogRecord) -> str:
        return " | ".join(line for line in super().format(record).splitlines() if line.strip())


class PrivateRotatingFile(RotatingFileHandler):
    """A size-rotated log file, each new file created mode 0600 (the log names addresses and keys)."""

    def _open(self) -> TextIOWrapper:  # (logging.FileHandler's one place that opens the file)
        return open(  # type: ignore[return-value]
            self.baseFilename,
            self.mode,
            encoding=self.encoding,
            errors=self.errors,
            opener=lambda path, flags: os.open(path, flags, 0o600),
        )
