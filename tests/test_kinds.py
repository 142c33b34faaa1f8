"""Kinds are types: every action kind has its handler, every event the engine makes has a known kind,
frame kinds and stages are saved as the same plain words as before, and an unknown kind never decodes."""

from __future__ import annotations

import random
from typing import get_args

import msgspec
import pytest
from engine_helpers import PLAYERS, engine

from mqtui.engine.actions import EVENT_KINDS, SPECS, Action, ActionKind, Event
from mqtui.engine.handlers import HANDLERS
from mqtui.engine.state import Frame, FrameKind, Stage, State

ENC = msgspec.msgpack.Encoder()


def test_every_action_kind_has_its_arguments_and_one_handler() -> None:
    kinds = set(get_args(ActionKind))
    assert set(SPECS) == kinds and set(HANDLERS) == kinds


def test_every_event_of_a_played_game_has_a_known_kind() -> None:
    e = engine()
    s, events = e.new_game(PLAYERS, seed=5)
    rnd = random.Random(5)
    for _ in range(600):
        seat = e.deciding(s)
        if seat < 0:
            break
        events += e.apply(s, rnd.choice(e.legal(s, seat)))
    seen = {ev.kind for ev in events}
    assert {"start", "turn", "move", "monster"} <= seen and seen <= set(EVENT_KINDS)
    # a monster's move is the monster's doing (its own log symbol), a hero's move is a move
    monster_moves = [ev for ev in events if " moves from " in ev.text]
    assert monster_moves and {ev.kind for ev in monster_moves} == {"monster"}
    assert "move" in {ev.kind for ev in events if " goes " in ev.text}
    # and they survive a save's round trip (msgspec checks the kind while decoding)
    assert msgspec.msgpack.decode(ENC.encode(events), type=list[Event]) == events


def test_frame_kinds_and_stages_are_saved_as_their_plain_words() -> None:
    s, _ = engine().new_game(PLAYERS, seed=3)  # before the first turn: stage "setup", frames "setup"
    raw = msgspec.msgpack.decode(ENC.encode(s))
    assert raw["stage"] == "setup" and {f["kind"] for f in raw["frames"]} == {"setup"}
    back = msgspec.msgpack.decode(ENC.encode(s), type=State)
    assert back.stage is Stage.SETUP and back.frames[0].kind is FrameKind.SETUP
    assert back == s


@pytest.mark.parametrize(
    ("value", "typ"),
    [
        ([0, "buylvl"], Action),
        (["teleported", "text"], Event),
        ({"kind": "lunch", "seat": 0}, Frame),
        ({"kind": "window", "seat": 0, "stage": "during"}, Frame),
    ],
)
def test_an_unknown_kind_is_refused_when_decoded(value: object, typ: type) -> None:
    with pytest.raises(msgspec.ValidationError, match="Invalid enum value"):
        msgspec.msgpack.decode(ENC.encode(value), type=typ)
