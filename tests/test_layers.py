"""The layers stay layers: the save modules know nothing of the computer players, the store, the UI
or the network, and no module of mqtui imports, even lazily inside a function or only for its types,
a module that imports it back (only the ``mqtui.X`` packages' own ``__init__`` re-exports are left
out of the loop check).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import mqtui
import mqtui.bots
import mqtui.seat_kinds

PACKAGE = Path(mqtui.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The mqtui modules a file (its ``tree``) imports: those it imports when it runs, at the top or
    inside a function, and those it also imports for type checking only (under ``if TYPE_CHECKING:``,
    which never runs)."""
    runtime: set[str] = set()
    typed: set[str] = set()
    todo: list[tuple[ast.AST, bool]] = [(tree, False)]
    while todo:
        node, types_only = todo.pop()
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.startswith("mqtui")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("mqtui"):
            names = [str(node.module)]
        typed.update(names)
        if not types_only:
            runtime.update(names)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            todo.extend((child, True) for child in node.body)
            todo.extend((child, types_only) for child in node.orelse)
            continue
        todo.extend((child, types_only) for child in ast.iter_child_nodes(node) if isinstance(child, _HOLDS))
    return runtime, typed


_HOLDS = (ast.stmt, ast.excepthandler, ast.match_case)  # what an import can be in (never an expression)


@functools.cache
def _graphs() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Which mqtui modules each module imports: when it runs, and also for its types (every file
    parsed once for both tests, which share a worker: xdist group ``layers``)."""
    files = [p for p in PACKAGE.rglob("*.py") if "_data" not in p.parts and p.name != "__main__.py"]
    found = {_module_name(p): _imports(ast.parse(p.read_text(encoding="utf-8"))) for p in files}
    runtime = {name: {m for m in imports[0] if m in found and m != name} for name, imports in found.items()}
    typed = {name: {m for m in imports[1] if m in found and m != name} for name, imports in found.items()}
    return runtime, typed


def _graph(types: bool = False) -> dict[str, set[str]]:
    return _graphs()[1 if types else 0]


@pytest.mark.xdist_group("layers")
def test_the_saves_import_no_bots_store_ui_or_network() -> None:
    graph = _graph()
    saves = [name for name in graph if name.startswith("mqtui.saves")]
    assert len(saves) >= 8
    for name in saves:
        bad = {m for m in graph[name] if m.startswith(("mqtui.bots", "mqtui.store", "mqtui.ui", "mqtui.net"))}
        assert not bad, f"{name} imports {bad}"


@pytest.mark.xdist_group("layers")
def test_no_import_loops_between_modules() -> None:
    graph = {name: deps for name, deps in _graph(types=True).items() if name.count(".") >= 1}
    packages = {name for name in graph if (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists()}
    modules = {name: deps - packages for name, deps in graph.items() if name not in packages}
    loops = []
    for start in modules:
        seen, todo = set(), list(modules[start])
        while todo:
            m = todo.pop()
            if m == start:
                loops.append(start)
                break
            if m not in seen and m in modules:
                seen.add(m)
                todo.extend(modules[m])
    assert not loops, f"modules in an import loop: {sorted(set(loops))}"


def test_the_bots_and_the_save_checks_know_the_same_kinds() -> None:
    assert mqtui.bots.BOT_KINDS is mqtui.seat_kinds.BOT_KINDS  # one list (a new kind goes there)
    for kind in mqtui.seat_kinds.BOT_KINDS:
        assert mqtui.bots.make_bot(kind, seed=1).kind == kind
