"""NO_COLOR (https://no-color.org): the app, in a terminal of its own, sends no colour at all: no
256-colour or true-colour codes (Textual's own answer to NO_COLOR turns colours into greys, which it
still sends as 256-colour codes); bold, dim and underlining still show what colour showed."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from ssh_helpers import Term

pytestmark = pytest.mark.slow  # a real app process: a few seconds

COLOUR = re.compile(
    rb"\x1b\[[0-9;]*(?<![0-9])[34]8;[25];"
)  # a 256-colour or true-colour foreground/background


async def test_no_color_sends_no_colour_codes(tmp_path: Path) -> None:
    env = dict(os.environ, TERM="xterm-256color", MQTUI_DATA=str(tmp_path), NO_COLOR="1")
    argv = [sys.executable, "-m", "mqtui", "new", "--players", "Ann:human,Bob:random", "--seed", "5"]
    term = Term([*argv, "--speed", "instant"], size=(80, 24), env=env)
    try:
        await term.expect(r"Ready: start the game", 60)
        found = COLOUR.findall(bytes(term.raw))
        assert not found, f"{len(found)} colour codes sent under NO_COLOR, e.g. {found[:3]}"
        # the highlighted action ("1 Ready: start the game") is bold and underlined
        assert re.search(rb"\x1b\[1;4;39;49m1 ", bytes(term.raw))
    finally:
        term.close()
