"""The engine is a library: no module under mqtui/engine imports textual or rich (or any UI)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import mqtui.engine

ENGINE = Path(mqtui.engine.__file__).parent
FORBIDDEN = ("textual", "rich")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def test_no_engine_module_imports_a_ui_library():
    modules = sorted(ENGINE.glob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        bad = {m for m in _imports(path) if m.split(".")[0] in FORBIDDEN}
        assert not bad, f"{path.name} imports {bad}"


def test_engine_modules_import_nothing_outside_the_engine_but_the_standard_library_msgspec_and_paths():
    allowed_top = {"mqtui", "msgspec", "__future__"} | set(sys.stdlib_module_names)
    for path in ENGINE.glob("*.py"):
        for m in _imports(path):
            top = m.split(".")[0]
            assert top in allowed_top, f"{path.name} imports {m}"
            if top == "mqtui":
                assert m.startswith("mqtui.engine") or m == "mqtui" or m == "mqtui.paths", f"{path.name}: {m}"


def test_engine_imports_and_plays_with_ui_libraries_blocked():
    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('textual', 'rich'):
            raise ImportError('blocked: ' + name)
        return None
sys.meta_path.insert(0, Block())
import importlib, pkgutil, mqtui.engine
for m in pkgutil.iter_modules(mqtui.engine.__path__):
    importlib.import_module('mqtui.engine.' + m.name)
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
e = Engine(load_content())
s, _ = e.new_game([('A', 'red'), ('B', 'blue')], seed=1)
for _ in range(200):
    if s.stage == 'over':
        break
    e.apply(s, e.legal(s, e.deciding(s))[0])
assert not any(n.split('.')[0] in ('textual', 'rich') for n in sys.modules)
print('ok')
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
