"""The built program is the whole program: build the sdist, build the wheel from it, install the wheel
into a fresh virtual environment outside the source tree, and use ``mqtui`` from yet another folder.

Offline and quick: the build runs the setuptools of this environment (no build isolation), and the
fresh environment borrows the already installed dependencies (textual, rich, ...) through a ``.pth``
line, so only mqtui itself comes from the wheel (the test checks that it does).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # one worker builds the wheel once

HEADLESS = """
import asyncio, json, sys
import mqtui
from mqtui import paths
from mqtui.ui.app import MQApp
from mqtui.ui.screens.rules import MISSING, rules_markdown
from mqtui.ui.settings import Settings

async def main():
    app = MQApp(settings=Settings(bot_delay=0.0, pass_countdown=0), save_settings_file=False, bot_delay=0)
    out = {"module": mqtui.__file__, "seeds": str(paths.SEEDS_DIR), "rules": rules_markdown() != MISSING}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        out["first"] = type(app.screen).__name__
        out["themes"] = sorted(app.theme_labels)
        out["theme_errors"] = list(app.theme_errors)
        await pilot.press("n")
        out["new"] = type(app.screen).__name__
        await pilot.press("ctrl+s")
        for _ in range(200):
            await pilot.pause(0.05)
            if type(app.screen).__name__ == "GameScreen":
                break
        out["game"] = type(app.screen).__name__
        out["seats"] = len(app.game_store.seats) if app.game_store else 0
    print(json.dumps(out))

asyncio.run(main())
"""


def _setuptools_problem() -> str | None:
    try:
        import setuptools
    except ImportError:
        return "setuptools is not installed in this environment"
    major = int(setuptools.__version__.split(".")[0])
    return None if major >= 77 else f"setuptools {setuptools.__version__} is older than 77"


def _copy_source(dest: Path) -> Path:
    """What the sdist is built from: the package (with its _data links) and the top-level folders."""
    src = dest / "src"
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "screenshots", "*.egg-info")
    for name in ("mqtui", "seeds", "themes", "docs"):
        shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=junk)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    return src


BUILD = """
import os, sys, tarfile
from pathlib import Path
from setuptools import build_meta as m

source, out, unpacked = map(Path, sys.argv[1:])
os.chdir(source)
sdist = out / m.build_sdist(str(out))
with tarfile.open(sdist) as tar:
    tar.extractall(unpacked, filter="data")
(top,) = unpacked.iterdir()
os.chdir(top)  # the wheel comes from the sdist
print(sdist, out / m.build_wheel(str(out)), sep="\\n")
"""


def _build(python: str, source: Path, out: Path, unpacked: Path) -> tuple[Path, Path]:
    """The sdist of ``source``, and the wheel built from that sdist (one process for both builds)."""
    done = subprocess.run(
        [python, "-c", BUILD, str(source), str(out), str(unpacked)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"the build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    sdist, wheel = done.stdout.strip().splitlines()[-2:]
    return Path(sdist), Path(wheel)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Build, install into a fresh venv; the env and folders to run the installed ``mqtui`` in."""
    problem = _setuptools_problem()
    if problem:
        pytest.skip(f"cannot build the wheel offline: {problem} (run ./test to refresh .venv)")
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    sdist, wheel = _build(sys.executable, _copy_source(tmp), dist, tmp / "unpacked")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index"]
    done = subprocess.run([*pip, str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # the dependencies already installed here (a path line: this environment's .pth files, such as
    # the editable mqtui's, are not run)
    Path(purelib, "_deps_from_test_env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MQTUI_", "PYTHON"))}
    env.update(HOME=str(tmp / "home"), MQTUI_DATA=str(tmp / "data"), TERM="xterm-256color", COLUMNS="80")
    return {"wheel": wheel, "sdist": sdist, "bin": env_dir / "bin", "cwd": elsewhere, "env": env}


def run(installed: dict[str, object], *commands: list[str]) -> list[subprocess.CompletedProcess[str]]:
    """Run each command (``[program, args...]``, the program from the fresh environment) in the folder
    elsewhere, all at once (they are independent); their results in the same order."""
    procs = [
        subprocess.Popen(
            [str(Path(str(installed["bin"])) / argv[0]), *argv[1:]],
            cwd=str(installed["cwd"]),
            env=installed["env"],  # type: ignore[arg-type]
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for argv in commands
    ]
    done = []
    try:
        for argv, proc in zip(commands, procs, strict=True):
            out, err = proc.communicate(timeout=300)
            done.append(subprocess.CompletedProcess(argv, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return done


def test_the_wheel_and_sdist_carry_content_themes_and_docs(installed: dict[str, object]) -> None:
    names = zipfile.ZipFile(str(installed["wheel"])).namelist()
    for needed in (
        "mqtui/_data/seeds/base/monsters.toml",
        "mqtui/_data/seeds/packs/standing-room-only/pack.toml",
        "mqtui/_data/seeds/scenarios/3.2-mixed-heritage.toml",
        "mqtui/_data/themes/mq-light.toml",
        "mqtui/_data/docs/rules.md",
        "mqtui/ui/app.tcss",
        "mqtui/net/webpage.html",  # the browsers' page (mqtui serve --web)
    ):
        assert needed in names
    with tarfile.open(str(installed["sdist"])) as tar:
        assert any(n.endswith("mqtui/_data/seeds/base/monsters.toml") for n in tar.getnames())


@pytest.fixture(scope="module")
def ran(installed: dict[str, object]) -> list[subprocess.CompletedProcess[str]]:
    """What the installed program did, every command at once (the tests below look at the results)."""
    return run(
        installed,
        ["mqtui", "--version"],
        ["mqtui", "content", "check"],
        # three rounds of four bots (a whole game, capped at 200 rounds, cost 0.3 CPU-s more; the bots: test_sim)
        ["mqtui", "sim", "--games", "1", "--players", "4", "--round-cap", "3", "--json"],
        ["mqtui", "cards", "--kind", "monster"],
        ["mqtui", "scenario", "-q"],
        ["python", "-m", "mqtui", "--help"],
        ["python", "-c", HEADLESS],
    )


def test_installed_mqtui_works_from_another_folder(ran: list[subprocess.CompletedProcess[str]]) -> None:
    from mqtui import __version__

    version, check, sim, cards, scenarios, helped, _ = ran
    assert version.returncode == 0 and version.stdout.strip() == f"mqtui {__version__}"
    assert check.returncode == 0, check.stdout + check.stderr
    assert "content OK" in check.stdout and "standing-room-only: OK" in check.stdout
    assert sim.returncode == 0, sim.stderr
    played = json.loads(sim.stdout)
    assert (played["games"], played["errors"]) == (1, 0) and played["decisions"] > 50, played
    assert cards.returncode == 0 and "Monsters (" in cards.stdout, cards.stderr
    assert scenarios.returncode == 0 and " passed, 0 failed" in scenarios.stdout, scenarios.stdout
    assert helped.returncode == 0 and "  serve " in helped.stdout


def test_installed_app_opens_its_title_screen_and_a_new_game(
    installed: dict[str, object], ran: list[subprocess.CompletedProcess[str]]
) -> None:
    done = ran[-1]
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    venv_dir = str(Path(str(installed["bin"])).parent)
    assert out["module"].startswith(venv_dir), "mqtui came from somewhere else than the wheel"
    assert out["seeds"].startswith(venv_dir)
    assert out["rules"], "the in-app rules are missing"
    assert {"mq-dark", "mq-light", "mq-contrast", "mq-colourblind"} <= set(out["themes"])
    assert out["theme_errors"] == []
    assert (out["first"], out["new"], out["game"], out["seats"]) == (
        "TitleScreen",
        "NewGameScreen",
        "GameScreen",
        4,
    )
