"""The English rules text templates: one line per kind of clause (see :mod:`mqtui.engine.rules_text`).

A template is a ``str.format`` string, or a pair (singular, plural) chosen by the number ``n``. The
fields each template may use are named in the generator's call. A second language is a second module
like this one (the same keys), registered in :data:`mqtui.engine.rules_text.LOCALES`. Words that depend
on the language (plurals, lists, articles) are the functions at the end.
"""

from __future__ import annotations

TEMPLATES: dict[str, str | tuple[str, str]] = {
    # -- Bad Stuff (said to the hero who suffers it) and curses (said of the hero cursed) ----------------
    "bad_stuff": "Bad Stuff: {effects}.",
    "bad_stuff.none": "Bad Stuff: none.",
    "bad_stuff.lose_levels": ("lose 1 Level", "lose {n} Levels"),
    "bad_stuff.lose_slot.head": "lose the item you wear on your head",
    "bad_stuff.lose_slot.armor": "lose your armor",
    "bad_stuff.lose_slot.feet": "lose your footgear",
    "bad_stuff.lose_slot.hand": "lose an item you hold in your hands (your choice)",
    "bad_stuff.lose_slot.big": "lose your Big item",
    "bad_stuff.lose_item": ("lose 1 item you carry (your choice)", "lose {n} items you carry (your choice)"),
    "bad_stuff.lose_gold": "lose {n} gold",
    "bad_stuff.lose_race": "lose your race (back to Human), and any card that lets you keep two",
    "bad_stuff.lose_class": "lose your class, and any card that lets you keep two",
    "bad_stuff.lose_moves": ("lose 1 Move on your next turn", "lose {n} Moves on your next turn"),
    "bad_stuff.discard_cards": (
        "discard 1 card from your hand at random",
        "discard {n} cards from your hand at random",
    ),
    "bad_stuff.lose_life": "lose {n} more Life",
    "bad_stuff.to_entrance": "go back to the Entrance",
    "bad_stuff.death": "you die",
    "curse.lose_levels": ("lose 1 Level", "lose {n} Levels"),
    "curse.lose_slot.head": "lose the item they wear on their head",
    "curse.lose_slot.armor": "lose their armor",
    "curse.lose_slot.feet": "lose their footgear",
    "curse.lose_slot.hand": "lose an item they hold in their hands (their choice)",
    "curse.lose_slot.big": "lose their Big item",
    "curse.lose_item": ("lose 1 item they carry (their choice)", "lose {n} items they carry (their choice)"),
    "curse.lose_gold": "lose {n} gold",
    "curse.lose_race": "lose their race (back to Human), and any card that lets them keep two",
    "curse.lose_class": "lose their class, and any card that lets them keep two",
    "curse.lose_moves": ("lose 1 Move on their next turn", "lose {n} Moves on their next turn"),
    "curse.discard_cards": (
        "discard 1 card from their hand at random",
        "discard {n} cards from their hand at random",
    ),
    "curse.lose_life": "lose {n} Life",
    "curse.to_entrance": "go back to the Entrance",
    "curse.death": "die",
    # -- races and classes: a sentence per power, and a short form for the race and class cards ---------
    "power.combat_bonus": "{n:+d} to your combat strength, always.",
    "power.bonus_vs_tag": "{n:+d} against {against}.",
    "power.escape_bonus": "{n:+d} to every run-away roll.",
    "power.win_ties": "Your side wins ties in combat.",
    "power.extra_moves": (
        "1 extra Move at the start of each of your turns.",
        "{n} extra Moves at the start of each of your turns.",
    ),
    "power.search_bonus": "{n:+d} to your Search rolls.",
    "power.sell_bonus": "Items you sell fetch {n}% more gold.",
    "power.carry_big": ("You may carry 1 extra Big item.", "You may carry {n} extra Big items."),
    "power.backpack": ("Your backpack holds 1 more item.", "Your backpack holds {n} more items."),
    "power.d10_escape": "After you lose a fight, roll a d10: if it is your Level or less, you suffer no Bad Stuff at all.",
    "power.d10_heal": "At the start of your turn, if you are hurt, roll a d10: if it is your Level or less, gain 1 Life.",
    "power.d10_treasure": "After you win a fight as the fighting hero (not as a helper), roll a d10: if it is your Level or less, draw 1 more Treasure.",
    "short.combat_bonus": "{n:+d} in combat",
    "short.bonus_vs_tag": "{n:+d} against {against}",
    "short.escape_bonus": "{n:+d} to run away",
    "short.win_ties": "win ties",
    "short.extra_moves": ("1 extra Move each turn", "{n} extra Moves each turn"),
    "short.search_bonus": "{n:+d} to Search",
    "short.sell_bonus": "sell items for {n}% more",
    "short.carry_big": ("1 extra Big item", "{n} extra Big items"),
    "short.backpack": ("1 extra backpack place", "{n} extra backpack places"),
    "short.d10_escape": "d10 escape from Bad Stuff",
    "short.d10_heal": "d10 healing",
    "short.d10_treasure": "d10 extra Treasure",
    # -- rooms ---------------------------------------------------------------------------------------
    "room.entrance": "Every hero starts here and returns here after dying. Monsters never stop here. "
    "A Level 10 hero fights the final boss here.",
    "room.none": "No rule and no Deal.",
    "room.search": "Searching here: {n:+d} to the roll.",
    "rule.no_help": "Nobody may help in a fight here.",
    "rule.monster_dice": (
        "Monsters fighting here roll 1 die.",
        "Monsters fighting here roll {n} dice and add them all.",
    ),
    "rule.leave_cost": (
        "Leaving this room costs 1 extra Move (not when fleeing).",
        "Leaving this room costs {n} extra Moves (not when fleeing).",
    ),
    "rule.monster_bonus": "Monsters fighting here get {n:+d}.",
    "rule.hero_bonus": "{who} get {n:+d} in fights here.",
    "rule.hero_bonus.all": "All heroes get {n:+d} in fights here.",
    "rule.escape_bonus": "{n:+d} to run-away rolls here.",
    "rule.heal_on_enter": "A hero who enters gains {n} Life (not above the maximum).",
    "deal": "Deal (1 Move): {what}.",
    "deal.shrine": "Shrine Deal (1 Move): {what}.",
    "deal.shrine.who": "only {a} {who} may use it: {what}",
    "deal.pay": "pay {price} gold to {what}",
    "deal.sell": "sell one item (from your hand or carried) for {n}% of its gold value",
    "deal.sell.full": "sell one item (from your hand or carried) for its full gold value",
    "deal.swap_card": "discard a card from your hand and draw 1 DxM card",
    "gift.treasure": ("draw 1 Treasure card", "draw {n} Treasure cards"),
    "gift.dxm": ("draw 1 DxM card", "draw {n} DxM cards"),
    "gift.life": "gain {n} Life (not above your maximum)",
    # -- monsters ------------------------------------------------------------------------------------
    "monster.tags": "{tags}.",
    "monster.ignores": "Ignores heroes of Level {n} or lower.",
    "monster.bonus": "{n:+d} against {against}.",
    "monster.levels": ("Killing it gives 1 Level.", "Killing it gives {n} Levels."),
    "move.normal": "",
    "move.fast": "Fast: after its move it goes one more room the same way.",
    "move.slow": "Slow: moves only one room.",
    "move.lurking": "Lurking: never moves.",
    "move.contrary": "Contrary: first steps one room against the arrow, then moves normally.",
    "move.weird.hunts": "Weird (hunts): moves one room toward its target by the shortest path.",
    "move.weird.blinks": "Weird (blinks): jumps to a random placed room.",
    "move.weird.follows_last": "Weird (follows): moves along the arrows of the previous monster phase's colour.",
    # -- Treasure cards ------------------------------------------------------------------------------
    "slot.head": "Headgear.",
    "slot.armor": "Armor.",
    "slot.feet": "Footgear.",
    "slot.hand": "One hand.",
    "slot.two_hands": "Two hands.",
    "slot.trinket": "Trinket.",
    "item.big": "Big.",
    "item.bonus": "{n:+d} in combat.",
    "item.bonus_vs": "{n:+d} more against {against}.",
    "item.only": "Usable only by {who}.",
    "item.forbid": "Not usable by {who}.",
    "oneshot.bonus": "One-shot: {n:+d} to either side of a fight in this room.",
    "oneshot.bonus.thrown": "One-shot, thrown: {n:+d} to either side of a fight in this room or an adjacent one.",
    "oneshot.heal": "One-shot, on your turn outside a fight, when hurt: gain {n} Life (not above your maximum).",
    "oneshot.moves": (
        "One-shot, on your turn outside a fight: +1 Move this turn.",
        "One-shot, on your turn outside a fight: +{n} Moves this turn.",
    ),
    "oneshot.discard": "Then discard it.",
    "level": (
        "Go up a Level (never to Level 10). Play it on your turn, outside a fight.",
        "Go up {n} Levels (never to Level 10). Play it on your turn, outside a fight.",
    ),
    # -- DxM cards -----------------------------------------------------------------------------------
    "dxm.race": "Race. Play on your hero on your turn, outside a fight: you are {a} {name}{powers}. "
    "Replaces your current race; with two races allowed it joins the one you have, and a third replaces both.",
    "dxm.class": "Class. Play on your hero on your turn, outside a fight: you are {a} {name}{powers}. "
    "Replaces your current class; with two classes allowed it joins the one you have, and a third replaces both.",
    "dxm.powers": " ({powers})",
    "dxm.half_breed": "Play on your hero: you may have two race cards at once and use the powers of both.",
    "dxm.super_munchkin": "Play on your hero: you may have two class cards at once and use the powers of both.",
    "dxm.curse": "Curse! Play on another hero on your turn. {must}",
    "curse": "{hero} must {effects}.",
    "curse.that_hero": "That hero",
    "dxm.enhancer": "Play on a monster in a fight, before the dice are rolled: {n:+d} to that monster's strength.",
    "dxm.enhancer.floor": "Never below Level 1.",
    "dxm.enhancer.treasures": (
        "If it is defeated, the winners draw 1 extra Treasure card.",
        "If it is defeated, the winners draw {n} extra Treasure cards.",
    ),
    "dxm.wandering": "Play during a fight, before the dice are rolled (never in the boss fight): the top Monster card joins the monsters, unless it ignores the hero's Level.",
    "dxm.dungeon.wall_to_door": "Play on your turn, outside a fight: turn one wall of your room into an ordinary door.",
    "dxm.dungeon.move_monster": "Play on your turn, outside a fight: move one monster in your room or a room "
    "next to it one room on, through a passage or an ordinary door (never into the Entrance).",
    "dxm.dungeon.teleport": "Play on your turn, outside a fight: move your hero to any placed room. "
    "Combat there follows as usual.",
    "dxm.dice.reroll": "Play right after the dice of a fight are rolled: one side's dice are rolled again; "
    "the new roll counts.",
    "dxm.dice.plus": "Play right after the dice of a fight are rolled: {n:+d} to one side's dice.",
    "dxm.moves": (
        "Play on your turn, outside a fight: +1 Move this turn.",
        "Play on your turn, outside a fight: +{n} Moves this turn.",
    ),
    # -- the tables ----------------------------------------------------------------------------------
    "search.row": "Search roll {roll}: {result}.",
    "search.roll": "{low} to {high}",
    "search.roll.one": "{low}",
    "search.roll.up_to": "{high} or less",
    "search.roll.from": "{low} or more",
    "search.monster": "a wandering monster",
    "search.nothing": "nothing",
    "search.gold": "{n} gold",
    "search.treasure": ("1 Treasure card", "{n} Treasure cards"),
    "connection": (
        "{name}: 1 Move to pass; {count} in the bag.",
        "{name}: {n} Moves to pass; {count} in the bag.",
    ),
    "connection.impassable": "{name}: impassable; {count} in the bag.",
    "connection.name.passage": "Passage",
    "connection.name.door": "Door",
    "connection.name.locked": "Locked door",
    "connection.name.hidden": "Hidden door",
    "connection.name.wall": "Wall",
    # -- lists ---------------------------------------------------------------------------------------
    "list.sep": ", ",
    "list.and": "{items} and {last}",
    "list.or": "{items} or {last}",
}

# Monster tags (free words in the content): (the adjective on a monster, the monsters that have it).
TAGS: dict[str, tuple[str, str]] = {
    "undead": ("Undead", "Undead"),
    "slimy": ("Slimy", "Slimy monsters"),
    "dragon": ("Dragon", "Dragons"),
    "beast": ("Beast", "Beasts"),
    "goblin": ("Goblin", "Goblins"),
    "construct": ("Construct", "Constructs"),
    "demon": ("Demon", "Demons"),
    "bureaucrat": ("Bureaucrat", "Bureaucrats"),
}


def plural_index(n: int) -> int:
    """Which of a template's (singular, plural) forms a number takes."""
    return 0 if n == 1 else 1


def article(name: str) -> str:
    return "an" if name[:1].upper() in "AEIOU" else "a"


def plural(name: str) -> str:
    """A race's or class's name for all of them, when its entry gives none: Elf -> Elves."""
    if name.endswith("f"):
        return f"{name[:-1]}ves"
    if name.endswith("y") and name[-2:-1] not in tuple("aeiou"):
        return f"{name[:-1]}ies"
    if name.endswith(("s", "x", "ch", "sh")):
        return f"{name}es"
    return f"{name}s"


def tag_words(tag: str) -> tuple[str, str]:
    """A tag's (adjective, plural) words; a tag this table does not know reads as its own word."""
    return TAGS.get(tag) or (tag.capitalize(), f"{tag.capitalize()} monsters")
