"""The lock files say what pyproject.toml says (offline; ``scripts/lock.py --check`` in CI resolves
again): every direct dependency is pinned in each file at a version its bound allows, the lowest set
at the lowest release of each bound's floor, and ./play's set at ./test's versions."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)", re.M)


def pins(name: str) -> dict[str, Version]:
    text = (LOCKS / name).read_text()
    assert "--hash=sha256:" in text, f"{name} has no hashes"
    return {canonicalize_name(n): Version(v) for n, v in PIN.findall(text)}


def direct(dev: bool) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [
        Requirement(r)
        for r in project["dependencies"] + (project["optional-dependencies"]["dev"] if dev else [])
    ]


@pytest.mark.parametrize(("lock", "dev"), [("dev.txt", True), ("app.txt", False), ("lowest.txt", True)])
def test_every_direct_dependency_is_pinned_within_its_bounds(lock: str, dev: bool) -> None:
    pinned = pins(lock)
    for req in direct(dev):
        name = canonicalize_name(req.name)
        assert name in pinned, f"{lock} does not pin {req.name} (run scripts/lock.py)"
        assert req.specifier.contains(pinned[name], prereleases=True), (
            f"{lock}: {name}=={pinned[name]} is not {req}"
        )


def test_the_lowest_set_is_at_each_floor() -> None:
    pinned = pins("lowest.txt")
    for req in direct(True):
        floors = [Version(s.version) for s in req.specifier if s.operator in (">=", "==")]
        if floors:  # the first release of the floor's line (77 may be out as 77.0.1 only)
            got = pinned[canonicalize_name(req.name)]
            assert got.release[: len(floors[0].release)] == floors[0].release, f"{req.name}: {got} for {req}"


def test_play_installs_the_versions_test_installs() -> None:
    dev, app = pins("dev.txt"), pins("app.txt")
    assert app and all(dev[name] == version for name, version in app.items())
