"""Helpers for the tests that run the real OpenSSH client."""

from __future__ import annotations

import os
import shutil

import pytest

# Without the client these tests skip, and ./test (-rs) says why; where CI is set (.ci/run, CI
# services) a missing client is a failure instead, so that no run there passes without them.
needs_ssh = pytest.mark.skipif(
    shutil.which("ssh") is None and not os.environ.get("CI"),
    reason="needs the OpenSSH client (openssh-client)",
)
