"""Content definitions: the shapes of rooms, monsters and cards as loaded from ``seeds/``.

These are frozen value objects. The loader (:mod:`mqtui.engine.content`) builds them from TOML and
validates them; the rules engine only ever reads them. Every "kind" below is one word of a small,
closed vocabulary (a ``Literal`` type, so that mypy checks the engine's words and msgspec refuses any
other word on load): rules that vary per card are data, and only genuinely new mechanics are code.
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

Colour = Literal["red", "blue", "green", "yellow", "orange", "purple"]
Dir = Literal["N", "E", "S", "W"]

# Effects: Bad Stuff of monsters and curses share this vocabulary.
EffectKind = Literal[
    "lose_levels",  # amount: levels lost (never below 1)
    "lose_slot",  # slot: the item worn in that slot ("head", "armor", "feet", "hand", "big"); the victim
    # chooses when two items fit (two one-handed items, two Big items)
    "lose_item",  # amount: items in use/belt/backpack lost, chosen by the victim
    "lose_gold",  # amount: gold lost (never below 0)
    "lose_race",  # back to Human
    "lose_class",  # back to no class
    "lose_moves",  # amount: Moves lost at the start of the victim's next turn
    "discard_cards",  # amount: cards from hand, at random
    "lose_life",  # amount: extra Life lost (can kill)
    "to_entrance",  # the hero is moved to the Entrance
    "death",  # the hero dies
]
LoseSlot = Literal["head", "armor", "feet", "hand", "big"]  # what a "lose_slot" effect takes

# Powers of races and classes.
PowerKind = Literal[
    "combat_bonus",  # amount: always added to the hero's strength
    "bonus_vs_tag",  # amount, tag: added against monsters with that tag
    "escape_bonus",  # amount: added to each run-away d6
    "win_ties",  # the hero's side wins ties
    "extra_moves",  # amount: extra Moves at the start of each turn
    "search_bonus",  # amount: added to Search rolls
    "sell_bonus",  # amount: percent added to the gold value when selling
    "carry_big",  # amount: extra Big items allowed
    "backpack",  # amount: extra backpack places
    "d10_escape",  # d10 power: after a lost fight, roll d10; if <= Level, no Bad Stuff at all
    "d10_heal",  # d10 power: at the start of the turn, if hurt, roll d10; if <= Level, +1 Life
    "d10_treasure",  # d10 power: after a won fight, roll d10; if <= Level, one more Treasure
]

RoomRuleKind = Literal[
    "no_help",  # nobody may help in a fight here
    "monster_dice",  # amount: monsters roll this many dice here (2 = two dice)
    "leave_cost",  # amount: extra Moves to leave this room (not when fleeing)
    "monster_bonus",  # amount: monsters fighting here get this bonus (may be negative)
    "hero_bonus",  # amount, who: heroes of that race/class (or all, if who is "") get this bonus
    "escape_bonus",  # amount: added to run-away rolls here
    "heal_on_enter",  # amount: a hero that enters gains this much Life (up to max)
]

DealKind = Literal[
    "buy_treasure",  # price: pay gold, draw amount Treasure cards
    "heal",  # price: pay gold, gain amount Life (not above max)
    "sell",  # amount: percent of an item's gold value paid for it (an item in hand or carried)
    "swap_card",  # discard a card from hand, draw a DxM card
    "shrine",  # who: race/class favoured; gives: "life" | "dxm" | "treasure"; price
    "buy_dxm",  # price: pay gold, draw amount DxM cards
]
ShrineGift = Literal["life", "dxm", "treasure"]

MoveKind = Literal["normal", "fast", "slow", "lurking", "contrary", "weird"]
WeirdKind = Literal["hunts", "blinks", "follows_last"]

Slot = Literal["head", "armor", "feet", "hand", "two_hands", "trinket"]
TreasureKind = Literal["equipment", "oneshot", "level"]
OneshotUse = Literal["bonus", "heal", "moves"]

DxmKind = Literal[
    "race",  # race: id of a race
    "class",  # klass: id of a class
    "half_breed",  # lets the hero keep two race cards
    "super_munchkin",  # lets the hero keep two class cards
    "curse",  # effects: applied to a target hero
    "enhancer",  # amount: added to one monster in a fight (may be negative); treasures: extra
    "wandering",  # adds the top Monster card to a fight
    "dungeon",  # action: "wall_to_door" | "move_monster" | "teleport"
    "dice",  # action: "reroll" | "plus" (amount added to one die, may be negative)
    "moves",  # amount: extra Moves this turn
    "level",  # go up a level (never to 10)
]
DungeonAction = Literal["wall_to_door", "move_monster", "teleport"]
DiceAction = Literal["reroll", "plus"]

SearchResult = Literal["monster", "nothing", "gold", "treasure"]
Connection = Literal["passage", "door", "locked", "hidden", "wall"]

# The same vocabularies as tuples, in the order written above.
COLOURS: tuple[Colour, ...] = get_args(Colour)
DIRS: tuple[Dir, ...] = get_args(Dir)
EFFECT_KINDS: tuple[EffectKind, ...] = get_args(EffectKind)
LOSE_SLOTS: tuple[LoseSlot, ...] = get_args(LoseSlot)
POWER_KINDS: tuple[PowerKind, ...] = get_args(PowerKind)
ROOM_RULE_KINDS: tuple[RoomRuleKind, ...] = get_args(RoomRuleKind)
DEAL_KINDS: tuple[DealKind, ...] = get_args(DealKind)
SHRINE_GIFTS: tuple[ShrineGift, ...] = get_args(ShrineGift)
MOVE_KINDS: tuple[MoveKind, ...] = get_args(MoveKind)
WEIRD_KINDS: tuple[WeirdKind, ...] = get_args(WeirdKind)
SLOTS: tuple[Slot, ...] = get_args(Slot)
TREASURE_KINDS: tuple[TreasureKind, ...] = get_args(TreasureKind)
ONESHOT_USES: tuple[OneshotUse, ...] = get_args(OneshotUse)
DXM_KINDS: tuple[DxmKind, ...] = get_args(DxmKind)
DUNGEON_ACTIONS: tuple[DungeonAction, ...] = get_args(DungeonAction)
DICE_ACTIONS: tuple[DiceAction, ...] = get_args(DiceAction)
SEARCH_RESULTS: tuple[SearchResult, ...] = get_args(SearchResult)
CONNECTIONS: tuple[Connection, ...] = get_args(Connection)

# What a wrong word of each vocabulary is called in a loader's message ("unknown effect kind ...").
VOCABULARIES: dict[tuple[str, ...], str] = {
    COLOURS: "colour",
    DIRS: "side",
    EFFECT_KINDS: "effect kind",
    LOSE_SLOTS: "slot",
    POWER_KINDS: "power kind",
    ROOM_RULE_KINDS: "room rule kind",
    DEAL_KINDS: "deal kind",
    SHRINE_GIFTS: "shrine gift",
    MOVE_KINDS: "move type",
    WEIRD_KINDS: "weird rule",
    SLOTS: "slot",
    TREASURE_KINDS: "treasure kind",
    ONESHOT_USES: "use",
    DXM_KINDS: "DxM kind",
    DUNGEON_ACTIONS + DICE_ACTIONS: "card action",
    SEARCH_RESULTS: "result",
    CONNECTIONS: "connection",
}


class Def(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every definition."""


class Effect(Def, frozen=True):
    kind: EffectKind
    amount: int = 1
    slot: LoseSlot | Literal[""] = ""


class Power(Def, frozen=True):
    kind: PowerKind
    amount: int = 0
    tag: str = ""


class Bonus(Def, frozen=True):
    """A bonus that applies against a race, a class or a monster tag (``vs``)."""

    vs: str
    amount: int


class HeroCardDef(Def, frozen=True):
    """What races and classes share: a name and powers (their rules text is made from the powers:
    :mod:`mqtui.engine.rules_text`)."""

    id: str
    name: str
    plural: str = ""  # the name for all of them ("Elves"), if the language's rule gets it wrong
    flavour: str = ""
    powers: tuple[Power, ...] = ()


class RaceDef(HeroCardDef, frozen=True):
    pass


class ClassDef(HeroCardDef, frozen=True):
    pass


class RoomRule(Def, frozen=True):
    kind: RoomRuleKind
    amount: int = 0
    who: str = ""


class Deal(Def, frozen=True):
    kind: DealKind
    price: int = 0
    amount: int = 1
    who: str = ""
    gives: ShrineGift | Literal[""] = ""

    @property
    def gift(self) -> ShrineGift | Literal[""]:
        """What taking the Deal hands over: "treasure", "dxm" or "life" (a shrine says which in ``gives``)."""
        return _DEAL_GIFTS.get(self.kind, self.gives)


_DEAL_GIFTS: dict[DealKind, ShrineGift] = {"buy_treasure": "treasure", "buy_dxm": "dxm", "heal": "life"}


class RoomDef(Def, frozen=True):
    id: str
    name: str
    short: str  # at most 10 characters, for the map
    flavour: str
    tile: int = 0  # rooms sharing a tile number are its two faces (0 for the Entrance)
    search: int = 0  # modifier to Search rolls here
    arrows: dict[
        str, Dir
    ] = {}  # (keys: Colour, checked by the loader; heroes' colours are plain str)  # colour -> side ("N", "E", "S", "W"); a missing colour has no arrow
    rules: tuple[RoomRule, ...] = ()
    deal: Deal | None = None


class MonsterDef(Def, frozen=True):
    id: str
    name: str
    level: int
    treasures: int
    flavour: str = ""
    levels: int = 1  # levels gained by killing it
    move: MoveKind = "normal"
    weird: WeirdKind | Literal[""] = ""  # the rule of a "weird" mover
    ignores: int = 0  # ignores heroes of this Level or lower (0: ignores nobody)
    tags: tuple[str, ...] = ()
    bonuses: tuple[Bonus, ...] = ()  # against races, classes
    bad_stuff: tuple[Effect, ...] = ()
    count: int = 1


class TreasureDef(Def, frozen=True):
    id: str
    name: str
    kind: TreasureKind
    flavour: str = ""
    gold: int = 0
    slot: Slot | Literal[""] = ""  # equipment only
    big: bool = False
    bonus: int = 0  # combat bonus (equipment in use, or a one-shot's bonus for the side it is used on)
    bonuses: tuple[Bonus, ...] = ()  # extra bonus against monster tags
    use: OneshotUse | Literal[""] = ""  # one-shots: "bonus", "heal", "moves"
    amount: int = 0  # one-shots: Life or Moves
    thrown: bool = False  # one-shot usable from an adjacent room
    only: tuple[str, ...] = ()  # usable only by these races/classes
    forbid: tuple[str, ...] = ()  # not usable by these races/classes
    count: int = 1


class DxmDef(Def, frozen=True):
    id: str
    name: str
    kind: DxmKind
    flavour: str = ""
    race: str = ""
    klass: str = ""
    effects: tuple[Effect, ...] = ()
    amount: int = 0
    treasures: int = 0
    action: DungeonAction | DiceAction | Literal[""] = ""
    count: int = 1


class SearchRow(Def, frozen=True):
    """Rolls from ``low`` to ``high`` (inclusive) give this result."""

    low: int
    high: int
    result: SearchResult
    gold: int = 0
    treasures: int = 0


class Tables(Def, frozen=True):
    search: tuple[SearchRow, ...]
    # (keys: Connection, checked by the loader: the edges of a State are plain str)
    bag: dict[str, int]  # connection kind -> count
    move_cost: dict[str, int]  # connection kind -> Moves (walls absent: impassable)


class Content(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the engine needs to know about the game's cards and rooms."""

    version: str
    races: dict[str, RaceDef]
    classes: dict[str, ClassDef]
    entrance: RoomDef
    rooms: tuple[RoomDef, ...]
    monsters: tuple[MonsterDef, ...]
    treasures: tuple[TreasureDef, ...]
    dxm: tuple[DxmDef, ...]
    tables: Tables
