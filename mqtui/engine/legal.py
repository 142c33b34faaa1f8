"""The one place that says which actions are legal now, and for whom.

The UI, the bots, the tests, the simulator and the engine's own ``apply`` all ask :func:`legal_actions`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mqtui.engine.actions import Action
from mqtui.engine.board import (
    ENTRANCE,
    MONSTER_PASSABLE,
    adjacent,
    hero_room,
    monsters_at,
    neighbours,
    room_def,
)
from mqtui.engine.cards import DXM, CardTable
from mqtui.engine.combat import fight_monsters, flee_options, ignores, room_rules
from mqtui.engine.defs import Deal, DxmDef
from mqtui.engine.heroes import (
    HAND_LIMIT,
    MAX_LEVEL,
    can_equip,
    can_stow,
    carried,
    identity,
    lose_candidates,
    usable,
)
from mqtui.engine.state import (
    DX,
    DY,
    HIDDEN,
    KEY_STEP,
    STAGE_OVER,
    Frame,
    FrameKind,
    Hero,
    State,
    cell_key,
    edge_key,
    key_edge,
)

LEVEL_PRICE = 1000
TERMS_GOLD = (0, 100, 200, 500)
MAX_TERMS_TREASURES = 3


def deciding(s: State) -> int:
    """The seat that must decide now, or -1 when the game is over."""
    if s.stage == STAGE_OVER or not s.frames:
        return -1
    return s.frames[-1].seat


def nothing_to_play(s: State, seat: int, legal: Sequence[Action]) -> bool:
    """``seat`` decides in a fight window of another player's turn and may only pass (``legal``: its
    legal actions): its player is not called to the keyboard for it, the pass goes by itself (the app
    at a shared screen sends it; a host passes for its players at once)."""
    return (
        bool(legal)
        and deciding(s) == seat
        and s.active != seat
        and s.frames[-1].kind == FrameKind.WINDOW
        and all(a.kind == "pass" for a in legal)
    )


def legal_actions(t: CardTable, s: State, seat: int) -> list[Action]:
    if s.stage == STAGE_OVER or not s.frames:
        return []
    f = s.frames[-1]
    if f.seat != seat:
        return []
    by_frame = _BY_FRAME.get(f.kind)
    return by_frame(t, s, f, s.heroes[seat]) if by_frame is not None else []


def _invite(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    return [Action(hero.seat, "accept"), Action(hero.seat, "decline")]


def _reward(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    active = s.heroes[s.active]
    return [Action(hero.seat, "take", u) for u in f.options if u in active.hand]


def _lose_item(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    return [Action(hero.seat, "lose", u) for u in lose_candidates(hero, f)]


def _flee(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    return [Action(hero.seat, "flee", d) for d in flee_options(s, hero)]


def _charity(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    return [Action(hero.seat, "charity", u) for u in hero.hand] if len(hero.hand) > HAND_LIMIT else []


def _identity_cards(t: CardTable, hero: Hero, out: list[Action]) -> None:
    """Race and class cards, and the two-races and two-classes cards, in hand that may be played now."""
    seat = hero.seat
    for uid in hero.hand:
        d = t.dxm.get(uid)
        if d is None:
            continue
        k = d.kind
        if (
            (k == "race" and all(t.dxm[r].race != d.race for r in hero.races))
            or (k == "class" and all(t.dxm[c].klass != d.klass for c in hero.classes))
            or (k == "half_breed" and hero.half_breed == HIDDEN)
            or (k == "super_munchkin" and hero.super_munchkin == HIDDEN)
        ):
            out.append(Action(seat, "play", uid))


def _items(t: CardTable, hero: Hero, out: list[Action]) -> None:
    """Equip, stow and belt moves for cards in hand and carried."""
    seat = hero.seat
    for uid in hero.hand:
        if t.deck_of[uid] == DXM:
            continue
        item = t.treasure[uid]
        if item.kind == "equipment":
            if can_equip(t, hero, uid) is None:
                out.append(Action(seat, "equip", uid))
            if can_stow(t, hero, uid):
                out.append(Action(seat, "stow", uid))
        elif item.kind == "oneshot":
            out.append(Action(seat, "belt", uid))
    for uid in hero.equipped:
        if can_stow(t, hero, uid):
            out.append(Action(seat, "stow", uid))
    for uid in hero.backpack:
        if can_equip(t, hero, uid) is None:
            out.append(Action(seat, "equip", uid))


def _setup(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    out = [Action(hero.seat, "done")]
    _identity_cards(t, hero, out)
    _items(t, hero, out)
    return out


def move_cost(t: CardTable, s: State, hero: Hero, d: int, leave: int | None = None) -> int | None:
    """Moves needed to go through side d now (None: impossible), after the spend-all rule.

    ``leave`` is the extra cost of leaving the hero's room, when the caller already knows it."""
    if hero.explored:
        return None
    kind = s.edges.get(edge_key(hero.x, hero.y, d))
    base = t.content.tables.move_cost.get(kind) if kind is not None else None
    if base is None:
        return None
    if not s.tiles and cell_key(hero.x + DX[d], hero.y + DY[d]) not in s.grid:
        return None  # nothing left to explore with
    if leave is None:
        leave = leave_cost(t, s, hero)
    cost = base + leave
    if cost <= hero.moves:
        return cost
    if not hero.moved:
        return hero.moves  # spend-all: any one connection for all the Moves left, even none
    return None


def leave_cost(t: CardTable, s: State, hero: Hero) -> int:
    """The extra Moves it costs to walk out of the hero's room."""
    return sum(r.amount for r in room_def(t, hero_room(s, hero)).rules if r.kind == "leave_cost")


def _act(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    seat = hero.seat
    out = [Action(seat, "end")]
    key = cell_key(hero.x, hero.y)
    room = s.rooms[s.grid[key]]
    rdef = t.room(room.room)
    if not hero.explored:
        # move_cost, unrolled over the four sides: this is the hottest loop of random play
        leave = sum(r.amount for r in rdef.rules if r.kind == "leave_cost") if rdef.rules else 0
        costs = t.content.tables.move_cost
        spend_all = not hero.moved
        for d in range(4):
            base = costs.get(s.edges.get(key_edge(key, d), "wall"))
            if base is None or (base + leave > hero.moves and not spend_all):
                continue
            if s.tiles or key + KEY_STEP[d] in s.grid:
                out.append(Action(seat, "move", d))
    if hero.moves >= 1:
        if rdef.deal is not None:
            _deals(t, hero, rdef.deal, out)
        if room.piles:
            out.extend(Action(seat, "pickup", i) for i in range(len(room.piles)))
        if room.room != ENTRANCE and room.searched < 2:
            out.append(Action(seat, "search"))
    _identity_cards(t, hero, out)
    _items(t, hero, out)
    here = [h for h in s.heroes if h.seat != seat and not h.dead and h.x == hero.x and h.y == hero.y]
    for uid in hero.hand:
        out.append(Action(seat, "discard", uid))
        card = t.dxm.get(uid)
        if card is not None:
            _dxm_card(t, s, hero, uid, card, out)
        else:
            _treasure_card(t, hero, uid, out)
            if here:
                out.extend(Action(seat, "give", uid, h.seat) for h in here)
    if here:
        for uid in carried(hero):
            out.extend(Action(seat, "give", uid, h.seat) for h in here)
    for uid in hero.belt:
        _treasure_card(t, hero, uid, out)
    if hero.gold >= LEVEL_PRICE and hero.level < MAX_LEVEL - 1:
        out.append(Action(seat, "buylevel"))
    for m in monsters_at(s, hero.x, hero.y):
        if ignores(t, m, hero):
            out.append(Action(seat, "challenge", m.id))
    return out


def _deals(t: CardTable, hero: Hero, deal: Deal, out: list[Action]) -> None:
    seat = hero.seat
    k = deal.kind
    if (
        (k in ("buy_treasure", "buy_dxm") and hero.gold >= deal.price)
        or (k == "heal" and hero.gold >= deal.price and hero.life < hero.max_life)
        or (
            k == "shrine"
            and hero.gold >= deal.price
            and (not deal.who or deal.who in identity(t, hero))
            and (deal.gives != "life" or hero.life < hero.max_life)
        )
    ):
        out.append(Action(seat, "deal"))
    elif k == "sell":
        for uid in [*hero.hand, *carried(hero)]:
            if t.deck_of[uid] != DXM and t.treasure[uid].gold > 0:
                out.append(Action(seat, "deal", uid))
    elif k == "swap_card":
        out.extend(Action(seat, "deal", uid) for uid in hero.hand)


def _dxm_card(t: CardTable, s: State, hero: Hero, uid: int, d: DxmDef, out: list[Action]) -> None:
    seat = hero.seat
    k = d.kind
    if k == "level":
        if hero.level < MAX_LEVEL - 1:
            out.append(Action(seat, "play", uid))
    elif k == "moves":
        out.append(Action(seat, "play", uid))
    elif k == "curse":
        out.extend(Action(seat, "curse", uid, h.seat) for h in s.heroes if h.seat != seat and not h.dead)
    elif k == "dungeon":
        if d.action == "wall_to_door":
            for side in range(4):
                if s.edges.get(edge_key(hero.x, hero.y, side)) == "wall":
                    out.append(Action(seat, "wall", uid, side))
        elif d.action == "move_monster":
            cells = [(hero.x, hero.y)] + [(x, y) for _, x, y in neighbours(s, hero.x, hero.y)]
            for m in s.monsters:
                if (m.x, m.y) not in cells:
                    continue
                for side, nx, ny in neighbours(s, m.x, m.y, MONSTER_PASSABLE):
                    if (nx, ny) != (0, 0):
                        out.append(Action(seat, "shove", uid, m.id, side))
        elif d.action == "teleport":
            for room in s.rooms:
                if (room.x, room.y) != (hero.x, hero.y):
                    out.append(Action(seat, "teleport", uid, room.x, room.y))


def _treasure_card(t: CardTable, hero: Hero, uid: int, out: list[Action]) -> None:
    """Treasure played outside combat: healing and Moves one-shots, level gains."""
    item = t.treasure[uid]
    seat = hero.seat
    if item.kind == "level":
        if hero.level < MAX_LEVEL - 1:
            out.append(Action(seat, "play", uid))
    elif (
        item.kind == "oneshot"
        and (item.use == "moves" or (item.use == "heal" and hero.life < hero.max_life))
        and usable(t, hero, item)
    ):
        out.append(Action(seat, "play", uid))


def _window(t: CardTable, s: State, f: Frame, hero: Hero) -> list[Action]:
    c = s.combat
    assert c is not None
    seat = hero.seat
    out = [Action(seat, "pass")]
    if f.stage == "post":
        for uid in hero.hand:
            if t.deck_of[uid] == DXM and t.dxm[uid].kind == "dice":
                out.extend(Action(seat, "dice", uid, side) for side in (0, 1))
        return out
    # (the fight's monsters are looked up only where needed: most heroes here hold no enhancer)
    for uid in hero.hand:
        if t.deck_of[uid] != DXM:
            continue
        k = t.dxm[uid].kind
        if k == "enhancer":
            if c.boss:
                out.append(Action(seat, "enhance", uid, 0))
            out.extend(Action(seat, "enhance", uid, m.id) for m in fight_monsters(s, c))
        elif k == "wandering" and not c.boss:
            out.append(Action(seat, "wander", uid))
    if not hero.dead:
        in_room = hero.x == c.x and hero.y == c.y
        for uid in [*hero.hand, *hero.belt]:
            if t.deck_of[uid] == DXM:
                continue
            item = t.treasure[uid]
            if (
                item.kind == "oneshot"
                and item.use == "bonus"
                and (in_room or (item.thrown and adjacent(s, hero.x, hero.y, c.x, c.y)))
                and usable(t, hero, item)  # "usable only by Warriors", "not usable by Halflings"
            ):
                out.extend(Action(seat, "use", uid, side) for side in (0, 1))
    if seat == c.active and c.helper < 0 and not any(r.kind == "no_help" for r in room_rules(t, s, c)):
        treasures = min(MAX_TERMS_TREASURES, sum(t.monster[m.card].treasures for m in fight_monsters(s, c)))
        for other in s.heroes:
            if other.seat == seat or other.dead or other.seat in c.invited:
                continue
            if c.boss and other.level < MAX_LEVEL:
                continue
            if not adjacent(s, other.x, other.y, c.x, c.y):
                continue
            for n in range(treasures + 1):
                for first in (False, True) if n else (False,):
                    for gold in TERMS_GOLD:
                        if gold <= hero.gold:
                            out.append(Action(seat, "invite", other.seat, n + (10 if first else 0), gold))
    return out


# the legal actions of the seat deciding, by the kind of the frame it decides in
_BY_FRAME: dict[FrameKind, Callable[[CardTable, State, Frame, Hero], list[Action]]] = {
    FrameKind.SETUP: _setup,
    FrameKind.ACT: _act,
    FrameKind.WINDOW: _window,
    FrameKind.INVITE: _invite,
    FrameKind.REWARD: _reward,
    FrameKind.LOSE_ITEM: _lose_item,
    FrameKind.FLEE: _flee,
    FrameKind.CHARITY: _charity,
}
