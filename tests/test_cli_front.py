"""The front door: --version, --help with one line per command, ``python -m mqtui`` the same, and
the shipped folders found through the package (the repository's own in an editable install)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mqtui import __version__, paths
from mqtui.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent


@functools.cache  # (the same command twice in this file: run once)
def mqtui(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m mqtui ARGS`` without MQTUI_* settings, 80 columns wide; what it imported on stderr
    (``python -X importtime``: a line ``import time: SELF | CUMULATIVE | NAME`` a module)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MQTUI_")}
    clean.update(COLUMNS="80", PYTHONPROFILEIMPORTTIME="1")
    return subprocess.run(
        [sys.executable, "-m", "mqtui", *args], capture_output=True, text=True, env=clean, timeout=60
    )


def test_version_and_help_list_every_command_on_one_line() -> None:
    version = mqtui("--version")
    assert (version.returncode, version.stdout) == (0, f"mqtui {__version__}\n")
    helped = mqtui("--help")
    assert helped.returncode == 0
    lines = helped.stdout.splitlines()
    listing = lines[lines.index("commands:") + 1 :]
    assert [line.split()[0] for line in listing] == list(COMMANDS)
    assert all(len(line.split()) > 1 for line in listing), "a command without its line"
    assert max(map(len, lines)) <= 80
    # the quick commands start quickly: the parser of every command needs no event loop, UI or SSH
    imported = set(re.findall(r"\|\s+([\w.]+)$", helped.stderr, re.MULTILINE))
    assert "mqtui.net.options" in imported  # (serve's options: a module imported by a statement is listed)
    assert not imported & {"asyncio", "textual", "asyncssh"}, "mqtui --help imports what it does not use"


@pytest.mark.slow
def test_python_m_mqtui_is_the_mqtui_command() -> None:
    script = Path(sys.executable).parent / "mqtui"
    for args in (["--help"], ["--version"], ["content", "check", "--plain"]):
        via_module = mqtui(*args)
        via_script = subprocess.run(
            [str(script), *args],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if not k.startswith("MQTUI_")} | {"COLUMNS": "80"},
            timeout=60,
        )
        assert (via_module.returncode, via_module.stdout) == (via_script.returncode, via_script.stdout)


def test_shipped_folders_come_through_the_package_and_env_overrides_still_win(tmp_path: Path) -> None:
    package = Path(paths.__file__).resolve().parent
    assert paths.shipped("seeds") == package / "_data" / "seeds"
    # an editable install (this one) sees the repository's top-level folders through the links
    assert paths.shipped("seeds").resolve() == ROOT / "seeds"
    assert paths.shipped("themes").resolve() == ROOT / "themes"
    assert (paths.shipped("docs") / "rules.md").is_file()
    code = "from mqtui import paths; print(paths.SEEDS_DIR, paths.THEMES_DIR, paths.DOCS_DIR, sep='|')"
    env = {
        "MQTUI_SEEDS": str(tmp_path / "s"),
        "MQTUI_THEMES": str(tmp_path / "t"),
        "MQTUI_DOCS": str(tmp_path / "d"),
    }
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MQTUI_")} | env
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean, check=True)
    assert out.stdout.strip().split("|") == [env["MQTUI_SEEDS"], env["MQTUI_THEMES"], env["MQTUI_DOCS"]]


def test_a_link_checked_out_as_a_text_file_still_leads_to_the_folder(tmp_path: Path, monkeypatch) -> None:
    # git on Windows without symlinks writes the link's target into a small file
    fake = tmp_path / "pkg"
    (fake / "_data").mkdir(parents=True)
    (tmp_path / "seeds").mkdir()
    (fake / "_data" / "seeds").write_text("../../seeds\n", encoding="utf-8")
    monkeypatch.setattr(paths.resources, "files", lambda _name: fake)
    assert paths.shipped("seeds") == (tmp_path / "seeds").resolve()
