"""The suite's precompiling (``tests/precompile.py``) writes what pytest and Python read back, so that a
pytest or Python upgrade that changes either shows here, not as a silently slower suite."""

from __future__ import annotations

from pathlib import Path

import precompile
import pytest
from _pytest.assertion import rewrite


def test_a_rewritten_module_is_read_back_by_pytest_with_its_asserts_rewritten(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "test_sample.py"
    module.write_text("def test_it():\n    x = 1\n    assert x == 2\n")
    monkeypatch.setattr(precompile, "_config", request.config)
    precompile._rewrite(str(module))
    code = rewrite._read_pyc(module, rewrite.get_cache_dir(module) / ("test_sample" + rewrite.PYC_TAIL))
    assert code is not None
    namespace: dict[str, object] = {}
    exec(code, namespace)
    with pytest.raises(AssertionError, match=r"assert 1 == 2"):  # (a plain assert says nothing)
        namespace["test_it"]()  # type: ignore[operator]


def test_a_compiled_module_is_up_to_date_until_its_source_changes(tmp_path: Path) -> None:
    module = tmp_path / "helper.py"
    module.write_text("X = 1\n")
    assert precompile._stale(module)
    precompile._compile(str(module))
    assert not precompile._stale(module)
    module.write_text("X = 22\n")  # (another size: the same second may hold both writes)
    assert precompile._stale(module)
