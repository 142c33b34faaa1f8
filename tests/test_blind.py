"""Blind by construction: nothing a computer player is handed leads to a hidden card.

Every bot of every level is watched while it plays real games through each way the product asks a bot
(the simulator, the local store, the network authority, the advisor and ``mqtui hint``): before it
chooses, everything reachable from what it is handed (the engine, the view, the legal actions) and from
the bot itself is walked (attributes, ``__dict__`` and ``__slots__``, containers and dict keys, closures
and defaults, bound methods' ``__self__``, ``functools.partial``, classes' own attributes; not modules'
globals, which a bot reaches by importing anyway), and the walk must find:

- no object of the real state (nor the real engine, whose legal-action cache holds the real state, nor
  its card table, whose caches remember what the game's other users looked up);
- no state or hero with another seat's hand, a draw pile, the room stack or the generator showing;
- no list equal to another seat's hand or to the top of a pile as they really are;
- no cache shared with another seat's bot (one bot's look-ups would tell the other what it holds).

The same walk on the code before the blind engines (26047a8) finds the real state in the engine's
cache at the first decision, and seat 0's hand in the card table's caches from seat 1.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import inspect
import types
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import mqtui.bots
from mqtui import sim
from mqtui.bots import BOT_KINDS, Bot
from mqtui.bots.easy import EasyBot
from mqtui.bots.hard import HardBot
from mqtui.bots.normal import NormalBot
from mqtui.bots.random_bot import RandomBot
from mqtui.cli import main
from mqtui.engine.actions import Action
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine
from mqtui.engine.state import HIDDEN, STAGE_OVER, Hero, State
from mqtui.hosting import Host
from mqtui.net.authority import Authority
from mqtui.net.persist import SeatRec
from mqtui.net.table import TableConfig
from mqtui.store.local import LocalStore
from mqtui.store.protocol import Seat
from mqtui.ui.advisor import advice_for

PACKAGE = Path(__file__).resolve().parent.parent / "mqtui"
ATOMS = (int, float, complex, str, bytes, bool, type(None), range, enum.Enum, type(...))
ATOM_TYPES = {int, str, bool, float, type(None)}
PILES = ("dxm", "treasure", "monster_deck", "tiles", "bag")


def _children(x: object) -> Iterator[object]:
    """What ``x`` holds, one step on."""
    if isinstance(x, dict):
        yield from x.keys()
        yield from x.values()
        return
    if isinstance(x, (list, tuple, set, frozenset)):
        yield from x
        return
    if isinstance(x, types.MethodType):
        yield x.__self__
        yield x.__func__
        return
    if isinstance(x, types.FunctionType):
        yield from (c.cell_contents for c in x.__closure__ or () if c.cell_contents is not None)
        yield from x.__defaults__ or ()
        yield from (x.__kwdefaults__ or {}).values()
        return
    if isinstance(x, functools.partial):
        yield x.func
        yield from x.args
        yield from x.keywords.values()
        return
    if isinstance(x, msgspec.Struct):
        yield from (getattr(x, f) for f in x.__struct_fields__)
    for cls in type(x).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(x, name):
                yield getattr(x, name)
        if cls.__module__.startswith("mqtui"):  # our classes' own attributes (a cache kept on the class)
            yield from (v for k, v in vars(cls).items() if not k.startswith("__"))
    if hasattr(x, "__dict__") and not isinstance(x, type):
        yield from vars(x).values()


def reachable(roots: Iterable[object], stop: dict[int, object] | None = None) -> Iterator[object]:
    """Every object reachable from ``roots`` (each once), not going into those in ``stop``."""
    seen = set(stop or ())
    todo = list(roots)
    while todo:
        x = todo.pop()
        kind = type(x)
        if kind in ATOM_TYPES or id(x) in seen or isinstance(x, ATOMS):
            continue
        seen.add(id(x))
        yield x
        if kind in (list, tuple, set, frozenset):
            todo.extend(x)  # type: ignore[arg-type]
        elif isinstance(x, dict):
            todo.extend(x)
            todo.extend(x.values())
        elif not isinstance(x, (type, types.ModuleType, types.BuiltinFunctionType)):
            todo.extend(_children(x))


@functools.cache
def _rules(engine: Engine) -> dict[int, object]:
    """The content and the card table's fixed parts: the same for every seat and without a state in
    them (checked at the end of each game), so the walks need not go into them each time."""
    fixed = dataclasses.replace(engine.cards, traits_cache={}, loadout_cache={})
    found = {id(o): o for o in reachable([fixed, engine.content])}
    for o in (fixed, fixed.traits_cache, fixed.loadout_cache):
        del found[id(o)]
    return found


def _mutable(x: object) -> bool:
    """Can ``x`` be changed (and so carry news from one seat's bot to another)?"""
    if isinstance(x, msgspec.Struct):
        return not type(x).__struct_config__.frozen
    if dataclasses.is_dataclass(x):
        return not type(x).__dataclass_params__.frozen  # type: ignore[union-attr]
    return isinstance(x, (list, dict, set)) or (
        hasattr(x, "__dict__") and not isinstance(x, (type, types.FunctionType, types.ModuleType))
    )


class Watch:
    """Checks what each bot is handed against the real state of its game."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}
        self.kept: dict[int, dict[int, object]] = {}  # seat -> what its bot holds between decisions
        self.real: tuple[State, Engine] | None = None  # set by a test for the callers without a Host
        self.spies: list[object] = []
        self.settled: dict[int, object] = {}

    def real_game(self) -> tuple[State, Engine]:
        frame = inspect.currentframe()
        frame = (
            frame.f_back.f_back if frame is not None and frame.f_back is not None else None
        )  # (the caller's caller)
        while frame is not None:
            host, state, engine = (frame.f_locals.get(k) for k in ("self", "state", "engine"))
            if isinstance(host, Host):
                return host.state, host.engine
            if isinstance(state, State) and isinstance(engine, Engine):  # mqtui hint: the save's game
                return state, engine
            frame = frame.f_back
        assert self.real is not None, "a bot was asked outside Host.decide and outside the watched callers"
        return self.real

    def check(self, bot: Bot, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> None:
        s, real_engine = self.real_game()
        if s.n % 3 and bot.kind != "hard":
            return  # (one position in three is enough for the quick bots: there are many)
        self.calls[bot.kind] = self.calls.get(bot.kind, 0) + 1
        where = f"{bot.kind} bot of seat {seat}, state {s.n}"
        cards = real_engine.cards
        forbidden = {id(o): o for o in reachable([s]) if _mutable(o)}
        forbidden |= {id(o): o for o in (real_engine, cards, cards.traits_cache, cards.loadout_cache)}
        hands = [tuple(h.hand) for h in s.heroes if h.seat != seat and len(h.hand) >= 2]
        tops = [tuple(getattr(s, p)[-3:]) for p in PILES if len(getattr(s, p)) >= 3]
        secret = set(hands) | set(tops)
        # not gone into: the rules, the spies (the test's), and tuples of numbers already checked
        skip = _rules(real_engine) | {id(o): o for o in (self, *self.spies)} | self.settled
        held: dict[int, object] = {}
        for root, name in ((engine, "engine"), (view, "view"), (legal, "legal"), (bot, "bot")):
            found = list(reachable([root], skip))
            for o in found:
                assert id(o) not in forbidden, (
                    f"{where}: its {name} leads to the real game ({type(o).__name__})"
                )
                if isinstance(o, Hero) and o.seat != seat:
                    assert all(u == HIDDEN for u in o.hand), f"{where}: its {name} shows {o.name}'s hand"
                if isinstance(o, State):
                    for p in PILES[:4]:
                        assert all(u == HIDDEN for u in getattr(o, p)), f"{where}: its {name} shows a pile"
                    assert o.rng == 0 and o.seed == 0 and not o.faces, f"{where}: its {name} shows the dice"
                if isinstance(o, (list, tuple)) and len(o) >= 2 and all(type(u) is int for u in o):
                    assert tuple(o) not in secret, f"{where}: its {name} holds {list(o)}: a hand or a pile"
                if name in ("engine", "bot") and _mutable(o):
                    held[id(o)] = o
            for o in reversed(found):  # (what a tuple holds comes after it)
                if isinstance(o, (tuple, frozenset)) and all(
                    type(u) in ATOM_TYPES or id(u) in self.settled for u in o
                ):
                    self.settled[id(o)] = o  # (immutable: a cache's keys are checked once, not each time)
        for other, theirs in self.kept.items():
            if other != seat:
                shared = [o for i, o in held.items() if i in theirs]
                assert not shared, f"{where}: shares {type(shared[0]).__name__} with seat {other}'s bot"
        self.kept.setdefault(seat, {}).update(held)

    def end_of_game(self, engine: Engine, s: State) -> None:
        """The fixed parts the walks skipped hold nothing of the game either."""
        inside = {id(o) for o in reachable([s]) if _mutable(o)}
        assert not any(id(o) in inside for o in reachable(_rules(engine).values()))
        self.kept.clear()


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Watch:
    """Every bot's ``choose`` checks what it is handed first."""
    w = Watch()
    for cls in (RandomBot, EasyBot, NormalBot, HardBot):
        chooser: Callable[..., Any] = cls.choose

        def spy(
            self: Bot, engine: Engine, view: State | None, seat: int, legal: list[Action], _c: Any = chooser
        ) -> Any:
            w.check(self, engine, view, seat, legal)
            return _c(self, engine, view, seat, legal)

        monkeypatch.setattr(cls, "choose", spy)
        w.spies.append(spy)
    return w


def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard bots with a small look-ahead (the same code on fewer samples), so that games are quick."""
    make = mqtui.bots.make_bot

    def quick(kind: str, seed: int = 0) -> Bot:
        return HardBot(seed, steps=150, samples=4) if kind == "hard" else make(kind, seed)

    monkeypatch.setattr(mqtui.bots, "make_bot", quick)


KINDS = ("hard", "normal", "easy", "random")


@pytest.mark.slow(seconds=10)
def test_the_simulators_bots_are_blind(engine: Engine, watch: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    quick_bots(monkeypatch)
    # (seed 5: a game of ten rounds, long enough that every kind is asked often; seed 3's game took
    # three rounds once the easy bot played its curses, and the random seat was asked 18 times)
    for seed, kinds in ((5, KINDS), (4, ("easy", "hard", "normal"))):
        result = sim.play_game(engine, kinds, seed, round_cap=10)
        assert not result.error, result.error
        watch.kept.clear()
    assert set(watch.calls) == set(BOT_KINDS) and min(watch.calls.values()) > 30, watch.calls


@pytest.mark.slow(seconds=5)
def test_the_local_stores_bots_are_blind(
    engine: Engine, watch: Watch, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick_bots(monkeypatch)
    seats = tuple(Seat(sim.NAMES[i], COLOURS[i], kind) for i, kind in enumerate(("normal", *KINDS)))
    store = LocalStore.new(engine, seats, 8, bot_delay=0)
    while store.state.round <= 8 and store.step_bot():
        pass
    assert set(watch.calls) == set(BOT_KINDS), watch.calls
    watch.end_of_game(engine, store.state)


@pytest.mark.slow(seconds=5)
def test_the_servers_bots_are_blind(engine: Engine, watch: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    quick_bots(monkeypatch)
    seats = [SeatRec(name=sim.NAMES[i], colour=COLOURS[i], kind=kind) for i, kind in enumerate(KINDS[::-1])]
    config = TableConfig(bot_delay=0, timeout=0, abandon=0)
    table = Authority.new(engine, seats, 9, config=config)
    while table.state.stage != STAGE_OVER and table.state.round <= 8:
        table.auto_act()
    assert set(watch.calls) == set(BOT_KINDS), watch.calls
    watch.end_of_game(engine, table.state)


@pytest.mark.slow(seconds=5)
def test_the_advisor_and_hint_are_blind(
    engine: Engine, watch: Watch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The advisor asks the hard bot for the seat on screen (in the app and in ``mqtui hint``)."""
    seats = tuple(Seat(sim.NAMES[i], COLOURS[i], "normal") for i in range(4))
    store = LocalStore.new(engine, seats, 12, bot_delay=0)
    asked = hints = 0
    while store.state.round <= 6 and store.state.stage != STAGE_OVER:
        s = store.state
        seat = engine.deciding(s)
        if len(engine.legal(s, seat)) > 1 and s.n % 4 == 0:
            watch.real = (s, engine)
            asked += advice_for(store.snapshot(seat), engine.cards) is not None
            if s.n % 20 == 0:
                store.save(tmp_path / "game.mqsave")
                hints += main(["hint", str(tmp_path / "game.mqsave")]) == 0
            watch.real = None
        store.step_bot()
    capsys.readouterr()
    assert asked >= 20 and hints >= 2 and watch.calls["hard"] >= asked + hints


def test_only_the_host_asks_a_bot() -> None:
    """A bot's ``choose`` is called in one place, :meth:`Host.decide` (which hands it the blind engine),
    and, for the advisor, in :mod:`mqtui.bots.advice` on the seat's own view."""
    callers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "choose"
            ):
                callers.add(str(path.relative_to(PACKAGE)))
    assert callers <= {"hosting/host.py", "bots/advice.py"}, callers
