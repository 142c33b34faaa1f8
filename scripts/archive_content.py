#!/usr/bin/env python3
"""Add the content of a release to the archive of released contents (``mqtui/saves/archive/``).

Saves of format 0 and 1 (mqtui 0.1.0 and before) do not carry their content; the archive keeps, by
version, the content they can name, so that they still load after the content changes. Saves of format 2
on carry their own copy, so the archive does not grow any more: this script was run once, for the
contents of mqtui 0.1.0 (the base content, the base with each shipped pack, and the test content of the
fixture saves).

Usage: ``.venv/bin/python scripts/archive_content.py [DIR...]`` (default: those contents, as installed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mqtui import paths  # noqa: E402
from mqtui.engine.content import load_content  # noqa: E402
from mqtui.saves.defs import archive  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, help="content folders, base first (one content)")
    args = parser.parse_args()
    if args.dirs:
        layers = [args.dirs]
    else:
        base = paths.BASE_CONTENT_DIR
        packs = sorted(p for p in (paths.SEEDS_DIR / "packs").iterdir() if p.is_dir())
        layers = [[base], *([base, p] for p in packs), [ROOT / "tests" / "fixtures" / "minimal_content"]]
    for dirs in layers:
        content = load_content(dirs)
        path = archive(content)
        names = " + ".join(d.name for d in dirs)
        print(f"{path.relative_to(ROOT)}: {names} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
