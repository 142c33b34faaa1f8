"""Errors shared by the hosting modules (kept apart so that serve and lobby need not import each other)."""


class ServeError(Exception):
    """A problem with the options or the files: reported in one line."""
