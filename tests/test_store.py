"""The store (mqtui.store.LocalStore): undo and redo that never cross revealed information, saving and
loading through the store, autosave off the UI's path, and the signal hooks."""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from waiting import bots_settled, wait_until

import mqtui.saves.autosave as autosave_module
from mqtui import saves
from mqtui.engine.actions import Action, Event, IllegalAction
from mqtui.engine.cards import CardTable
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.handlers import HANDLERS
from mqtui.engine.state import HIDDEN, State
from mqtui.engine.view import view_for
from mqtui.store import GameStore, LocalStore, LogLine, Seat, Snapshot, install_signal_handlers

ROOT = Path(__file__).resolve().parent.parent
SOLO = (Seat("Ann", "red"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))
HOTSEAT = (Seat("Ann", "red"), Seat("Bob", "blue"))


@functools.cache
def engine() -> Engine:
    return Engine(load_content())


def hidden(s: State) -> tuple[object, ...]:
    """Everything nobody may have seen: generator, deck orders, room stack, bag."""
    return (s.rng, s.forced, s.dxm, s.treasure, s.monster_deck, s.tiles, s.bag, s.faces)


def human_turn(store: LocalStore, pick: random.Random) -> Action:
    who = store.engine.deciding(store.state)
    action = pick.choice(store.engine.legal(store.state, who))
    store.apply(action)
    return action


def to_human(store: LocalStore) -> None:
    while store.step_bot():
        pass


def find_equip(seed_from: int = 0) -> tuple[LocalStore, list[Action]]:
    """A hot-seat game at setup where Ann can equip (or stow) at least two cards."""
    for seed in range(seed_from, seed_from + 200):
        store = LocalStore.new(engine(), HOTSEAT, seed, bot_delay=0)
        moves = [a for a in store.snapshot().legal if a.kind in ("equip", "stow", "belt")]
        if len({a.a for a in moves}) >= 2:
            return store, moves
    raise AssertionError("no seed gives Ann two items to equip")


# -- undo and redo ----------------------------------------------------------------------------------


def test_the_local_store_is_a_game_store() -> None:
    store: GameStore = LocalStore.new(engine(), SOLO, 1, bot_delay=0)
    snap = store.snapshot()
    assert isinstance(snap, Snapshot) and not snap.undo and not snap.redo
    assert not store.can_undo() and not store.can_redo()


async def test_equipping_can_be_undone_and_redone() -> None:
    store, moves = find_equip()
    before = copy_state(store.state)
    first = moves[0]
    await store.send(first)
    after = copy_state(store.state)
    assert store.can_undo() and store.snapshot().undo
    await store.undo()
    assert store.state == before and store.actions == []
    assert first.a in store.snapshot().view.heroes[0].hand
    assert store.log[-1].kind == "undo"
    assert (
        store.log[-1].text
        == f"Ann takes back: Ann {'equips' if first.kind == 'equip' else 'puts'} "
        + (store.log[-1].text.split(" ", 5)[5])
    )
    assert store.cards.names[first.a] in store.log[-1].text
    assert store.can_redo() and store.snapshot().redo and not store.can_undo()
    await store.redo()
    assert store.state == after and store.actions == [first]
    assert store.log[-1].kind == "equip" and all(e.kind != "undo" for e in store.log)
    assert not store.can_redo() and store.can_undo()


async def test_several_actions_are_undone_in_reverse_order() -> None:
    store, _ = find_equip()
    states = [copy_state(store.state)]
    done = []
    for _ in range(2):
        action = next(a for a in store.snapshot().legal if a.kind in ("equip", "stow", "belt"))
        await store.send(action)
        states.append(copy_state(store.state))
        done.append(action)
    assert store.undo_now() == done[1] and store.state == states[1]
    assert store.undo_now() == done[0] and store.state == states[0]
    with pytest.raises(IllegalAction, match="nothing to take back"):
        store.undo_now()
    assert store.redo_now() == done[0] and store.redo_now() == done[1]
    assert store.state == states[2]


async def test_a_new_action_after_an_undo_drops_the_redo() -> None:
    store, moves = find_equip()
    await store.send(moves[0])
    await store.undo()
    other = next(a for a in store.snapshot().legal if a != moves[0] and a.kind != "done")
    await store.send(other)
    assert not store.can_redo()
    with pytest.raises(IllegalAction, match="nothing to redo"):
        await store.redo()


def test_an_action_that_draws_cannot_be_undone() -> None:
    store = LocalStore.new(engine(), HOTSEAT, 3, bot_delay=0)
    store.apply(Action(0, "done"))
    assert store.can_undo(0)  # finishing the setup revealed nothing yet
    store.apply(Action(1, "done"))  # the first turn begins: Ann draws a card
    assert any(e.kind == "draw" for e in store.log[-5:])
    assert not store.can_undo(0) and not store.can_undo(1)
    with pytest.raises(IllegalAction, match="revealed something"):
        store.undo_now(1)


def test_exploring_cannot_be_undone() -> None:
    store = LocalStore.new(engine(), SOLO, 4, bot_delay=0)
    store.apply(Action(0, "done"))
    to_human(store)
    explore = next(a for a in store.snapshot().legal if a.kind == "move")  # every side is unexplored
    store.apply(explore)
    assert any(e.kind == "room" for e in store.log)
    assert not store.can_undo()


def test_hot_seat_undo_lasts_until_someone_else_acts() -> None:
    for seed in range(200):  # a game where Bob can equip something at setup
        store = LocalStore.new(engine(), HOTSEAT, seed, bot_delay=0)
        setup = copy_state(store.state)
        store.apply(Action(0, "done"))
        bob = [a for a in store.snapshot().legal if a.kind in ("equip", "stow", "belt")]
        if bob:
            break
    assert store.snapshot().seat == 1  # the screen shows Bob, who decides now ...
    assert store.can_undo() and store.snapshot().undo  # ... and Ann may still take hers back
    assert store.can_undo(0) and not store.can_undo(1)  # by seat: only the one who acted
    assert store.snapshot(0).undo and not store.snapshot(1).undo
    with pytest.raises(IllegalAction):
        store.undo_now(1)
    store.undo_now()
    assert store.state == setup and store.snapshot().seat == 0
    store.redo_now()
    store.apply(bob[0])  # Bob acts: Ann's action is final now, Bob's own can be taken back
    assert store.can_undo(1) and not store.can_undo(0)
    store.undo_now()
    assert not store.can_undo(0) and store.engine.deciding(store.state) == 1


def test_a_bot_acting_ends_the_undo() -> None:
    store = LocalStore.new(engine(), SOLO, 6, bot_delay=0)
    store.apply(Action(0, "done"))
    assert store.can_undo()
    assert store.step_bot()
    assert not store.can_undo()


def test_undo_restores_exactly_and_never_crosses_hidden_information() -> None:
    """Random games: every action the store lets a player undo left every hidden thing untouched, and
    undo/redo give back exactly the states before and after it."""
    kinds: set[str] = set()
    refused: set[str] = set()
    for seed in range(6):
        store = LocalStore.new(engine(), SOLO, seed, bot_delay=0)
        pick = random.Random(seed)
        while store.state.round <= 8 and store.state.stage != "over":
            if store.step_bot():
                continue
            before = copy_state(store.state)
            snap_before = store.snapshot()
            action = human_turn(store, pick)
            after = copy_state(store.state)
            if not store.can_undo(action.seat):
                refused.add(action.kind)
                continue
            kinds.add(action.kind)
            assert hidden(before) == hidden(after)
            assert [h.hand for h in before.heroes[1:]] == [h.hand for h in after.heroes[1:]]
            store.undo_now(action.seat)
            assert store.state == before
            assert store.snapshot().view == snap_before.view
            assert store.snapshot().legal == snap_before.legal
            store.redo_now(action.seat)
            assert store.state == after
    assert {"equip", "move"} <= kinds, kinds  # the test saw the undo it is about
    assert "move" in refused  # exploring: refused


def test_undo_history_never_reaches_a_view() -> None:
    """Snapshots after undo and redo are views: no deck order, no other hand, no generator."""
    store, moves = find_equip()
    store.apply(moves[0])
    for step in (store.undo_now, store.redo_now):
        step()
        view = store.snapshot().view
        assert view == view_for(store.state, 0)
        assert view.rng == 0 and view.seed == 0
        assert set(view.dxm) <= {HIDDEN} and set(view.heroes[1].hand) <= {HIDDEN}


async def test_undo_then_the_bots_wait_for_the_human_again() -> None:
    store = LocalStore.new(engine(), SOLO, 9, bot_delay=0.05)
    await store.send(Action(0, "done"))  # Bob and Cy (bots) set up next, after the delay
    assert store.can_undo()
    await store.undo()
    assert store.engine.deciding(store.state) == 0
    await bots_settled(store)  # the computer players have stopped (or died trying)
    assert store.engine.deciding(store.state) == 0 and store.actions == []


def test_an_engine_failure_leaves_the_game_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    store, moves = find_equip()
    before = store.state
    copy = saves.decode(store.to_bytes()).state

    def broken(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
        s.heroes[0].gold = 0
        s.heroes[0].hand.clear()
        raise RuntimeError("engine bug")

    monkeypatch.setitem(HANDLERS, "equip", broken)
    with pytest.raises(RuntimeError):
        store.apply(next(a for a in moves if a.kind == "equip"))
    assert store.state == copy and store.state is not before
    assert store.actions == []


# -- saving and loading ------------------------------------------------------------------------------


def test_log_entries_carry_the_event_kind_and_only_the_seats_own_text() -> None:
    store = LocalStore.new(engine(), (Seat("Ann", "red", "random"), *SOLO[1:]), 5, bot_delay=0)
    while len(store.actions) < 400 and store.step_bot():
        pass
    private = [e for e in store.log if e.private and e.seat >= 0]
    assert any(e.kind == "draw" for e in private)  # private draws: the kind is public, the cards are not
    names = set(store.cards.names)
    for seat in (-1, 0, 1, 2):
        log = store.snapshot(seat).log
        assert log == tuple(LogLine(e.kind, e.for_seat(seat), e.fight) for e in store.log if e.for_seat(seat))
        assert not {line.kind for line in log} & names
        own = {e.private for e in private if e.seat == seat}  # "You draw X." may be two seats' line
        others = {e.private for e in private if e.seat != seat and e.private != e.text} - own
        assert others and not others & {line.text for line in log}


def test_save_and_load_resume_the_same_game(tmp_path: Path) -> None:
    store = LocalStore.new(engine(), SOLO, 12, bot_delay=0)
    pick = random.Random(1)
    for _ in range(200):
        if not store.step_bot():
            human_turn(store, pick)
    path = saves.slot_path("resume")
    store.save(path)
    loaded = LocalStore.load(path, engine(), bot_delay=0, verify=True)
    assert loaded.state == store.state and loaded.actions == store.actions and loaded.seats == store.seats
    assert loaded.snapshot().log[-20:] == store.snapshot().log[-20:]
    # both go on identically with the same choices (the bots' own dice are not part of a save)
    pick = random.Random(2)
    for _ in range(150):
        if store.state.stage == "over":
            break
        who = store.engine.deciding(store.state)
        legal = list(store.engine.legal(store.state, who))
        assert list(loaded.engine.legal(loaded.state, who)) == legal
        action = pick.choice(legal)
        store.apply(action)
        loaded.apply(action)
    assert loaded.state == store.state
    loaded.save(path)
    assert saves.load(path, engine(), check_log=True).state == store.state


def test_save_keeps_backups_and_load_falls_back(tmp_path: Path) -> None:
    store = LocalStore.new(engine(), SOLO, 13, bot_delay=0)
    path = tmp_path / "slot.mqsave"
    store.save(path)
    first = store.state.n
    store.apply(Action(0, "done"))
    store.save(path)
    path.write_bytes(path.read_bytes()[:100])  # damaged
    loaded = LocalStore.load(path, engine(), bot_delay=0)
    assert loaded.state.n == first
    assert "slot.mqsave was damaged" in loaded.log[-1].text and "slot.mqsave.1" in loaded.log[-1].text
    with pytest.raises(saves.SaveError, match="truncated"):
        LocalStore.load(path, engine(), backups=False)


def test_load_refuses_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.mqsave"
    path.write_bytes(b"\x00" * 100)
    with pytest.raises(saves.SaveError) as info:
        LocalStore.load(path, engine())
    assert "\n" not in str(info.value) and "not an mqtui save" in str(info.value)


def test_autosave_follows_every_action(tmp_path: Path) -> None:
    store = LocalStore.new(engine(), SOLO, 14, bot_delay=0)
    path = tmp_path / "auto.mqsave"
    store.autosave_to(path)
    try:
        pick = random.Random(3)
        for _ in range(60):
            if not store.step_bot():
                human_turn(store, pick)
        assert store.flush(10)
        assert saves.load(path, engine()).state == store.state
        store.apply(next(iter(store.engine.legal(store.state, store.engine.deciding(store.state)))))
        assert store.flush(10)
        assert saves.read(path).state.n == store.state.n
        assert not store.autosave_error
    finally:
        store.close()
    assert saves.read(path).state == store.state


def test_autosave_is_off_the_callers_path_and_coalesces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the disk is stuck, actions still return at once; afterwards only the newest state is
    written, not every one in between."""
    gate = threading.Event()
    written: list[bytes] = []
    real = saves.write_atomic

    def slow_write(path: Path, data: bytes, backups: int = 2) -> None:
        assert gate.wait(10), "the writer was never released"
        written.append(data)
        real(path, data, backups)

    monkeypatch.setattr(autosave_module, "write_atomic", slow_write)
    store = LocalStore.new(engine(), SOLO, 15, bot_delay=0)
    path = tmp_path / "auto.mqsave"
    store.autosave_to(path)  # the first write now blocks in the writer thread
    try:
        for _ in range(40):  # would hang here if saving were on this thread
            if not store.step_bot():
                human_turn(store, random.Random(0))
        assert not path.exists()
        gate.set()
        assert store.flush(10)
        assert saves.read(path).state == store.state
        assert len(written) <= 3  # the blocked first one, then the latest (maybe one in between)
    finally:
        gate.set()
        store.close()


def test_autosave_reports_a_failure_and_keeps_playing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where a folder should be")
    store = LocalStore.new(engine(), SOLO, 16, bot_delay=0)
    store.autosave_to(blocker / "auto.mqsave")
    try:
        assert not store.flush(0.5)  # a failed write is never taken for done
        assert "cannot save to" in store.autosave_error
        store.apply(Action(0, "done"))
    finally:
        store.close()


async def test_a_failing_autosave_says_so_in_the_log_and_goes_on_once_it_can_write(tmp_path: Path) -> None:
    blocker = tmp_path / "saves"
    blocker.write_text("a file where the saves folder should be")  # every write fails
    store = LocalStore.new(engine(), (Seat("Ann", "red"), Seat("Bob", "blue")), 16, bot_delay=0)
    lines: list[str] = []
    store.subscribe(lambda snap: lines.extend(line.text for line in snap.log[len(lines) :]))
    store.autosave_to(blocker / "auto.mqsave")
    try:
        await wait_until(lambda: any("NOT saved" in line for line in lines), 20)
        assert not store.flush(0.1) and "cannot save to" in store.autosave_error
        assert not (blocker / "auto.mqsave").exists()
        blocker.unlink()
        blocker.mkdir()  # the writer keeps trying: once it can write, the log says so
        await wait_until(lambda: any(line == "The game is saved again." for line in lines), 20)
        assert store.flush(5) and not store.autosave_error
        assert saves.read(blocker / "auto.mqsave").state == store.state
    finally:
        store.close()


def test_a_signal_in_the_middle_of_an_action_saves_the_last_whole_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, moves = find_equip()
    path = tmp_path / "auto.mqsave"
    store.autosave_to(path)
    equip = next(a for a in moves if a.kind == "equip")
    whole = copy_state(store.state)
    real = HANDLERS["equip"]

    on_disk: list[State] = []

    def interrupted(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
        real(t, s, a, ev)
        store.save_now()  # what the SIGHUP handler does, arriving right here
        on_disk.append(saves.read(path).state)

    monkeypatch.setitem(HANDLERS, "equip", interrupted)
    try:
        store.apply(equip)
        assert on_disk == [whole]  # not the half-applied action
        store.save_now()
        assert saves.read(path).state == store.state
    finally:
        store.close()


def test_the_autosave_hook_for_continue(tmp_path: Path) -> None:
    store = LocalStore.new(engine(), SOLO, 17, bot_delay=0)
    path = store.autosave()
    assert path == saves.autosave_path() and saves.latest_autosave() == path
    assert saves.read(path).state == store.state


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this platform")
def test_sighup_saves_then_exits(tmp_path: Path) -> None:
    """A dropped connection: the process saves the latest state, then exits with 128 + SIGHUP."""
    path = tmp_path / "hup.mqsave"
    child = f"""
import os, signal, sys, time
sys.path.insert(0, {str(ROOT)!r})
from mqtui.engine.content import load_content
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.actions import Action
from mqtui.store import LocalStore, Seat, install_signal_handlers
store = LocalStore.new(Engine(load_content()), (Seat("Ann", "red"), Seat("Bob", "blue")), 3, bot_delay=0)
store.autosave_to({str(path)!r})
install_signal_handlers(store)
store.apply(Action(0, "done"))
store.apply(Action(1, "done"))
print(store.state.n, flush=True)
os.kill(os.getpid(), signal.SIGHUP)
time.sleep(10)
print("not reached", flush=True)
"""
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 128 + signal.SIGHUP, proc.stderr
    assert "not reached" not in proc.stdout
    assert saves.read(path).state.n == int(proc.stdout.split()[0]) == 2


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="no SIGUSR1 on this platform")
def test_signal_handler_calls_the_apps_exit(tmp_path: Path) -> None:
    store = LocalStore.new(engine(), SOLO, 18, bot_delay=0)
    path = tmp_path / "term.mqsave"
    store.autosave_to(path)
    exited: list[bool] = []
    restore = install_signal_handlers(store, on_exit=lambda: exited.append(True), signals=("SIGUSR1",))
    try:
        store.apply(Action(0, "done"))
        os.kill(os.getpid(), signal.SIGUSR1)
        assert exited == [True]
        assert saves.read(path).state == store.state
    finally:
        restore()
        store.close()
    assert signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL


def test_bots_pause_less_for_routine_steps_than_for_play() -> None:
    """Hero building and passing go by at a quarter of the delay; turns play at the full delay."""
    store = LocalStore.new(engine(), SOLO, 9, bot_delay=1.0)
    pick = random.Random(1)
    pauses: dict[str, float] = {}
    for _ in range(5000):
        if store.state.stage == "over" or len(pauses) == 3:
            break
        who = store.bot_to_move()
        if who < 0:
            human_turn(store, pick)
            continue
        choice = store.decide(who)
        kind = "setup" if store.state.frames[-1].kind == "setup" else choice.action.kind
        if kind in ("setup", "pass", "move"):
            pauses.setdefault(kind, store.pause_before(choice))
        store.apply(choice.action)
    assert pauses == {"setup": 0.25, "pass": 0.25, "move": 1.0}


async def test_a_bot_decides_again_when_the_game_moves_on_while_it_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = LocalStore.new(engine(), SOLO, 9, bot_delay=0.2)
    decided: list[int] = []
    real_decide = store.decide

    def decide(who: int):  # type: ignore[no-untyped-def]
        decided.append(who)
        return real_decide(who)

    monkeypatch.setattr(store, "decide", decide)
    await store.send(Action(0, "done"))
    await wait_until(lambda: decided == [1], what="Bob has decided and waits")
    await store.undo()  # ... but Ann takes her action back
    await bots_settled(store)
    assert store.engine.deciding(store.state) == 0 and store.actions == []
    assert decided == [1]  # Bob's choice for the game that is gone was dropped, not played
