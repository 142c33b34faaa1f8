"""What repeats is logged once with a count (mqtui.net.sshserver.Repeats): a flood of refusals from one
address, an accept() failing for want of descriptors. The first line at once, the count of the rest
when the window ends, even if nothing comes after it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from mqtui.net.sshserver import Repeats


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.counted = asyncio.Event()  # a line with a count came

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        self.lines.append(line)
        if "more times" in line:
            self.counted.set()


@pytest.fixture
def lines() -> object:
    handler = Lines()
    log = logging.getLogger("mqtui.net")  # (the host's log)
    log.addHandler(handler)
    # (what another test of the same worker may have left: a level, a logging config that disabled it)
    level, disabled, floor = log.level, log.disabled, logging.root.manager.disable
    log.setLevel(logging.DEBUG)
    log.disabled = False
    logging.disable(logging.NOTSET)
    try:
        yield handler
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        log.disabled = disabled
        logging.disable(floor)


async def test_a_flood_of_refusals_from_one_address_is_two_lines(lines: Lines) -> None:
    repeats = Repeats(every=0.05)
    for _ in range(300):
        repeats.note("refusing 10.0.0.9", "mqtui: too many", level=logging.INFO, key=("10.0.0.9", "too many"))
    repeats.note("refusing 10.0.0.7", "mqtui: too many", level=logging.INFO, key=("10.0.0.7", "too many"))
    assert lines.lines == ["refusing 10.0.0.9: mqtui: too many", "refusing 10.0.0.7: mqtui: too many"]
    # the flood stops: its count is logged when the window ends, with no further refusal to bring it
    await asyncio.wait_for(lines.counted.wait(), 10)
    assert lines.lines[2].startswith("refusing 10.0.0.9: mqtui: too many (299 more times in the last ")
    assert len(lines.lines) == 3  # (the other address came once: nothing more to say of it)


async def test_an_error_with_changing_details_is_one_kind(lines: Lines) -> None:
    repeats = Repeats(every=0.05)
    for left in range(50, 0, -1):
        repeats.note("refusing connections", f"only {left} file descriptors left")
    assert lines.lines == ["refusing connections: only 50 file descriptors left"]
    await asyncio.wait_for(lines.counted.wait(), 10)
    assert lines.lines[1].startswith("refusing connections: only 1 file descriptors left (49 more times")


def test_many_addresses_are_not_remembered_for_ever(lines: Lines) -> None:
    repeats = Repeats(every=3600)
    repeats.LIMIT = 100
    for i in range(1000):  # (no event loop: the counts are logged as addresses are forgotten)
        repeats.note(f"refusing 10.0.{i // 250}.{i % 250}", "banned", level=logging.INFO, key=i)
        repeats.note(f"refusing 10.0.{i // 250}.{i % 250}", "banned", level=logging.INFO, key=i)
    assert len(repeats) <= 101
    assert sum("(1 more times" in line for line in lines.lines) >= 900


def test_a_crowd_of_new_addresses_is_not_remembered_for_ever_either(lines: Lines) -> None:
    repeats = Repeats(every=3600)
    repeats.LIMIT = 100
    for i in range(1000):  # each address once: nothing to count, none of them quiet for long
        repeats.note(f"refusing 10.1.{i // 250}.{i % 250}", "banned", level=logging.INFO, key=i)
    assert len(repeats) <= 101
    assert len(lines.lines) == 1000  # (each said once)
