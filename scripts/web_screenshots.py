"""The browser screenshots of docs/screenshots/ (web-lobby.png, web-game.png), taken again.

    .venv/bin/python scripts/web_screenshots.py

Starts ``mqtui serve --web`` (a lobby host, the full app) in a temporary data folder, and Debian's
Chromium through Playwright: one visitor creates a table, a second opens the host's address (the lobby,
with that table's open seat: web-lobby.png) and takes the seat (the game: web-game.png). The pauses
give the apps time to draw; this is a picture, not a test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FLAGS += ["--disable-component-update", "--disable-sync", "--no-first-run"]


def keys(page: Page, *names: str, pause: float = 1.5) -> None:
    page.click("#terminal")
    for name in names:
        page.keyboard.press(name)
        time.sleep(pause)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="mqtui-shots-"))
    env = dict(os.environ, MQTUI_DATA=str(tmp / "data"), HOME=str(tmp))
    argv = [sys.executable, "-m", "mqtui", "serve", "--port", "0", "--tables", str(tmp / "tables")]
    argv += ["--web", "127.0.0.1:0", "--name", "Dungeon night at Ann's"]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    try:
        assert server.stdout is not None
        base = ""
        for line in server.stdout:
            if found := re.search(r"Browsers: (http://\S+?)/ ", line):
                base = found.group(1)
                break
        assert base, "the host did not start"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            ann = browser.new_context(viewport={"width": 1200, "height": 760}).new_page()
            ann.goto(base + "/")
            ann.wait_for_selector("body.-first-byte")
            time.sleep(3)
            keys(ann, "n", pause=2)
            keys(ann, "Enter", pause=8)  # the table, and Ann's game
            bob = browser.new_context(viewport={"width": 1200, "height": 760}).new_page()
            bob.goto(base + "/")
            bob.wait_for_selector("body.-first-byte")
            time.sleep(4)
            bob.screenshot(path=str(OUT / "web-lobby.png"))
            keys(bob, "Enter", pause=10)
            bob.screenshot(path=str(OUT / "web-game.png"))
            browser.close()
    finally:
        server.terminate()
        server.wait(30)
    print(f"wrote {OUT / 'web-lobby.png'} and {OUT / 'web-game.png'}")


if __name__ == "__main__":
    main()
