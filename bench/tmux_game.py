"""Play one whole game of ./play at 80x24 in tmux as a simple human proxy: on Ann's decisions it asks the
advisor (w) every 5th time and otherwise takes action 1; it answers every rails question yes and logs it."""

import json
import re
import subprocess
import time
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
S = "mqgame"


def sh(*a):
    return subprocess.run(["tmux", *a], capture_output=True, text=True).stdout


def screen():
    return sh("capture-pane", "-p", "-t", S)


def press(k):
    sh("send-keys", "-t", S, k)


sh("kill-session", "-t", S)
cmd = (
    "cd "
    + ROOT
    + " && NO_COLOR=1 TERM=xterm-256color ./play new --players Ann,Bob:bot,Cy:bot,Dee:bot --seed 2026"
)
sh("new-session", "-d", "-s", S, "-x", "80", "-y", "24", cmd)
t0 = time.time()
stats = {"presses": 0, "single_choice_presses": 0, "rails": [], "advice": 0, "stuck_space": 0}
last, same = "", 0
started = None
while time.time() - t0 < 45 * 60:
    time.sleep(0.6)
    s = screen()
    if "after" in s and "rounds! ★" in s:
        m = re.search(r"★ (.*) after (\d+) rounds! ★", s)
        stats["result"] = m.group(0) if m else "?"
        break
    if started is None and "Round 1" in s:
        started = time.time()
    if "Are you sure?" in s:
        q = " ".join(row.strip("█ ").strip() for row in s.splitlines() if "█" in row)
        stats["rails"].append(re.sub(r"\s+", " ", q)[:200])
        press("y")
        stats["presses"] += 1
        continue
    acts = re.findall(r"[│┃](\d) ", s)
    dialog = re.findall(r"▊ (\d) ", s) if "█" in s else []
    if dialog or ("█" in s and "Marked" in s):
        if s != last:
            last = s
            continue
        m = re.search(r"Marked (\d+) of (\d+)", s)
        if "Marked" in s and "Enter to" in s:
            keys = ["Enter"]
        elif m:
            keys = ["Enter"] if m.group(1) == m.group(2) else ["Space", "Down"]
        else:
            keys = ["1"]
            if len(set(dialog)) <= 1:
                stats["single_choice_presses"] += 1
        for k in keys:
            press(k)
            stats["presses"] += 1
        last = ""
        continue
    if not acts:
        same = 0
        last = s
        continue
    if s == last:
        same += 1
    else:
        same = 0
    last = s
    if same < 2:
        continue  # wait for the screen to settle
    n_acts = len(set(acts))
    if n_acts <= 1:
        stats["single_choice_presses"] += 1
    if stats["presses"] % 5 == 4:
        press("w")
        stats["advice"] += 1
        time.sleep(0.5)
    key = "1"
    if same > 6:
        key = "Space"
        stats["stuck_space"] += 1
    if same > 12:
        key = "Escape"
    press(key)
    stats["presses"] += 1
stats["minutes"] = round((time.time() - (started or t0)) / 60, 1)
print(json.dumps(stats, indent=1))
print(screen())
