"""Create or refresh the project's virtual environment (.venv) and return its Python.

Used by ./play and ./test so that both work on a fresh machine with nothing but Python 3.11+.
The environment is rebuilt only when pyproject.toml changes (a hash stamp inside .venv).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("MQTUI_VENV", ROOT / ".venv"))


def _python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv(dev: bool) -> str:
    if sys.version_info < (3, 11):  # noqa: UP036 - this script runs before the venv exists
        sys.exit(f"mqtui needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    extra = "[dev]" if dev else ""
    stamp_text = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest() + extra
    stamp = VENV / f".mqtui-stamp{'-dev' if dev else ''}"
    if _python().exists() and stamp.exists() and stamp.read_text() == stamp_text:
        return str(_python())
    if not _python().exists():
        print(f"Creating a virtual environment in {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing mqtui and its dependencies (first run only) ...", flush=True)
    pip = [str(_python()), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "--upgrade", "pip"], check=False, capture_output=True)
    # pip and the build backend are chatty (warnings about the machine's pip configuration, editable
    # installs): their output is shown only when the install fails
    done = subprocess.run([*pip, "-e", f"{ROOT}{extra}"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        sys.exit(f"Installing mqtui failed (pip exit code {done.returncode}); the output above says why.")
    stamp.write_text(stamp_text)
    return str(_python())
