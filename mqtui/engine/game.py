"""The engine: a new game, the legal actions, and applying an action to a state.

``Engine(content)`` holds only the content and its card table; all game data lives in the
:class:`~mqtui.engine.state.State` (and the last answer of ``legal``, a cache that refers to the state it
was asked about: a computer player gets an engine of its own, :meth:`Engine.blind`, never this one). ``apply`` changes the state it is given and returns the events; use
:func:`copy_state` first where the previous state must be kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mqtui.engine import rng
from mqtui.engine.actions import DIR_LETTERS, Action, Event, IllegalAction
from mqtui.engine.board import (
    draw,
    draw_to_hand,
    hero_room,
    move_monsters,
    roll_colour,
)
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.combat import (
    fight_monsters,
    flee_options,
    hostile_monsters,
    meets_the_boss,
    settle_bad_stuff,
    start_combat,
)
from mqtui.engine.defs import COLOURS, Content
from mqtui.engine.handlers import HANDLERS, do_flee
from mqtui.engine.heroes import (
    HAND_LIMIT,
    MAX_LEVEL,
    can_equip,
    d10_power,
    describe,
    entered,
    heal,
    lose_candidates,
    power_total,
    usable,
)
from mqtui.engine.legal import LEVEL_PRICE, deciding, legal_actions
from mqtui.engine.state import (
    ACT,
    DX,
    DY,
    STAGE_CHARITY,
    STAGE_OVER,
    STAGE_SETUP,
    STAGE_TURN,
    Frame,
    FrameKind,
    Hero,
    Room,
    State,
    cell_key,
    copy_state,
    edge_key,
)

START_CARDS = 3
START_MOVES = 3
DEATH_CARDS = 2


class Engine:
    """The rules of the game, for one content set."""

    def __init__(self, content: Content, cards: CardTable | None = None) -> None:
        self.content = content
        self.cards = cards if cards is not None else CardTable.build(content)
        # the last answer of ``legal``: the state object itself (not its id, which Python reuses once
        # a state is freed), its state number and the seat
        self._legal_state: State | None = None
        self._legal_n = self._legal_seat = -1
        self._legal: list[Action] = []

    def blind(self) -> Engine:
        """An engine for one seat's computer player (or advisor): the same rules on a card table with
        caches of its own, that has seen no state. It knows only what its user asks it about (the
        seat's view, worlds dealt from the view), so nothing reachable from it holds a hidden card."""
        return Engine(self.content, self.cards.private())

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
        s.frames = [Frame(kind=FrameKind.SETUP, seat=h.seat) for h in reversed(s.heroes)]
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
        usable_card = card < 0 or t.deck_of[card] != TREASURE or usable(t, hero, t.treasure[card])
        if k in ("use", "play") and not usable_card:  # a one-shot for some races or classes only
            return f"{t.names[card]} is not for a {describe(t, hero)}"
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
        HANDLERS[action.kind](self.cards, s, action, ev)
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
                    s.frames.append(Frame(kind=FrameKind.CHARITY, seat=hero.seat, n=excess, target=target))
            else:
                self._monster_phase(s, ev)
                nxt = (s.active + 1) % len(s.heroes)
                if nxt == 0:
                    s.round += 1
                s.stage = STAGE_TURN
                self._begin_turn(s, ev, nxt)

    def _settle_frame(self, s: State, ev: list[Event]) -> bool:
        """Finish the top frame if it needs no decision; True if anything changed."""
        f = s.frames[-1]
        settle = _SETTLE.get(f.kind)
        return settle is not None and settle(self.cards, s, f, s.heroes[f.seat], ev)

    def _begin_turn(self, s: State, ev: list[Event], seat: int) -> None:
        t = self.cards
        s.active = seat
        hero = s.heroes[seat]
        ev.append(Event("turn", f"Round {s.round}: {hero.name}'s turn."))
        if hero.dead:
            hero.dead = False
            hero.x, hero.y = 0, 0
            ev.append(Event("move", f"{hero.name} is back in the game at the Entrance."))
            entered(t, s, hero, ev)
        hero.moves = max(0, START_MOVES + power_total(t, hero, "extra_moves") - hero.lose_moves)
        hero.lose_moves = 0
        hero.moved = hero.explored = False
        if hero.life < hero.max_life and d10_power(t, s, ev, hero, "d10_heal", "healing prayer"):
            heal(hero, ev, 1, "d10 power")
        draw_to_hand(t, s, ev, hero, DXM)
        s.frames.append(Frame(kind=FrameKind.ACT, seat=seat))

    def _monster_phase(self, s: State, ev: list[Event]) -> None:
        t = self.cards
        colour = roll_colour(s, ev, "monster phase", reroll_empty=False)
        for hero in s.heroes:
            if hero.colour == colour:
                draw_to_hand(t, s, ev, hero, DXM)
        move_monsters(t, s, ev, colour)


def _settle_act(t: CardTable, s: State, f: Frame, hero: Hero, ev: list[Event]) -> bool:
    """The action phase: over for a dead hero; a fight starts by itself (the boss, hostile monsters)."""
    if hero.dead:
        s.frames.pop()
        return True
    if s.combat is None:
        if meets_the_boss(hero, hero.x, hero.y):
            boss = draw(t, s, MONSTER)
            if boss is not None:
                ev.append(Event("boss", f"{hero.name} is Level 10 at the Entrance: the boss fight begins!"))
                start_combat(t, s, ev, hero, [], boss_card=boss)
                return True
        hostile = hostile_monsters(t, s, hero)
        if hostile:
            start_combat(t, s, ev, hero, hostile)
            return True
    return False


def _settle_flee(t: CardTable, s: State, f: Frame, hero: Hero, ev: list[Event]) -> bool:
    """Running away: nothing to choose when there is one way out, or none."""
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
        do_flee(t, s, Action(hero.seat, "flee", options[0]), ev)
        return True
    return False


def _settle_lose_item(t: CardTable, s: State, f: Frame, hero: Hero, ev: list[Event]) -> bool:
    if hero.dead or f.n <= 0 or not lose_candidates(hero, f):
        s.frames.pop()
        return True
    return False


def _settle_reward(t: CardTable, s: State, f: Frame, hero: Hero, ev: list[Event]) -> bool:
    active = s.heroes[s.active]
    if f.n <= 0 or not any(u in active.hand for u in f.options) or s.heroes[f.target].dead:
        s.frames.pop()
        return True
    return False


def _settle_charity(t: CardTable, s: State, f: Frame, hero: Hero, ev: list[Event]) -> bool:
    if len(hero.hand) <= HAND_LIMIT:
        s.frames.pop()
        return True
    return False


# what runs by itself in a frame before anyone is asked (True: the frame changed), by frame kind
_SETTLE: dict[FrameKind, Callable[[CardTable, State, Frame, Hero, list[Event]], bool]] = {
    FrameKind.ACT: _settle_act,
    FrameKind.FLEE: _settle_flee,
    FrameKind.LOSE_ITEM: _settle_lose_item,
    FrameKind.REWARD: _settle_reward,
    FrameKind.CHARITY: _settle_charity,
    FrameKind.BAD_STUFF: settle_bad_stuff,
}


def _frame_words(f: Frame) -> str:
    return _FRAME_WORDS.get(f.kind, f.kind)


_FRAME_WORDS: dict[FrameKind, str] = {
    FrameKind.SETUP: "building their hero",
    FrameKind.ACT: "their action phase",
    FrameKind.WINDOW: "the combat window",
    FrameKind.INVITE: "answering a call for help",
    FrameKind.REWARD: "handing over the helper's reward",
    FrameKind.LOSE_ITEM: "choosing an item to lose",
    FrameKind.FLEE: "choosing where to flee",
    FrameKind.CHARITY: "giving away extra cards",
    FrameKind.BAD_STUFF: "suffering Bad Stuff",
}


__all__ = ["DIR_LETTERS", "Engine", "copy_state", "fight_monsters"]
