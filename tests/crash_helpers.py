"""The parent of test_saves_crash's saving children: a small process of its own, not the pytest worker.

A child forked from a pytest worker gets a copy of the page tables of everything the worker holds
(after the UI tests, hundreds of MiB), and a child killed has them torn down again: over the 180
kills of those tests that cost more CPU than the children's own saving. Forked from this process,
which imports only what saving needs, a child costs little more than the saving it does.

Run as ``python crash_helpers.py writer PATH VERSION_FILE...`` (the child writes those saves to PATH,
one after the other, for ever) or ``python crash_helpers.py game PATH`` (the child plays computer
games autosaving to PATH, for ever). On its stdin, ``fork`` starts a child and answers its pid;
``kill PID`` kills the child with SIGKILL, reaps it and answers its exit code (``-SIGKILL``: killed). When its stdin
closes it kills any child still running and ends. :class:`Savers` drives it from a test.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

SEATS = (("Ann", "red", "random"), ("Bob", "blue", "random"), ("Cy", "green", "random"))


def _writer(path: Path, versions: list[bytes]) -> Callable[[], None]:
    from mqtui import saves

    def write() -> None:
        i = 0
        while True:
            saves.write_atomic(path, versions[i % len(versions)])
            i += 1

    return write


def _game(path: Path) -> Callable[[], None]:
    from mqtui.engine.content import load_content
    from mqtui.engine.game import Engine
    from mqtui.store import LocalStore, Seat

    eng = Engine(load_content())
    seats = tuple(Seat(*seat) for seat in SEATS)

    def play() -> None:
        seed = os.getpid()
        while True:
            store = LocalStore.new(eng, seats, seed, bot_delay=0)
            store.autosave_to(path)
            while store.step_bot():
                pass
            seed += 1

    return play


def main(argv: list[str]) -> int:
    mode, path = argv[1], Path(argv[2])
    child = _writer(path, [Path(f).read_bytes() for f in argv[3:]]) if mode == "writer" else _game(path)
    forks = multiprocessing.get_context("fork")  # (a child is this process forked: nothing imported again)
    live: dict[int, multiprocessing.process.BaseProcess] = {}
    try:
        for line in sys.stdin:
            word, *rest = line.split()
            if word == "fork":  # a child that saves until it is killed
                process = forks.Process(target=child, daemon=True)
                process.start()
                assert process.pid is not None
                live[process.pid] = process
                print(process.pid, flush=True)
            else:  # kill PID
                process = live.pop(int(rest[0]))
                process.kill()
                process.join()
                print(process.exitcode, flush=True)
    finally:
        for process in live.values():
            process.kill()
            process.join()
    return 0


class Savers:
    """A test's handle on the saving children's parent (``mode``: "writer" or "game", see above)."""

    def __init__(self, mode: str, path: Path, *files: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, mode, str(path), *map(str, files)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _ask(self, line: str) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, "the savers' parent ended"
        return int(answer)

    def fork(self) -> int:
        """A new saving child; its pid."""
        return self._ask("fork")

    def kill(self, pid: int) -> None:
        """SIGKILL the child now; it must die of that signal, not have ended on its own."""
        assert self._ask(f"kill {pid}") == -signal.SIGKILL, "the child died on its own"

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()  # (it kills a child still running)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
