"""Work done apart (mqtui.apart): in a child process at the lowest priority, away from the terminal's
signals; a job cut short or cancelled leaves no process behind; without fork, a thread does it."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mqtui import apart

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a system with fork")


def where() -> list[int]:
    return [
        os.getpid(),
        os.nice(0),
        os.getpgid(0),
        os.sched_getscheduler(0) if hasattr(os, "SCHED_IDLE") else -1,
    ]


def test_the_job_runs_in_a_child_at_the_lowest_priority_in_a_process_group_of_its_own() -> None:
    pid, nice, group, policy = asyncio.run(apart.run_apart(where, timeout=30))
    assert pid != os.getpid()
    assert nice == apart.LOWEST
    if hasattr(os, "SCHED_IDLE"):
        assert policy == os.SCHED_IDLE
    assert group == pid != os.getpgid(0)  # (a resize or Ctrl+C at the terminal is not sent to it)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # (reaped)


def test_a_big_answer_comes_whole() -> None:
    answer = asyncio.run(apart.run_apart(lambda: ["x" * 300_000, list(range(10_000))], timeout=30))
    assert answer == ["x" * 300_000, list(range(10_000))]


def test_a_job_that_fails_says_so_and_writes_nothing_to_the_terminal(
    capfd: pytest.CaptureFixture[str],
) -> None:
    def fails() -> None:
        raise ValueError("no")

    with pytest.raises(apart.ApartFailed):
        asyncio.run(apart.run_apart(fails, timeout=30))
    out, err = capfd.readouterr()
    assert out == err == ""


def wait_for_pid_file(path: Path) -> int:
    end = time.monotonic() + 30
    while not (path.exists() and path.read_text()):
        assert time.monotonic() < end, "the child never started"
        time.sleep(0.01)
    return int(path.read_text())


def forever_job(started: Path) -> Callable[[], None]:
    def forever() -> None:
        started.write_text(str(os.getpid()))
        while True:
            time.sleep(0.05)

    return forever


def test_a_job_past_its_time_is_killed_and_reaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    with pytest.raises(TimeoutError):
        asyncio.run(apart.run_apart(forever_job(tmp_path / "pid"), timeout=0.5))
    (pid,) = forked
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_a_cancelled_job_is_killed_and_reaped(tmp_path: Path) -> None:
    started = tmp_path / "pid"

    async def run() -> int:
        job = asyncio.ensure_future(apart.run_apart(forever_job(started), timeout=60))
        pid = await asyncio.to_thread(wait_for_pid_file, started)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        return pid

    pid = asyncio.run(run())
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_without_fork_a_thread_does_the_job(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apart, "_threads_only", True)
    pid, nice, *_ = asyncio.run(apart.run_apart(where, timeout=30))
    assert (pid, nice) == (os.getpid(), os.nice(0))


def test_when_fork_fails_a_thread_does_the_job(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    pid, *_ = asyncio.run(apart.run_apart(where, timeout=30))
    assert pid == os.getpid()
