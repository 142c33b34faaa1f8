"""Work that may wait, done apart from the app: in a child process at the lowest CPU priority.

The advisor's look-ahead takes up to a few hundred milliseconds of CPU for a line the player reads
after the decision is on screen. Done in the app's own process it holds the app's event loop (keys wait
for it), and at a host every session's app draws on the same cores, so one seat's look-ahead delays
every other seat's screen. :func:`run_apart` forks the app (the child shares its memory, copy on write,
so nothing needs to be sent to it), lowers the child to ``nice 19`` and, on Linux, the ``SCHED_IDLE``
policy (it gets the CPU only when nobody drawing a screen wants it: many children at nice 19 alone
would still weigh as much as a session's app), moves it out of the terminal's process group (a resize or Ctrl+C is not for
it), and awaits its answer, a JSON value, on a pipe without blocking the loop. A job that is no longer
wanted is cancelled: its child is killed and reaped. Where there is no ``fork`` (or it fails: a
process limit), the work runs in a thread instead, one at a time.

This module imports nothing of Textual or Rich: the engine's side could use it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import threading
import warnings
from collections.abc import Callable
from typing import Any

LOWEST = 19  # the niceness of a child (the most Linux has)
_READ = 1 << 16
_one_thread = threading.Lock()  # (the fallback runs one job at a time: jobs may share caches)


class ApartFailed(RuntimeError):
    """The child ended without an answer (it raised, or was killed)."""


def forks() -> bool:
    """Whether jobs run in a child process here (else in a thread)."""
    return hasattr(os, "fork") and not _threads_only


_threads_only = False  # (tests of the fallback set it)


async def run_apart(job: Callable[[], Any], timeout: float) -> Any:
    """``job()`` (its result: a JSON value) from a low-priority child process; in a thread where this
    system cannot fork. Raises ``TimeoutError`` after ``timeout`` seconds (the child is killed),
    :class:`ApartFailed` when the job failed."""
    if not forks():
        return await asyncio.wait_for(asyncio.to_thread(_in_thread, job), timeout)
    read_end, write_end = os.pipe()
    try:
        with (
            warnings.catch_warnings()
        ):  # (3.12+ warns of fork beside threads: the child runs no thread's code)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:  # (out of processes: the work still gets done)
        os.close(read_end)
        os.close(write_end)
        return await asyncio.wait_for(asyncio.to_thread(_in_thread, job), timeout)
    if pid == 0:
        _child(job, read_end, write_end)  # (never returns)
    os.close(write_end)
    try:
        data = await asyncio.wait_for(_read_all(read_end), timeout)
    finally:
        os.close(read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # (a job cut short, or one that is done: then it is gone)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    if not data:
        raise ApartFailed("the job ended without an answer")
    return json.loads(data)


def _in_thread(job: Callable[[], Any]) -> Any:
    with _one_thread:
        return json.loads(json.dumps(job()))  # (the same answer as from a child)


async def _read_all(fd: int) -> bytes:
    loop = asyncio.get_running_loop()
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    done: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        try:
            chunk = os.read(fd, _READ)
        except BlockingIOError:
            return
        except OSError as e:
            chunk = b""
            if not done.done():
                done.set_exception(e)
        if chunk:
            chunks.append(chunk)
        elif not done.done():
            done.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await done
    finally:
        loop.remove_reader(fd)
    return b"".join(chunks)


def _child(job: Callable[[], Any], read_end: int, write_end: int) -> None:
    """In the child: the job, its answer written, and out, touching nothing of the parent's (no loop,
    no terminal, no exit handlers)."""
    code = 1
    try:
        os.close(read_end)
        with contextlib.suppress(ValueError, OSError):
            signal.set_wakeup_fd(-1)  # (the parent's event loop's pipe)
        for which in (signal.SIGINT, signal.SIGWINCH, signal.SIGHUP, signal.SIGCONT):
            with contextlib.suppress(ValueError, OSError):
                signal.signal(which, signal.SIG_IGN)
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with contextlib.suppress(OSError):
            os.setpgid(0, 0)
        with contextlib.suppress(OSError):
            os.nice(LOWEST)  # (clamped at the most there is)
        if hasattr(os, "SCHED_IDLE"):  # (Linux: below even nice 19, which still weighs a fifth of nice 5)
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        data = json.dumps(job()).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view) :]
        code = 0
    except BaseException:  # (nothing of it may reach the parent's terminal)
        pass
    finally:
        os._exit(code)


__all__ = ["ApartFailed", "forks", "run_apart"]
