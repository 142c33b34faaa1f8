"""What a seat can know, and determinization: a full state sampled from one seat's view.

A view (:func:`mqtui.engine.view.view_for`) hides other players' hands, the draw piles, the room stack
and the connection bag. Every card not visible anywhere in the view is *unseen*; :func:`sample_state`
deals the unseen cards of each deck back into the hidden places at random (with the bot's own RNG) and
gives the copy a fresh generator, so the engine can play on from it. Nothing here reads a full state.

Not every unseen card is as likely to be in a hand as in a draw pile: players belt one-shots and play
Level cards at once, and keep dice tricks and plus cards for others' fights. ``HAND_ODDS`` says how
much likelier each sort of card is to be held than drawn next, as measured over normal bots' games
(``bench/hands.py``); ``sample_state(..., hand_odds=HAND_ODDS)`` deals hands with those odds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

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
    return {deck: [u for u in t.deck_uids[deck] if u not in seen] for deck in (DXM, TREASURE, MONSTER)}


# how much likelier a card of each sort is to be in a hand than in its draw pile (bench/hands.py)
HAND_ODDS: dict[str, float] = {
    "enhancer+": 1.3,
    "enhancer-": 1.25,
    "dice": 1.55,
    "dungeon": 1.15,
    "moves": 0.65,
    "level": 0.5,
    "wandering": 0.7,
    "super_munchkin": 0.3,
    "half_breed": 0.3,
    "equipment": 1.4,
    "oneshot": 0.15,
    "treasure-level": 0.75,
}


def card_sort(t: CardTable, uid: int) -> str:
    """The sort of card ``HAND_ODDS`` is keyed by (DxM kind, plus/minus for enhancers, Treasure kind)."""
    if t.deck_of[uid] == DXM:
        d = t.dxm[uid]
        return d.kind + ("+" if d.amount > 0 else "-") if d.kind == "enhancer" else d.kind
    kind = t.treasure[uid].kind
    return "treasure-level" if kind == "level" else kind


def _deal_order(t: CardTable, cards: list[int], rnd: random.Random, odds: Mapping[str, float] | None) -> None:
    """Put ``cards`` in a random order, those likelier to be held first (weighted sampling without
    replacement: Efraimidis and Spirakis' keys u ** (1 / w))."""
    rnd.shuffle(cards)
    if odds:
        keys = {u: rnd.random() ** (1.0 / odds.get(card_sort(t, u), 1.0)) for u in cards}
        cards.sort(key=lambda u: -keys[u])


def sample_state(
    t: CardTable, view: State, seat: int, rnd: random.Random, hand_odds: Mapping[str, float] | None = None
) -> State:
    """A full state consistent with ``view``: hidden cards dealt from the unseen ones, fresh dice.

    Other hands get a random mix of unseen DxM and Treasure cards in the proportions the deck sizes
    imply (cards of a REWARD frame being shared out stay Treasure cards), each sort of card weighted by
    ``hand_odds`` if given; the draw piles get the rest, shuffled.
    """
    s = copy_state(view)
    unseen = unseen_cards(t, view, seat)
    dxm, treasure = unseen[DXM], unseen[TREASURE]
    _deal_order(t, dxm, rnd, hand_odds)
    _deal_order(t, treasure, rnd, hand_odds)
    # the draw piles hold exactly len(pile) cards of their own deck; the rest sit in other hands
    n_dxm_hands = max(0, len(dxm) - len(view.dxm))
    n_tr_hands = max(0, len(treasure) - len(view.treasure))
    if hand_odds:
        # the pile part in its own random order, not by weight
        dxm[n_dxm_hands:] = rnd.sample(dxm[n_dxm_hands:], len(dxm) - n_dxm_hands)
        treasure[n_tr_hands:] = rnd.sample(treasure[n_tr_hands:], len(treasure) - n_tr_hands)
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
