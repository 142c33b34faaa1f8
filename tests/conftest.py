"""Every test runs in a world of its own, so that the suite can run in parallel (pytest-xdist):

- its own data folder (``$MQTUI_DATA``: saves, settings, user packs and themes) and ``$HOME``, both
  under the test's ``tmp_path``, never the user's nor another worker's;
- a known terminal (``TERM=xterm-256color``) and no ``NO_COLOR`` from the caller's shell (a test about
  either sets it itself).

A module may still set ``MQTUI_DATA`` elsewhere (its own autouse fixture runs after this one).
Waiting helpers live in ``tests/waiting.py``; a port is always 0 (the OS picks a free one); a folder
is always under ``tmp_path`` (per test, so per worker), never a fixed path.

Depth: the default run is the everyday suite; ``pytest --deep`` is the deep run, which adds the tests
marked ``deep`` (thousands of random games: tests/test_deep.py) and gives the Hypothesis tests the
``deep`` profile (ten times as many examples; ``engine_helpers.examples``). ``.ci/run`` runs both.

The ``slow`` marker is on every test that takes seconds (whole games, fuzzing, subprocesses, SSH;
measured with ``pytest --durations=40``); ``-m "not slow"`` leaves them out. In a parallel run
(``./test``: ``-n auto --dist loadgroup``) they start first, the heaviest (``slow(seconds=N)``, N the
CPU seconds it took) before the others, so that the long ones spread over the workers instead of
ending the run on one of them. Tests that share an expensive module fixture keep
together on one worker with ``pytest.mark.xdist_group("name")``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_helpers import engine as base_engine
from hypothesis import HealthCheck, settings
from pytest_textual_snapshot import SVGImageExtension
from syrupy.assertion import SnapshotAssertion

from mqtui.engine.game import Engine

# Hypothesis: no deadline (a loaded machine must not fail a test), and the profile ``pytest --deep``
# loads ("--hypothesis-profile NAME" picks one by name too)
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", settings.get_profile("default"), max_examples=1000)
settings.load_profile("default")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        help="the deep run: also the tests marked deep, and Hypothesis's deep profile",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("deep"):
        settings.load_profile("deep")


@pytest.fixture(scope="session")
def _own_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Fresh empty folders, one per ``next``: 1, 2, 3... in a folder of the worker's base temp."""
    return _numbered(tmp_path_factory.mktemp("own", numbered=False))


def _numbered(base: Path) -> Iterator[Path]:
    for n in itertools.count(1):
        (base / str(n)).mkdir()
        yield base / str(n)


@pytest.fixture(autouse=True)
def _own_data_and_home(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, _own_folders: Iterator[Path]
) -> None:
    # a test that uses tmp_path (or the ``data`` fixture) has its folders there; any other test gets a
    # fresh empty folder of its own more cheaply: a tmp_path scans the worker's whole base temp for the
    # next free number (~0.7 ms a test, more the more tests the worker has run)
    root: Path = (
        request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else next(_own_folders)
    )
    monkeypatch.setenv("MQTUI_DATA", str(root / "data"))
    monkeypatch.setenv("HOME", str(root / "home"))
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)


def _weight(item: pytest.Item) -> float:
    """How long a test takes, for the order: ``slow(seconds=N)`` (CPU seconds measured), ``slow`` 1."""
    slow = item.get_closest_marker("slow")
    return 0.0 if slow is None else float(slow.kwargs.get("seconds", 1.0))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("deep"):
        skip = pytest.mark.skip(reason="the deep run only (pytest --deep)")
        for item in items:
            if item.get_closest_marker("deep"):
                item.add_marker(skip)
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: every worker sorts the same way
        items.sort(key=lambda item: -_weight(item))  # (stable: the heaviest first, then the other slow)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """The test's data folder (``$MQTUI_DATA``), for tests that look into it."""
    return tmp_path / "data"


@pytest.fixture
def svg_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """The test's stored SVG picture (``tests/__snapshots__/<module>/<test>.svg``, where ``snap_compare``
    keeps them; ``--snapshot-update`` rewrites them): ``assert svg_snapshot == await screenshot(app)``."""
    return snapshot.use_extension(SVGImageExtension)


@pytest.fixture(scope="session")
def engine() -> Engine:
    """The engine on the base content, built once per worker (games never change it; each test's
    state is its own)."""
    return base_engine()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After a run with the per-card checks in it, how many card ids they cover (tests/test_cards.py)."""
    ran = any(
        "test_cards.py::" in getattr(report, "nodeid", "") and getattr(report, "when", "") == "call"
        for reports in terminalreporter.stats.values()
        for report in reports
    )
    if ran:
        from test_cards import summary

        terminalreporter.write_line(summary())
