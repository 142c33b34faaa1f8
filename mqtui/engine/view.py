"""What one player may know: a copy of the state with everything hidden from that seat redacted.

The view has the same shape as the state, so the UI and the bots read one kind of value. Hidden
cards become ``HIDDEN`` (their number stays visible: hand sizes, deck sizes), the generator and the
seed are zeroed, and the room stack and connection bag keep only their sizes. ``seat = -1`` is a
spectator, who sees only public information.
"""

from __future__ import annotations

import msgspec

from mqtui.engine.state import (
    HIDDEN,
    REWARD,
    State,
    copy_state,
)


def view_for(s: State, seat: int) -> State:
    # the copy leaves out what the view hides whole (the piles' and the bag's order, the tile faces,
    # queued dice): only their sizes are kept, below
    v = copy_state(
        msgspec.structs.replace(
            s, dxm=[], treasure=[], monster_deck=[], tiles=[], bag=[], faces={}, forced=[]
        )
    )
    v.seed = 0
    v.rng = 0
    for hero in v.heroes:
        if hero.seat != seat:
            hero.hand = [HIDDEN] * len(hero.hand)
    v.dxm = [HIDDEN] * len(s.dxm)
    v.treasure = [HIDDEN] * len(s.treasure)
    v.monster_deck = [HIDDEN] * len(s.monster_deck)
    v.tiles = [HIDDEN] * len(s.tiles)
    v.bag = ["?"] * len(s.bag)
    for f in v.frames:
        # the drawn Treasure being shared out is seen by the two heroes who share it
        if f.kind == REWARD and seat not in (s.active, f.target):
            f.options = [HIDDEN] * len(f.options)
    return v
