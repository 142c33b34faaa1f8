"""The engine: a new game, the legal actions, and applying an action to a state.

``Engine(content)`` holds only the content and its card table; all game data lives in the
:class:`~mqtui.engine.state.State`. ``apply`` changes the state it is given and returns the events; use
:func:`copy_state` first where the previous state must be kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from mqtui.engine import rng
from mqtui.engine.actions import DIR_LETTERS, SPECS, Action, Event, IllegalAction
from mqtui.engine.board import (
    DIR_NAMES,
    draw,
    draw_to_hand,
    hero_room,
    move_monsters,
    place_room,
    roll_colour,
    room_def,
    room_name,
    spawn_monster,
    step_target,
)
from mqtui.engine.board import (
    discard as discard_card,
)
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.combat import (
    fight_monsters,
    flee_options,
    hostile_monsters,
    resolve,
    roll_dice,
    start_combat,
)
from mqtui.engine.defs import COLOURS, Content, Deal
from mqtui.engine.heroes import (
    HAND_LIMIT,
    MAX_LEVEL,
    apply_effects,
    can_equip,
    carried,
    d10_power,
    describe,
    heal,
    power_total,
    remove_card,
    set_level,
)
from mqtui.engine.legal import LEVEL_PRICE, deciding, legal_actions, move_cost
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
    STAGE_CHARITY,
    STAGE_OVER,
    STAGE_SETUP,
    STAGE_TURN,
    WINDOW,
    Combat,
    Frame,
    Hero,
    Mod,
    Room,
    State,
    cell_key,
    edge_key,
)

START_CARDS = 3
START_MOVES = 3
DEATH_CARDS = 2
HANDLERS = {kind: "_do_" + kind for kind in SPECS}  # action kind -> the Engine method that applies it


def copy_state(s: State) -> State:
    return msgspec.msgpack.decode(msgspec.msgpack.encode(s), type=State)


class Engine:
    """The rules of the game, for one content set."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.cards = CardTable.build(content)
        # the last answer of ``legal``: the state object itself (not its id, which Python reuses once
        # a state is freed), its state number and the seat
        self._legal_state: State | None = None
        self._legal_n = self._legal_seat = -1
        self._legal: list[Action] = []

    # -- setting up ---------------------------------------------------------------------------------

    def new_game(self, players: Sequence[tuple[str, str]], seed: int) -> tuple[State, list[Event]]:
        """A new game for (name, colour) pairs in seat order; the seed decides every draw and die."""
        if not 2 <= len(players) <= 6:
            raise ValueError("a game needs 2 to 6 players")
        colours = [c for _, c in players]
        if len(set(colours)) != len(colours) or any(c not in COLOURS for c in colours):
            raise ValueError(f"each player needs a different colour from {', '.join(COLOURS)}")
        t = self.cards
        s = State(
            content=self.content.version,
            seed=seed,
            rng=rng.seed_state(seed),
            heroes=[
                Hero(seat=i, name=name, colour=colour, moves=START_MOVES)
                for i, (name, colour) in enumerate(players)
            ],
        )
        s.rooms.append(Room(room=-1, x=0, y=0))
        s.grid[cell_key(0, 0)] = 0
        for d in range(4):
            s.edges[edge_key(0, 0, d)] = "passage"
        s.dxm = t.uids(DXM)
        s.treasure = t.uids(TREASURE)
        s.monster_deck = t.uids(MONSTER)
        s.tiles = sorted(tile for tile in t.tiles if tile > 0)
        for pile in (s.dxm, s.treasure, s.monster_deck, s.tiles):
            rng.shuffle(s, pile)
        ev = [
            Event(
                "start", f"A new game: {', '.join(n for n, _ in players)}. Everyone stands in the Entrance."
            )
        ]
        for hero in s.heroes:
            draw_to_hand(t, s, ev, hero, DXM, START_CARDS)
            draw_to_hand(t, s, ev, hero, TREASURE, START_CARDS)
        s.frames = [Frame(kind=SETUP, seat=h.seat) for h in reversed(s.heroes)]
        ev.append(Event("phase", "Before the first turn, each player may build their hero from their hand."))
        return s, ev

    # -- asking -------------------------------------------------------------------------------------

    def legal(self, s: State, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now (empty unless that seat must decide).

        The answer is cached per state object and state number: change a state only through ``apply``
        (or call :meth:`forget` after changing it by hand).
        """
        if s is not self._legal_state or s.n != self._legal_n or seat != self._legal_seat:
            self._legal = legal_actions(self.cards, s, seat)
            self._legal_state = s
            self._legal_n, self._legal_seat = s.n, seat
        return self._legal

    def forget(self) -> None:
        """Drop the cached legal actions (after changing a state other than through ``apply``)."""
        self._legal_state = None

    def settle(self, s: State) -> list[Event]:
        """Run everything automatic in a hand-made position until someone must decide."""
        self.forget()
        ev: list[Event] = []
        self._advance(s, ev)
        return ev

    def deciding(self, s: State) -> int:
        return deciding(s)

    def explain(self, s: State, action: Action) -> str:
        """Why an action is not legal now, in words for the player."""
        if s.stage == STAGE_OVER:
            return "the game is over"
        who = deciding(s)
        if not 0 <= action.seat < len(s.heroes):
            return f"there is no seat {action.seat}"
        if action.seat != who:
            f = s.frames[-1]
            return f"it is {s.heroes[who].name}'s decision now ({_frame_words(f)}), not {s.heroes[action.seat].name}'s"
        reason = self._why_not(s, action)
        if reason:
            return reason
        kinds = sorted({a.kind for a in self.legal(s, action.seat)})
        if action.kind not in kinds:
            return f"'{action.kind}' is not possible now ({_frame_words(s.frames[-1])}); possible: {', '.join(kinds)}"
        t = self.cards
        if 0 <= action.a < len(t.names) and action.kind not in ("move", "flee", "pickup", "challenge"):
            return f"{t.names[action.a]} cannot be used that way now"
        return f"'{action}' is not legal now"

    def _why_not(self, s: State, action: Action) -> str:
        """A specific reason for common illegal actions, or ''."""
        t = self.cards
        hero = s.heroes[action.seat]
        f = s.frames[-1]
        k = action.kind
        card = action.a if 0 <= action.a < len(t.names) else -1
        if f.kind != ACT or s.combat is not None:
            if k == "invite" and s.combat is not None and 0 <= action.a < len(s.heroes):
                other = s.heroes[action.a]
                if s.combat.boss and other.level < MAX_LEVEL:
                    return "only Level-10 heroes may help against the boss"
                if s.combat.helper >= 0:
                    return "this fight already has a helper"
            c = s.combat
            if (
                k == "use"
                and card >= 0
                and t.deck_of[card] == TREASURE
                and c is not None
                and (hero.x, hero.y) != (c.x, c.y)
                and not t.treasure[card].thrown
            ):
                return "only thrown items can be used from outside the combat room"
            return ""
        if k == "move":
            if hero.explored:
                return "exploring ended your movement this turn"
            if not 0 <= action.a < 4 or s.edges.get(edge_key(hero.x, hero.y, action.a)) in (None, "wall"):
                return "there is a wall that way"
            x, y = hero.x + DX[action.a], hero.y + DY[action.a]
            if cell_key(x, y) not in s.grid and not s.tiles:
                return "no rooms are left to explore with"
            return "not enough Moves left for that connection (the spend-all rule needs an unspent turn)"
        if k == "buylevel":
            if hero.level >= MAX_LEVEL - 1:
                return "gold never buys Level 10: only a kill does"
            if hero.gold < LEVEL_PRICE:
                return f"a level costs {LEVEL_PRICE} gold; you have {hero.gold}"
        if k == "play" and card >= 0 and hero.level >= MAX_LEVEL - 1:
            level_card = (t.deck_of[card] == TREASURE and t.treasure[card].kind == "level") or (
                t.deck_of[card] == DXM and t.dxm[card].kind == "level"
            )
            if level_card:
                return "a level card never takes a hero to Level 10: only a kill does"
        if k in ("search", "deal", "pickup") and hero.moves < 1:
            return f"'{k}' costs 1 Move and you have none left"
        if k == "search":
            room = hero_room(s, hero)
            if room.room < 0:
                return "the Entrance cannot be searched"
            if room.searched >= 2:
                return "this room is Looted out"
        if k == "equip" and card >= 0 and card in hero.hand + hero.backpack and t.deck_of[card] == TREASURE:
            return can_equip(t, hero, card) or ""
        return ""

    # -- doing --------------------------------------------------------------------------------------

    def apply(self, s: State, action: Action, expect_n: int | None = None) -> list[Event]:
        """Apply a legal action, changing ``s``; returns what happened. Raises IllegalAction."""
        if expect_n is not None and expect_n != s.n:
            raise IllegalAction(f"stale action: it was made for state {expect_n}, the game is at {s.n}")
        if action not in self.legal(s, action.seat):
            raise IllegalAction(self.explain(s, action))
        ev: list[Event] = []
        getattr(self, HANDLERS[action.kind])(s, action, ev)
        s.n += 1
        s.actions += 1
        self._advance(s, ev)
        return ev

    def _advance(self, s: State, ev: list[Event]) -> None:
        """Run everything automatic until someone must decide or the game is over."""
        while s.stage != STAGE_OVER:
            if s.frames:
                if self._settle_frame(s, ev):
                    continue
                return
            if s.stage == STAGE_SETUP:
                s.stage = STAGE_TURN
                self._begin_turn(s, ev, 0)
            elif s.stage == STAGE_TURN:
                s.stage = STAGE_CHARITY
                hero = s.heroes[s.active]
                excess = len(hero.hand) - HAND_LIMIT
                if excess > 0:
                    lowest = min(h.level for h in s.heroes)
                    lows = [h for h in s.heroes if h.level == lowest]
                    target = lows[0].seat if len(lows) == 1 and lows[0] is not hero else -1
                    to = f"give {excess} to {s.heroes[target].name}" if target >= 0 else f"discard {excess}"
                    ev.append(
                        Event(
                            "charity",
                            f"Charity: {hero.name} holds {len(hero.hand)} cards ({HAND_LIMIT} at most) and must {to}.",
                        )
                    )
                    s.frames.append(Frame(kind=CHARITY, seat=hero.seat, n=excess, target=target))
            else:
                self._monster_phase(s, ev)
                nxt = (s.active + 1) % len(s.heroes)
                if nxt == 0:
                    s.round += 1
                s.stage = STAGE_TURN
                self._begin_turn(s, ev, nxt)

    def _settle_frame(self, s: State, ev: list[Event]) -> bool:
        """Finish the top frame if it needs no decision; True if anything changed."""
        t = self.cards
        f = s.frames[-1]
        hero = s.heroes[f.seat]
        k = f.kind
        if k == ACT:
            if hero.dead:
                s.frames.pop()
                return True
            if s.combat is None:
                if hero.level >= MAX_LEVEL and (hero.x, hero.y) == (0, 0):
                    boss = draw(t, s, MONSTER)
                    if boss is not None:
                        ev.append(
                            Event("boss", f"{hero.name} is Level 10 at the Entrance: the boss fight begins!")
                        )
                        start_combat(t, s, ev, hero, [], boss_card=boss)
                        return True
                hostile = hostile_monsters(t, s, hero)
                if hostile:
                    start_combat(t, s, ev, hero, hostile)
                    return True
            return False
        if k == FLEE:
            if hero.dead or cell_key(hero.x, hero.y) != f.target:
                s.frames.pop()
                return True
            options = flee_options(s, hero)
            if not options:
                s.frames.pop()
                ev.append(Event("flee", f"{hero.name} has nowhere to run and stays put."))
                if hero.seat == s.active:
                    s.frames = [fr for fr in s.frames if fr.kind != ACT]
                    ev.append(Event("phase", f"{hero.name}'s action phase ends."))
                return True
            if len(options) == 1:
                self._do_flee(s, Action(hero.seat, "flee", options[0]), ev)
                return True
            return False
        if k == LOSE_ITEM:
            if hero.dead or not carried(hero) or f.n <= 0:
                s.frames.pop()
                return True
            return False
        if k == REWARD:
            active = s.heroes[s.active]
            if f.n <= 0 or not any(u in active.hand for u in f.options) or s.heroes[f.target].dead:
                s.frames.pop()
                return True
            return False
        if k == CHARITY:
            if len(hero.hand) <= HAND_LIMIT:
                s.frames.pop()
                return True
            return False
        return False

    def _begin_turn(self, s: State, ev: list[Event], seat: int) -> None:
        t = self.cards
        s.active = seat
        hero = s.heroes[seat]
        ev.append(Event("turn", f"Round {s.round}: {hero.name}'s turn."))
        if hero.dead:
            hero.dead = False
            hero.x, hero.y = 0, 0
            ev.append(Event("move", f"{hero.name} is back in the game at the Entrance."))
        hero.moves = max(0, START_MOVES + power_total(t, hero, "extra_moves") - hero.lose_moves)
        hero.lose_moves = 0
        hero.moved = hero.explored = False
        if hero.life < hero.max_life and d10_power(t, s, ev, hero, "d10_heal", "healing prayer"):
            heal(hero, ev, 1, "d10 power")
        draw_to_hand(t, s, ev, hero, DXM)
        s.frames.append(Frame(kind=ACT, seat=seat))

    def _monster_phase(self, s: State, ev: list[Event]) -> None:
        t = self.cards
        colour = roll_colour(s, ev, "monster phase", reroll_empty=False)
        for hero in s.heroes:
            if hero.colour == colour:
                draw_to_hand(t, s, ev, hero, DXM)
        move_monsters(t, s, ev, colour)

    # -- action handlers: one per action kind ---------------------------------------------------------

    def _do_done(self, s: State, a: Action, ev: list[Event]) -> None:
        s.frames.pop()
        ev.append(
            Event("setup", f"{s.heroes[a.seat].name} is ready: {describe(self.cards, s.heroes[a.seat])}.")
        )

    def _do_end(self, s: State, a: Action, ev: list[Event]) -> None:
        s.frames.pop()
        ev.append(Event("phase", f"{s.heroes[a.seat].name} ends the action phase."))

    def _spend(self, hero: Hero, n: int = 1) -> None:
        hero.moves -= n
        hero.moved = True

    def _do_move(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        cost = move_cost(t, s, hero, a.a)
        assert cost is not None
        kind = s.edges[edge_key(hero.x, hero.y, a.a)]
        self._spend(hero, cost)
        x, y = hero.x + DX[a.a], hero.y + DY[a.a]
        how = f"{DIR_NAMES[a.a]} through a {kind} ({cost} Move{'s' if cost != 1 else ''})"
        if cell_key(x, y) in s.grid:
            hero.x, hero.y = x, y
            ev.append(Event("move", f"{hero.name} goes {how} to {room_name(t, s, x, y)}."))
            self._entered(s, hero, ev)
            return
        ev.append(Event("explore", f"{hero.name} explores {how}."))
        draw_to_hand(t, s, ev, hero, DXM)
        place_room(t, s, ev, x, y)
        hero.x, hero.y = x, y
        hero.explored = True
        spawn_monster(t, s, ev, x, y, "A monster lives here")

    def _entered(self, s: State, hero: Hero, ev: list[Event]) -> None:
        """A hero entered a placed room (moving, fleeing, teleporting, joining a fight): room effects."""
        t = self.cards
        rdef = room_def(t, hero_room(s, hero))
        for rule in rdef.rules:
            if rule.kind == "heal_on_enter":
                heal(hero, ev, rule.amount, rdef.name)

    def _do_deal(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        rdef = room_def(t, hero_room(s, hero))
        deal = rdef.deal
        assert isinstance(deal, Deal)
        self._spend(hero)
        k = deal.kind
        where = rdef.name
        if k in ("buy_treasure", "buy_dxm", "heal", "shrine"):
            hero.gold -= deal.price
            paid = f" pays {deal.price} gold and" if deal.price else ""
            ev.append(Event("deal", f"{hero.name}{paid} takes the Deal of {where}."))
            gives = {"buy_treasure": "treasure", "buy_dxm": "dxm", "heal": "life"}.get(k, deal.gives)
            if gives == "life":
                heal(hero, ev, deal.amount, where)
            else:
                draw_to_hand(t, s, ev, hero, TREASURE if gives == "treasure" else DXM, deal.amount)
        elif k == "sell":
            item = t.treasure[a.a]
            value = item.gold * deal.amount // 100 * (100 + power_total(t, hero, "sell_bonus")) // 100
            remove_card(hero, a.a)
            discard_card(t, s, a.a)
            hero.gold += value
            ev.append(Event("deal", f"{hero.name} sells {item.name} for {value} gold in {where}."))
        elif k == "swap_card":
            remove_card(hero, a.a)
            discard_card(t, s, a.a)
            ev.append(
                Event("deal", f"{hero.name} swaps a card in {where}.", hero.seat, f"You swap {t.names[a.a]}.")
            )
            draw_to_hand(t, s, ev, hero, DXM)

    def _do_pickup(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        pile = hero_room(s, hero).piles.pop(a.a)
        self._spend(hero)
        hero.hand.extend(pile)
        ev.append(Event("pickup", f"{hero.name} picks up {', '.join(t.names[u] for u in pile)}."))

    def _do_search(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        room = hero_room(s, hero)
        rdef = room_def(t, room)
        self._spend(hero)
        die = rng.roll(s, 10)
        mods = rdef.search + power_total(t, hero, "search_bonus") - (2 if room.searched else 0)
        total = die + mods
        # once the whole dungeon is laid out, a room never runs dry (our rule: else a table could be left
        # with no monster to kill and no way to reach Level 10)
        room.searched = 1 if not s.tiles else room.searched + 1
        row = next(r for r in t.content.tables.search if r.low <= total <= r.high)
        state = "Ransacked" if room.searched == 1 else "Looted out"
        ev.append(
            Event(
                "search",
                f"{hero.name} searches {rdef.name}: d10 {die} {mods:+d} = {total}: {row.result}. Now {state}.",
            )
        )
        if row.result == "monster":
            spawn_monster(t, s, ev, hero.x, hero.y, "A wandering monster")
        if row.gold:
            hero.gold += row.gold
            ev.append(Event("gold", f"{hero.name} finds {row.gold} gold."))
        if row.treasures:
            draw_to_hand(t, s, ev, hero, TREASURE, row.treasures)

    def _do_play(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        uid = a.a
        remove_card(hero, uid)
        if t.deck_of[uid] == TREASURE:
            item = t.treasure[uid]
            ev.append(Event("play", f"{hero.name} uses {item.name}."))
            if item.kind == "level":
                set_level(t, s, ev, hero, hero.level + 1, item.name)
            elif item.use == "heal":
                heal(hero, ev, max(1, item.amount), item.name)
            elif item.use == "moves":
                hero.moves += max(1, item.amount)
                ev.append(
                    Event("moves", f"{hero.name} gains {max(1, item.amount)} Moves: {hero.moves} left.")
                )
            discard_card(t, s, uid)
            return
        d = t.dxm[uid]
        ev.append(Event("play", f"{hero.name} plays {d.name}."))
        if d.kind in ("race", "class"):
            cards = hero.races if d.kind == "race" else hero.classes
            extra = hero.half_breed if d.kind == "race" else hero.super_munchkin
            if extra < 0 or len(cards) >= 2:
                for old in cards:
                    discard_card(t, s, old)
                cards.clear()
            cards.append(uid)
            what = describe(t, hero)
            ev.append(Event("hero", f"{hero.name} is now {'an' if what[:1] in 'AEIOU' else 'a'} {what}."))
        elif d.kind == "half_breed":
            hero.half_breed = uid
        elif d.kind == "super_munchkin":
            hero.super_munchkin = uid
        elif d.kind == "level":
            set_level(t, s, ev, hero, hero.level + max(1, d.amount), d.name)
            discard_card(t, s, uid)
        elif d.kind == "moves":
            hero.moves += d.amount
            ev.append(Event("moves", f"{hero.name} gains {d.amount} Moves: {hero.moves} left."))
            discard_card(t, s, uid)

    def _do_curse(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero, victim = s.heroes[a.seat], s.heroes[a.b]
        remove_card(hero, a.a)
        d = t.dxm[a.a]
        ev.append(Event("curse", f"{hero.name} curses {victim.name} with {d.name}: {d.text}"))
        apply_effects(t, s, ev, victim, d.effects, d.name)
        discard_card(t, s, a.a)

    def _do_wall(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        s.edges[edge_key(hero.x, hero.y, a.b)] = "door"
        ev.append(
            Event(
                "dungeon",
                f"{hero.name} plays {self.cards.names[a.a]}: the {DIR_NAMES[a.b]} wall becomes a door.",
            )
        )
        discard_card(self.cards, s, a.a)

    def _do_shove(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        m = next(m for m in s.monsters if m.id == a.b)
        dest = step_target(s, m.x, m.y, a.c)
        assert dest is not None
        m.x, m.y = dest
        ev.append(
            Event(
                "dungeon",
                f"{hero.name} plays {t.names[a.a]}: {t.monster[m.card].name} is shoved to {room_name(t, s, *dest)}.",
            )
        )
        discard_card(t, s, a.a)

    def _do_teleport(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        hero.x, hero.y = a.b, a.c
        ev.append(
            Event("dungeon", f"{hero.name} plays {t.names[a.a]} and appears in {room_name(t, s, a.b, a.c)}.")
        )
        discard_card(t, s, a.a)
        self._entered(s, hero, ev)

    def _do_equip(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        hero.equipped.append(a.a)
        ev.append(Event("equip", f"{hero.name} equips {self.cards.names[a.a]}."))

    def _do_stow(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        hero.backpack.append(a.a)
        ev.append(Event("equip", f"{hero.name} puts {self.cards.names[a.a]} in the backpack."))

    def _do_belt(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        hero.belt.append(a.a)
        ev.append(Event("equip", f"{hero.name} hangs {self.cards.names[a.a]} on the belt."))

    def _do_discard(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        discard_card(self.cards, s, a.a)
        ev.append(Event("discard", f"{hero.name} discards {self.cards.names[a.a]}."))

    def _do_give(self, s: State, a: Action, ev: list[Event]) -> None:
        hero, other = s.heroes[a.seat], s.heroes[a.b]
        public = a.a not in hero.hand
        remove_card(hero, a.a)
        other.hand.append(a.a)
        name = self.cards.names[a.a]
        if public:
            ev.append(Event("give", f"{hero.name} gives {name} to {other.name}."))
        else:
            ev.append(
                Event(
                    "give",
                    f"{hero.name} gives a card to {other.name}.",
                    hero.seat,
                    f"You give {name} to {other.name}.",
                )
            )
            ev.append(Event("give", "", other.seat, f"{hero.name} gives you {name}."))

    def _do_buylevel(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        hero.gold -= LEVEL_PRICE
        ev.append(Event("gold", f"{hero.name} spends {LEVEL_PRICE} gold on a level."))
        set_level(self.cards, s, ev, hero, hero.level + 1, "bought")

    def _do_challenge(self, s: State, a: Action, ev: list[Event]) -> None:
        hero = s.heroes[a.seat]
        m = next(m for m in s.monsters if m.id == a.a)
        ev.append(Event("combat", f"{hero.name} challenges {self.cards.monster[m.card].name}."))
        start_combat(self.cards, s, ev, hero, [m])

    # combat windows

    def _do_pass(self, s: State, a: Action, ev: list[Event]) -> None:
        f = s.frames[-1]
        f.passes += 1
        if f.passes < len(s.heroes):
            f.seat = (f.seat + 1) % len(s.heroes)
            return
        s.frames.pop()
        if f.stage == "pre":
            roll_dice(self.cards, s, ev)
        else:
            resolve(self.cards, s, ev)

    def _card_played(self, s: State) -> None:
        s.frames[-1].passes = 0

    def _take_combat_card(self, s: State, a: Action) -> tuple[Combat, Hero]:
        """The fight and the hero playing a card into it; the card leaves the hero's hand or belt."""
        c = s.combat
        assert c is not None
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        return c, hero

    def _do_enhance(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        c, hero = self._take_combat_card(s, a)
        d = t.dxm[a.a]
        target = "the boss" if c.boss else t.monster[next(m.card for m in s.monsters if m.id == a.b)].name
        c.mods.append(Mod(d.name, d.amount, 1, a.b))
        c.extra_treasures += d.treasures
        ev.append(Event("interfere", f"{hero.name} plays {d.name} on {target}: {d.amount:+d}."))
        discard_card(t, s, a.a)
        self._card_played(s)

    def _do_wander(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        c, hero = self._take_combat_card(s, a)
        ev.append(Event("interfere", f"{hero.name} plays {t.names[a.a]}!"))
        discard_card(t, s, a.a)
        m = spawn_monster(t, s, ev, c.x, c.y, "A wandering monster joins the fight")
        if m is not None:
            c.monsters.append(m.id)
        self._card_played(s)

    def _do_use(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        c, hero = self._take_combat_card(s, a)
        item = t.treasure[a.a]
        c.mods.append(Mod(item.name, item.bonus, a.b))
        side = "the heroes" if a.b == 0 else "the monsters"
        how = "throws" if item.thrown else "uses"
        ev.append(Event("interfere", f"{hero.name} {how} {item.name} for {side}: {item.bonus:+d}."))
        discard_card(t, s, a.a)
        self._card_played(s)

    def _do_dice(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        c, hero = self._take_combat_card(s, a)
        d = t.dxm[a.a]
        side = "heroes'" if a.b == 0 else "monsters'"
        if d.action == "reroll":
            if a.b == 0:
                c.hero_die = rng.roll(s, 6)
                new = str(c.hero_die)
            else:
                c.monster_dice = [rng.roll(s, 6) for _ in c.monster_dice]
                new = "+".join(map(str, c.monster_dice))
            ev.append(Event("dice", f"{hero.name} plays {d.name}: the {side} die is rolled again: {new}."))
        else:
            c.die_mods.append(Mod(d.name, d.amount, a.b))
            ev.append(Event("dice", f"{hero.name} plays {d.name}: {d.amount:+d} to the {side} die."))
        discard_card(t, s, a.a)
        self._card_played(s)

    def _do_invite(self, s: State, a: Action, ev: list[Event]) -> None:
        c = s.combat
        assert c is not None
        hero, other = s.heroes[a.seat], s.heroes[a.a]
        c.invited.append(other.seat)
        n, first = a.b % 10, a.b >= 10
        s.frames.append(Frame(kind=INVITE, seat=other.seat, n=n, first=first, target=a.c))
        ev.append(
            Event("invite", f"{hero.name} asks {other.name} to help, offering {_terms(n, first, a.c)}.")
        )

    def _do_accept(self, s: State, a: Action, ev: list[Event]) -> None:
        c = s.combat
        assert c is not None
        f = s.frames.pop()
        hero, helper = s.heroes[c.active], s.heroes[a.seat]
        c.helper = helper.seat
        c.terms_treasures, c.terms_first, c.terms_gold = f.n, f.first, f.target
        if f.target:
            hero.gold -= f.target
            helper.gold += f.target
        moved = (helper.x, helper.y) != (c.x, c.y)
        helper.x, helper.y = c.x, c.y
        ev.append(
            Event(
                "invite", f"{helper.name} accepts and joins the fight for {_terms(f.n, f.first, f.target)}."
            )
        )
        if moved:
            self._entered(s, helper, ev)
        self._card_played(s)

    def _do_decline(self, s: State, a: Action, ev: list[Event]) -> None:
        s.frames.pop()
        ev.append(Event("invite", f"{s.heroes[a.seat].name} declines to help."))

    # after combat

    def _do_take(self, s: State, a: Action, ev: list[Event]) -> None:
        f = s.frames[-1]
        active, helper = s.heroes[s.active], s.heroes[f.target]
        active.hand.remove(a.a)
        helper.hand.append(a.a)
        f.n -= 1
        name = self.cards.names[a.a]
        public = f"{helper.name} receives a Treasure card from {active.name} as agreed."
        ev.append(Event("reward", public, helper.seat, f"You receive {name} from {active.name} as agreed."))
        ev.append(Event("reward", "", active.seat, f"You hand {name} to {helper.name} as agreed."))

    def _do_lose(self, s: State, a: Action, ev: list[Event]) -> None:
        f = s.frames[-1]
        hero = s.heroes[a.seat]
        remove_card(hero, a.a)
        discard_card(self.cards, s, a.a)
        f.n -= 1
        ev.append(Event("lose", f"{hero.name} loses {self.cards.names[a.a]}."))

    def _do_flee(self, s: State, a: Action, ev: list[Event]) -> None:
        t = self.cards
        s.frames.pop()
        hero = s.heroes[a.seat]
        hero.x, hero.y = hero.x + DX[a.a], hero.y + DY[a.a]
        ev.append(Event("flee", f"{hero.name} flees {DIR_NAMES[a.a]} to {room_name(t, s, hero.x, hero.y)}."))
        self._entered(s, hero, ev)

    def _do_charity(self, s: State, a: Action, ev: list[Event]) -> None:
        f = s.frames[-1]
        hero = s.heroes[a.seat]
        hero.hand.remove(a.a)
        name = self.cards.names[a.a]
        if f.target >= 0:
            other = s.heroes[f.target]
            other.hand.append(a.a)
            ev.append(
                Event(
                    "charity",
                    f"{hero.name} gives a card to {other.name}.",
                    hero.seat,
                    f"You give {name} to {other.name}.",
                )
            )
            ev.append(Event("charity", "", other.seat, f"{hero.name} gives you {name}."))
        else:
            discard_card(self.cards, s, a.a)
            ev.append(Event("charity", f"{hero.name} discards {name}."))


def _terms(n: int, first: bool, gold: int) -> str:
    parts = []
    if n:
        parts.append(f"{n} Treasure{'s' if n > 1 else ''}" + (" of their choice" if first else ""))
    if gold:
        parts.append(f"{gold} gold now")
    return " and ".join(parts) or "glory alone"


def _frame_words(f: Frame) -> str:
    return {
        SETUP: "building their hero",
        ACT: "their action phase",
        WINDOW: "the combat window",
        INVITE: "answering a call for help",
        REWARD: "handing over the helper's reward",
        LOSE_ITEM: "choosing an item to lose",
        FLEE: "choosing where to flee",
        CHARITY: "giving away extra cards",
    }.get(f.kind, f.kind)


__all__ = ["DIR_LETTERS", "Engine", "copy_state", "fight_monsters"]
