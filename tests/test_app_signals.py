"""A local game ended by a signal, through the real ``mqtui`` process in a terminal of its own.

SIGTERM (``kill``, a shutdown) and a hang-up (the terminal window closed, the SSH connection gone:
the kernel sends SIGHUP) make the app write its autosave on the spot, give the terminal back and exit
with 128 + the signal, instead of dying where it stands with the terminal left in the app's modes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from ssh_helpers import Term
from waiting import wait_until

from mqtui import saves
from mqtui.engine.legal import deciding

pytestmark = [
    pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs POSIX signals and ptys"),
    pytest.mark.slow,  # a real app process: a few seconds each
]

LEAVE_ALT_SCREEN = b"\x1b[?1049l"


def _inode(path: Path) -> int:
    return path.stat().st_ino


@pytest.mark.parametrize("how", ["SIGTERM", "hang-up"])
async def test_a_signal_saves_the_local_game_and_gives_the_terminal_back(how: str, data: Path) -> None:
    env = dict(os.environ, TERM="xterm-256color", MQTUI_DATA=str(data))
    env.pop("NO_COLOR", None)
    argv = [sys.executable, "-m", "mqtui", "new", "--players", "Ann:human,Bob:random", "--seed", "5"]
    term = Term([*argv, "--speed", "instant"], size=(100, 30), env=env)
    try:
        await term.expect(r"Ready: start the game", 60)  # Ann decides first: nothing more is saved
        (path,) = (data / "saves").glob("autosave-*.mqsave")
        await wait_until(lambda: deciding(saves.read(path).state) == 0, what="the game on disk")
        before = _inode(path)
        if how == "SIGTERM":
            term.proc.send_signal(signal.SIGTERM)
            code = await term.wait(30)
            assert LEAVE_ALT_SCREEN in term.raw[-4096:], "the terminal was not given back"
        else:
            asyncio.get_running_loop().remove_reader(term.master)
            os.close(term.master)  # the terminal goes away: the kernel hangs up on the app
            term.master = -1
            await wait_until(lambda: term.proc.poll() is not None, what="the app's end")
            code = term.proc.returncode
        assert code == 128 + (signal.SIGTERM if how == "SIGTERM" else signal.SIGHUP)  # it ended itself
        assert _inode(path) != before  # the save written on the signal (each save renames a new file in)
        game = saves.read(path)
        assert [p.name for p in game.seats] == ["Ann", "Bob"] and game.seed == 5
        assert deciding(game.state) == 0 and not game.actions
    finally:
        term.close()
