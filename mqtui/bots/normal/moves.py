"""Movement planning: paths, what each reachable cell is worth, exploring, and going home."""

from __future__ import annotations

import heapq

from mqtui.bots import Choice
from mqtui.bots.eval import DXM_VALUE, GOLD_VALUE, hero_strength, p_win, room_rules_at
from mqtui.bots.normal.core import LIFE_COST, MOVE_COST, RIVAL_HOPE, TURN_DISCOUNT, Cell, Ctx
from mqtui.bots.normal.fights import expected_interference, fight_ev, oneshot_boost, treasure_worth
from mqtui.bots.normal.rivals import hope
from mqtui.engine.actions import Action
from mqtui.engine.board import ENTRANCE, room_at, room_def
from mqtui.engine.cards import DXM, MONSTER, TREASURE
from mqtui.engine.combat import BOSS_LEVEL, ignores
from mqtui.engine.defs import MonsterDef
from mqtui.engine.heroes import MAX_LEVEL, identity, power_total
from mqtui.engine.legal import LEVEL_PRICE
from mqtui.engine.state import DX, DY, Monster, State, cell_key, edge_key


def monsters_in(ctx: Ctx, cell: Cell) -> list[Monster]:
    """The monsters in a cell, in the state's order (the board is sorted by cell once per decision)."""
    by_cell: dict[Cell, list[Monster]] | None = ctx.memo.get("monsters by cell")  # type: ignore[assignment]
    if by_cell is None:  # (ctx.cached written out: this is asked for every cell of every path)
        by_cell = ctx.memo["monsters by cell"] = _monsters_by_cell(ctx.s)
    return by_cell.get(cell, [])


def _monsters_by_cell(s: State) -> dict[Cell, list[Monster]]:
    out: dict[Cell, list[Monster]] = {}
    for m in s.monsters:
        out.setdefault((m.x, m.y), []).append(m)
    return out


def hostile_at(ctx: Ctx, cell: Cell) -> list[MonsterDef]:
    t, me = ctx.t, ctx.me
    return [t.monster[m.card] for m in monsters_in(ctx, cell) if not ignores(t, m, me)]


def leave_cost(ctx: Ctx, cell: Cell) -> int:
    room = room_at(ctx.s, *cell)
    if room is None:
        return 0
    return sum(r.amount for r in room_def(ctx.t, room).rules if r.kind == "leave_cost")


def paths(ctx: Ctx, avoid_fights: bool = False) -> tuple[dict[Cell, int], dict[Cell, int]]:
    """Cheapest Move costs from the hero to every placed room it can reach, and the first side to take.

    Rooms with monsters hostile to the hero end a path (entering them starts a fight)."""
    t, s, me = ctx.t, ctx.s, ctx.me
    costs = t.content.tables.move_cost
    start = (me.x, me.y)
    dist: dict[Cell, int] = {start: 0}
    first: dict[Cell, int] = {}
    heap: list[tuple[int, Cell]] = [(0, start)]
    while heap:
        d, cell = heapq.heappop(heap)
        if d > dist.get(cell, 1 << 30):
            continue
        if cell != start and hostile_at(ctx, cell):
            continue
        extra = leave_cost(ctx, cell)
        for side in range(4):
            kind = s.edges.get(edge_key(cell[0], cell[1], side))
            if kind is None or kind not in costs:
                continue
            nxt = (cell[0] + DX[side], cell[1] + DY[side])
            if cell_key(*nxt) not in s.grid:
                continue
            nd = d + costs[kind] + extra
            if avoid_fights and hostile_at(ctx, nxt):
                nd += 6
            if nd < dist.get(nxt, 1 << 30):
                dist[nxt] = nd
                first[nxt] = side if cell == start else first[cell]
                heapq.heappush(heap, (nd, nxt))
    return dist, first


def distance_home(ctx: Ctx) -> int:
    dist, _ = paths(ctx)
    return dist.get((0, 0), 99)


def reach_factor(ctx: Ctx, cost: int) -> float:
    """What a goal ``cost`` Moves away is worth relative to one here."""
    moves = ctx.me.moves
    if cost <= moves:
        return 1.0
    turns = 1 + (cost - moves - 1) // 3
    return TURN_DISCOUNT**turns


Option = tuple[float, Action, str]  # (value, action, why)


def move_options(ctx: Ctx) -> tuple[list[Option], list[Option]]:
    """Everything worth considering now: local actions here, and one best goal per first step
    (exploring counts as a goal through its side)."""
    me = ctx.me
    here = (me.x, me.y)
    local = local_options(ctx)
    remote: dict[int, Option] = {}
    moves = {a.a: a for a in ctx.has("move")}
    if moves:
        dist, first = paths(ctx)
        for cell, cost in dist.items():
            if cell == here:
                continue
            side = first[cell]
            if side not in moves:
                continue
            v, why = cell_value(ctx, cell)
            if v <= 0:
                continue
            score = v * reach_factor(ctx, cost) - MOVE_COST * cost
            if side not in remote or score > remote[side][0]:
                remote[side] = (score, moves[side], why)
        for side, opt in explore_options(ctx, moves).items():
            if side not in remote or opt[0] > remote[side][0]:
                remote[side] = opt
    return local, sorted(remote.values(), key=lambda o: -o[0])


def plan(ctx: Ctx) -> Choice | None:
    """The best use of the Moves left: a local action here, or the first step toward the best goal."""
    me = ctx.me
    if me.level >= MAX_LEVEL:
        # a lost boss fight costs a kill, and kills run out: with nobody about to overtake it, the hero
        # gathers strength (and cards for the fight) until the odds are good or it holds three such cards
        odds = boss_odds(ctx) if ctx.p.boss_ready else 1.0
        if odds >= ctx.p.boss_ready or rivals_close(ctx) or boss_cards(ctx) >= 3 or ctx.s.round > 40:
            return (final_dash(ctx) if ctx.p.dash else None) or go_home(ctx)
        gather = _plan(ctx)
        if gather is not None and gather.action.kind in ("move", "search", "pickup", "deal", "challenge"):
            return Choice(gather.action, f"{gather.why}: gathering strength before the final fight")
        end = ctx.has("end")
        if end and (me.x, me.y) != (0, 0):
            return Choice(end[0], f"Level 10 waits: {odds:.0%} against the boss, and nobody else is close")
        return go_home(ctx)
    return _plan(ctx)


def boss_odds(ctx: Ctx) -> float:
    """The hero's chance against the boss now, counting its one-shots, its minus cards and the table's
    likely cards."""
    t, me = ctx.t, ctx.me
    minus = sum(
        -t.dxm[u].amount
        for u in me.hand
        if t.deck_of[u] == DXM and t.dxm[u].kind == "enhancer" and t.dxm[u].amount < 0
    )
    strength = hero_strength(t, me) + ctx.cached("boost", lambda: oneshot_boost(ctx))[0] + minus
    return p_win(round(strength - BOSS_LEVEL - expected_interference(ctx, boss=True)))


def boss_cards(ctx: Ctx) -> int:
    """Cards in hand that help against the boss (minus cards, bonus one-shots, dice tricks)."""
    t = ctx.t
    n = 0
    for u in ctx.me.hand:
        if t.deck_of[u] == DXM:
            d = t.dxm[u]
            n += (d.kind == "enhancer" and d.amount < 0) or d.kind == "dice"
        elif t.deck_of[u] == TREASURE:
            n += t.treasure[u].kind == "oneshot" and t.treasure[u].use == "bonus"
    return n


def rivals_close(ctx: Ctx) -> bool:
    """A rival one kill from the final fight (or in it) who still has a realistic way to get there."""
    return any(
        h.level >= MAX_LEVEL or (h.level >= MAX_LEVEL - 1 and hope(ctx, h.seat) >= RIVAL_HOPE)
        for h in ctx.s.heroes
        if h.seat != ctx.seat
    )


def _plan(ctx: Ctx) -> Choice | None:
    me = ctx.me
    local, remotes = move_options(ctx)
    best_local = max(local, key=lambda o: o[0]) if local else None
    remote = remotes[0] if remotes else None
    # a local action first, unless it costs the Move that the better goal needs this turn
    if (
        best_local is not None
        and best_local[0] > 0
        and (remote is None or best_local[0] >= remote[0] or me.moves - 1 >= _needed(ctx, remote[1]))
    ):
        return Choice(best_local[1], best_local[2])
    if remote is not None and remote[0] > 0:
        return Choice(remote[1], remote[2])
    return more_moves(ctx)


def _needed(ctx: Ctx, a: Action) -> int:
    if a.kind != "move":
        return 0
    kind = ctx.s.edges.get(edge_key(ctx.me.x, ctx.me.y, a.a))
    return ctx.t.content.tables.move_cost.get(kind or "", 3) + leave_cost(ctx, (ctx.me.x, ctx.me.y))


def moves_cards(ctx: Ctx) -> list[tuple[int, Action]]:
    """The Moves cards the hero can play now, with the Moves each gives."""
    t = ctx.t
    out: list[tuple[int, Action]] = []
    for a in ctx.has("play"):
        if t.deck_of[a.a] == DXM and t.dxm[a.a].kind == "moves":
            out.append((t.dxm[a.a].amount, a))
        elif t.deck_of[a.a] == TREASURE and t.treasure[a.a].use == "moves":
            out.append((t.treasure[a.a].amount, a))
    return out


def final_dash(ctx: Ctx) -> Choice | None:
    """Level 10 and the Entrance out of reach this turn: play Moves cards if they bring it in reach, so
    the others get no turn to curse the hero back down."""
    me = ctx.me
    if me.explored or (me.x, me.y) == (0, 0):
        return None
    need = distance_home(ctx)
    if need <= me.moves or need >= 99:
        return None
    cards = moves_cards(ctx)
    if cards and me.moves + sum(n for n, _ in cards) >= need:
        n, a = max(cards, key=lambda c: c[0])
        return Choice(a, f"plays {ctx.t.names[a.a]} (+{n} Moves) to reach the Entrance this turn")
    return None


def more_moves(ctx: Ctx) -> Choice | None:
    """Play a Moves card when the hero is out of Moves but a goal is in reach."""
    me = ctx.me
    if me.moves > 0 or me.explored:
        return None
    if ctx.p.dash and me.level >= MAX_LEVEL - 2:
        return None  # kept for the dash to the Entrance
    cards = moves_cards(ctx)
    room = room_at(ctx.s, me.x, me.y)
    # worth it if the room here still offers something
    if cards and room is not None and (room.piles or (room.room != ENTRANCE and room.searched < 2)):
        a = cards[0][1]
        return Choice(a, f"plays {ctx.t.names[a.a]} for more Moves")
    return None


def go_home(ctx: Ctx) -> Choice | None:
    """Level 10: to the Entrance by the shortest path, around monsters where that is not much longer."""
    me = ctx.me
    moves = {a.a: a for a in ctx.has("move")}
    if not moves:
        return None
    dist, first = paths(ctx, avoid_fights=True)
    if (0, 0) in dist and first.get((0, 0)) in moves:
        return Choice(moves[first[(0, 0)]], f"Level {me.level}: heads for the Entrance and the final fight")
    return None


def cell_value(ctx: Ctx, cell: Cell) -> tuple[float, str]:
    """What the hero would do in a placed room it can reach, and what that is worth."""
    s = ctx.s
    foes = hostile_at(ctx, cell)
    room = room_at(s, *cell)
    assert room is not None
    name = room_def(ctx.t, room).name
    if foes:
        ev, p = fight_ev(ctx, foes, room_rules_at(ctx.t, s, *cell))
        if ev < ctx.p.fight_floor:
            return -1.0, ""
        names = " and ".join(d.name for d in foes)
        return ev, f"goes after {names} in {name} (wins {p:.0%})"
    v = 0.0
    why = ""
    if room.piles:
        pile = max(sum(ctx.value(u) for u in pile) for pile in room.piles)
        if pile > v:
            v, why = pile, f"goes to pick up the loot in {name}"
    deal = deal_value(ctx, room.room)
    if deal > v:
        v, why = deal, f"goes to the Deal in {name}"
    for m in monsters_in(ctx, cell):
        ev, p = fight_ev(ctx, [ctx.t.monster[m.card]], room_rules_at(ctx.t, s, *cell))
        if ev > v + 0.05:
            v, why = ev, f"goes to challenge {ctx.t.monster[m.card].name} (wins {p:.0%})"
    search = search_value(ctx, room.room, room.searched)
    if search > v and not why:
        v, why = search * 0.9, f"goes to search {name}"
    explore = frontier_value(ctx, cell)
    if explore > v:
        v, why = explore, f"heads for unexplored space past {name}"
    return v, why


def frontier_value(ctx: Ctx, cell: Cell) -> float:
    s = ctx.s
    if not s.tiles:
        return 0.0
    for side in range(4):
        kind = s.edges.get(edge_key(cell[0], cell[1], side))
        if kind is None or kind == "wall":
            continue
        if cell_key(cell[0] + DX[side], cell[1] + DY[side]) not in s.grid:
            return explore_ev(ctx) - 0.05 * ctx.t.content.tables.move_cost.get(kind, 3)
    return 0.0


def local_options(ctx: Ctx) -> list[Option]:
    t, s, me = ctx.t, ctx.s, ctx.me
    out: list[Option] = []
    room = room_at(s, me.x, me.y)
    assert room is not None
    rdef = room_def(t, room)
    for a in ctx.has("pickup"):
        pile = room.piles[a.a]
        v = sum(ctx.value(u) for u in pile) - 0.05
        out.append((v, a, f"picks up {', '.join(t.names[u] for u in pile)}"))
    deals = ctx.has("deal")
    if deals:
        deal = rdef.deal
        assert deal is not None
        if deal.kind == "sell":
            for a in deals:
                out.append(sell_value(ctx, a, deal.amount))
        elif deal.kind == "swap_card":
            worst = min(deals, key=lambda a: ctx.value(a.a))
            out.append(
                (DXM_VALUE - ctx.value(worst.a) - 0.05, worst, f"swaps {t.names[worst.a]} at {rdef.name}")
            )
        else:
            v = deal_value(ctx, room.room)
            out.append((v, deals[0], f"takes the Deal of {rdef.name}"))
    for a in ctx.has("search"):
        v = search_value(ctx, room.room, room.searched)
        out.append((v, a, f"searches {rdef.name}"))
    for a in ctx.has("challenge"):
        m = next(m for m in s.monsters if m.id == a.a)
        d = t.monster[m.card]
        ev, p = fight_ev(ctx, [d], rdef.rules)
        out.append((ev, a, f"challenges {d.name} (wins {p:.0%})"))
    return out


def sell_value(ctx: Ctx, a: Action, percent: int) -> tuple[float, Action, str]:
    t, me = ctx.t, ctx.me
    item = t.treasure[a.a]
    gold = item.gold * (percent + power_total(t, me, "sell_bonus")) // 100
    # gold counts for more when it completes a level
    worth = gold * GOLD_VALUE
    if me.gold < LEVEL_PRICE <= me.gold + gold and me.level < MAX_LEVEL - 1:
        worth += 0.3
    return worth - ctx.value(a.a) - 0.05, a, f"sells {item.name} for {gold} gold"


def deal_value(ctx: Ctx, room_index: int) -> float:
    """The value of a Deal (not selling or swapping) to the hero, net of its price."""
    if room_index == ENTRANCE:
        return 0.0
    t, me = ctx.t, ctx.me
    deal = t.content.rooms[room_index].deal
    if deal is None:
        return 0.0
    k = deal.kind
    price = deal.price
    if me.gold < price:
        return 0.0
    cost = price * GOLD_VALUE
    if me.gold - price < LEVEL_PRICE <= me.gold and me.level < MAX_LEVEL - 1:
        cost += 0.4  # would spoil buying a level
    gives = deal.gift
    if k == "shrine" and deal.who and deal.who not in identity(t, me):
        return 0.0
    if k in ("sell", "swap_card"):
        return 0.0
    if gives == "life":
        if me.life >= me.max_life:
            return 0.0
        return LIFE_COST.get(me.life + 1, 0.25) * 1.6 + (1.2 if me.life == 1 else 0.0) - cost
    if gives == "treasure":
        return deal.amount * treasure_worth(ctx) - cost
    return deal.amount * DXM_VALUE - cost


def search_value(ctx: Ctx, room_index: int, searched: int) -> float:
    if room_index == ENTRANCE or searched >= 2:
        return -1.0
    t, me = ctx.t, ctx.me
    mods = t.room(room_index).search + power_total(t, me, "search_bonus") - (2 if searched else 0)
    return ctx.cached(("search", mods), lambda: _search_value(ctx, mods))


def _search_value(ctx: Ctx, mods: int) -> float:
    t = ctx.t
    v = 0.0
    tw = treasure_worth(ctx)
    for die in range(1, 11):
        total = die + mods
        row = next(r for r in t.content.tables.search if r.low <= total <= r.high)
        if row.result == "monster":
            v += explore_ev(ctx) - DXM_VALUE - 0.1
        v += row.gold * GOLD_VALUE + row.treasures * tw
    return v / 10 - 0.08


def explore_options(ctx: Ctx, moves: dict[int, Action]) -> dict[int, Option]:
    s, me = ctx.s, ctx.me
    out: dict[int, Option] = {}
    if not s.tiles:
        return out
    for side, a in moves.items():
        if cell_key(me.x + DX[side], me.y + DY[side]) in s.grid:
            continue
        ev = explore_ev(ctx) - 0.05 * (_needed(ctx, a) - 1)
        out[side] = (ev, a, f"explores {'NESW'[side]} (expects {ev:+.1f})")
    return out


def explore_ev(ctx: Ctx) -> float:
    """The expected value of exploring: a DxM card, and a fight with a monster from the unseen ones."""
    if ctx._explore is not None:
        return ctx._explore
    t, me = ctx.t, ctx.me
    pool = ctx.unseen[MONSTER] or [m for m in ctx.s.monster_discard]
    total = 0.0
    by_def: dict[str, tuple[MonsterDef, int]] = {}
    for uid in pool:
        d = t.monster[uid]
        prev = by_def.get(d.id)
        by_def[d.id] = (d, (prev[1] if prev else 0) + 1)
    n = sum(c for _, c in by_def.values()) or 1
    for d, count in by_def.values():
        if me.level <= d.ignores:
            v = 0.05
        else:
            v, _ = fight_ev(ctx, [d], ())
        total += v * count
    ctx._explore = DXM_VALUE + total / n
    return ctx._explore
