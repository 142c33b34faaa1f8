"""The error every save module raises, and the decoder errors it stands for.

A module of its own, below the others, so that the codec, the migrations, the content archive and
the checks can all use it without importing one another in a loop.
"""

from __future__ import annotations

import msgspec


class SaveError(Exception):
    """A save cannot be read, written or trusted; the message is one line for the player."""


# Errors a decoder may raise on hostile input; anything else is a bug, but is still reported in one line.
DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, ValueError, OverflowError)
