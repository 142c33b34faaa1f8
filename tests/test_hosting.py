"""The hosting core (mqtui.hosting) the local store, the authority and the simulator share: a computer
player sees only its own seat, an engine failure changes nothing, and a save's bytes hold the game."""

from __future__ import annotations

import pytest
from engine_helpers import PLAYERS, engine

from mqtui import saves
from mqtui.bots import Choice
from mqtui.engine.actions import Action
from mqtui.engine.game import Engine
from mqtui.engine.state import HIDDEN, State
from mqtui.hosting import Host, SaveEncoder
from mqtui.store import Seat


class Watcher:
    """A bot that plays the first legal action and keeps what it was shown."""

    kind = "watcher"

    def __init__(self, needs_view: bool) -> None:
        self.needs_view = needs_view
        self.seen: list[State | None] = []

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        self.seen.append(view)
        return Choice(legal[0])


def test_a_computer_player_sees_only_its_own_seat() -> None:
    state, _ = engine().new_game(PLAYERS[:3], 7)
    host = Host(engine(), state)
    who = host.deciding()
    looking, blind = Watcher(needs_view=True), Watcher(needs_view=False)
    assert host.decide(looking, who).action == engine().legal(state, who)[0]
    host.decide(blind, who)
    view = looking.seen[0]
    assert view is not None and blind.seen == [None]
    assert view.heroes[who].hand == state.heroes[who].hand
    for hero, real in zip(view.heroes, state.heroes, strict=True):
        if hero.seat != who:
            assert hero.hand == [HIDDEN] * len(real.hand) and real.hand
    assert set(view.dxm) <= {HIDDEN} and view.rng == 0 and view.seed == 0


def test_an_engine_failure_leaves_the_hosted_game_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = engine().new_game(PLAYERS[:2], 3)
    host = Host(engine(), state, list(events))
    first = host.decide(Watcher(False), host.deciding()).action
    host.apply(first)
    saved = saves.encode_state(host.state)
    n_log = len(host.log)
    second = host.decide(Watcher(False), host.deciding()).action

    def broken(s: State, action: Action, expect_n: int | None = None) -> list[object]:
        s.heroes[0].gold += 100
        s.round += 1
        raise RuntimeError("engine bug")

    monkeypatch.setattr(host.engine, "apply", broken)
    with pytest.raises(RuntimeError):
        host.apply(second)
    assert saves.encode_state(host.state) == saved
    assert host.actions == [first] and len(host.log) == n_log


def test_the_save_encoder_writes_the_game_and_its_last_events() -> None:
    seats = (Seat("Ann", "red"), Seat("Bob", "blue", "random"))
    state, events = engine().new_game([(s.name, s.colour) for s in seats], 5)
    host = Host(engine(), state, list(events))
    encoder = SaveEncoder(engine().content, log_tail=3)
    for _ in range(40):
        host.apply(host.decide(Watcher(False), host.deciding()).action)
        data = saves.decode(encoder.encode(host.state, seats, host.actions, host.log, ("p",)))
        assert data.actions == host.actions and data.state == host.state
        assert data.log == host.log[-3:] and data.header.packs == ["p"]
        assert [(s.name, s.kind) for s in data.seats] == [("Ann", "human"), ("Bob", "random")]
