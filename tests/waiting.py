"""Waiting in tests: on a condition or an event, never on a bare sleep.

A test that sleeps and then asserts that nothing happened passes whenever the machine is slow enough
that the wrong thing has not happened *yet*. Wait instead for a signal that says it is over (a task
that ended, a round trip that came back, a condition that became true), then assert.

The timeouts here are safety nets against a hung test, generous on purpose: a slow or busy machine
only makes a test slower, never red. Keep them out of the assertions' meaning.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqtui.store import LocalStore

SAFETY_NET = 60.0  # seconds: only a hung test ever reaches it


async def wait_until(
    condition: Callable[[], object], timeout: float = SAFETY_NET, what: str = "the condition"
) -> None:
    """Until ``condition()`` is true, letting the event loop run in between."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"{what} was not met within {timeout:g} s")
        await asyncio.sleep(0.01)


def wait_until_sync(
    condition: Callable[[], object], timeout: float = SAFETY_NET, what: str = "the condition"
) -> None:
    """Until ``condition()`` is true, for code without an event loop (threads, child processes)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what} was not met within {timeout:g} s")
        time.sleep(0.001)


async def bots_settled(store: LocalStore, timeout: float = SAFETY_NET) -> None:
    """Until a local store's computer players have stopped (a human must decide, or the game is over).

    Awaits the store's bot task itself, so an exception inside it (a bot that played an illegal
    action, say) fails the test instead of vanishing into "Task exception was never retrieved".
    """
    await asyncio.wait_for(store.bots_stopped(), timeout)
