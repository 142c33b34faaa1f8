"""Combat: who fights, what each side's strength is made of, the dice, and what winning or losing does."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from mqtui.engine import rng
from mqtui.engine.actions import Event, Fight
from mqtui.engine.board import discard, draw_to_hand, monsters_at, neighbours, room_def, room_name
from mqtui.engine.cards import DXM, TREASURE, CardTable
from mqtui.engine.defs import RoomRule
from mqtui.engine.heroes import (
    MAX_LEVEL,
    apply_effects,
    d10_power,
    describe,
    has_power,
    identity,
    lose_life,
    power_total,
    powers,
    set_level,
    usable,
)
from mqtui.engine.rules_text import words
from mqtui.engine.state import (
    BAD_STUFF,
    FLEE,
    REWARD,
    STAGE_OVER,
    WINDOW,
    Combat,
    Frame,
    Hero,
    Monster,
    State,
    cell_key,
)

BOSS_LEVEL = 20
ESCAPE_ON = 5

Term = tuple[str, int]


def fighters(s: State, c: Combat) -> list[Hero]:
    heroes = [s.heroes[c.active]]
    if c.helper >= 0:
        heroes.append(s.heroes[c.helper])
    return heroes


def fight_monsters(s: State, c: Combat) -> list[Monster]:
    ids = c.monsters
    return [m for m in s.monsters if m.id in ids]


def room_rules(t: CardTable, s: State, c: Combat) -> tuple[RoomRule, ...]:
    room = s.rooms[s.grid[cell_key(c.x, c.y)]]
    return room_def(t, room).rules


def meets_the_boss(hero: Hero, x: int, y: int) -> bool:
    """Whether ``hero``, in its action phase at (x, y), starts the boss fight: Level 10 at the Entrance."""
    return hero.level >= MAX_LEVEL and (x, y) == (0, 0)


def ignores(t: CardTable, m: Monster, hero: Hero) -> bool:
    return hero.level <= t.monster[m.card].ignores


def hostile_monsters(t: CardTable, s: State, hero: Hero) -> list[Monster]:
    return [m for m in monsters_at(s, hero.x, hero.y) if not ignores(t, m, hero)]


def start_combat(
    t: CardTable, s: State, ev: list[Event], hero: Hero, monsters: list[Monster], boss_card: int = -1
) -> None:
    c = Combat(x=hero.x, y=hero.y, active=hero.seat, monsters=[m.id for m in monsters])
    if boss_card >= 0:
        c.boss = True
        c.boss_card = boss_card
        foes = f"the boss: {t.monster[boss_card].name}, as a Level {BOSS_LEVEL} horror"
    else:
        foes = ", ".join(f"{t.monster[m.card].name} (level {t.monster[m.card].level})" for m in monsters)
    s.combat = c
    ev.append(
        Event(
            "combat",
            f"Combat in {room_name(t, s, hero.x, hero.y)}! {hero.name} (Level {hero.level}) faces {foes}.",
        )
    )
    s.frames.append(Frame(kind=WINDOW, seat=hero.seat, stage="pre"))


def fight_tags(t: CardTable, s: State, c: Combat, monsters: list[Monster] | None = None) -> set[str]:
    """The kinds of monster the heroes fight ("+3 more against Undead"): the fight's monsters', or the
    boss card's (a Level 20 boss is still the Undead Dragon it was flipped as)."""
    if c.boss:
        return set(t.monster[c.boss_card].tags)
    if monsters is None:
        monsters = fight_monsters(s, c)
    return {tag for m in monsters for tag in t.monster[m.card].tags}


def hero_terms(t: CardTable, s: State, c: Combat, monsters: list[Monster] | None = None) -> list[Term]:
    """The heroes' side of the sum; ``monsters`` is ``fight_monsters(s, c)`` where the caller has it."""
    tags = fight_tags(t, s, c, monsters)
    rules = room_rules(t, s, c)
    terms: list[Term] = []
    for hero in fighters(s, c):
        terms += fighter_terms(t, hero, tags, rules)
    terms.extend((m.label, m.amount) for m in c.mods if m.side == 0)
    return terms


POWER_TERM = " power"  # (the end of a power's label)
ROOM_TERM = "room"


def fighter_terms(
    t: CardTable, hero: Hero, tags: Collection[str] = (), rules: Sequence[RoomRule] = ()
) -> list[Term]:
    """One hero's part of the heroes' sum against monsters of ``tags`` in a room of ``rules`` (none of
    either: the hero's strength outside a fight): the level first, then items, powers, the room."""
    terms: list[Term] = [(f"{hero.name} level", hero.level)]
    for uid in hero.equipped:
        item = t.treasure[uid]
        if not usable(t, hero, item):
            continue
        bonus = item.bonus + sum(b.amount for b in item.bonuses if b.vs in tags)
        if bonus:
            terms.append((item.name, bonus))
    for p in powers(t, hero):
        if p.kind == "combat_bonus" or (p.kind == "bonus_vs_tag" and p.tag in tags):
            terms.append((f"{describe(t, hero)}{POWER_TERM}", p.amount))
    ids = identity(t, hero)
    for rule in rules:
        if rule.kind == "hero_bonus" and (not rule.who or rule.who in ids):
            terms.append((ROOM_TERM, rule.amount))
    return terms


def monster_terms(t: CardTable, s: State, c: Combat, monsters: list[Monster] | None = None) -> list[Term]:
    """The monsters' side of the sum; ``monsters`` as for hero_terms."""
    if monsters is None:
        monsters = fight_monsters(s, c)
    ids: set[str] = set()
    for hero in fighters(s, c):
        ids |= identity(t, hero)
    terms: list[Term] = []
    placed: set[int] = set()  # mods counted as a monster's level
    if c.boss:
        _level_terms(terms, f"{t.monster[c.boss_card].name} as boss", BOSS_LEVEL, c, 0, placed)
    for m in monsters:
        d = t.monster[m.card]
        _level_terms(terms, f"{d.name} level", d.level, c, m.id, placed)
        terms.extend((f"vs {b.vs}", b.amount) for b in d.bonuses if b.vs in ids)
    terms.extend(("room", r.amount) for r in room_rules(t, s, c) if r.kind == "monster_bonus")
    terms.extend((m.label, m.amount) for i, m in enumerate(c.mods) if m.side == 1 and i not in placed)
    return terms


def _level_terms(terms: list[Term], label: str, level: int, c: Combat, mid: int, placed: set[int]) -> None:
    """A monster's level and the enhancers played on it; together never below Level 1."""
    terms.append((label, level))
    for i, mod in enumerate(c.mods):
        if mod.side == 1 and mod.monster == mid:
            terms.append((mod.label, mod.amount))
            level += mod.amount
            placed.add(i)
    if level < 1:
        terms.append(("no lower than Level 1", 1 - level))


def die_total(c: Combat, side: int) -> int:
    base = c.hero_die if side == 0 else sum(c.monster_dice)
    return max(0, base + sum(m.amount for m in c.die_mods if m.side == side))


def totals(t: CardTable, s: State, c: Combat) -> tuple[int, int]:
    return _totals(c, hero_terms(t, s, c), monster_terms(t, s, c))


def _totals(c: Combat, h_terms: list[Term], m_terms: list[Term]) -> tuple[int, int]:
    return sum(v for _, v in h_terms) + die_total(c, 0), sum(v for _, v in m_terms) + die_total(c, 1)


def heroes_win(hero_total: int, monster_total: int, ties_win: bool) -> bool:
    """The fight's rule: the heroes win with more than the monsters, or with as much when one of them
    wins ties (a power, the Warrior's); otherwise the monsters win (ties go to the monsters)."""
    return hero_total > monster_total or (ties_win and hero_total == monster_total)


def tie_winner(t: CardTable, s: State, c: Combat) -> Hero | None:
    """The hero on the heroes' side who wins ties (a power), if one does."""
    return next((h for h in fighters(s, c) if has_power(t, h, "win_ties")), None)


def _sum_text(terms: tuple[Term, ...], die: int, total: int, whole: bool) -> str:
    if not whole:  # each side's sum alone
        return f"… = {total}"
    parts = [f"{terms[0][1]}" if terms else "0"]
    parts += [f"{'+' if v >= 0 else '-'}{abs(v)} {label}" for label, v in terms[1:]]
    return f"{' '.join(parts)} +die {die} = {total}"


def fight_text(f: Fight, terms: bool = True) -> str:
    """A fight's result in words: "Ann (3 +2 Sword +die 4 = 9) beats Goblin (…)." (``terms``: with
    each side's terms, else only its total)."""
    won = f.won
    verb = ("beat" if won else "lose to") if len(f.heroes) > 1 else ("beats" if won else "loses to")
    tie = f.hero_total == f.monster_total
    tie_note = " (a tie, won by power)" if tie and won else (" (ties go to the monsters)" if tie else "")
    return (
        f"{' and '.join(f.heroes)} ({_sum_text(f.hero_terms, f.hero_die, f.hero_total, terms)}) {verb} {f.foes} "
        f"({_sum_text(f.monster_terms, f.monster_die, f.monster_total, terms)}){tie_note}."
    )


def roll_dice(t: CardTable, s: State, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    n = max([1, *(r.amount for r in room_rules(t, s, c) if r.kind == "monster_dice")])
    c.hero_die = rng.roll(s, 6)
    c.monster_dice = [rng.roll(s, 6) for _ in range(n)]
    monsters = fight_monsters(s, c)
    # the player of the monster's colour rolls for it; for a monster of nobody's colour (the boss too)
    # the player after the one fighting does, as at the table (a player's name in every fight)
    after = s.heroes[(c.active + 1) % len(s.heroes)].name
    roller = next((h.name for h in s.heroes for m in monsters if h.colour == m.colour), after)
    dice = "+".join(map(str, c.monster_dice))
    ev.append(
        Event(
            "dice",
            f"Dice: {s.heroes[c.active].name} rolls {c.hero_die} for the heroes; {roller} rolls {dice} for the monsters.",
        )
    )
    s.frames.append(Frame(kind=WINDOW, seat=c.active, stage="post"))


def resolve(t: CardTable, s: State, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    side = fighters(s, c)
    monsters = fight_monsters(s, c)
    h_terms, m_terms = hero_terms(t, s, c, monsters), monster_terms(t, s, c, monsters)
    h_total, m_total = _totals(c, h_terms, m_terms)
    ties_win = tie_winner(t, s, c) is not None
    won = heroes_win(h_total, m_total, ties_win)
    names = " and ".join(h.name for h in side)
    if c.boss:
        foes = f"the boss ({t.monster[c.boss_card].name})"
    else:
        foes = ", ".join(t.monster[m.card].name for m in monsters) or "the monsters"
    fight = Fight(
        tuple(h.name for h in side),
        foes,
        tuple(h_terms),
        tuple(m_terms),
        die_total(c, 0),
        die_total(c, 1),
        h_total,
        m_total,
        won,
        ties_win,
    )
    ev.append(Event("result", fight_text(fight), fight=fight))
    s.combat = None
    if c.boss:
        discard(t, s, c.boss_card)
        if won:
            s.winners = [h.seat for h in side]
            s.stage = STAGE_OVER
            s.frames.clear()
            ev.append(Event("win", f"{names} {'win' if len(side) > 1 else 'wins'} the game!"))
            return
        for hero in side:
            lose_life(t, s, ev, hero, 1, "lost to the boss")
            set_level(t, s, ev, hero, hero.level - 1, "lost to the boss")
        return
    if won:
        _win(t, s, ev, c, side, monsters)
    else:
        _lose(t, s, ev, c, side, monsters)


def _win(
    t: CardTable, s: State, ev: list[Event], c: Combat, side: list[Hero], monsters: list[Monster]
) -> None:
    active = s.heroes[c.active]
    levels = treasures = 0
    for m in monsters:
        d = t.monster[m.card]
        levels += d.levels
        treasures += d.treasures
        s.monsters.remove(m)
        discard(t, s, m.card)
        active.kills += 1
        for hero in side:
            if hero.colour == m.colour:
                ev.append(Event("bonus", f"{hero.name} killed a monster hunting them: a DxM card."))
                draw_to_hand(t, s, ev, hero, DXM)
    set_level(t, s, ev, active, active.level + levels, "a kill", kill=True)
    treasures += c.extra_treasures
    if d10_power(t, s, ev, active, "d10_treasure", "treasure sense"):
        treasures += 1
    drawn = draw_to_hand(t, s, ev, active, TREASURE, treasures)
    if c.helper >= 0 and c.terms_treasures and drawn:
        chooser = c.helper if c.terms_first else c.active
        s.frames.append(
            Frame(
                kind=REWARD,
                seat=chooser,
                n=min(c.terms_treasures, len(drawn)),
                target=c.helper,
                options=drawn,
            )
        )


def _lose(
    t: CardTable, s: State, ev: list[Event], c: Combat, side: list[Hero], monsters: list[Monster]
) -> None:
    """Each loser flees after its Bad Stuff; the fighting hero's Bad Stuff comes first, then the
    helper's, each carried out by the engine in a Bad Stuff frame (see :func:`settle_bad_stuff`)."""
    where = cell_key(c.x, c.y)
    for hero in reversed(side):
        s.frames.append(Frame(kind=FLEE, seat=hero.seat, target=where))
    for hero in reversed(side):
        s.frames.append(
            Frame(kind=BAD_STUFF, seat=hero.seat, target=where, options=[m.card for m in monsters])
        )


def curse_frame(s: State, hero: Hero, card: int, done: int) -> None:
    """A curse whose effects stopped at a choice after ``done`` of them: the rest wait for it."""
    s.frames.insert(-1, Frame(kind=BAD_STUFF, seat=hero.seat, first=True, options=[card], n=1, passes=done))


def settle_bad_stuff(t: CardTable, s: State, f: Frame, hero: Hero, ev: list[Event]) -> bool:
    """What a lost fight does to one hero, in the rules' order: 1 Life, the Wizard's d10, then an
    escape roll for each monster (``options``, in the order they came into the dungeon) and the Bad
    Stuff of each one not escaped. An effect that asks the hero to choose (an item to lose) stops it
    until the choice is made: ``n`` monsters are rolled for, ``passes`` effects of the last one are
    done while a choice waits (0 otherwise), ``first`` once the Life and the d10 are behind. A curse's
    effects after a choice wait the same way. Each roll counts the run-away bonuses the hero has
    then. Always True: the frame is done or a choice is on top of it."""
    if not f.first:
        f.first = True
        lose_life(t, s, ev, hero, 1, "lost the fight")
        if hero.dead or d10_power(t, s, ev, hero, "d10_escape", "vanishing trick"):
            f.n = len(f.options)
    while not hero.dead and (f.passes or f.n < len(f.options)):
        if not f.passes:
            f.n += 1
            if _escapes(t, s, ev, hero, f.options[f.n - 1], f.target):
                continue
        uid = f.options[f.n - 1]  # a monster, or a curse
        effects = t.monster[uid].bad_stuff if uid in t.monster else t.dxm[uid].effects
        f.passes = apply_effects(t, s, ev, hero, effects, t.names[uid], f.passes)
        if s.frames[-1] is not f:  # a choice first
            if f.passes == len(effects) and f.n == len(f.options):
                del s.frames[-2]  # (this frame, under the choice): nothing is left to follow it
            return True
        f.passes = 0
    s.frames.pop()
    return True


def _escapes(t: CardTable, s: State, ev: list[Event], hero: Hero, uid: int, where: int) -> bool:
    """The escape roll against one monster of a lost fight in the room ``where`` (a cell key)."""
    room_escape = sum(r.amount for r in room_def(t, s.rooms[s.grid[where]]).rules if r.kind == "escape_bonus")
    bonus = power_total(t, hero, "escape_bonus") + room_escape
    d = t.monster[uid]
    roll = rng.roll(s, 6)
    if roll + bonus >= ESCAPE_ON:
        ev.append(Event("escape", f"{hero.name} escapes {d.name} ({escape_roll(roll, bonus)})."))
        return True
    ev.append(
        Event(
            "badstuff",
            f"{hero.name} fails to escape {d.name} ({escape_roll(roll, bonus)}): "
            f"{words(t.content).bad_stuff(d)}",
        )
    )
    return False


def escape_roll(roll: int, bonus: int) -> str:
    """The escape roll in words, with the number it needed: "d6 3 +1, 5 needed"."""
    return f"d6 {roll}{f' {bonus:+d}' if bonus else ''}, {ESCAPE_ON} needed"


def flee_options(s: State, hero: Hero) -> list[int]:
    """Sides a hero may flee through: any connection but a wall, into a placed room."""
    return [d for d, _, _ in neighbours(s, hero.x, hero.y)]
