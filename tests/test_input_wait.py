"""The terminal's input thread sleeps until a key comes (an idle session costs no CPU), still tells a
lone Esc from the start of a key's sequence, and ends on a hung-up terminal without spinning
(mqtui/net/remote_app.py, ``SessionDriver``).

Textual's Linux driver polls its terminal every 0.1 s; with the stop on a wake pipe, the session
driver's wait has no time limit unless the parser may hold an Esc. The driver's input loop runs here in
its thread on a pipe standing in for the terminal; what the loop asks of its selector is recorded.
"""

from __future__ import annotations

import os
import selectors
import threading
from typing import Any

import pytest
from textual import events
from textual.constants import ESCAPE_DELAY

from mqtui.net.remote_app import SessionDriver

WAIT = 10.0  # (a bound for a stuck thread, never reached when all is well)


async def test_the_input_thread_sleeps_until_a_key_and_a_lone_esc_is_still_the_esc_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float | None] = []
    idle = threading.Event()  # the thread waits with no time limit
    select = selectors.SelectSelector.select

    def recording(self: selectors.SelectSelector, timeout: float | None = None) -> Any:
        waits.append(timeout)
        if timeout is None:
            idle.set()
        return select(self, timeout)

    monkeypatch.setattr(selectors.SelectSelector, "select", recording)
    keys: list[str] = []
    got = threading.Condition()

    def process_message(message: object) -> None:
        if isinstance(message, events.Key):
            with got:
                keys.append(message.key)
                got.notify_all()

    terminal, typing = os.pipe()
    driver = SessionDriver(None, debug=False, mouse=False, size=(80, 24))
    driver.fileno = terminal
    driver.process_message = process_message  # type: ignore[method-assign]
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    thread.start()
    try:
        assert idle.wait(WAIT), f"the input thread polls: it asked for {waits}"
        assert all(t is None for t in waits)  # (Textual's loop asks 0.1 s each time)

        idle.clear()
        os.write(typing, b"\x1b")  # a lone Esc: the key, once its time is up
        with got:
            assert got.wait_for(lambda: keys, WAIT)
        assert keys == ["escape"]
        pending = [t for t in waits if t is not None]
        assert pending and all(0 <= t <= ESCAPE_DELAY for t in pending)
        assert idle.wait(WAIT)  # and then asleep again

        os.write(typing, b"\x1b[Aq")  # a key's sequence (up) and a plain key: no Esc among them
        with got:
            assert got.wait_for(lambda: len(keys) == 3, WAIT)
        assert keys == ["escape", "up", "q"]

        assert idle.wait(WAIT)
        idle.clear()
        os.close(typing)  # the terminal hangs up: no more reading, a wait for the stop alone (no spinning)
        typing = -1
        assert idle.wait(WAIT)
        assert thread.is_alive()
    finally:
        driver.exit_event.set()  # the stop wakes the sleeping thread
        thread.join(WAIT)
        if typing >= 0:
            os.close(typing)
        os.close(terminal)
        driver.close()
    assert not thread.is_alive()
