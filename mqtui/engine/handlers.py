"""The action handlers: one function per action kind, found through :data:`HANDLERS`.

A handler changes the state for a legal action of its kind and appends what happened to ``ev``;
:meth:`mqtui.engine.game.Engine.apply` checks legality before and runs everything automatic after.
"""

from __future__ import annotations

from collections.abc import Callable

from mqtui.engine import rng
from mqtui.engine.actions import Action, ActionKind, Event, terms_words
from mqtui.engine.board import (
    DIR_NAMES,
    draw_to_hand,
    hero_room,
    place_room,
    room_def,
    room_name,
    spawn_monster,
    step_target,
)
from mqtui.engine.board import (
    discard as discard_card,
)
from mqtui.engine.cards import DXM, TREASURE, CardTable
from mqtui.engine.combat import (
    curse_frame,
    fight_tags,
    ignores,
    resolve,
    roll_dice,
    start_combat,
)
from mqtui.engine.defs import Deal
from mqtui.engine.heroes import (
    apply_effects,
    describe,
    entered,
    heal,
    power_total,
    remove_card,
    sale_price,
    set_level,
)
from mqtui.engine.legal import LEVEL_PRICE, move_cost
from mqtui.engine.rules_text import words
from mqtui.engine.state import (
    DX,
    DY,
    INVITE,
    Combat,
    Frame,
    Hero,
    Mod,
    State,
    cell_key,
    edge_key,
)

Handler = Callable[[CardTable, State, Action, list[Event]], None]


def do_done(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    s.frames.pop()
    ev.append(Event("setup", f"{s.heroes[a.seat].name} is ready: {describe(t, s.heroes[a.seat])}."))


def do_end(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    s.frames.pop()
    ev.append(Event("phase", f"{s.heroes[a.seat].name} ends the action phase."))


def spend(hero: Hero, n: int = 1) -> None:
    hero.moves -= n
    hero.moved = True


def do_move(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = s.heroes[a.seat]
    cost = move_cost(t, s, hero, a.a)
    assert cost is not None
    kind = s.edges[edge_key(hero.x, hero.y, a.a)]
    spend(hero, cost)
    x, y = hero.x + DX[a.a], hero.y + DY[a.a]
    how = f"{DIR_NAMES[a.a]} through a {kind} ({cost} Move{'s' if cost != 1 else ''})"
    if cell_key(x, y) in s.grid:
        hero.x, hero.y = x, y
        ev.append(Event("move", f"{hero.name} goes {how} to {room_name(t, s, x, y)}."))
        entered(t, s, hero, ev)
        return
    ev.append(Event("explore", f"{hero.name} explores {how}."))
    draw_to_hand(t, s, ev, hero, DXM)
    place_room(t, s, ev, x, y)
    hero.x, hero.y = x, y
    hero.explored = True
    entered(t, s, hero, ev)
    spawn_monster(t, s, ev, x, y, "A monster lives here")


def do_deal(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = s.heroes[a.seat]
    rdef = room_def(t, hero_room(s, hero))
    deal = rdef.deal
    assert isinstance(deal, Deal)
    spend(hero)
    k = deal.kind
    where = rdef.name
    if k in ("buy_treasure", "buy_dxm", "heal", "shrine"):
        hero.gold -= deal.price
        paid = f" pays {deal.price} gold and" if deal.price else ""
        ev.append(Event("deal", f"{hero.name}{paid} takes the Deal of {where}."))
        gives = deal.gift
        if gives == "life":
            heal(hero, ev, deal.amount, where)
        else:
            draw_to_hand(t, s, ev, hero, TREASURE if gives == "treasure" else DXM, deal.amount)
    elif k == "sell":
        item = t.treasure[a.a]
        value = sale_price(t, hero, a.a, deal.amount)
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


def do_pickup(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = s.heroes[a.seat]
    pile = hero_room(s, hero).piles.pop(a.a)
    spend(hero)
    hero.hand.extend(pile)
    ev.append(Event("pickup", f"{hero.name} picks up {', '.join(t.names[u] for u in pile)}."))


def do_search(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = s.heroes[a.seat]
    room = hero_room(s, hero)
    rdef = room_def(t, room)
    spend(hero)
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


def do_play(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
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
            gain_moves(hero, max(1, item.amount), ev)
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
        if not hero.classes:  # "an Elf with no class" (the hero sheet's "Elf no class" is a label)
            what = what.replace(" no class", " with no class")
        ev.append(Event("hero", f"{hero.name} is now {'an' if what[:1] in 'AEIOU' else 'a'} {what}."))
    elif d.kind == "half_breed":
        hero.half_breed = uid
    elif d.kind == "super_munchkin":
        hero.super_munchkin = uid
    elif d.kind == "level":
        set_level(t, s, ev, hero, hero.level + max(1, d.amount), d.name)
        discard_card(t, s, uid)
    elif d.kind == "moves":
        gain_moves(hero, d.amount, ev)
        discard_card(t, s, uid)


def gain_moves(hero: Hero, n: int, ev: list[Event]) -> None:
    hero.moves += n
    ev.append(Event("moves", f"{hero.name} gains {n} Move{'' if n == 1 else 's'}: {hero.moves} left."))


def do_curse(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero, victim = s.heroes[a.seat], s.heroes[a.b]
    remove_card(hero, a.a)
    d = t.dxm[a.a]
    ev.append(
        Event(
            "curse",
            f"{hero.name} curses {victim.name} with {d.name}: {words(t.content).curse(d, victim.name)}",
        )
    )
    done = apply_effects(t, s, ev, victim, d.effects, d.name)
    if done < len(d.effects):
        curse_frame(s, victim, a.a, done)
    discard_card(t, s, a.a)


def take_card(s: State, a: Action) -> Hero:
    """The hero acting; the card it plays (``a.a``) leaves its hand (or belt, or equipment)."""
    hero = s.heroes[a.seat]
    remove_card(hero, a.a)
    return hero


def dungeon_played(t: CardTable, s: State, a: Action, ev: list[Event], hero: Hero, what: str) -> None:
    """Say what a dungeon card did (``what`` follows "HERO plays CARD") and discard it."""
    ev.append(Event("dungeon", f"{hero.name} plays {t.names[a.a]}{what}"))
    discard_card(t, s, a.a)


def do_wall(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = take_card(s, a)
    s.edges[edge_key(hero.x, hero.y, a.b)] = "door"
    dungeon_played(t, s, a, ev, hero, f": the {DIR_NAMES[a.b]} wall becomes a door.")


def do_shove(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = take_card(s, a)
    m = next(m for m in s.monsters if m.id == a.b)
    dest = step_target(s, m.x, m.y, a.c)
    assert dest is not None
    m.x, m.y = dest
    dungeon_played(t, s, a, ev, hero, f": {t.monster[m.card].name} is shoved to {room_name(t, s, *dest)}.")


def do_teleport(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = take_card(s, a)
    hero.x, hero.y = a.b, a.c
    dungeon_played(t, s, a, ev, hero, f" and appears in {room_name(t, s, a.b, a.c)}.")
    entered(t, s, hero, ev)


def put_away(pile: Callable[[Hero], list[int]], words: str) -> Handler:
    """The handler of an action that moves an item from the hand to one of the hero's piles; ``words``
    is the log line, with ``{hero}`` and ``{card}``."""

    def handler(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
        hero = take_card(s, a)
        pile(hero).append(a.a)
        ev.append(Event("equip", words.format(hero=hero.name, card=t.names[a.a])))

    return handler


do_equip = put_away(lambda hero: hero.equipped, "{hero} equips {card}.")
do_stow = put_away(lambda hero: hero.backpack, "{hero} puts {card} in the backpack.")
do_belt = put_away(lambda hero: hero.belt, "{hero} hangs {card} on the belt.")


def do_discard(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = take_card(s, a)
    discard_card(t, s, a.a)
    ev.append(Event("discard", f"{hero.name} discards {t.names[a.a]}."))


def do_give(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero, other = s.heroes[a.seat], s.heroes[a.b]
    public = a.a not in hero.hand
    remove_card(hero, a.a)
    other.hand.append(a.a)
    name = t.names[a.a]
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


def do_buylevel(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = s.heroes[a.seat]
    hero.gold -= LEVEL_PRICE
    ev.append(Event("gold", f"{hero.name} spends {LEVEL_PRICE} gold on a level."))
    set_level(t, s, ev, hero, hero.level + 1, "bought")


def do_challenge(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    hero = s.heroes[a.seat]
    m = next(m for m in s.monsters if m.id == a.a)
    ev.append(Event("combat", f"{hero.name} challenges {t.monster[m.card].name}."))
    start_combat(t, s, ev, hero, [m])


# -- combat windows ------------------------------------------------------------------------------------


def do_pass(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    f = s.frames[-1]
    f.passes += 1
    if f.passes < len(s.heroes):
        f.seat = (f.seat + 1) % len(s.heroes)
        return
    s.frames.pop()
    if f.stage == "pre":
        roll_dice(t, s, ev)
    else:
        resolve(t, s, ev)


def card_played(s: State) -> None:
    s.frames[-1].passes = 0


def take_combat_card(s: State, a: Action) -> tuple[Combat, Hero]:
    """The fight and the hero playing a card into it; the card leaves the hero's hand or belt."""
    c = s.combat
    assert c is not None
    return c, take_card(s, a)


def do_enhance(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    c, hero = take_combat_card(s, a)
    d = t.dxm[a.a]
    target = "the boss" if c.boss else t.monster[next(m.card for m in s.monsters if m.id == a.b)].name
    c.mods.append(Mod(d.name, d.amount, 1, a.b))
    c.extra_treasures += d.treasures
    ev.append(Event("interfere", f"{hero.name} plays {d.name} on {target}: {d.amount:+d}."))
    discard_card(t, s, a.a)
    card_played(s)


def do_wander(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    c, hero = take_combat_card(s, a)
    ev.append(Event("interfere", f"{hero.name} plays {t.names[a.a]}!"))
    discard_card(t, s, a.a)
    m = spawn_monster(t, s, ev, c.x, c.y, "A wandering monster")
    if m is not None:
        fighting = s.heroes[c.active]
        if ignores(t, m, fighting):  # (as on every other way in: it stays in the room, out of the fight)
            name = t.monster[m.card].name
            ev.append(
                Event(
                    "monster",
                    f"{name} ignores {fighting.name} (Level {fighting.level}): it stays out of the fight.",
                )
            )
        else:
            c.monsters.append(m.id)
            ev.append(Event("monster", f"{t.monster[m.card].name} joins the fight."))
    card_played(s)


def do_use(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    c, hero = take_combat_card(s, a)
    item = t.treasure[a.a]
    bonus = item.bonus
    if a.b == 0 and item.bonuses:  # "+3 more against Undead": for the heroes, against the fight's monsters
        tags = fight_tags(t, s, c)
        bonus += sum(b.amount for b in item.bonuses if b.vs in tags)
    c.mods.append(Mod(item.name, bonus, a.b))
    side = "the heroes" if a.b == 0 else "the monsters"
    how = "throws" if item.thrown else "uses"
    ev.append(Event("interfere", f"{hero.name} {how} {item.name} for {side}: {bonus:+d}."))
    discard_card(t, s, a.a)
    card_played(s)


def do_dice(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    c, hero = take_combat_card(s, a)
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
    card_played(s)


def do_invite(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    hero, other = s.heroes[a.seat], s.heroes[a.a]
    c.invited.append(other.seat)
    n, first = a.b % 10, a.b >= 10
    s.frames.append(Frame(kind=INVITE, seat=other.seat, n=n, first=first, target=a.c))
    ev.append(
        Event("invite", f"{hero.name} asks {other.name} to help, offering {terms_words(n, first, a.c)}.")
    )


def do_accept(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
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
            "invite", f"{helper.name} accepts and joins the fight for {terms_words(f.n, f.first, f.target)}."
        )
    )
    if moved:
        entered(t, s, helper, ev)
    card_played(s)


def do_decline(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    s.frames.pop()
    ev.append(Event("invite", f"{s.heroes[a.seat].name} declines to help."))


# -- after combat --------------------------------------------------------------------------------------


def do_take(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    f = s.frames[-1]
    active, helper = s.heroes[s.active], s.heroes[f.target]
    active.hand.remove(a.a)
    helper.hand.append(a.a)
    f.n -= 1
    name = t.names[a.a]
    public = f"{helper.name} receives a Treasure card from {active.name} as agreed."
    # (one line in every log: the giver, who chose the card, reads the public line; a second, private
    # line for the giver told the same reward twice)
    ev.append(Event("reward", public, helper.seat, f"You receive {name} from {active.name} as agreed."))


def do_lose(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    f = s.frames[-1]
    hero = take_card(s, a)
    discard_card(t, s, a.a)
    f.n -= 1
    ev.append(Event("lose", f"{hero.name} loses {t.names[a.a]}."))


def do_flee(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    s.frames.pop()
    hero = s.heroes[a.seat]
    hero.x, hero.y = hero.x + DX[a.a], hero.y + DY[a.a]
    ev.append(Event("flee", f"{hero.name} flees {DIR_NAMES[a.a]} to {room_name(t, s, hero.x, hero.y)}."))
    entered(t, s, hero, ev)


def do_charity(t: CardTable, s: State, a: Action, ev: list[Event]) -> None:
    f = s.frames[-1]
    hero = s.heroes[a.seat]
    hero.hand.remove(a.a)
    name = t.names[a.a]
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
        discard_card(t, s, a.a)
        ev.append(Event("charity", f"{hero.name} discards {name}."))


HANDLERS: dict[ActionKind, Handler] = {
    "done": do_done,
    "end": do_end,
    "pass": do_pass,
    "search": do_search,
    "accept": do_accept,
    "decline": do_decline,
    "buylevel": do_buylevel,
    "move": do_move,
    "flee": do_flee,
    "pickup": do_pickup,
    "deal": do_deal,
    "equip": do_equip,
    "stow": do_stow,
    "belt": do_belt,
    "discard": do_discard,
    "give": do_give,
    "charity": do_charity,
    "take": do_take,
    "lose": do_lose,
    "challenge": do_challenge,
    "play": do_play,
    "curse": do_curse,
    "enhance": do_enhance,
    "wander": do_wander,
    "use": do_use,
    "dice": do_dice,
    "wall": do_wall,
    "shove": do_shove,
    "teleport": do_teleport,
    "invite": do_invite,
}
