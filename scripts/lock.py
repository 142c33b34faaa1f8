"""Write the lock files from pyproject.toml, with uv (the dev extra installs it into .venv).

- ``requirements/dev.txt``: the dev extra and the program's dependencies, every package pinned with
  its hashes, for every platform and Python 3.11+. ``./test`` and CI install exactly this.
- ``requirements/app.txt``: the program's dependencies alone, at the versions dev.txt pins (``./play``).
- ``requirements/lowest.txt``: dev.txt's set with every direct dependency at the lowest version
  pyproject's bounds allow (uv's ``--resolution lowest-direct``); CI runs the suite on it too, so the
  bounds in pyproject are the ones tested.

    .venv/bin/python scripts/lock.py            # after editing pyproject.toml (pins kept where allowed)
    .venv/bin/python scripts/lock.py --upgrade  # the newest versions the bounds allow
    .venv/bin/python scripts/lock.py --check    # exit 1 if the lock files do not match pyproject.toml

uv resolves against the package index; ``--check`` resolves again from the current files (so a new
release elsewhere does not make it fail) and compares.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
COMMON = ["--universal", "--python-version", "3.11", "--generate-hashes", "--quiet"]
COMMAND = "python scripts/lock.py"  # what the files' headers say made them


def _uv() -> str:
    here = Path(sysconfig.get_path("scripts")) / "uv"  # the dev extra's uv, in this environment
    found = str(here) if here.exists() else shutil.which("uv")
    if not found:
        sys.exit("scripts/lock.py needs uv: run it with .venv/bin/python (./test installs uv there)")
    return found


def _compile(folder: Path, name: str, extra: list[str], upgrade: bool) -> None:
    out = folder / name
    if not upgrade and (LOCKS / name).exists() and out != LOCKS / name:
        shutil.copy2(LOCKS / name, out)  # uv keeps the versions an existing output file pins
    cmd = [_uv(), "pip", "compile", "pyproject.toml", *COMMON, *extra, "-o", str(out)]
    cmd += ["--custom-compile-command", COMMAND, *(["--upgrade"] if upgrade else [])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"uv pip compile failed for {name}:\n{done.stderr}")
    # the files name each other as in the repository, wherever they were written
    out.write_text(out.read_text().replace(str(folder / "dev.txt"), "requirements/dev.txt"))


def write(folder: Path, upgrade: bool = False) -> None:
    folder.mkdir(exist_ok=True)
    _compile(folder, "dev.txt", ["--extra", "dev"], upgrade)
    dev = folder / "dev.txt"
    _compile(
        folder,
        "app.txt",
        ["--constraint", str(dev.relative_to(ROOT) if dev.is_relative_to(ROOT) else dev)],
        upgrade,
    )
    _compile(folder, "lowest.txt", ["--extra", "dev", "--resolution", "lowest-direct"], upgrade)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upgrade", action="store_true", help="the newest versions the bounds allow")
    parser.add_argument("--check", action="store_true", help="exit 1 if the lock files are out of date")
    args = parser.parse_args()
    if not args.check:
        write(LOCKS, args.upgrade)
        return
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp))
        stale = [
            name
            for name in ("dev.txt", "app.txt", "lowest.txt")
            if not (LOCKS / name).exists() or (LOCKS / name).read_text() != (Path(tmp) / name).read_text()
        ]
    if stale:
        sys.exit(f"out of date with pyproject.toml: requirements/{', '.join(stale)} (run {COMMAND})")
    print("lock files: up to date with pyproject.toml")


if __name__ == "__main__":
    main()
