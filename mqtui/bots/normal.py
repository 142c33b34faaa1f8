"""The normal bot: a sound heuristic player that reads only its seat's view.

Every decision is one step of a plan made afresh from the view: build the hero (best legal gear, the
race and class that help), then spend Moves on what is worth most (a fight it can win, exploring, a
pile of loot, a Deal, a search), and end the turn when nothing useful remains. In fights it weighs the
odds from the dice (counting the interference it expects) against what winning and losing are worth;
it interferes only against players who threaten to win; it helps only when it pays.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import msgspec

from mqtui.bots import Choice
from mqtui.bots.eval import (
    DXM_VALUE,
    GEAR_VALUE,
    GOLD_VALUE,
    TREASURE_VALUE,
    best_loadout,
    card_value,
    gear_score,
    hero_strength,
    item_score,
    monster_dice,
    monster_strength,
    p_win,
    room_rules_at,
    wins_ties,
)
from mqtui.bots.knowledge import unseen_cards
from mqtui.engine.actions import Action
from mqtui.engine.board import ENTRANCE, monsters_at, room_at, room_def
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.combat import (
    BOSS_LEVEL,
    ESCAPE_ON,
    die_total,
    fight_monsters,
    fighters,
    hero_terms,
    ignores,
    monster_terms,
    room_rules,
)
from mqtui.engine.defs import Effect, MonsterDef, Power
from mqtui.engine.game import Engine
from mqtui.engine.heroes import HAND_LIMIT, MAX_LEVEL, carried, has_power, identity, power_total
from mqtui.engine.legal import LEVEL_PRICE
from mqtui.engine.state import (
    ACT,
    CHARITY,
    DX,
    DY,
    FLEE,
    INVITE,
    LOSE_ITEM,
    REWARD,
    SETUP,
    WINDOW,
    Combat,
    Hero,
    State,
    cell_key,
    edge_key,
)

Cell = tuple[int, int]
T = TypeVar("T")

POWER_VALUES: dict[str, float] = {
    "combat_bonus": 0.45,  # per point
    "bonus_vs_tag": 0.1,
    "escape_bonus": 0.12,
    "win_ties": 0.3,
    "extra_moves": 0.35,
    "search_bonus": 0.05,
    "sell_bonus": 0.002,
    "carry_big": 0.12,
    "backpack": 0.1,
    "d10_escape": 0.25,
    "d10_heal": 0.3,
    "d10_treasure": 0.3,
}
FLAT_POWERS = ("win_ties", "d10_escape", "d10_heal", "d10_treasure")
LIFE_COST = {4: 0.25, 3: 0.35, 2: 0.6}  # losing one Life from this many (1: death, costed apart)
MOVE_COST = 0.06  # a Move spent on the way somewhere
TURN_DISCOUNT = 0.8  # a goal one turn further away is worth this much
TENTH_LEVEL = 4.0  # Level 10 opens the final fight: worth far more than a level
HOPE_MARGIN = 3  # a room's monsters count as a fight the hero could win up to this much stronger
HOPE_FIGHTS = 1.0  # fights left per hero that make a full hope
HOPE_POWER = 2.0  # hope falls off steeply as the fights run out
RIVAL_HOPE = 0.25  # a Level 9 rival with this much hope is close enough to hurry for the boss


@dataclass
class Params:
    """Knobs of the heuristic (the hard bot and the tuning runs change them)."""

    fight_floor: float = 0.05  # least expected value for walking into a fight
    interfere: float = 1.0  # weight of an opponent's progress when deciding to interfere
    help_margin: float = 0.05  # least expected value for accepting to help
    leader_fear: float = 1.0  # how much interference the bot expects when it leads
    curse_floor: float = 0.15  # least value (to the bot) for playing a curse at once
    boss_ready: float = 0.7  # at Level 10, gather strength until the boss odds reach this (0: go at once)
    dash: bool = False  # keep Moves cards from Level 8 on, for reaching the Entrance the turn it hits 10


@dataclass
class Ctx:
    """One decision: the view, the seat, the legal actions, and memoised facts about the hero."""

    t: CardTable
    s: State
    seat: int
    legal: list[Action]
    p: Params
    me: Hero = field(init=False)
    by_kind: dict[str, list[Action]] = field(init=False)
    _loadout: frozenset[int] | None = None
    _unseen: dict[str, list[int]] | None = None
    _explore: float | None = None
    memo: dict[object, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.me = self.s.heroes[self.seat]
        self.by_kind = {}
        for a in self.legal:
            self.by_kind.setdefault(a.kind, []).append(a)

    def has(self, kind: str) -> list[Action]:
        return self.by_kind.get(kind, [])

    @property
    def loadout(self) -> frozenset[int]:
        if self._loadout is None:
            self._loadout = best_loadout(self.t, self.me)[0]
        return self._loadout

    @property
    def unseen(self) -> dict[str, list[int]]:
        if self._unseen is None:
            self._unseen = unseen_cards(self.t, self.s, self.seat)
        return self._unseen

    def value(self, uid: int) -> float:
        return card_value(self.t, self.me, uid, self.loadout)

    def cached(self, key: object, make: Callable[[], T]) -> T:
        """Memoise a fact for the length of this decision."""
        if key in self.memo:
            return self.memo[key]  # type: ignore[return-value]
        value = make()
        self.memo[key] = value
        return value


class NormalBot:
    kind = "normal"
    needs_view = True

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        self.seed = seed
        self.params = params or Params()

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        assert view is not None, "the normal bot needs the seat's view"
        return decide(engine.cards, view, seat, legal, self.params)


def decide(t: CardTable, s: State, seat: int, legal: list[Action], params: Params | None = None) -> Choice:
    """The normal policy on a view (or on a sampled full state, inside the hard bot's rollouts)."""
    if len(legal) == 1:
        return Choice(legal[0])
    ctx = Ctx(t, s, seat, legal, params or Params())
    kind = s.frames[-1].kind
    handler = HANDLERS.get(kind)
    choice = handler(ctx) if handler else None
    if choice is None or choice.action not in legal:
        fallback = next((a for a in legal if a.kind in ("end", "pass", "done", "decline")), legal[0])
        return Choice(fallback)
    return choice


# -- building the hero ---------------------------------------------------------------------------


def power_value(powers: tuple[Power, ...]) -> float:
    return sum(POWER_VALUES.get(p.kind, 0.0) * (1 if p.kind in FLAT_POWERS else p.amount) for p in powers)


def identity_score(t: CardTable, hero: Hero) -> float:
    v = GEAR_VALUE * best_loadout(t, hero)[1]
    for r in hero.races:
        v += power_value(t.content.races[t.dxm[r].race].powers)
    for c in hero.classes:
        v += power_value(t.content.classes[t.dxm[c].klass].powers)
    return v


def after_identity(t: CardTable, hero: Hero, uid: int) -> Hero:
    """The hero as it would be after playing race/class card ``uid`` (as the engine's ``_do_play``)."""
    d = t.dxm[uid]
    hand = [u for u in hero.hand if u != uid]
    if d.kind == "race":
        races = [*hero.races, uid] if hero.half_breed >= 0 and len(hero.races) < 2 else [uid]
        return msgspec.structs.replace(hero, races=races, hand=hand)
    classes = [*hero.classes, uid] if hero.super_munchkin >= 0 and len(hero.classes) < 2 else [uid]
    return msgspec.structs.replace(hero, classes=classes, hand=hand)


def build(ctx: Ctx) -> Choice | None:
    """Free improvements of the hero: identity cards, gear, belt, levels. None when there are none."""
    t, me = ctx.t, ctx.me
    now = None
    for a in ctx.has("play"):
        if t.deck_of[a.a] != DXM:
            continue
        d = t.dxm[a.a]
        if d.kind in ("half_breed", "super_munchkin"):
            return Choice(a, f"plays {d.name} to keep two {'races' if d.kind == 'half_breed' else 'classes'}")
        if d.kind in ("race", "class"):
            now = identity_score(t, me) if now is None else now
            gain = identity_score(t, after_identity(t, me, a.a)) - now
            if gain > 0.05:
                return Choice(a, f"becomes {d.name.split(' (')[0]}: +{gain:.1f} in strength and powers")
    gear = equip_step(ctx)
    if gear is not None:
        return gear
    for a in ctx.has("belt"):
        return Choice(a)
    for a in ctx.has("play"):
        if _is_level_card(t, a.a):
            return Choice(a, f"plays {t.names[a.a]} for a level")
    if ctx.has("buylevel"):
        return Choice(ctx.has("buylevel")[0], f"buys a level for {LEVEL_PRICE} gold")
    return None


def _is_level_card(t: CardTable, uid: int) -> bool:
    if t.deck_of[uid] == DXM:
        return t.dxm[uid].kind == "level"
    return t.treasure[uid].kind == "level"


def equip_step(ctx: Ctx) -> Choice | None:
    """One step toward the best loadout: equip what belongs in it, stowing what blocks it."""
    t, me = ctx.t, ctx.me
    want = ctx.loadout
    equips = {a.a: a for a in ctx.has("equip")}
    missing = sorted((u for u in want if u not in me.equipped), key=lambda u: -item_score(t.treasure[u]))
    for u in missing:
        if u in equips:
            return Choice(equips[u], f"equips {t.names[u]} (+{item_score(t.treasure[u]):g})")
    stows = {a.a: a for a in ctx.has("stow")}
    for u in missing:
        slot = t.treasure[u].slot
        for e in me.equipped:
            if e in want:
                continue
            es = t.treasure[e].slot
            blocks = es == slot or (slot in ("hand", "two_hands") and es in ("hand", "two_hands"))
            if blocks and e in stows:
                return Choice(stows[e], f"stows {t.names[e]} to make room for {t.names[u]}")
    return None


# -- the action phase ------------------------------------------------------------------------------


def act(ctx: Ctx) -> Choice | None:
    me = ctx.me
    built = build(ctx)
    if built is not None:
        return built
    quick = quick_plays(ctx)
    if quick is not None:
        return quick
    goal = plan(ctx)
    if goal is not None:
        return goal
    tidy = tidy_hand(ctx)
    if tidy is not None:
        return tidy
    end = ctx.has("end")
    if end:
        # worth a line only when Moves are left unused
        why = f"ends the turn with {me.moves} Move{'s' if me.moves != 1 else ''} left: nothing worth it"
        return Choice(end[0], why if me.moves > 0 and not me.explored else "")
    return None


def quick_plays(ctx: Ctx) -> Choice | None:
    """Cards worth playing at once on the hero's turn: heals, curses on the leader, teleports home."""
    t, s, me = ctx.t, ctx.s, ctx.me
    for a in ctx.has("play"):
        if t.deck_of[a.a] == TREASURE:
            item = t.treasure[a.a]
            if item.use == "heal" and me.life <= me.max_life - max(1, item.amount) + (
                1 if me.life <= 2 else 0
            ):
                return Choice(a, f"drinks {item.name} ({me.life}/{me.max_life} Life)")
    if me.level >= MAX_LEVEL and (me.x, me.y) != (0, 0):
        for a in ctx.has("teleport"):
            if (a.b, a.c) == (0, 0) and distance_home(ctx) > max(me.moves, 1):
                return Choice(a, "teleports to the Entrance for the final fight")
    curses = ctx.has("curse")
    if curses:
        best = max(curses, key=lambda a: curse_value(ctx, a))
        if curse_value(ctx, best) > ctx.p.curse_floor:
            d = t.dxm[best.a]
            return Choice(
                best, f"curses {s.heroes[best.b].name}, who {_leads_words(ctx, best.b)}, with {d.name}"
            )
    return None


def _leads_words(ctx: Ctx, seat: int) -> str:
    h = ctx.s.heroes[seat]
    top = max(o.level for o in ctx.s.heroes)
    return f"leads at Level {h.level}" if h.level == top else f"is Level {h.level}"


def threat(s: State, seat: int, other: int) -> float:
    """How much ``seat`` wants to stop ``other`` getting ahead: 0 (harmless) to 1 (about to win)."""
    o = s.heroes[other]
    if o.level >= MAX_LEVEL - 1:
        return 1.0
    top = max(h.level for h in s.heroes)
    me = s.heroes[seat].level
    base = max(0.0, (o.level - 3) / 6)
    if o.level >= top:
        base += 0.15
    if o.level > me:
        base += 0.1 * (o.level - me)
    return min(1.0, base)


def hope(ctx: Ctx, seat: int) -> float:
    """Whether ``seat`` still has a realistic path to win, 0 to 1, from public facts: a Level 10 hero
    has one; below that it needs a kill, so it counts the fights the dungeon can still give it (rooms
    left to explore, rooms whose monsters it could beat without help, a wandering monster now and then
    from a search). Stopping a rival is worth only as much as the stopper's own hope: once a player
    cannot win the race any more, its cards only drag the game on (and it lets the leader through)."""
    return ctx.cached(("hope", seat), lambda: _hope(ctx, seat))


def _hope(ctx: Ctx, seat: int) -> float:
    t, s = ctx.t, ctx.s
    hero = s.heroes[seat]
    if hero.level >= MAX_LEVEL:
        return 1.0
    fights = float(len(s.tiles))
    strength = hero_strength(t, hero)
    rooms: dict[Cell, list[MonsterDef]] = {}
    for m in s.monsters:
        rooms.setdefault((m.x, m.y), []).append(t.monster[m.card])
    for foes in rooms.values():
        if strength - monster_strength(t, foes, [hero]) >= -HOPE_MARGIN:
            fights += 1.0
    for r in s.rooms:
        if r.room != ENTRANCE and r.searched < 2:
            mod = t.room(r.room).search
            # a wandering monster on a d10 roll of 1 or less, after the room's modifiers (-2 once ransacked)
            fights += sum(min(10, max(0, 1 - mod + 2 * k)) / 10 for k in range(r.searched, 2))
    share = fights / (HOPE_FIGHTS * len(s.heroes))  # the fights are shared out round the table
    return float(min(1.0, share) ** HOPE_POWER)


def curse_value(ctx: Ctx, a: Action) -> float:
    t, s = ctx.t, ctx.s
    victim = s.heroes[a.b]
    hurt = sum(effect_cost(t, victim, e, own=False) for e in t.dxm[a.a].effects)
    return hurt * (0.3 + threat(s, ctx.seat, a.b) * hope(ctx, ctx.seat)) - 0.3


def tidy_hand(ctx: Ctx) -> Choice | None:
    """Before ending the turn over the hand limit: stow spare gear, use spare Move cards."""
    t, me = ctx.t, ctx.me
    if len(me.hand) <= HAND_LIMIT:
        return None
    free = len(ctx.has("stow")) and (len(me.backpack) + 1 < 2 + power_total(t, me, "backpack"))
    if free:
        spare = [a for a in ctx.has("stow") if a.a in me.hand]
        if spare:
            best = max(spare, key=lambda a: ctx.value(a.a))
            return Choice(best, f"stows {t.names[best.a]} in the backpack")
    for a in ctx.has("play"):
        if t.deck_of[a.a] == DXM and t.dxm[a.a].kind == "moves":
            return Choice(a)
    return None


# -- movement planning ------------------------------------------------------------------------------


def hostile_at(ctx: Ctx, cell: Cell) -> list[MonsterDef]:
    t, me = ctx.t, ctx.me
    return [t.monster[m.card] for m in monsters_at(ctx.s, *cell) if not ignores(t, m, me)]


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
    extra = more_moves(ctx)
    if extra is not None:
        return extra
    return None


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
    for m in monsters_at(s, *cell):
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
    gives = {"buy_treasure": "treasure", "buy_dxm": "dxm", "heal": "life"}.get(k, deal.gives)
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


def treasure_worth(ctx: Ctx) -> float:
    """An unknown Treasure card: worth more while the hero's gear is thin."""
    g = ctx.cached("gear", lambda: gear_score(ctx.t, ctx.me))
    return TREASURE_VALUE + max(0.0, 0.35 - 0.03 * g)


def search_value(ctx: Ctx, room_index: int, searched: int) -> float:
    if room_index == ENTRANCE or searched >= 2:
        return -1.0
    t, me = ctx.t, ctx.me
    mods = t.room(room_index).search + power_total(t, me, "search_bonus") - (2 if searched else 0)
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


# -- fights --------------------------------------------------------------------------------------------


def expected_interference(ctx: Ctx, boss: bool = False) -> float:
    """Monster strength the hero expects opponents to add to its fight."""
    return ctx.cached(("interference", boss), lambda: _expected_interference(ctx, boss))


def _expected_interference(ctx: Ctx, boss: bool) -> float:
    s, seat = ctx.s, ctx.seat
    unseen = ctx.unseen
    pos = [
        ctx.t.dxm[u].amount
        for u in unseen[DXM]
        if ctx.t.dxm[u].kind == "enhancer" and ctx.t.dxm[u].amount > 0
    ]
    hidden = len(unseen[DXM]) + len(unseen[TREASURE]) or 1
    share = len(pos) / hidden
    avg = sum(pos) / len(pos) if pos else 0.0
    e = 0.0
    for h in s.heroes:
        if h.seat == seat:
            continue
        cards = len(h.hand) * share
        want = 1.0 if boss else min(1.0, 1.6 * threat(s, h.seat, seat) - 0.3)
        want *= hope(ctx, h.seat)
        e += cards * avg * max(0.0, want)
    return e * ctx.p.leader_fear


def win_value(ctx: Ctx, foes: list[MonsterDef], hero: Hero | None = None) -> float:
    hero = hero or ctx.me
    levels = sum(d.levels for d in foes)
    v = 0.0
    for i in range(levels):
        lvl = hero.level + i
        if lvl >= MAX_LEVEL:
            break
        v += TENTH_LEVEL if lvl + 1 == MAX_LEVEL else 1.0
    return v + sum(d.treasures for d in foes) * treasure_worth(ctx)


def loss_cost(
    ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...] = (), hero: Hero | None = None
) -> float:
    hero = hero or ctx.me
    key = ("loss", hero.seat, tuple(d.id for d in foes), tuple(rules))
    return ctx.cached(key, lambda: _loss_cost(ctx, foes, rules, hero))


def _loss_cost(ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...], hero: Hero) -> float:
    t = ctx.t
    if hero.life <= 1:
        return death_cost(ctx, hero)
    cost = LIFE_COST.get(hero.life, 0.25)
    escape = power_total(t, hero, "escape_bonus") + sum(
        getattr(r, "amount", 0) for r in rules if getattr(r, "kind", "") == "escape_bonus"
    )
    p_fail = min(1.0, max(0.0, (ESCAPE_ON - 1 - escape) / 6))
    if has_power(t, hero, "d10_escape"):
        p_fail *= 1 - min(hero.level, 10) / 10
    for d in foes:
        cost += p_fail * sum(
            ctx.cached(
                ("effect", hero.seat, e),
                lambda e=e: effect_cost(t, hero, e, own=True, life=hero.life - 1),  # type: ignore[misc]
            )
            for e in d.bad_stuff
        )
    return cost


def death_cost(ctx: Ctx, hero: Hero) -> float:
    t = ctx.t
    loadout = ctx.loadout if hero is ctx.me else None
    gear = sum(card_value(t, hero, u, loadout) for u in carried(hero))
    return 0.7 * gear + (1.0 if hero.level > 1 else 0.0) + 0.4 - 2 * DXM_VALUE - 2 * TREASURE_VALUE + 1.2


def effect_cost(t: CardTable, hero: Hero, e: Effect, own: bool, life: int | None = None) -> float:
    """What one Bad Stuff or curse effect costs ``hero``, in level units."""
    k = e.kind
    if k == "lose_levels":
        return min(e.amount, hero.level - 1) * 1.0
    if k == "lose_slot":
        if e.slot == "hand":
            items = [u for u in hero.equipped if t.treasure[u].slot in ("hand", "two_hands")]
        elif e.slot == "big":
            items = [u for u in hero.equipped if t.treasure[u].big]
        else:
            items = [u for u in hero.equipped if t.treasure[u].slot == e.slot]
        return 0.3 + GEAR_VALUE * item_score(t.treasure[items[0]]) if items else 0.0
    if k == "lose_item":
        things = carried(hero)
        if not things:
            return 0.0
        loadout = best_loadout(t, hero)[0]
        values = sorted(card_value(t, hero, u, loadout) for u in things)
        return sum(values[: e.amount])
    if k == "lose_gold":
        return min(hero.gold, e.amount) * GOLD_VALUE
    if k == "lose_race":
        return 0.3 if hero.races else 0.0
    if k == "lose_class":
        return 0.4 if hero.classes else 0.0
    if k == "lose_moves":
        return 0.08 * e.amount
    if k == "discard_cards":
        return 0.3 * min(e.amount, len(hero.hand))
    if k == "lose_life":
        left = hero.life if life is None else life
        if left - e.amount <= 0:
            return 2.0 + 0.5 * gear_score(t, hero) * GEAR_VALUE
        return 0.4 * e.amount
    if k == "to_entrance":
        return -0.5 if hero.level >= MAX_LEVEL else 0.3
    if k == "death":
        return 2.0 + GEAR_VALUE * gear_score(t, hero)
    return 0.0


def fight_ev(ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...]) -> tuple[float, float]:
    """(expected value, chance to win) of fighting ``foes`` in a room with ``rules`` now."""
    key = ("fight", tuple(d.id for d in foes), tuple(rules))
    return ctx.cached(key, lambda: _fight_ev(ctx, foes, rules))


def _fight_ev(ctx: Ctx, foes: list[MonsterDef], rules: tuple[object, ...]) -> tuple[float, float]:
    t, me = ctx.t, ctx.me
    tags = {tag for d in foes for tag in d.tags}
    rr = tuple(r for r in rules if hasattr(r, "kind"))
    h = hero_strength(t, me, tags, rr)  # type: ignore[arg-type]
    m = monster_strength(t, foes, [me], rr)  # type: ignore[arg-type]
    dice = monster_dice(rr)  # type: ignore[arg-type]
    ties = wins_ties(t, [me])
    e = expected_interference(ctx)
    p0 = p_win(round(h - m - e), dice, ties)
    boost, cost = ctx.cached("boost", lambda: oneshot_boost(ctx))
    p1 = p_win(round(h + boost - m - e), dice, ties) if boost else p0
    w = win_value(ctx, foes)
    lc = loss_cost(ctx, foes, rr)
    ev0 = p0 * w - (1 - p0) * lc
    ev1 = p1 * w - (1 - p1) * lc - cost * 0.6
    return (ev1, p1) if ev1 > ev0 else (ev0, p0)


def oneshot_boost(ctx: Ctx) -> tuple[int, float]:
    t, me = ctx.t, ctx.me
    bonus, cost = 0, 0.0
    for u in [*me.belt, *me.hand]:
        if t.deck_of[u] == TREASURE and t.treasure[u].kind == "oneshot" and t.treasure[u].use == "bonus":
            bonus += t.treasure[u].bonus
            cost += ctx.value(u)
    return bonus, cost


# -- combat windows ----------------------------------------------------------------------------------


@dataclass
class FightView:
    c: Combat
    h: int  # hero side strength before dice
    m: int  # monster side
    dice: int
    ties: bool
    foes: list[MonsterDef]
    tags: set[str]


def fight_view(ctx: Ctx) -> FightView:
    t, s = ctx.t, ctx.s
    c = s.combat
    assert c is not None
    h = sum(v for _, v in hero_terms(t, s, c))
    m = sum(v for _, v in monster_terms(t, s, c))
    rules = room_rules(t, s, c)
    foes = [t.monster[x.card] for x in fight_monsters(s, c)]
    tags = {tag for d in foes for tag in d.tags}
    return FightView(c, h, m, monster_dice(rules), wins_ties(t, fighters(s, c)), foes, tags)


def stake(ctx: Ctx, fv: FightView, seat: int) -> float:
    """What winning rather than losing this fight is worth to ``seat`` (on the hero side)."""
    s = ctx.s
    hero = s.heroes[seat]
    if fv.c.boss:
        return 30.0 + 1.0
    if seat == fv.c.active:
        return win_value(ctx, fv.foes, hero) + loss_cost(ctx, fv.foes, room_rules(ctx.t, s, fv.c), hero)
    # the helper: its reward and its own loss
    reward = (fv.c.terms_treasures if fv.c.helper == seat else 0) * TREASURE_VALUE
    return reward + loss_cost(ctx, fv.foes, room_rules(ctx.t, s, fv.c), hero)


def window(ctx: Ctx) -> Choice | None:
    s = ctx.s
    f = s.frames[-1]
    fv = fight_view(ctx)
    side = ctx.seat in (fv.c.active, fv.c.helper)
    if f.stage == "post":
        return dice_window(ctx, fv, side)
    if side:
        return own_fight(ctx, fv)
    return interfere(ctx, fv)


def own_fight(ctx: Ctx, fv: FightView) -> Choice | None:
    """Our side of the fight, before the dice: cards and a helper only where they pay."""
    t = ctx.t
    c = fv.c
    margin = fv.h - fv.m
    st = stake(ctx, fv, ctx.seat)
    # what the table may still throw at us: only the part we could not answer any more
    fear = 0.5 * expected_interference(ctx, c.boss) if ctx.seat == c.active else 0.0
    pf = p_win(round(margin - fear), fv.dice, fv.ties)
    best: tuple[float, Choice] | None = None
    for a in ctx.has("use"):
        if a.b != 0:
            continue
        bonus = t.treasure[a.a].bonus
        p1 = p_win(round(margin + bonus - fear), fv.dice, fv.ties)
        gain = (p1 - pf) * st - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"uses {t.names[a.a]} (+{bonus}): win odds {pf:.0%} -> {p1:.0%}"))
    for a in ctx.has("enhance"):
        amount = t.dxm[a.a].amount
        if amount >= 0:
            continue
        gain = (p_win(round(margin - amount - fear), fv.dice, fv.ties) - pf) * st - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"plays {t.names[a.a]} on the monster ({amount:+d})"))
    if ctx.seat == c.active and not c.boss:
        for a in ctx.has("wander"):
            gain = own_wander_gain(ctx, fv, margin - fear) - ctx.value(a.a)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, Choice(a, f"calls {t.names[a.a]} into its own fight for more levels"))
        inv = best_invite(ctx, fv, margin - fear, st)
        if inv is not None and (best is None or inv[0] > best[0]):
            best = inv
    if best is not None:
        return best[1]
    passes = ctx.has("pass")
    return Choice(passes[0], "") if passes else None


def own_wander_gain(ctx: Ctx, fv: FightView, margin: float) -> float:
    """The expected gain of adding a random unseen monster to our own fight."""
    t = ctx.t
    pool = ctx.unseen[MONSTER]
    if not pool:
        return -1.0
    rules = room_rules(t, ctx.s, fv.c)
    base_p = p_win(round(margin), fv.dice, fv.ties)
    w = win_value(ctx, fv.foes)
    lc = loss_cost(ctx, fv.foes, rules)
    now = base_p * w - (1 - base_p) * lc
    total = 0.0
    for uid in pool:
        d = t.monster[uid]
        foes = [*fv.foes, d]
        p = p_win(round(margin - d.level), fv.dice, fv.ties)
        total += p * win_value(ctx, foes) - (1 - p) * loss_cost(ctx, foes, rules)
    return total / len(pool) - now


def helper_strength(ctx: Ctx, fv: FightView, other: Hero) -> int:
    rules = room_rules(ctx.t, ctx.s, fv.c)
    extra = monster_strength(ctx.t, fv.foes, [ctx.me, other], ()) - monster_strength(
        ctx.t, fv.foes, [ctx.me], ()
    )
    return hero_strength(ctx.t, other, fv.tags, rules) - extra


def best_invite(ctx: Ctx, fv: FightView, margin: float, st: float) -> tuple[float, Choice] | None:
    """The invitation most worth making, if any: the helper who adds most, at terms it would take."""
    s = ctx.s
    invites = ctx.has("invite")
    if not invites:
        return None
    p0 = p_win(round(margin), fv.dice, fv.ties)
    if p0 > 0.9:
        return None
    total_tr = sum(d.treasures for d in fv.foes)
    best: tuple[float, Choice] | None = None
    for a in invites:
        other = s.heroes[a.a]
        n, gold = a.b % 10, a.c
        if a.b >= 10:
            continue  # first pick costs the best card: never offered
        add = helper_strength(ctx, fv, other)
        p1 = p_win(round(margin + add), fv.dice, fv.ties)
        if not would_accept(ctx, fv, other, n, gold, p1):
            continue
        # the helper takes the cards we like least; the active keeps the level
        price = n * TREASURE_VALUE * 0.8 + gold * GOLD_VALUE + 0.25 * threat(s, ctx.seat, other.seat) * n
        if fv.c.boss:
            price += 20.0 * threat(s, ctx.seat, other.seat)  # a shared win is still a win
        gain = (p1 - p0) * st - price
        if n > total_tr:
            continue
        if gain > 0.05 and (best is None or gain > best[0]):
            terms = f"{n} Treasure{'s' if n != 1 else ''}" if n else ""
            if gold:
                terms += (" and " if terms else "") + f"{gold} gold"
            best = (
                gain,
                Choice(a, f"asks {other.name} to help for {terms or 'nothing'}: {p0:.0%} -> {p1:.0%}"),
            )
    return best


def would_accept(ctx: Ctx, fv: FightView, other: Hero, n: int, gold: int, p1: float) -> bool:
    """Our guess of the invited hero's answer (the normal bot's own rule, from public facts)."""
    active = ctx.s.heroes[fv.c.active]
    if fv.c.boss:
        return p1 > 0.3
    if active.level + sum(d.levels for d in fv.foes) >= MAX_LEVEL:
        return False
    rules = room_rules(ctx.t, ctx.s, fv.c)
    gain = gold * GOLD_VALUE + p1 * n * TREASURE_VALUE
    loss = (1 - p1) * loss_cost(ctx, fv.foes, rules, other)
    levels = sum(d.levels for d in fv.foes)
    rival = p1 * levels * threat(ctx.s, other.seat, active.seat) * ctx.p.interfere
    return gain - loss - rival > 0.05


def interfere(ctx: Ctx, fv: FightView) -> Choice | None:
    """Someone else's fight: make it harder only for a threat, and only when the card matters."""
    t, s = ctx.t, ctx.s
    c = fv.c
    if c.boss:
        weight = 30.0
    else:
        active = s.heroes[c.active]
        levels = sum(d.levels for d in fv.foes)
        weight = threat(s, ctx.seat, c.active) * (levels + 0.3 * sum(d.treasures for d in fv.foes))
        if active.level + levels >= MAX_LEVEL:
            weight += TENTH_LEVEL - 1.0
        weight *= ctx.p.interfere
    weight *= hope(ctx, ctx.seat)
    passes = ctx.has("pass")
    idle = Choice(passes[0], "") if passes else None
    if weight <= 0.05:
        return idle
    margin = fv.h - fv.m
    p = p_win(margin, fv.dice, fv.ties)
    if p < 0.1:
        return idle
    best: tuple[float, Choice] | None = None
    who = s.heroes[c.active].name
    for a in ctx.has("enhance"):
        amount = t.dxm[a.a].amount
        if amount <= 0:
            continue
        drop = p - p_win(margin - amount, fv.dice, fv.ties)
        gain = drop * weight - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (
                gain,
                Choice(a, f"plays {t.names[a.a]} (+{amount}) against {who}: {p:.0%} -> {p - drop:.0%}"),
            )
    for a in ctx.has("use"):
        if a.b != 1:
            continue
        bonus = t.treasure[a.a].bonus
        drop = p - p_win(margin - bonus, fv.dice, fv.ties)
        gain = drop * weight - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"throws {t.names[a.a]} for the monsters against {who}"))
    for a in ctx.has("wander"):
        # a random monster joins: about the average unseen monster level
        pool = ctx.unseen[MONSTER]
        avg = sum(t.monster[u].level for u in pool) / len(pool) if pool else 5.0
        drop = p - p_win(round(margin - avg), fv.dice, fv.ties)
        gain = drop * weight - ctx.value(a.a) - 0.5 * TREASURE_VALUE * p
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"sends a wandering monster into {who}'s fight"))
    if best is not None:
        return best[1]
    return idle


def dice_window(ctx: Ctx, fv: FightView, our_side: bool) -> Choice | None:
    """After the roll: dice cards that flip the result, for us or against a threat."""
    t, s = ctx.t, ctx.s
    c = fv.c
    passes = ctx.has("pass")
    idle = Choice(passes[0], "") if passes else None
    dice_cards = ctx.has("dice")
    if not dice_cards:
        return idle
    h = fv.h + die_total(c, 0)
    m = fv.m + die_total(c, 1)
    won = h > m or (fv.ties and h == m)
    if our_side:
        if won:
            return idle
        weight = stake(ctx, fv, ctx.seat)
        sign = 1.0
    else:
        if not won:
            return idle
        if c.boss:
            weight = 30.0
        else:
            levels = sum(d.levels for d in fv.foes)
            weight = threat(s, ctx.seat, c.active) * (levels + 0.3 * sum(d.treasures for d in fv.foes))
            weight *= ctx.p.interfere
        weight *= hope(ctx, ctx.seat)
        sign = -1.0
    best: tuple[float, Choice] | None = None
    for a in dice_cards:
        d = t.dxm[a.a]
        p_after = _p_after_dice(c, fv, d.action, d.amount, a.b)
        p_now = 1.0 if won else 0.0
        gain = sign * (p_after - p_now) * weight - ctx.value(a.a)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, Choice(a, f"plays {d.name} on the {'heroes' if a.b == 0 else 'monsters'}' die"))
    return best[1] if best else idle


def _p_after_dice(c: Combat, fv: FightView, action: str, amount: int, side: int) -> float:
    h_base = fv.h
    m_base = fv.m
    hd = die_total(c, 0)
    md = die_total(c, 1)
    mods0 = sum(x.amount for x in c.die_mods if x.side == 0)
    mods1 = sum(x.amount for x in c.die_mods if x.side == 1)

    def won(hdie: int, mdie: int) -> bool:
        h, m = h_base + hdie, m_base + mdie
        return h > m or (fv.ties and h == m)

    if action == "reroll":
        if side == 0:
            return sum(won(max(0, r + mods0), md) for r in range(1, 7)) / 6
        n = len(c.monster_dice) or 1
        outcomes = _sums(n)
        return sum(p * won(hd, max(0, total + mods1)) for total, p in outcomes)
    if side == 0:
        return float(won(max(0, c.hero_die + mods0 + amount), md))
    return float(won(hd, max(0, sum(c.monster_dice) + mods1 + amount)))


def _sums(n: int) -> list[tuple[int, float]]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for tot, p in dist.items():
            for d in range(1, 7):
                nxt[tot + d] = nxt.get(tot + d, 0.0) + p / 6
        dist = nxt
    return list(dist.items())


# -- small frames --------------------------------------------------------------------------------------


def invite(ctx: Ctx) -> Choice | None:
    s, me = ctx.s, ctx.me
    f = s.frames[-1]
    c = s.combat
    assert c is not None
    active = s.heroes[c.active]
    accept, decline = ctx.has("accept"), ctx.has("decline")
    if not accept or not decline:
        return None
    fv = fight_view(ctx)
    add = helper_strength(ctx, fv, me)
    p1 = p_win(fv.h + add - fv.m, fv.dice, fv.ties or wins_ties(ctx.t, [me]))
    if c.boss:
        if p1 >= 0.3:
            return Choice(accept[0], f"joins {active.name} against the boss: a shared win ({p1:.0%})")
        return Choice(decline[0], f"won't face the boss with {active.name}: only {p1:.0%}")
    levels = sum(d.levels for d in fv.foes)
    if active.level + levels >= MAX_LEVEL:
        return Choice(decline[0], f"won't help: {active.name} is one level from winning")
    rules = room_rules(ctx.t, s, c)
    gain = f.target * GOLD_VALUE + p1 * f.n * TREASURE_VALUE
    loss = (1 - p1) * loss_cost(ctx, fv.foes, rules)
    rival = p1 * levels * threat(s, ctx.seat, active.seat) * ctx.p.interfere
    net = gain - loss - rival - ctx.p.help_margin
    if net > 0:
        return Choice(
            accept[0], f"helps {active.name} ({p1:.0%} to win, for {f.n} Treasure and {f.target} gold)"
        )
    return Choice(decline[0], f"won't help {active.name}: not worth it ({p1:.0%} to win)")


def reward(ctx: Ctx) -> Choice | None:
    s = ctx.s
    f = s.frames[-1]
    takes = ctx.has("take")
    if not takes:
        return None
    if ctx.seat == f.target:  # our first pick
        best = max(takes, key=lambda a: ctx.value(a.a))
        return Choice(best, f"takes {ctx.t.names[best.a]} as agreed")
    worst = min(takes, key=lambda a: ctx.value(a.a))
    return Choice(worst, f"hands over {ctx.t.names[worst.a]}")


def lose_item(ctx: Ctx) -> Choice | None:
    loses = ctx.has("lose")
    if not loses:
        return None
    worst = min(loses, key=lambda a: ctx.value(a.a))
    return Choice(worst, f"gives up {ctx.t.names[worst.a]}, the least useful item")


def flee(ctx: Ctx) -> Choice | None:
    t, s, me = ctx.t, ctx.s, ctx.me
    flees = ctx.has("flee")
    if not flees:
        return None

    def score(a: Action) -> float:
        x, y = me.x + DX[a.a], me.y + DY[a.a]
        v = 0.0
        foes = hostile_at(ctx, (x, y))
        if foes:
            ev, _ = fight_ev(ctx, foes, room_rules_at(t, s, x, y))
            v += min(ev, 0.0) - 1.0
        if (x, y) == (0, 0):
            v += 0.4
        room = room_at(s, x, y)
        if room is not None and room.room >= 0:
            rules = room_def(t, room).rules
            if any(r.kind == "heal_on_enter" for r in rules):
                v += 0.3
        v -= 0.02 * (abs(x) + abs(y))
        return v

    best = max(flees, key=score)
    return Choice(best, "")


def charity(ctx: Ctx) -> Choice | None:
    s = ctx.s
    f = s.frames[-1]
    options = ctx.has("charity")
    if not options:
        return None
    if f.target >= 0:
        # junk for us, and as little use as possible to the player who gets it
        other = s.heroes[f.target]
        gift = min(options, key=lambda a: ctx.value(a.a) + 0.5 * card_value(ctx.t, other, a.a))
        return Choice(gift, f"gives {ctx.t.names[gift.a]} to {other.name} (charity)")
    worst = min(options, key=lambda a: ctx.value(a.a))
    return Choice(worst, f"discards {ctx.t.names[worst.a]} (charity)")


def setup(ctx: Ctx) -> Choice | None:
    built = build(ctx)
    if built is not None:
        return built
    done = ctx.has("done")
    return Choice(done[0], "") if done else None


HANDLERS: dict[str, Callable[[Ctx], Choice | None]] = {
    SETUP: setup,
    ACT: act,
    WINDOW: window,
    INVITE: invite,
    REWARD: reward,
    LOSE_ITEM: lose_item,
    FLEE: flee,
    CHARITY: charity,
}

__all__ = ["NormalBot", "Params", "decide", "threat"]
