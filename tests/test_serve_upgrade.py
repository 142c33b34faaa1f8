"""``mqtui serve --load`` of a table saved before an upgrade (issue 18): the real command, with the
installed content changed (``MQTUI_SEEDS``), and a real OpenSSH client who joins and plays on."""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

import pytest
from ssh_helpers import Term, needs_ssh, ssh_term
from test_saves_upgrade import OLD, add_monster, first_monster, retune

from mqtui import saves
from mqtui.net import persist

pytestmark = needs_ssh


@pytest.mark.slow
async def test_serve_load_of_a_0_1_0_table_after_the_content_changed(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT_SEEDS, seeds, ignore=shutil.ignore_patterns("scenarios"))
    retune(seeds / "base", "monsters.toml", first_monster(seeds / "base"), name="Soggy Squib", level=3)
    add_monster(seeds / "base")  # every card number after it moves
    env = dict(os.environ, MQTUI_DATA=str(tmp_path / "data"), MQTUI_NET_APP="standin", MQTUI_SEEDS=str(seeds))
    save = tmp_path / "table.mqsave"
    shutil.copyfile(OLD / "sample.mqsave", save)
    old = saves.read(save)
    n = old.state.n

    # (as a real host runs: Ann's app forked from the fork server serve starts)
    host = Term([sys.executable, "-m", "mqtui", "serve", "--port", "0", "--load", str(save)], env=env)
    try:
        port = int((await host.expect(r"SSH on 127.0.0.1:(\d+)", 30)).group(1))
        code = (await host.expect(r"seat 0 .*code-(\w+)@")).group(1)
        await host.expect("Ctrl[+]C")
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
        host.proc.send_signal(signal.SIGTERM)
        assert await host.wait(30) == 0
    finally:
        host.close()
    game, _ = persist.load(save)
    assert game.state.n == n + 1
    assert game.defs is not None and game.defs.version == old.header.content


ROOT_SEEDS = Path(__file__).resolve().parent.parent / "seeds"
