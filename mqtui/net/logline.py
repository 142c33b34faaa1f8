"""The host's log lines: one line per event, so that a log reader (or ``grep``) sees each event whole."""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from typing import Any


class OneLine(logging.Formatter):
    """A formatter whose every record is one line: the lines of a message or of a traceback are joined
    with `` | ``."""

    def format(self, record: logging.LogRecord) -> str:
        return " | ".join(line for line in super().format(record).splitlines() if line.strip())


class PrivateRotatingFile(RotatingFileHandler):
    """A size-rotated log file, each new file created mode 0600 (the log names addresses and keys).

    Through logging's public hooks only: the file is made (0600) before the handler opens it, and
    ``rotate`` makes the next one (0600) once the full one is renamed; the handler opens both for
    appending, which keeps the mode."""

    def __init__(self, filename: str | os.PathLike[str], **options: Any) -> None:
        create_private(filename)
        super().__init__(filename, **options)

    def rotate(self, source: str, dest: str) -> None:
        super().rotate(source, dest)
        create_private(source)


def create_private(path: str | os.PathLike[str]) -> None:
    """Make ``path`` an empty file of mode 0600 if there is none (an existing file is left as it is)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
