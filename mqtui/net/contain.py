"""Session containment: each session's app runs under the resource limits a host operator sets.

One visitor must not take a core or the host's memory. The SSH host gives every session's app (forked
from the fork server, or started afresh) its :class:`Containment` in the environment
(``MQTUI_SESSION_LIMITS``, JSON); the app's program applies it to its own process before it starts
(:func:`apply_from_env`), so both ways of starting an app are contained alike:

- **memory**: ``RLIMIT_DATA`` (the private writable memory: heap, arenas, anonymous maps; not the
  shared pages of the fork server nor the mapped libraries, which ``RLIMIT_AS`` would count too);
- **descriptors**: ``RLIMIT_NOFILE``;
- **CPU share**: the app runs ``nice`` (the host itself, which saves the games and relays every
  session, keeps its own priority), and ``RLIMIT_CPU`` ends a runaway: an app that has used that many
  CPU-seconds in all (a session's app uses about 13 ms an action) is told so and ends;
- no core files (a crash must not fill the host's disk);
- with a **cgroup v2** folder the host may write (``--session-cgroup``), each app also gets a cgroup of
  its own with ``memory.max``, ``pids.max`` and ``cpu.weight``.

An app that runs out of memory ends in words ("its app needed more memory than this host allows a
session"), with :data:`EXIT_MEMORY`; out of CPU time, with :data:`EXIT_CPU`. The host logs both.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import mmap
import os
import resource
import signal
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

ENV = "MQTUI_SESSION_LIMITS"
EXIT_MEMORY = 86  # the app ran out of the memory it may use
EXIT_CPU = 87  # the app used all the CPU time it may use
PROBE = 4 * 1024 * 1024  # an app that cannot get this much more, as it ends in error, ran out of memory
# what the player's terminal gets back before the words: modes the app had set, off (mouse, bracketed
# paste, the alternate screen, a hidden cursor)
_RESET = b"\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1049l\x1b[?25h"


@dataclass(frozen=True)
class Containment:
    memory: int = 512  # MiB of private memory (RLIMIT_DATA) a session's app may have; 0: no limit
    files: int = 256  # open descriptors (RLIMIT_NOFILE); 0: no limit
    nice: int = 5  # added to the app's niceness (the host keeps its own)
    cpu: int = 3600  # CPU-seconds a session's app may use in all (RLIMIT_CPU); 0: no limit
    cgroup: str = ""  # a cgroup v2 folder the host may write: one cgroup per session under it

    def check(self) -> str:
        if min(self.memory, self.files, self.cpu) < 0:
            return "the session limits cannot be negative"
        if 0 < self.memory < 32:
            return "--session-memory below 32 MiB leaves an app no room to start"
        if 0 < self.files < 16:
            return "--session-files below 16 leaves an app no room to start"
        if not 0 <= self.nice <= 19:
            return "--session-nice is from 0 to 19"
        return ""

    def to_env(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))


def from_env(env: Mapping[str, str] | None = None) -> Containment | None:
    """The containment the host gave this process, or None (not a session's app)."""
    text = (os.environ if env is None else env).get(ENV)
    if not text:
        return None
    try:
        return Containment(**json.loads(text))
    except (ValueError, TypeError):
        return None


def apply(c: Containment) -> None:
    """Contain this process (a session's app, at its start)."""
    # what end() calls, loaded now, under no limit (the app would load it anyway: it uses Textual)
    importlib.import_module("mqtui.ui.textual_internals")

    def limit(which: int, value: int) -> None:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(which, (value, value))  # the hard limit too: the app cannot raise it

    limit(resource.RLIMIT_CORE, 0)
    # nothing logged goes to the player's screen (Python's last resort writes to stderr, the terminal)
    logging.getLogger().addHandler(logging.NullHandler())
    if c.memory:
        limit(resource.RLIMIT_DATA, c.memory * 1024 * 1024)
    if c.files:
        limit(resource.RLIMIT_NOFILE, c.files)
    if c.cpu:
        # SIGXCPU at the soft limit (said in words, below); SIGKILL at the hard one, a few seconds later
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (c.cpu, c.cpu + 5))
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGXCPU, lambda *_: end(EXIT_CPU, c))
    if c.nice:
        with contextlib.suppress(OSError):
            os.nice(c.nice)
    if c.cgroup:
        join_cgroup(Path(c.cgroup), c)


def apply_from_env() -> Containment | None:
    c = from_env()
    if c is not None:
        apply(c)
    return c


def cgroup_of(folder: Path, pid: int) -> Path:
    return folder / f"mqtui-session-{pid}"


def join_cgroup(folder: Path, c: Containment) -> None:
    """Put this process in a cgroup of its own under ``folder`` (cgroup v2, delegated to the host's user)
    with the memory, process count and CPU weight of ``c``. Where that cannot be done the rlimits still
    hold."""
    group = cgroup_of(folder, os.getpid())
    try:
        group.mkdir(exist_ok=True)
        settings = {"pids.max": "64", "cpu.weight": str(max(1, 100 - 5 * c.nice))}
        if c.memory:
            settings["memory.max"] = str(c.memory * 1024 * 1024)
            settings["memory.swap.max"] = "0"
        for name, value in settings.items():
            with contextlib.suppress(OSError):
                (group / name).write_text(value)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return


def remove_cgroup(folder: str, pid: int) -> None:
    """The host's side: the cgroup of the session app ``pid``, once it has ended (an empty cgroup)."""
    if folder:
        with contextlib.suppress(OSError):
            cgroup_of(Path(folder), pid).rmdir()


def out_of_memory() -> bool:
    """Whether this process cannot get :data:`PROBE` bytes more: asked of an app that ends in error."""
    try:
        # private and writable, as RLIMIT_DATA counts; never touched, so it costs no memory
        probe = mmap.mmap(-1, PROBE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, MemoryError, ValueError):
        return True
    probe.close()
    return False


def message(code: int, c: Containment | None) -> str:
    if code == EXIT_MEMORY:
        size = f" ({c.memory} MiB)" if c is not None and c.memory else ""
        return f"its app needed more memory than this host allows a session{size}"
    return "its app used all the CPU time this host allows a session"


def end(code: int, c: Containment | None) -> None:
    """End this session's app at once, in words: the player's terminal set back, the reason, the code."""
    text = f"\r\nmqtui: this session was ended: {message(code, c)}. You can connect again.\r\n"
    with contextlib.suppress(OSError):
        os.write(1, _RESET + text.encode())
    # (loaded by apply before the limits were set: an app out of memory imports nothing new here)
    from mqtui.ui.textual_internals import exit_at_once

    exit_at_once(code)
