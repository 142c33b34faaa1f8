"""Scenarios: a position set up by hand, actions in the notation, and the results they must give.

A scenario is a TOML file (format: ``docs/scenarios.md``), decoded into the Structs of
:mod:`mqtui.engine.scenario_spec` by :func:`load`; :func:`~mqtui.engine.scenario_build.build` turns its
setup into a :class:`~mqtui.engine.state.State`; :func:`run` plays the steps and compares what happened
with what the file expects (:func:`~mqtui.engine.scenario_check.check`), giving a :class:`Result` whose
report is a readable diff.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqtui.engine.actions import Event, IllegalAction, NotationError
from mqtui.engine.game import Engine
from mqtui.engine.scenario_build import build, resolve_action
from mqtui.engine.scenario_check import check
from mqtui.engine.scenario_spec import Expect, ScenarioError, ScenarioFile, Step, decode, strs

__all__ = [
    "Result",
    "Scenario",
    "ScenarioError",
    "build",
    "check",
    "from_dict",
    "load",
    "resolve_action",
    "run",
    "scenario_files",
]


@dataclass
class Scenario:
    """A loaded scenario file."""

    path: str
    title: str
    rules: list[str]
    setup: ScenarioFile  # (its setup tables; build() reads only those)
    steps: list[Step]
    expect: Expect


@dataclass
class Result:
    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # what happened: actions and event texts

    @property
    def ok(self) -> bool:
        return not self.failures

    def report(self, verbose: bool = False) -> str:
        head = f"{'ok  ' if self.ok else 'FAIL'} {self.scenario.path}: {self.scenario.title}"
        lines = [head]
        lines += [f"    {line}" for line in self.failures]
        if self.failures or verbose:
            lines.append("    what happened:")
            lines += [f"      | {line}" for line in self.log[-40:]]
        return "\n".join(lines)


def load(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{p}: {exc}") from None
    return from_dict(data, str(p))


def from_dict(data: dict[str, Any], path: str = "<scenario>") -> Scenario:
    sc = decode(data, ScenarioFile, path)
    for i, st in enumerate(sc.step):
        if st.illegal is not None and not isinstance(st.do, str):
            raise ScenarioError(f"{path}: step[{i}]: 'illegal' needs a single action in 'do'")
    return Scenario(path=path, title=sc.title, rules=sc.rules, setup=sc, steps=sc.step, expect=sc.expect)


def run(engine: Engine, sc: Scenario) -> Result:
    """Play a scenario and compare; a broken scenario file is reported as a failure too."""
    result = Result(sc)
    try:
        _run(engine, sc, result)
    except (ScenarioError, NotationError) as exc:
        result.failures.append(f"scenario error: {exc}")
    except Exception as exc:  # an engine crash while setting up is a failure too, in its own words
        result.failures.append(f"the engine raised {type(exc).__name__}: {exc}")
    return result


def _run(engine: Engine, sc: Scenario, result: Result) -> None:
    s, ev = build(engine, sc.setup)
    everything = list(ev)
    result.log += [f"(setup){line}" for line in _log_lines(ev)]
    for n, step in enumerate(sc.steps, 1):
        texts = strs(step.do)
        step_events: list[Event] = []
        for text in texts:
            action = resolve_action(engine, s, text)
            where = f"step {n} `{text}`" + (f" ({action})" if str(action) != text else "")
            result.log.append(f"> {text}")
            try:
                got = engine.apply(s, action)
            except IllegalAction as exc:
                if step.illegal is not None:
                    if step.illegal.lower() not in str(exc).lower():
                        result.failures.append(
                            f"{where}: expected IllegalAction containing {step.illegal!r}, got {str(exc)!r}"
                        )
                        return
                    result.log.append(f"  illegal, as expected: {exc}")
                    continue
                result.failures.append(f"{where}: illegal: {exc}")
                return
            except Exception as exc:  # an engine crash is a failure with its own words
                result.failures.append(f"{where}: the engine raised {type(exc).__name__}: {exc}")
                return
            if step.illegal is not None:
                result.failures.append(
                    f"{where}: expected IllegalAction containing {step.illegal!r}; it was legal"
                )
                return
            result.log += _log_lines(got)
            step_events += got
        everything += step_events
        diffs = check(engine, s, step, step_events)
        if diffs:
            result.failures += [f"after step {n} `{' ; '.join(texts)}`: {d}" for d in diffs]
            return
    result.failures += [f"at the end: {d}" for d in check(engine, s, sc.expect, everything)]


def _log_lines(events: list[Event]) -> list[str]:
    out = []
    for e in events:
        if e.text:
            out.append(f"  {e.text}")
        if e.private:
            out.append(f"    (seat {e.seat} only) {e.private}")
    return out


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """The scenario files named: files as they are, folders as their ``*.toml`` files, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return out
