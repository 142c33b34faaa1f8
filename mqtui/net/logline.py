"""The host's log lines: one line per event, so that a log reader (or ``grep``) sees each event whole."""

from __future__ import annotations

import logging


class OneLine(logging.Formatter):
    """A formatter whose every record is one line: the lines of a message or of a traceback are joined
    with `` | ``."""

    def format(self, record: logging.LogRecord) -> str:
        return " | ".join(line for line in super().format(record).splitlines() if line.strip())
