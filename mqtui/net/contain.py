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
  its own under it, ``mqtui-session-PID``, with ``memory.max`` and ``memory.swap.max``, ``pids.max``,
  ``cpu.weight`` and ``cpu.max``, each where its controller is enabled. The host prepares the folder at
  its start (:func:`prepare_cgroup`: made if missing, the controllers enabled for the sessions' cgroups
  where the folder offers them, one warning naming those it lacks), places each app in its cgroup as it
  starts (so does the app itself, before it runs anything: :func:`place_in_cgroup`), and when the
  session ends kills whatever is left in it and removes it (:func:`remove_cgroup`).

An app that runs out of memory ends in words ("its app needed more memory than this host allows a
session"), with :data:`EXIT_MEMORY`; out of CPU time, with :data:`EXIT_CPU`. The host logs both.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import logging
import mmap
import os
import resource
import signal
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger("mqtui.net")  # the host's log (the operator's); an app's own logging goes nowhere

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
    cpu_max: int = 100  # percent of one core a session's app may use at most (its cgroup's cpu.max); 0: none

    def check(self) -> str:
        if min(self.memory, self.files, self.cpu) < 0:
            return "the session limits cannot be negative"
        if 0 < self.memory < 32:
            return "--session-memory below 32 MiB leaves an app no room to start"
        if 0 < self.files < 16:
            return "--session-files below 16 leaves an app no room to start"
        if not 0 <= self.nice <= 19:
            return "--session-nice is from 0 to 19"
        if not 0 <= self.cpu_max <= 100 * 1024:
            return "--session-cpu-max is a percentage of one core, from 1 (0: no limit)"
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


# -- cgroup v2 ---------------------------------------------------------------------------------------

WANTED = ("memory", "pids", "cpu")  # the controllers a session's cgroup uses, and the files each sets:
FILES = {"memory": "memory.max, memory.swap.max", "pids": "pids.max", "cpu": "cpu.weight, cpu.max"}
PIDS_MAX = 64  # processes and threads of one session's app (it needs about 10)
CPU_PERIOD = 100_000  # microseconds: cpu.max is "QUOTA PERIOD"


def cgroup_of(folder: Path, pid: int) -> Path:
    return folder / f"mqtui-session-{pid}"


def is_cgroup2(folder: Path) -> bool:
    """Whether ``folder`` is a cgroup of a cgroup v2 hierarchy (only v2 has ``cgroup.controllers``)."""
    return (folder / "cgroup.controllers").is_file() and (folder / "cgroup.procs").is_file()


def _and(names: list[str], word: str = "and") -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError:
        return []


def cgroup_settings(c: Containment, enabled: set[str] | list[str]) -> dict[str, str]:
    """What a session's cgroup sets, of the controllers ``enabled`` in it."""
    settings: dict[str, str] = {}
    if "memory" in enabled and c.memory:
        settings["memory.max"] = str(c.memory * 1024 * 1024)
        settings["memory.swap.max"] = "0"  # (its memory limit is not to be passed by swapping)
    if "pids" in enabled:
        settings["pids.max"] = str(PIDS_MAX)
    if "cpu" in enabled:
        settings["cpu.weight"] = str(max(1, 100 - 5 * c.nice))  # 100 is a process's own: lower with nice
        if c.cpu_max:
            settings["cpu.max"] = f"{c.cpu_max * CPU_PERIOD // 100} {CPU_PERIOD}"
    return settings


def prepare_cgroup(c: Containment) -> Containment:
    """The host's side, at its start: ``c`` as the sessions are to have it. The folder is made if it is
    missing (in a cgroup v2 folder); the controllers the sessions' cgroups use are enabled in its
    ``cgroup.subtree_control`` where it offers them; one warning names those it lacks (their limits are
    not set; the rlimits and the niceness still hold); the cgroups a host before this one left are
    removed. A folder that cannot serve is said and not used (``cgroup`` empty)."""
    if not c.cgroup:
        return c
    folder = Path(c.cgroup)
    off = replace(c, cgroup="")
    if not folder.exists():
        if not is_cgroup2(folder.parent):
            log.warning(
                "--session-cgroup %s: not used: its parent is not a cgroup v2 folder (the rlimits still hold)",
                folder,
            )
            return off
        try:
            folder.mkdir()
        except OSError as exc:
            log.warning(
                "--session-cgroup %s: not used: cannot make it: %s (the rlimits still hold)", folder, exc
            )
            return off
        log.info("--session-cgroup %s: made it", folder)
    if not is_cgroup2(folder):
        log.warning("--session-cgroup %s: not used: not a cgroup v2 folder (the rlimits still hold)", folder)
        return off
    if not os.access(folder, os.W_OK) or not os.access(folder / "cgroup.procs", os.W_OK):
        log.warning(
            "--session-cgroup %s: not used: this user may not write it (the rlimits still hold)", folder
        )
        return off
    sweep_cgroups(folder)
    offered = _words(folder / "cgroup.controllers")
    for name in WANTED:
        if name in offered and name not in _words(folder / "cgroup.subtree_control"):
            try:
                (folder / "cgroup.subtree_control").write_text(f"+{name}")
            except OSError as exc:  # EBUSY: processes in the folder itself (cgroup v2 has none inside)
                log.warning("--session-cgroup %s: cannot enable the %s controller: %s", folder, name, exc)
    enabled = _words(folder / "cgroup.subtree_control")
    missing = [name for name in WANTED if name not in enabled]
    if missing:
        above = folder.parent / "cgroup.subtree_control"
        where = (
            f"enable {_and(missing)} in {above}"
            if all(name in _words(folder.parent / "cgroup.controllers") for name in missing)
            else f"{folder.parent} is not given {'it' if len(missing) == 1 else 'them'} (bound to cgroup v1, "
            "or not delegated this far)"
        )
        log.warning(
            "--session-cgroup %s: no %s controller there, so the sessions' cgroups set no %s: %s; the "
            "rlimits and the niceness still hold",
            folder,
            _and(missing, "or"),
            ", ".join(FILES[name] for name in missing),
            where,
        )
    settings = cgroup_settings(c, enabled)
    log.info(
        "--session-cgroup %s: each session's app in a cgroup of its own there (%s)",
        folder,
        ", ".join(f"{k} {v}" for k, v in settings.items()) if settings else "no limits set in it",
    )
    return c


def place_in_cgroup(folder: Path, pid: int, c: Containment) -> list[str]:
    """Put process ``pid`` in a cgroup of its own under ``folder`` with the limits of ``c`` its controllers
    allow: the limits first, then the process. Done by the app itself at its start and again by the host
    once it has started it (the same, so either may come first). What went wrong, in words (an app
    already ended is not wrong)."""
    group = cgroup_of(folder, pid)
    try:
        group.mkdir(exist_ok=True)
    except OSError as exc:
        return [f"cannot make {group}: {exc.strerror or exc}"]
    problems = []
    for name, value in cgroup_settings(c, _words(group / "cgroup.controllers")).items():
        try:
            (group / name).write_text(value)
        except OSError as exc:
            problems.append(f"cannot set {name} of {group}: {exc.strerror or exc}")
    try:
        (group / "cgroup.procs").write_text(str(pid))
    except ProcessLookupError:
        pass
    except OSError as exc:
        problems.append(f"cannot put the app {pid} in {group}: {exc.strerror or exc}")
    return problems


def join_cgroup(folder: Path, c: Containment) -> None:
    """This process (a session's app, at its start) in its cgroup; where that cannot be done the rlimits
    still hold, and the host, which places the app too, says why in its log."""
    place_in_cgroup(folder, os.getpid(), c)


def remove_cgroup(folder: str, pid: int, tries: int = 40) -> None:
    """The host's side, once the session app ``pid`` has ended: whatever is left in its cgroup is killed
    (``cgroup.kill``) and the cgroup removed. While the kernel still counts a dying process in it, tried
    again a little later (from the running event loop, for up to about 10 s)."""
    if not folder:
        return
    group = cgroup_of(Path(folder), pid)
    with contextlib.suppress(OSError):
        (group / "cgroup.kill").write_text("1")
    try:
        group.rmdir()
    except FileNotFoundError:
        pass
    except OSError as exc:
        loop = _running_loop()
        if exc.errno == errno.EBUSY and tries > 0 and loop is not None:
            loop.call_later(0.25, remove_cgroup, folder, pid, tries - 1)
        else:
            log.warning("cannot remove the session cgroup %s: %s", group, exc.strerror or exc)


def sweep_cgroups(folder: Path) -> int:
    """Remove the sessions' cgroups of ended apps under ``folder`` (a host before this one ended without
    removing them: kill -9, a crash); how many."""
    removed = 0
    for group in folder.glob("mqtui-session-*"):
        pid = group.name.removeprefix("mqtui-session-")
        if pid.isdigit() and Path(f"/proc/{pid}").exists() and _words(group / "cgroup.procs"):
            continue  # an app that runs
        with contextlib.suppress(OSError):
            (group / "cgroup.kill").write_text("1")
        with contextlib.suppress(OSError):
            group.rmdir()
            removed += 1
    if removed:
        log.info("--session-cgroup %s: removed %d cgroups left by a host before", folder, removed)
    return removed


def _running_loop() -> asyncio.AbstractEventLoop | None:
    import asyncio  # (here: the options of ``mqtui serve``, which import this module, load no event loop)

    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


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
