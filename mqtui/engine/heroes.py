"""Heroes: races, classes and their powers, carrying items, Bad Stuff and curses, death."""

from __future__ import annotations

from mqtui.engine import rng
from mqtui.engine.actions import Event
from mqtui.engine.board import discard, draw_to_hand, hero_room, room_at
from mqtui.engine.cards import DXM, TREASURE, CardTable, Traits
from mqtui.engine.defs import Effect, Power, TreasureDef
from mqtui.engine.state import (
    HIDDEN,
    LOSE_ITEM,
    Frame,
    Hero,
    State,
)

MAX_LEVEL = 10
BASE_BACKPACK = 2
HAND_LIMIT = 5


def race_ids(t: CardTable, hero: Hero) -> list[str]:
    return [t.dxm[u].race for u in hero.races]


def class_ids(t: CardTable, hero: Hero) -> list[str]:
    return [t.dxm[u].klass for u in hero.classes]


def traits(t: CardTable, hero: Hero) -> Traits:
    """The hero's race and class ids and powers, cached per combination of cards."""
    key = (*hero.races, -1, *hero.classes)
    found = t.traits_cache.get(key)
    if found is None:
        ids = frozenset(race_ids(t, hero) or ["human"]) | frozenset(class_ids(t, hero))
        powers = tuple(p for r in race_ids(t, hero) for p in t.content.races[r].powers) + tuple(
            p for c in class_ids(t, hero) for p in t.content.classes[c].powers
        )
        totals: dict[str, int] = {}
        for p in powers:
            totals[p.kind] = totals.get(p.kind, 0) + p.amount
        races = "/".join(t.content.races[r].name for r in race_ids(t, hero)) or "Human"
        classes = "/".join(t.content.classes[c].name for c in class_ids(t, hero)) or "no class"
        found = Traits(ids, powers, totals, f"{races} {classes}")
        t.traits_cache[key] = found
    return found


def identity(t: CardTable, hero: Hero) -> frozenset[str]:
    """The hero's race and class ids ("human" when it has no race card)."""
    return traits(t, hero).ids


def describe(t: CardTable, hero: Hero) -> str:
    """The hero's races and classes in words, e.g. "Elf/Dwarf Wizard" or "Human no class"."""
    return traits(t, hero).text


def powers(t: CardTable, hero: Hero) -> tuple[Power, ...]:
    """The powers of the hero's races and classes."""
    return traits(t, hero).powers


def power_total(t: CardTable, hero: Hero, kind: str) -> int:
    return traits(t, hero).totals.get(kind, 0)


def sale_price(t: CardTable, hero: Hero, uid: int, percent: int) -> int:
    """The gold a room that pays ``percent`` of an item's value gives ``hero`` for item ``uid`` (with
    the hero's "sell for more" powers): the engine pays it, the actions pane says it."""
    return t.treasure[uid].gold * percent // 100 * (100 + power_total(t, hero, "sell_bonus")) // 100


def has_power(t: CardTable, hero: Hero, kind: str) -> bool:
    return kind in traits(t, hero).totals


def d10_power(t: CardTable, s: State, ev: list[Event], hero: Hero, kind: str, what: str) -> bool:
    """Roll the d10 for a d10 power: it works when the roll is at most the hero's Level."""
    if not has_power(t, hero, kind):
        return False
    roll = rng.roll(s, 10)
    works = roll <= hero.level
    verdict = "works" if works else "fails"
    ev.append(Event("power", f"{hero.name}'s {what}: d10 {roll} vs Level {hero.level}: {verdict}."))
    return works


def set_level(
    t: CardTable, s: State, ev: list[Event], hero: Hero, level: int, why: str, kill: bool = False
) -> None:
    """Change a hero's Level: never below 1; never to 10 except by a kill."""
    if level > hero.level:
        cap = MAX_LEVEL if kill else MAX_LEVEL - 1
        level = min(level, max(cap, hero.level))
    new = max(1, level)
    if new != hero.level:
        word = "rises" if new > hero.level else "falls"
        ev.append(Event("level", f"{hero.name} {word} to Level {new} ({why})."))
        hero.level = new


# -- items ----------------------------------------------------------------------------------------


def usable(t: CardTable, hero: Hero, item: TreasureDef) -> bool:
    if not item.only and not item.forbid:
        return True  # most items: anyone may use them
    ids = traits(t, hero).ids
    if item.only and ids.isdisjoint(item.only):
        return False
    return ids.isdisjoint(item.forbid)


def carried(hero: Hero) -> list[int]:
    """The hero's played Treasure cards: in use, on the belt, in the backpack."""
    return [*hero.equipped, *hero.belt, *hero.backpack]


def hands_used(t: CardTable, hero: Hero) -> int:
    hands = 0
    for u in hero.equipped:
        slot = t.treasure[u].slot
        if slot == "hand":
            hands += 1
        elif slot == "two_hands":
            hands += 2
    return hands


def big_count(t: CardTable, hero: Hero) -> int:
    return sum(1 for u in hero.equipped + hero.backpack if t.treasure[u].big)


def backpack_size(t: CardTable, hero: Hero) -> int:
    return BASE_BACKPACK + traits(t, hero).totals.get("backpack", 0)


def can_equip(t: CardTable, hero: Hero, uid: int) -> str | None:
    """Why the item cannot be put in use now, or None if it can."""
    item = t.treasure[uid]
    if item.kind != "equipment":
        return "only equipment can be put in use"
    if not usable(t, hero, item):
        return f"{item.name} is not for a {describe(t, hero)}"
    if item.big and uid not in hero.backpack and big_count(t, hero) >= 1 + power_total(t, hero, "carry_big"):
        return "you already carry a Big item"
    slot = item.slot
    if slot in ("hand", "two_hands"):
        need = 2 if slot == "two_hands" else 1
        if hands_used(t, hero) + need > 2:
            return "your hands are full"
    elif slot != "trinket":
        for u in hero.equipped:
            if t.treasure[u].slot == slot:
                return f"you already wear {slot}"
    return None


def can_stow(t: CardTable, hero: Hero, uid: int) -> bool:
    if len(hero.backpack) >= backpack_size(t, hero):
        return False
    item = t.treasure[uid]
    return not (
        item.big and uid not in hero.equipped and big_count(t, hero) >= 1 + power_total(t, hero, "carry_big")
    )


def remove_card(hero: Hero, uid: int) -> None:
    for pile in (hero.hand, hero.equipped, hero.belt, hero.backpack):
        if uid in pile:
            pile.remove(uid)
            return
    raise ValueError(f"card {uid} is not with {hero.name}")


def lose_identity_cards(t: CardTable, s: State, hero: Hero, race: bool) -> None:
    cards = hero.races if race else hero.classes
    for uid in cards:
        discard(t, s, uid)
    cards.clear()
    extra = hero.half_breed if race else hero.super_munchkin  # the card that lets it keep two
    if extra != HIDDEN:
        discard(t, s, extra)
        if race:
            hero.half_breed = HIDDEN
        else:
            hero.super_munchkin = HIDDEN


# -- Bad Stuff and curses ---------------------------------------------------------------------------


def apply_effects(
    t: CardTable,
    s: State,
    ev: list[Event],
    hero: Hero,
    effects: tuple[Effect, ...],
    source: str,
    start: int = 0,
) -> int:
    """Apply ``effects[start:]`` in order, stopping after one that asks the victim to choose (what
    follows waits for the choice). Returns how many effects are done: ``len(effects)`` unless stopped."""
    for i in range(start, len(effects)):
        if hero.dead:
            break
        asked = len(s.frames)
        apply_effect(t, s, ev, hero, effects[i], source)
        if len(s.frames) > asked:
            return i + 1
    return len(effects)


def lose_candidates(hero: Hero, f: Frame) -> list[int]:
    """The items a hero may give up in a lose-item frame: those it names (a slot's items), else any
    it carries."""
    return [u for u in carried(hero) if not f.options or u in f.options]


def apply_effect(t: CardTable, s: State, ev: list[Event], hero: Hero, e: Effect, source: str) -> None:
    name = hero.name
    k = e.kind
    if k == "lose_levels":
        set_level(t, s, ev, hero, hero.level - e.amount, source)
    elif k == "lose_slot":
        if e.slot == "big":  # the Big item, in use or in the backpack
            lost = [u for u in hero.equipped + hero.backpack if t.treasure[u].big]
        elif e.slot == "hand":
            lost = [u for u in hero.equipped if t.treasure[u].slot in ("hand", "two_hands")]
        else:
            lost = [u for u in hero.equipped if t.treasure[u].slot == e.slot]
        if len(lost) > 1:  # two hand items, two Big items: the victim chooses
            s.frames.append(Frame(kind=LOSE_ITEM, seat=hero.seat, n=1, options=lost))
        elif lost:
            u = lost[0]
            remove_card(hero, u)
            discard(t, s, u)
            ev.append(Event("lose", f"{name} loses {t.names[u]} ({source})."))
    elif k == "lose_item":
        n = min(e.amount, len(carried(hero)))
        if n:
            s.frames.append(Frame(kind=LOSE_ITEM, seat=hero.seat, n=n))
    elif k == "lose_gold":
        gold = min(hero.gold, e.amount)
        hero.gold -= gold
        ev.append(Event("gold", f"{name} loses {gold} gold ({source})."))
    elif k == "lose_race":
        if hero.races:
            lose_identity_cards(t, s, hero, race=True)
            ev.append(Event("lose", f"{name} is Human again ({source})."))
    elif k == "lose_class":
        if hero.classes:
            lose_identity_cards(t, s, hero, race=False)
            ev.append(Event("lose", f"{name} loses their class ({source})."))
    elif k == "lose_moves":
        hero.lose_moves += e.amount
        ev.append(Event("moves", f"{name} will have {e.amount} fewer Moves next turn ({source})."))
    elif k == "discard_cards":
        for _ in range(min(e.amount, len(hero.hand))):
            uid = hero.hand.pop(rng.below(s, len(hero.hand)))
            discard(t, s, uid)
            ev.append(
                Event(
                    "lose", f"{name} discards a card ({source}).", hero.seat, f"You discard {t.names[uid]}."
                )
            )
    elif k == "lose_life":
        lose_life(t, s, ev, hero, e.amount, source)
    elif k == "to_entrance":
        hero.x, hero.y = 0, 0
        ev.append(Event("move", f"{name} is sent back to the Entrance ({source})."))
        entered(t, s, hero, ev)
    elif k == "death":
        ev.append(Event("death", f"{name} is killed outright ({source})."))
        die(t, s, ev, hero)


def lose_life(t: CardTable, s: State, ev: list[Event], hero: Hero, amount: int, source: str) -> None:
    hero.life = max(0, hero.life - amount)
    ev.append(Event("life", f"{hero.name} loses {amount} Life ({source}): {hero.life} left."))
    if hero.life == 0:
        die(t, s, ev, hero)


def entered(t: CardTable, s: State, hero: Hero, ev: list[Event]) -> None:
    """A hero came into a room, whichever way (walking, exploring, fleeing, teleporting, joining a
    fight, sent back to the Entrance): the room's effects on a hero who enters."""
    rdef = t.room(hero_room(s, hero).room)
    for rule in rdef.rules:
        if rule.kind == "heal_on_enter":
            heal(hero, ev, rule.amount, rdef.name)


def heal(hero: Hero, ev: list[Event], amount: int, source: str) -> None:
    gained = min(amount, hero.max_life - hero.life)
    if gained:
        hero.life += gained
        ev.append(Event("life", f"{hero.name} gains {gained} Life ({source}): {hero.life}."))


def die(t: CardTable, s: State, ev: list[Event], hero: Hero) -> None:
    """Drop all played Treasure in the room, lose a Level, draw 2 DxM and 2 Treasure, refill Life;
    back at the Entrance at the start of the hero's next turn."""
    dropped = carried(hero)
    room = room_at(s, hero.x, hero.y) or hero_room(s, hero)
    if dropped:
        room.piles.append(dropped)
        ev.append(
            Event("drop", f"{hero.name}'s gear ({', '.join(t.names[u] for u in dropped)}) lies on the floor.")
        )
    hero.equipped, hero.belt, hero.backpack = [], [], []
    ev.append(Event("death", f"{hero.name} dies!"))
    hero.deaths += 1
    set_level(t, s, ev, hero, hero.level - 1, "death")
    hero.dead = True
    hero.life = hero.max_life
    draw_to_hand(t, s, ev, hero, DXM, 2)
    draw_to_hand(t, s, ev, hero, TREASURE, 2)
