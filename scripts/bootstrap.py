"""Create or refresh the project's virtual environment (.venv) and return its Python.

Used by ./play and ./test so that both work on a fresh machine with nothing but Python 3.11+. The
environment gets exactly the versions of a lock file (requirements/, written by scripts/lock.py), each
checked against its hashes: ``requirements/dev.txt`` for ./test, ``requirements/app.txt`` (the same
versions, without the development tools) for ./play. It is brought up to date only when
pyproject.toml or the lock file changes (a hash stamp inside the environment).

    python3 scripts/bootstrap.py --venv .venv-lowest --lock requirements/lowest.txt

sets up another environment from another lock file (CI's run on the lowest versions) and prints its
Python.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("MQTUI_VENV", ROOT / ".venv"))
LOCKS = ROOT / "requirements"


def _python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _stamp(env: Path, lock: Path) -> tuple[Path, str]:
    """The stamp file for ``lock`` in ``env``, and the text it holds when the environment is current."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + lock.read_bytes()).hexdigest()
    return env / f".mqtui-stamp-{lock.stem}", digest


def _current(env: Path, lock: Path) -> bool:
    stamp, text = _stamp(env, lock)
    return _python(env).exists() and stamp.exists() and stamp.read_text() == text


def ensure_venv(dev: bool, env: Path = VENV, lock: Path | None = None) -> str:
    """The Python of ``env`` with the project installed (editable) on the versions of ``lock``
    (default: dev.txt with ``dev``, else app.txt; an environment current with dev.txt also serves
    for app.txt, whose versions are the same)."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script runs before the venv exists
        sys.exit(f"mqtui needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    lock = lock or LOCKS / ("dev.txt" if dev else "app.txt")
    if _current(env, lock) or (lock == LOCKS / "app.txt" and _current(env, LOCKS / "dev.txt")):
        return str(_python(env))
    if not _python(env).exists():
        print(f"Creating a virtual environment in {env} ...", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True).create(env)
    print(
        f"Installing mqtui and the versions of {lock.name} (first run only) ...", file=sys.stderr, flush=True
    )
    pip = [str(_python(env)), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "--upgrade", "pip"], check=False, capture_output=True)
    # pip and the build backend are chatty (warnings about the machine's pip configuration, editable
    # installs): their output is shown only when the install fails. The lock file pins every package
    # with its hashes; mqtui itself goes on top without its dependencies (they are all in the lock),
    # built by the lock's setuptools where it has one.
    has_setuptools = any(line.startswith("setuptools==") for line in lock.read_text().splitlines())
    steps = [
        [*pip, "--require-hashes", "-r", str(lock)],
        [*pip, "--no-deps", *(["--no-build-isolation"] if has_setuptools else []), "-e", str(ROOT)],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stdout + done.stderr)
            sys.exit(f"Installing mqtui failed (pip exit code {done.returncode}); the output above says why.")
    stamp, text = _stamp(env, lock)
    stamp.write_text(text)
    return str(_python(env))


def main() -> None:
    parser = argparse.ArgumentParser(description="Set up a virtual environment from a lock file.")
    parser.add_argument("--venv", type=Path, default=VENV, help="the environment's folder (default .venv)")
    parser.add_argument("--lock", type=Path, default=LOCKS / "dev.txt", help="the lock file (default dev)")
    args = parser.parse_args()
    print(ensure_venv(dev=True, env=args.venv.resolve(), lock=args.lock.resolve()))


if __name__ == "__main__":
    main()
