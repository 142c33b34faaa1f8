"""A scenario's expectations compared with a position: one line per difference.

:func:`check` takes the :class:`~mqtui.engine.scenario_spec.Expect` of a step (or of the whole
scenario), the state after it and the events that led there.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mqtui.engine.actions import Event, NotationError
from mqtui.engine.board import DIRS, room_at
from mqtui.engine.cards import CardTable
from mqtui.engine.combat import hero_terms, monster_terms
from mqtui.engine.game import Engine
from mqtui.engine.scenario_build import resolutions
from mqtui.engine.scenario_spec import (
    Expect,
    ExpectHero,
    ExpectMonster,
    ExpectRoom,
    ScenarioError,
    searched,
    strs,
)
from mqtui.engine.state import (
    STAGE_OVER,
    State,
    edge_key,
)


def check(engine: Engine, s: State, expect: Expect, events: list[Event]) -> list[str]:
    """Compare a state and the events that led to it with expectations; one line per difference."""
    t = engine.cards
    out: list[str] = []

    def same(label: str, want: Any, got: Any) -> None:
        if want is not None and want != got:
            out.append(f"{label}: expected {want!r}, got {got!r}")

    lines = [text for e in events for text in (e.text, e.private) if text]
    for frag in strs(expect.events):
        if not any(frag.lower() in line.lower() for line in lines):
            out.append(f"events: expected a line containing {frag!r}; there was none")
    for frag in strs(expect.no_events):
        hits = [line for line in lines if frag.lower() in line.lower()]
        if hits:
            out.append(f"events: expected no line containing {frag!r}; got {hits[0]!r}")
    for key, texts, want_legal in (("legal", expect.legal, True), ("not_legal", expect.not_legal, False)):
        for text in strs(texts):
            try:
                options = resolutions(engine, s, text)
            except (NotationError, ScenarioError) as exc:
                if want_legal:
                    out.append(f"legal: {text!r} cannot be read: {exc}")
                continue
            legal = engine.legal(s, options[0].seat)
            if any(a in legal for a in options) != want_legal:
                shown = ", ".join(str(a) for a in legal) or "none"
                verdict = "legal" if want_legal else "not legal"
                out.append(
                    f"{key}: expected {text!r} to be {verdict}; legal for seat {options[0].seat}: {shown}"
                )
    same("deciding seat", expect.deciding, engine.deciding(s))
    same("top frame", expect.frame, str(s.frames[-1].kind) if s.frames else "none")
    same("whose turn", expect.turn, s.active)
    same("round", expect.round, s.round)
    same("game over", expect.over, s.stage == STAGE_OVER)
    same("winners", expect.winners, s.winners)
    same("forced dice left", expect.dice_left, s.forced)
    same("monsters on the board", expect.monsters, len(s.monsters))
    if expect.strength is not None:
        if s.combat is None:
            out.append("strength: expected a combat, there is none")
        else:
            got = [
                sum(v for _, v in hero_terms(t, s, s.combat)),
                sum(v for _, v in monster_terms(t, s, s.combat)),
            ]
            same("strength (heroes, monsters; without dice)", expect.strength, got)
    pile = Counter(t.card_id(u) for u in [*s.dxm_discard, *s.treasure_discard, *s.monster_discard])
    for c in strs(expect.discarded):
        if pile[c] < 1:
            out.append(f"discarded: expected {c!r} in a discard pile; it is not")
        pile[c] -= 1
    for i, h in enumerate(expect.hero):
        out += _check_hero(t, s, h, i)
    for m in expect.monster:
        out += _check_monster(t, s, m)
    for r in expect.room:
        out += _check_room(t, s, r)
    return out


def _ids(t: CardTable, uids: list[int]) -> list[str]:
    return sorted(t.card_id(u) for u in uids)


def _check_hero(t: CardTable, s: State, want: ExpectHero, i: int) -> list[str]:
    seat = i if want.seat is None else want.seat
    if not 0 <= seat < len(s.heroes):
        raise ScenarioError(f"expected hero: no seat {seat}")
    h = s.heroes[seat]
    out: list[str] = []
    label = f"hero {seat} ({h.name})"
    pairs: list[tuple[str, Any, Any]] = [
        ("level", want.level, h.level),
        ("life", want.life, h.life),
        ("gold", want.gold, h.gold),
        ("moves", want.moves, h.moves),
        ("at", None if want.at is None else list(want.at), [h.x, h.y]),
        ("dead", want.dead, h.dead),
        ("kills", want.kills, h.kills),
        ("deaths", want.deaths, h.deaths),
        ("lose_moves", want.lose_moves, h.lose_moves),
        ("moved", want.moved, h.moved),
        ("explored", want.explored, h.explored),
        ("hand_count", want.hand_count, len(h.hand)),
    ]
    cards: list[tuple[str, Any, Any]] = [
        ("race", want.race, lambda: sorted(t.dxm[u].race for u in h.races)),
        ("class", want.klass, lambda: sorted(t.dxm[u].klass for u in h.classes)),
        ("hand", want.hand, lambda: _ids(t, h.hand)),
        ("equipped", want.equipped, lambda: _ids(t, h.equipped)),
        ("belt", want.belt, lambda: _ids(t, h.belt)),
        ("backpack", want.backpack, lambda: _ids(t, h.backpack)),
    ]
    pairs += [(key, None if ids is None else sorted(strs(ids)), got()) for key, ids, got in cards]
    for key, want_value, actual in pairs:
        if want_value is not None and want_value != actual:
            out.append(f"{label} {key}: expected {want_value!r}, got {actual!r}")
    hand = Counter(_ids(t, h.hand))
    for c in strs(want.hand_has):
        if hand[c] < 1:
            out.append(f"{label} hand: expected {c!r} in it; hand is {sorted(hand.elements())!r}")
        hand[c] -= 1
    for c in strs(want.hand_lacks):
        if hand[c] > 0:
            out.append(f"{label} hand: expected no {c!r} in it; hand is {sorted(hand.elements())!r}")
    return out


def _check_monster(t: CardTable, s: State, want: ExpectMonster) -> list[str]:
    card = want.card
    found = [m for m in s.monsters if t.card_id(m.card) == card]
    if want.gone:
        if found:
            return [f"monster {card}: expected gone, it is at {[found[0].x, found[0].y]}"]
        return []
    if not found:
        return [f"monster {card}: expected on the board, it is gone"]
    out = []
    if want.at is not None and not any((m.x, m.y) == tuple(want.at) for m in found):
        out.append(f"monster {card} at: expected {list(want.at)!r}, got {[[m.x, m.y] for m in found]!r}")
    if want.colour is not None and not any(m.colour == want.colour for m in found):
        out.append(f"monster {card} colour: expected {want.colour!r}, got {[m.colour for m in found]!r}")
    return out


def _check_room(t: CardTable, s: State, want: ExpectRoom) -> list[str]:
    x, y = want.at
    room = room_at(s, x, y)
    if room is None:
        return [f"room at {[x, y]}: expected a placed room, the space is unexplored"]
    out = []
    label = f"room at {[x, y]}"
    if want.id is not None and t.room(room.room).id != want.id:
        out.append(f"{label} id: expected {want.id!r}, got {t.room(room.room).id!r}")
    if want.searched is not None:
        value = searched(want.searched)
        if room.searched != value:
            out.append(f"{label} searched: expected {value}, got {room.searched}")
    piles = want.piles
    if piles is not None:
        got_piles = [_ids(t, p) for p in room.piles]
        if isinstance(piles, int):
            if len(got_piles) != piles:
                out.append(f"{label} piles: expected {piles}, got {len(got_piles)}: {got_piles!r}")
        elif sorted(sorted(strs(p)) for p in piles) != sorted(got_piles):
            out.append(f"{label} piles: expected {piles!r}, got {got_piles!r}")
    for side, kind in want.connections.items():
        got = s.edges.get(edge_key(x, y, DIRS.index(side)))
        if got != kind:
            out.append(f"{label} connection {side}: expected {kind!r}, got {got!r}")
    return out
