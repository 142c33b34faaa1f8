"""``mqtui serve --load`` of a table saved before an upgrade (issue 18): the real command, with the
installed content changed (``MQTUI_SEEDS``), and a real OpenSSH client who joins and plays on."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_net_ssh import ssh_term
from test_saves_upgrade import OLD, add_monster, retune

from mqtui import saves
from mqtui.net import persist

pytestmark = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")


async def test_serve_load_of_a_0_1_0_table_after_the_content_changed(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT_SEEDS, seeds, ignore=shutil.ignore_patterns("scenarios"))
    retune(seeds / "base", "monsters.toml", "damp-squib", name="Soggy Squib", level=3)
    add_monster(seeds / "base")  # every card number after it moves
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), MQTUI_NET_APP="standin", MQTUI_SEEDS=str(seeds))
    save = tmp_path / "table.mqsave"
    shutil.copyfile(OLD / "sample.mqsave", save)
    old = saves.read(save)
    n = old.state.n

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mqtui", "serve", "--port", "0", "--load", str(save),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        text = ""
        while "Ctrl+C" not in text:
            line = await asyncio.wait_for(proc.stdout.readline(), 30)
            assert line, text
            text += line.decode()
        port = int(re.search(r"SSH on 127.0.0.1:(\d+)", text).group(1))  # type: ignore[union-attr]
        code = dict(re.findall(r"seat (\d) .*code-(\w+)@", text))["0"]
        ann = ssh_term(port, f"code-{code}")
        try:
            await ann.expect(rf"seat 0 Ann - state {n} - Ann decides")
            ann.type("1\r")  # Ann plays on: her first legal action
            await ann.expect(rf"state {n + 1} ")
        finally:
            ann.close()
        # her app joined at all, so it loaded the game's own content: the authority refuses an app whose
        # content differs from the game's (its content is written beside the save for the apps)
        assert "differs" not in ann.text()
        assert save.with_name(save.name + ".content").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    game, _ = persist.load(save)
    assert game.state.n == n + 1
    assert game.defs is not None and game.defs.version == old.header.content


ROOT_SEEDS = Path(__file__).resolve().parent.parent / "seeds"
