"""Compile the suite's Python once, before pytest-xdist starts its workers, instead of once in each.

Every worker imports every test module (pytest rewrites its asserts: parse, rewrite, compile) and the
package. From a fresh clone nothing is compiled yet, and the workers, all starting at once, each do all
of it themselves: about 2 CPU-seconds per worker, the same work three times over. Here the controller
does it once, on every core, and writes the files where the workers look first: pytest's own cache of
rewritten modules (``__pycache__/NAME.cpython-3xx-pytest-X.pyc``, written by pytest's own functions)
and Python's ``.pyc`` files. A run that finds them up to date does nothing here.

It uses private functions of pytest's assertion rewriter (``_rewrite_test``, ``_read_pyc``,
``_write_pyc``, checked against pytest 8.4). Should they change or fail, nothing is lost: the workers
compile what they find missing, as they always did.
"""

from __future__ import annotations

import contextlib
import fnmatch
import importlib.util
import os
import py_compile
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest

_config: pytest.Config | None = None  # the controller's, for the forked compilers


def _rewrite(path: str) -> None:
    from _pytest.assertion import rewrite

    assert _config is not None
    fn = Path(path)
    state = _config.stash[rewrite.assertstate_key]
    source_stat, code = rewrite._rewrite_test(fn, _config)
    cache_dir = rewrite.get_cache_dir(fn)
    if rewrite.try_makedirs(cache_dir):
        rewrite._write_pyc(state, code, source_stat, cache_dir / (fn.name[:-3] + rewrite.PYC_TAIL))


def _compile(path: str) -> None:
    py_compile.compile(path, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)


def _stale_modules(config: pytest.Config) -> tuple[list[str], list[str]]:
    """The test modules (rewritten by pytest) and the other modules under the tests' folders and the
    package whose compiled form is missing or out of date."""
    from _pytest.assertion import rewrite

    patterns = [*config.getini("python_files"), "conftest.py"]
    rewritten: list[str] = []
    plain: list[str] = []
    folders = [Path(config.rootpath, p) for p in config.getini("testpaths")]
    for folder in folders:
        for fn in sorted(folder.glob("*.py")):
            if any(fnmatch.fnmatch(fn.name, p) for p in patterns):
                pyc = rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)
                if rewrite._read_pyc(fn, pyc) is None:
                    rewritten.append(str(fn))
            else:
                plain.append(str(fn))
    return rewritten, plain


def precompile(config: pytest.Config, package: Path) -> None:
    global _config
    if sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return
    with contextlib.suppress(Exception):  # (the workers compile what is left)
        rewritten, plain = _stale_modules(config)
        plain += [str(p) for p in package.rglob("*.py") if _stale(p)]
        if not rewritten and not plain:
            return
        _config = config
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        with ProcessPoolExecutor(max_workers=cores, mp_context=get_context("fork")) as pool:
            # the rewritten ones first: each is several times the work of a plain one
            list(pool.map(_rewrite, rewritten))
            list(pool.map(_compile, plain, chunksize=16))


def _stale(py: Path) -> bool:
    """Whether ``py``'s ``.pyc`` is missing or not of this source (what the import system checks)."""
    pyc = Path(importlib.util.cache_from_source(str(py)))
    try:
        with open(pyc, "rb") as f:
            head = f.read(16)
        stat = py.stat()
    except OSError:
        return True
    return not (
        head[:4] == importlib.util.MAGIC_NUMBER
        and head[4:8] == b"\0\0\0\0"
        and int.from_bytes(head[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(head[12:16], "little") == stat.st_size & 0xFFFFFFFF
    )
