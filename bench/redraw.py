"""CPU the full app spends redrawing per game action on a busy table (prints figures, asserts nothing).

    .venv/bin/python bench/redraw.py [--actions 120] [--seed 7] [--pace 0.05] [--keys a1] [--table 24] [--profile]

A 4-seat game runs in this process (a LocalStore, every seat played from here by random legal
actions); one full app (``MQApp`` at 80x24, headless) watches it through seat 0's eyes, as a network
player's session app does (the store it gets only hands out seat 0's snapshots, like a NetStore). For
each action: process CPU time from the action to the app being idle again with its screen drawn.
The baseline, measured in the same run on the same actions, is the engine's own share: the action,
plus the snapshot the app is handed, without any app. Figures are split into actions where seat 0
decides next (its app shows its choices: "acting") and the rest ("watching").

Two more figures, measured in the same run:

- the floor: the same two ``pilot.pause()`` with no action in between (the test pilot pokes every
  widget of the screen to know that all is done, which is CPU no session spends);
- "paced": the same actions shown to a second app without the pilot, as a session app gets them:
  one action every ``--pace`` seconds, the app drawing its frames on its own clock. The process CPU
  over all of them, divided by the actions (CPU left over from one action counts in the next; an
  idle app uses none: that is measured too, over as long a wait).

With ``--keys``, a third game: seat 0 acts by those keys typed at once, as a person at an SSH session
does (``a1``, what bench/net.py types: the actions pane, then its first action; ``1`` alone does the
same from any pane), the other seats at random from here. CPU per key press (until the app is idle
with its screen drawn, the action it did shown) and per other seat's action watched. A decision the
keys do not make (the first action opens a dialog) is made from here and not counted.

With ``--table N``, a fourth figure: a table of four played as ``bench/net.py`` plays it (each decision:
the first entry of the deciding seat's actions pane, as its keys ``a1`` pick it) for its first N actions
from a new game (``--table-seed``; net.py plays 6), shown paced (``--pace``, at least 0.2 s) to one app
per seat in turn, each app through its seat's eyes: CPU per action of the app whose seat acted and of
each other app, and per session ((acting + 3 x others) / 4), what net.py's "CPU ms/action/session"
measures without the network (the snapshot decoded, the frames written to a terminal).

``--profile`` prints a cProfile of the app's part (top functions by cumulative time), and of the key
presses with ``--keys``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine
from mqtui.store import HUMAN, REMOTE, LocalStore, Seat, Snapshot

SEATS = (("Ann", "red"), ("Bo", "blue"), ("Cy", "green"), ("Di", "yellow"))


class SeatStore:
    """Seat 0's window on a LocalStore, as a network player's app sees its table."""

    takes_back = False  # (as a NetStore: the table's authority takes nothing back)

    def __init__(self, local: LocalStore, seat: int = 0, *, plays: bool = False) -> None:
        self.local = local
        self.seat = seat
        self.plays = plays  # the app's own actions count (``--keys``), as a NetStore sends them
        self.seats = tuple(
            Seat(s.name, s.colour, HUMAN if i == seat else REMOTE) for i, s in enumerate(local.seats)
        )
        self._listeners: list[Callable[[Snapshot], None]] = []
        self._snap = local.snapshot(seat)

    @property
    def cards(self) -> CardTable:
        return self.local.cards

    def snapshot(self, seat: int | None = None) -> Snapshot:
        return self._snap

    def subscribe(self, listener: Callable[[Snapshot], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self) -> None:
        self._snap = self.local.snapshot(self.seat)
        for listener in list(self._listeners):
            listener(self._snap)

    async def send(self, action: Action) -> None:
        """Ignored unless ``plays``: the bench plays every seat itself (the app's auto-pass lands here)."""
        if self.plays:
            self.local.apply(action)
            self.publish()

    def explain(self, action: Action) -> str:
        return self.local.explain(action)

    def can_undo(self) -> bool:
        return False

    def can_redo(self) -> bool:
        return False

    async def undo(self) -> None: ...

    async def redo(self) -> None: ...

    def start(self) -> None: ...


def plan(engine: Engine, seed: int, n: int) -> list[Action]:
    """The actions of one random game (its first ``n``), chosen once so both runs take the same."""
    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    rng = random.Random(seed)
    out: list[Action] = []
    while len(out) < n and not local.snapshot().over:
        who = engine.deciding(local.state)
        if who < 0:
            break
        legal = list(engine.legal(local.state, who))
        # moves and ends keep the game flowing; a random pick of everything else
        action = rng.choice(legal)
        local.apply(action)
        out.append(action)
    return out


def engine_only(engine: Engine, seed: int, actions: list[Action]) -> list[float]:
    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    out = []
    for action in actions:
        t0 = time.process_time()
        local.apply(action)
        local.snapshot(0)
        out.append(time.process_time() - t0)
    return out


async def with_app(
    engine: Engine, seed: int, actions: list[Action], prof: cProfile.Profile | None
) -> tuple[list[tuple[bool, float]], float]:
    """CPU per action (and whether seat 0 decides next), and the floor: two pauses, no action."""
    from mqtui.ui.app import MQApp

    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    store = SeatStore(local)
    app = MQApp(store=store, save_settings_file=False)  # type: ignore[arg-type]
    out: list[tuple[bool, float]] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        t0 = time.process_time()
        for _ in range(len(actions)):
            await pilot.pause()
            await pilot.pause()
        floor = (time.process_time() - t0) / max(1, len(actions))
        for action in actions:
            t0 = time.process_time()
            if prof:
                prof.enable()
            local.apply(action)
            store.publish()
            await pilot.pause()
            await pilot.pause()
            if prof:
                prof.disable()
            out.append((store.snapshot().deciding == 0, time.process_time() - t0))
    return out, floor


async def keyed(
    engine: Engine, seed: int, n: int, keys: str, profs: list[cProfile.Profile] | None = None
) -> tuple[list[float], list[float], float]:
    """A game in which seat 0 acts by keys, as a person at a session does: for each of seat 0's
    decisions, ``keys`` typed at once (``a1``: the actions pane, then its first action); the other
    seats act from here, at random. CPU from the keys (or the other seat's action) until the app is
    idle with its screen drawn: (seat 0's key presses, the others' actions watched, the floor).
    With ``profs``, a profile of each key press counted is added to it."""
    from textual import events

    from mqtui.ui.app import MQApp

    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    store = SeatStore(local, plays=True)
    app = MQApp(store=store, save_settings_file=False)  # type: ignore[arg-type]
    rng = random.Random(seed)
    pressed: list[float] = []
    watched: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        t0 = time.process_time()
        for _ in range(n):
            await pilot.pause()
            await pilot.pause()
        floor = (time.process_time() - t0) / max(1, n)
        stalled = 0  # seat 0's decisions its keys did not decide (not counted)
        while len(pressed) + len(watched) < n and not local.snapshot().over:
            who = engine.deciding(local.state)
            if who < 0:
                break
            before = local.state.n
            prof = cProfile.Profile() if profs is not None and who == store.seat else None
            t0 = time.process_time()
            if who == store.seat:
                assert app._driver is not None
                if prof:
                    prof.enable()
                for key in keys:
                    app._driver.send_message(events.Key(key, key))
            else:
                local.apply(rng.choice(list(engine.legal(local.state, who))))
                store.publish()
            await pilot.pause()
            await pilot.pause()
            if prof:
                prof.disable()
            spent = time.process_time() - t0
            if local.state.n == before:  # the keys opened a dialog (or picked nothing): act from here
                app._driver.send_message(events.Key("escape", None))
                await pilot.pause()
                if local.state.n == before:
                    local.apply(rng.choice(list(engine.legal(local.state, who))))
                    store.publish()
                    await pilot.pause()
                    await pilot.pause()
                stalled += 1
                continue
            (pressed if who == store.seat else watched).append(spent)
            if prof and profs is not None:
                profs.append(prof)
    print(f"  (keys: {stalled} of seat 0's decisions needed more than the keys; not counted)")
    return pressed, watched, floor


async def paced(engine: Engine, seed: int, actions: list[Action], pace: float) -> tuple[float, float]:
    """CPU per action with one action every ``pace`` seconds and no pilot; and an idle app's CPU
    over the same time, per action's worth of waiting."""
    from mqtui.ui.app import MQApp

    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    store = SeatStore(local)
    app = MQApp(store=store, save_settings_file=False)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        await asyncio.sleep(0.5)
        t0 = time.process_time()
        await asyncio.sleep(pace * len(actions))
        idle = (time.process_time() - t0) / max(1, len(actions))
        t0 = time.process_time()
        for action in actions:
            local.apply(action)
            store.publish()
            await asyncio.sleep(pace)
        await asyncio.sleep(0.5)  # the last frames
        busy = (time.process_time() - t0) / max(1, len(actions))
    return busy, idle


def first_entries(engine: Engine, seed: int, n: int) -> list[Action]:
    """The first ``n`` actions of a new game in which each decision is the first entry of the deciding
    seat's actions pane (what the keys ``a1`` pick; an entry of several actions: its first)."""
    from mqtui.ui.describe import labelled, pane_actions, sort_key

    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    out: list[Action] = []
    while len(out) < n and not local.snapshot().over:
        who = engine.deciding(local.state)
        if who < 0:
            break
        snap = local.snapshot(who)
        offered = [a for a in pane_actions(snap.legal) if a.kind != "charity"]
        entries = sorted(labelled(offered, snap, local.cards, short=True), key=lambda e: sort_key(e[1]))
        action = entries[0][1] if entries else snap.legal[0]
        local.apply(action)
        out.append(action)
    return out


async def table_seat(
    engine: Engine, seed: int, actions: list[Action], seat: int, pace: float
) -> tuple[list[float], list[float]]:
    """One app watching the table through ``seat``'s eyes, the actions paced: the process CPU from
    each action until the next (that seat's actions, the others')."""
    from mqtui.ui.app import MQApp

    local = LocalStore.new(engine, tuple(Seat(a, b, HUMAN) for a, b in SEATS), seed, bot_delay=0)
    store = SeatStore(local, seat)
    app = MQApp(store=store, save_settings_file=False)  # type: ignore[arg-type]
    acting: list[float] = []
    others: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.pause()
        await asyncio.sleep(0.5)
        for action in actions:
            t0 = time.process_time()
            local.apply(action)
            store.publish()
            await asyncio.sleep(pace)
            (acting if action.seat == seat else others).append(time.process_time() - t0)
    return acting, others


def ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{1000 * statistics.mean(xs):6.1f} mean {1000 * statistics.median(xs):6.1f} median (n={len(xs)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--actions", type=int, default=120)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--pace", type=float, default=0.05, help="seconds between actions, paced run (0: none)")
    ap.add_argument(
        "--keys",
        default="",
        help="also a game where seat 0 acts by these keys (a1: the actions pane, option 1)",
    )
    ap.add_argument(
        "--table", type=int, default=0, help="also a table of four as bench/net.py plays it (N actions)"
    )
    ap.add_argument("--table-seed", type=int, default=100)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("MQTUI_DATA", tempfile.mkdtemp(prefix="mqbench"))
    engine = Engine(load_content())
    actions = plan(engine, args.seed, args.actions)
    base = engine_only(engine, args.seed, actions)
    prof = cProfile.Profile() if args.profile else None
    runs, floor = asyncio.run(with_app(engine, args.seed, actions, prof))
    busy, idle = asyncio.run(paced(engine, args.seed, actions, args.pace)) if args.pace > 0 else (0.0, 0.0)
    acting = [t for a, t in runs if a]
    watching = [t for a, t in runs if not a]
    print(f"actions: {len(actions)} (seed {args.seed}), app at 80x24, CPU ms per action:")
    print(f"  engine + snapshot only (baseline): {ms(base)}")
    print(f"  with the app, all:                 {ms([t for _, t in runs])}")
    print(f"  with the app, seat 0 deciding:     {ms(acting)}")
    print(f"  with the app, seat 0 watching:     {ms(watching)}")
    print(
        f"  app's own share (all - baseline):  {1000 * (statistics.mean(t for _, t in runs) - statistics.mean(base)):6.1f}"
    )
    print(f"  the pilot's floor (2 pauses, no action): {1000 * floor:6.1f}")
    if args.pace > 0:
        print(
            f"  paced, no pilot (an action every {args.pace:g} s): {1000 * busy:6.1f} per action "
            f"(idle app over the same wait: {1000 * idle:.1f})"
        )
    if args.keys:
        kprofs: list[cProfile.Profile] | None = [] if args.profile else None
        pressed, watched, kfloor = asyncio.run(keyed(engine, args.seed, args.actions, args.keys, kprofs))
        print(
            f"  seat 0 acting by the keys {args.keys!r} (a game of its own, the pilot's floor {1000 * kfloor:.1f}):"
        )
        print(f"    the keys and the action they do:  {ms(pressed)}")
        print(f"    another seat's action, watched:    {ms(watched)}")
        both = pressed + watched
        if both:
            print(f"    all:                               {ms(both)}")
    if args.table:
        played = first_entries(engine, args.table_seed, args.table)
        pace = max(args.pace, 0.2)
        acting, others = [], []
        for seat in range(len(SEATS)):
            a, o = asyncio.run(table_seat(engine, args.table_seed, played, seat, pace))
            acting += a
            others += o
        print(
            f"  a table of four as bench/net.py plays it ({len(played)} actions, seed {args.table_seed}, "
            f"one every {pace:g} s), CPU ms per action:"
        )
        print(f"    the app whose seat acted:  {ms(acting)}")
        print(f"    each other app:            {ms(others)}")
        if acting and others:
            per = (statistics.mean(acting) + 3 * statistics.mean(others)) / 4
            print(f"    per session:               {1000 * per:6.1f}")
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        if kprofs:
            print("seat 0's key presses and the actions they do:")
            pstats.Stats(*kprofs).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
