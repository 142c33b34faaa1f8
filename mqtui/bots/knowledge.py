"""What a seat can know, and determinization: a full state sampled from one seat's view.

A view (:func:`mqtui.engine.view.view_for`) hides other players' hands, the draw piles, the room stack
and the connection bag. Every card not visible anywhere in the view is *unseen*; :func:`sample_state`
deals the unseen cards of each deck back into the hidden places at random (with the bot's own RNG) and
gives the copy a fresh generator, so the engine can play on from it. Nothing here reads a full state.
"""

from __future__ import annotations

import random

from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.game import copy_state
from mqtui.engine.state import HIDDEN, REWARD, State


def visible_cards(view: State, seat: int) -> set[int]:
    """Every card uid the view shows: the seat's hand, everything in play, piles, discards, the boss."""
    seen: set[int] = set()
    for h in view.heroes:
        if h.seat == seat:
            seen.update(h.hand)
        seen.update(h.equipped)
        seen.update(h.belt)
        seen.update(h.backpack)
        seen.update(h.races)
        seen.update(h.classes)
        seen.add(h.half_breed)
        seen.add(h.super_munchkin)
    for room in view.rooms:
        for pile in room.piles:
            seen.update(pile)
    seen.update(m.card for m in view.monsters)
    seen.update(view.dxm_discard)
    seen.update(view.treasure_discard)
    seen.update(view.monster_discard)
    if view.combat is not None:
        seen.add(view.combat.boss_card)
    for f in view.frames:
        seen.update(f.options)
    seen.discard(HIDDEN)
    return seen


def unseen_cards(t: CardTable, view: State, seat: int) -> dict[str, list[int]]:
    """The cards of each deck that the seat cannot see (in uid order)."""
    seen = visible_cards(view, seat)
    out: dict[str, list[int]] = {DXM: [], TREASURE: [], MONSTER: []}
    for uid, deck in enumerate(t.deck_of):
        if uid not in seen:
            out[deck].append(uid)
    return out


def sample_state(t: CardTable, view: State, seat: int, rnd: random.Random) -> State:
    """A full state consistent with ``view``: hidden cards dealt from the unseen ones, fresh dice.

    Other hands get a random mix of unseen DxM and Treasure cards in the proportions the deck sizes
    imply (cards of a REWARD frame being shared out stay Treasure cards); the draw piles get the rest.
    """
    s = copy_state(view)
    unseen = unseen_cards(t, view, seat)
    dxm, treasure = unseen[DXM], unseen[TREASURE]
    rnd.shuffle(dxm)
    rnd.shuffle(treasure)
    # the draw piles hold exactly len(pile) cards of their own deck; the rest sit in other hands
    n_dxm_hands = max(0, len(dxm) - len(view.dxm))
    n_tr_hands = max(0, len(treasure) - len(view.treasure))
    s.dxm = dxm[n_dxm_hands : n_dxm_hands + len(view.dxm)]
    s.treasure = treasure[n_tr_hands : n_tr_hands + len(view.treasure)]
    to_hands_dxm = dxm[:n_dxm_hands]
    to_hands_tr = treasure[:n_tr_hands]
    # hidden slots; those a hidden REWARD frame names must be Treasure cards
    slots: list[tuple[int, int]] = [
        (h.seat, i) for h in s.heroes if h.seat != seat for i, u in enumerate(h.hand) if u == HIDDEN
    ]
    shown = next((f for f in s.frames if f.kind == REWARD and HIDDEN not in f.options), None)
    if shown is not None:
        # a reward the viewer can see: its cards not in the viewer's hand are in the other sharer's
        holder = shown.target if seat == s.active else s.active
        mine = set(s.heroes[seat].hand)
        still = [u for u in shown.options if u not in mine]
        if holder != seat and still:
            holder_slots = [x for x in slots if x[0] == holder][-len(still) :]
            for x, uid in zip(holder_slots, still, strict=False):
                s.heroes[holder].hand[x[1]] = uid
            slots = [x for x in slots if x not in set(holder_slots)]
    reward = next((f for f in s.frames if f.kind == REWARD and HIDDEN in f.options), None)
    forced: list[tuple[int, int]] = []
    if reward is not None:
        active = s.heroes[s.active]
        k = min(len(reward.options), len(active.hand))
        forced = [(active.seat, i) for i in range(len(active.hand) - k, len(active.hand))]
        forced = [x for x in forced if x in set(slots)]
    free = [x for x in slots if x not in set(forced)]
    rnd.shuffle(free)
    pool_tr = list(to_hands_tr)
    fill: dict[tuple[int, int], int] = {}
    for x in forced:
        if pool_tr:
            fill[x] = pool_tr.pop()
    rest = pool_tr + to_hands_dxm
    rnd.shuffle(rest)
    for x in free:
        if rest:
            fill[x] = rest.pop()
    spare = rest  # only if the view's counts disagree (never in a consistent view)
    for (who, i), uid in fill.items():
        s.heroes[who].hand[i] = uid
    for h in s.heroes:
        if h.seat != seat and HIDDEN in h.hand:
            h.hand = [u for u in h.hand if u != HIDDEN]
    for u in spare:
        (s.dxm if t.deck_of[u] == DXM else s.treasure).append(u)
    if reward is not None:
        active = s.heroes[s.active]
        k = len(reward.options)
        reward.options = active.hand[len(active.hand) - k :] if k else []
    monsters = unseen[MONSTER]
    rnd.shuffle(monsters)
    s.monster_deck = monsters[: len(view.monster_deck)] if view.monster_deck else []
    placed = {t.room(r.room).tile for r in view.rooms if r.room >= 0}
    tiles = sorted(tile for tile in t.tiles if tile > 0 and tile not in placed)
    rnd.shuffle(tiles)
    s.tiles = tiles[: len(view.tiles)]
    bag = [kind for kind, n in sorted(t.content.tables.bag.items()) for _ in range(n)]
    rnd.shuffle(bag)
    s.bag = bag[: len(view.bag)]
    s.rng = rnd.getrandbits(64)
    s.seed = s.rng
    s.forced = []
    return s
