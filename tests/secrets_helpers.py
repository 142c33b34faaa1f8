"""What a seat may know, for the tests that look for hidden cards in the bytes a player's terminal or
browser got (tests/test_net_ssh.py, tests/test_net_web.py)."""

from __future__ import annotations

from mqtui.engine.state import HIDDEN
from mqtui.engine.view import view_for
from mqtui.net.authority import Authority


def public_names(a: Authority, seat: int) -> set[str]:
    """Names of every card this seat can see now (own hand, anything on the table, its log)."""
    v = view_for(a.state, seat)
    names = a.engine.cards.names
    uids: list[int] = []
    for h in v.heroes:
        uids += h.hand + h.equipped + h.belt + h.backpack + h.races + h.classes
        uids += [h.half_breed, h.super_munchkin]
    for room in v.rooms:
        for pile in room.piles:
            uids += pile
    uids += v.dxm_discard + v.treasure_discard + v.monster_discard + [m.card for m in v.monsters]
    for f in v.frames:
        uids += f.options
    if v.combat is not None:
        uids += [v.combat.boss_card]
    seen = {names[u] for u in uids if u != HIDDEN and 0 <= u < len(names)}
    log = "\n".join(line for e in a.log if (line := e.for_seat(seat)))
    return seen | {name for name in names if name in log}


def secret_names(a: Authority, seat: int, public: set[str]) -> set[str]:
    """Names and ids of cards in the other hands that ``seat`` has had no way to see."""
    t = a.engine.cards
    out: set[str] = set()
    for h in a.state.heroes:
        if h.seat == seat:
            continue
        for u in h.hand:
            name = t.names[u]
            if name not in public and not any(name in p for p in public):
                out |= {name, t.card_id(u)}
    return out
