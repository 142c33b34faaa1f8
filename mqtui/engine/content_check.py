"""The content checks: what :func:`~mqtui.engine.content.load_content` verifies once every file is
decoded (ids that refer to other entries, numbers in range, fields that only some kinds have).

Each content kind is a ``Literal`` field of its definition (:mod:`mqtui.engine.defs`), so msgspec has
already refused any unknown word while decoding; what is left here needs more than one field or more
than one entry. The same checks run on a save's own copy of its content (:func:`check_content`).
Every message names the file, the entry and the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mqtui.engine.defs import (
    COLOURS,
    CONNECTIONS,
    DICE_ACTIONS,
    DUNGEON_ACTIONS,
    LOSE_SLOTS,
    ONESHOT_USES,
    SHRINE_GIFTS,
    SLOTS,
    WEIRD_KINDS,
    Bonus,
    ClassDef,
    Content,
    Deal,
    DxmDef,
    Effect,
    HeroCardDef,
    MonsterDef,
    Power,
    RaceDef,
    RoomDef,
    RoomRule,
    Tables,
    TreasureDef,
)

MAX_LEVEL = 20
SEARCH_MIN, SEARCH_MAX = -5, 15
MAX_CARDS = 5000  # a bound on content that did not come from TOML (a save's own copy)

# effect/power/rule kinds whose ``amount`` must be at least 1 (the others have none: their rules text
# prints no amount, so the loader refuses one: mqtui.engine.rules_text)
EFFECT_AMOUNT = frozenset(
    {"lose_levels", "lose_item", "lose_gold", "lose_moves", "discard_cards", "lose_life"}
)
POWER_AMOUNT = frozenset(
    {
        "combat_bonus",
        "bonus_vs_tag",
        "escape_bonus",
        "extra_moves",
        "search_bonus",
        "sell_bonus",
        "carry_big",
        "backpack",
    }
)
_RULE_POSITIVE = {"monster_dice", "leave_cost", "heal_on_enter"}
_RULE_NONZERO = {"monster_bonus", "hero_bonus", "escape_bonus"}


class ContentError(Exception):
    """Content that cannot be loaded. ``errors`` holds one line per problem; ``str()`` joins them."""

    def __init__(self, errors: str | Sequence[str]) -> None:
        self.errors: list[str] = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("\n".join(self.errors))


@dataclass
class Item:
    """A converted definition together with where it came from (for error messages)."""

    obj: Any
    file: str
    label: str  # e.g. 'monster "slime-baron"'
    text: str | None = None  # the rules text the entry's file wrote, if it wrote one (checked, not kept)


@dataclass
class Merged:
    races: dict[str, Item] = field(default_factory=dict)
    classes: dict[str, Item] = field(default_factory=dict)
    rooms: dict[str, Item] = field(default_factory=dict)
    monsters: dict[str, Item] = field(default_factory=dict)
    treasures: dict[str, Item] = field(default_factory=dict)
    dxm: dict[str, Item] = field(default_factory=dict)
    entrance: Item | None = None
    tables: Tables | None = None
    tables_file: str = ""

    def by_key(self, key: str) -> dict[str, Item]:
        table: dict[str, dict[str, Item]] = {
            "race": self.races,
            "class": self.classes,
            "room": self.rooms,
            "monster": self.monsters,
            "treasure": self.treasures,
            "dxm": self.dxm,
        }
        return table[key]


class _Check:
    """Collects messages for one entry. Each check calls :meth:`fail` only when it fails, so that no
    message is built for a field that is right (content is checked at every load: some two thousand
    checks for the base content)."""

    def __init__(self, item: Item, errors: list[str]) -> None:
        self.item = item
        self.errors = errors

    def fail(self, fld: str, msg: str) -> None:
        self.errors.append(f'{self.item.file}: {self.item.label}: field "{fld}": {msg}')

    def one_of(self, value: str, allowed: Iterable[str], fld: str, what: str = "") -> None:
        allowed = tuple(allowed)
        if value not in allowed:
            self.fail(fld, f'unknown {what or "value"} "{value}" (expected one of: {", ".join(allowed)})')


def validate(m: Merged, errors: list[str]) -> None:
    races, classes = set(m.races), set(m.classes)
    heroes = races | classes
    tags = {t for it in m.monsters.values() for t in it.obj.tags}
    vs_ok = heroes | tags

    for rid in sorted(races & classes):
        item = m.classes[rid]
        _Check(item, errors).fail("id", f'"{rid}" is both a race and a class id')

    def who(check: _Check, value: str, fld: str) -> None:
        if value and value not in heroes:
            check.fail(fld, f'"{value}" is not a race or class id')

    def bonuses(check: _Check, items: tuple[Bonus, ...], fld: str) -> None:
        for i, b in enumerate(items):
            if b.vs not in vs_ok:
                check.fail(f"{fld}[{i}].vs", f'"{b.vs}" is not a race id, class id or monster tag')
            if b.amount == 0:
                check.fail(f"{fld}[{i}].amount", "must not be 0")

    def effects(check: _Check, items: tuple[Effect, ...], fld: str) -> None:
        for i, e in enumerate(items):
            if e.kind == "lose_slot":
                if not e.slot:
                    check.fail(
                        f"{fld}[{i}].slot", f'required for "lose_slot" (one of: {", ".join(LOSE_SLOTS)})'
                    )
            else:
                if e.slot:
                    check.fail(f"{fld}[{i}].slot", f'only "lose_slot" effects have a slot (kind "{e.kind}")')
            if e.kind in EFFECT_AMOUNT and e.amount < 1:
                check.fail(f"{fld}[{i}].amount", f"must be at least 1, got {e.amount}")

    def powers(check: _Check, items: tuple[Power, ...]) -> None:
        for i, p in enumerate(items):
            if p.kind in POWER_AMOUNT and p.amount < 1:
                check.fail(f"powers[{i}].amount", f"must be at least 1, got {p.amount}")
            if p.kind == "bonus_vs_tag":
                if not p.tag:
                    check.fail(f"powers[{i}].tag", 'required for "bonus_vs_tag"')
            else:
                if p.tag:
                    check.fail(f"powers[{i}].tag", f'only "bonus_vs_tag" powers have a tag (kind "{p.kind}")')

    # what every race, class and card has: a name; powers (races, classes) or copies (cards)
    for it in [
        *m.races.values(),
        *m.classes.values(),
        *m.monsters.values(),
        *m.treasures.values(),
        *m.dxm.values(),
    ]:
        c = _Check(it, errors)
        if not it.obj.name.strip():
            c.fail("name", "must not be empty")
        if isinstance(it.obj, HeroCardDef):
            powers(c, it.obj.powers)
        else:
            if it.obj.count < 1:
                c.fail("count", f"must be at least 1, got {it.obj.count}")

    # rooms
    if m.entrance is not None:
        e: RoomDef = m.entrance.obj
        c = _Check(m.entrance, errors)
        if e.id != "entrance":
            c.fail("id", f'the entrance\'s id must be "entrance", got "{e.id}"')
        if e.tile != 0:
            c.fail("tile", f"the entrance is tile 0, got {e.tile}")
        if e.arrows:
            c.fail("arrows", "the entrance has no monster arrows")
        if e.rules:
            c.fail("rules", "the entrance has no rules")
        if e.deal is not None:
            c.fail("deal", "the entrance has no deal")
        if not 0 < len(e.short) <= 10:
            c.fail("short", f"must be 1 to 10 characters, got {len(e.short)}")
    tiles: dict[int, list[Item]] = {}
    for it in m.rooms.values():
        r: RoomDef = it.obj
        c = _Check(it, errors)
        if not r.name.strip():
            c.fail("name", "must not be empty")
        if not 0 < len(r.short) <= 10:
            c.fail("short", f"must be 1 to 10 characters, got {len(r.short)} ({r.short!r})")
        if r.id == "entrance":
            c.fail("id", '"entrance" is reserved for the [entrance] table')
        if r.tile < 1:
            c.fail("tile", f"must be at least 1 (tile 0 is the entrance), got {r.tile}")
        if not -5 <= r.search <= 5:
            c.fail("search", f"must be between -5 and 5, got {r.search}")
        for colour in r.arrows:
            c.one_of(colour, COLOURS, f"arrows.{colour}", "colour")
        for i, rule in enumerate(r.rules):
            _check_rule(c, rule, f"rules[{i}]")
            if rule.kind == "hero_bonus":
                who(c, rule.who, f"rules[{i}].who")
        if r.deal is not None:
            _check_deal(c, r.deal)
            who(c, r.deal.who, "deal.who")
        tiles.setdefault(r.tile, []).append(it)
    for tile, items in sorted(tiles.items()):
        if tile >= 1 and len(items) != 2:
            names = ", ".join(f'"{x.obj.id}"' for x in items)
            _Check(items[-1], errors).fail(
                "tile", f"tile {tile} must have exactly two faces (two rooms), has {len(items)}: {names}"
            )

    for it in m.monsters.values():
        mo: MonsterDef = it.obj
        c = _Check(it, errors)
        if not 1 <= mo.level <= MAX_LEVEL:
            c.fail("level", f"must be between 1 and {MAX_LEVEL}, got {mo.level}")
        if mo.treasures < 0:
            c.fail("treasures", f"must not be negative, got {mo.treasures}")
        if mo.levels < 1:
            c.fail("levels", f"must be at least 1, got {mo.levels}")
        if not 0 <= mo.ignores < MAX_LEVEL:
            c.fail("ignores", f"must be between 0 and {MAX_LEVEL - 1}, got {mo.ignores}")
        if mo.move == "weird":
            if not mo.weird:
                c.fail("weird", f'required when move is "weird" (one of: {", ".join(WEIRD_KINDS)})')
        else:
            if mo.weird:
                c.fail("weird", f'only "weird" movers have a weird rule (move is "{mo.move}")')
        for i, tag in enumerate(mo.tags):
            if not tag.strip():
                c.fail(f"tags[{i}]", "must not be empty")
        bonuses(c, mo.bonuses, "bonuses")
        effects(c, mo.bad_stuff, "bad_stuff")

    for it in m.treasures.values():
        t: TreasureDef = it.obj
        c = _Check(it, errors)
        if t.gold < 0:
            c.fail("gold", f"must not be negative, got {t.gold}")
        if t.kind == "equipment":
            if not t.slot:
                c.fail("slot", f'required for kind "equipment" (one of: {", ".join(SLOTS)})')
        else:
            if t.slot:
                c.fail("slot", f'only equipment has a slot (kind "{t.kind}")')
            if t.big:
                c.fail("big", f'only equipment can be big (kind "{t.kind}")')
        if t.kind == "oneshot":
            if not t.use:
                c.fail("use", f'required for kind "oneshot" (one of: {", ".join(ONESHOT_USES)})')
            if t.use in ("heal", "moves") and t.amount < 1:
                c.fail("amount", f'must be at least 1 for use "{t.use}", got {t.amount}')
        else:
            if t.use:
                c.fail("use", f'only one-shots have a use (kind "{t.kind}")')
            if t.thrown:
                c.fail("thrown", f'only one-shots can be thrown (kind "{t.kind}")')
        for fld, refs in (("only", t.only), ("forbid", t.forbid)):
            for i, ref in enumerate(refs):
                if ref not in heroes:
                    c.fail(f"{fld}[{i}]", f'"{ref}" is not a race or class id')
        bonuses(c, t.bonuses, "bonuses")

    for it in m.dxm.values():
        d: DxmDef = it.obj
        c = _Check(it, errors)
        if d.treasures < 0:
            c.fail("treasures", f"must not be negative, got {d.treasures}")
        for kind, fld, ref, ids in (("race", "race", d.race, races), ("class", "klass", d.klass, classes)):
            if d.kind == kind:
                if ref not in ids:
                    c.fail(fld, f'"{ref}" is not a {kind} id')
            else:
                if ref:
                    c.fail(fld, f'only "{kind}" cards name a {kind} (kind "{d.kind}")')
        if d.kind == "curse":
            if not d.effects:
                c.fail("effects", "a curse needs at least one effect")
        else:
            if d.effects:
                c.fail("effects", f'only curses have effects (kind "{d.kind}")')
        effects(c, d.effects, "effects")
        if d.kind == "enhancer" and d.amount == 0:
            c.fail("amount", "an enhancer's amount must not be 0")
        if d.kind == "moves" and d.amount < 1:
            c.fail("amount", f"must be at least 1, got {d.amount}")
        if d.kind == "dungeon":
            c.one_of(d.action, DUNGEON_ACTIONS, "action", "dungeon action")
        elif d.kind == "dice":
            c.one_of(d.action, DICE_ACTIONS, "action", "dice action")
            if d.action == "plus" and d.amount == 0:
                c.fail("amount", 'a "plus" dice card needs a non-zero amount')
        else:
            if d.action:
                c.fail("action", f'only dungeon and dice cards have an action (kind "{d.kind}")')

    if m.tables is not None:
        _check_tables(m.tables, m.tables_file, errors)


def _check_rule(c: _Check, rule: RoomRule, fld: str) -> None:
    if rule.kind in _RULE_POSITIVE and rule.amount < 1:
        c.fail(f"{fld}.amount", f'must be at least 1 for "{rule.kind}", got {rule.amount}')
    if rule.kind in _RULE_NONZERO and rule.amount == 0:
        c.fail(f"{fld}.amount", f'must not be 0 for "{rule.kind}"')
    if rule.kind != "hero_bonus" and rule.who:
        c.fail(f"{fld}.who", f'only "hero_bonus" rules name a race/class (kind "{rule.kind}")')


def _check_deal(c: _Check, deal: Deal) -> None:
    if deal.price < 0:
        c.fail("deal.price", f"must not be negative, got {deal.price}")
    if deal.amount < 1:
        c.fail("deal.amount", f"must be at least 1, got {deal.amount}")
    if deal.kind == "shrine":
        if not deal.gives:
            c.fail("deal.gives", f"required for a shrine (one of: {', '.join(SHRINE_GIFTS)})")
    else:
        if deal.gives:
            c.fail("deal.gives", f'only shrines have "gives" (kind "{deal.kind}")')
    if deal.kind not in ("shrine",) and deal.who:
        c.fail("deal.who", f'only shrines favour a race/class (kind "{deal.kind}")')
    if deal.kind in ("buy_treasure", "heal", "buy_dxm") and deal.price < 1:
        c.fail("deal.price", f'"{deal.kind}" needs a price, got {deal.price}')


def _check_tables(t: Tables, shown: str, errors: list[str]) -> None:
    def err(label: str, fld: str, msg: str) -> None:
        errors.append(f'{shown}: {label}: field "{fld}": {msg}')

    rows = t.search
    for i, row in enumerate(rows):
        label = f"search row #{i + 1}"
        if row.low > row.high:
            err(label, "high", f"low ({row.low}) is greater than high ({row.high})")
        if row.gold < 0:
            err(label, "gold", f"must not be negative, got {row.gold}")
        if row.treasures < 0:
            err(label, "treasures", f"must not be negative, got {row.treasures}")
        if row.result == "gold" and row.gold <= 0:
            err(label, "gold", 'a "gold" row needs gold > 0')
        if row.result == "treasure" and row.treasures <= 0:
            err(label, "treasures", 'a "treasure" row needs treasures > 0')
        if i > 0:
            prev = rows[i - 1]
            if row.low != prev.high + 1:
                what = "gap" if row.low > prev.high + 1 else "overlap"
                err(
                    label,
                    "low",
                    f"{what}: rows must be sorted and contiguous; row #{i} ends at {prev.high}, "
                    f"this one starts at {row.low}",
                )
    if rows:
        if rows[0].low > SEARCH_MIN:
            err(
                "search row #1",
                "low",
                f"the table must cover rolls from {SEARCH_MIN}, starts at {rows[0].low}",
            )
        if rows[-1].high < SEARCH_MAX:
            err(
                f"search row #{len(rows)}",
                "high",
                f"the table must cover rolls up to {SEARCH_MAX}, ends at {rows[-1].high}",
            )
    for k, v in t.bag.items():
        if k not in CONNECTIONS:
            err("bag", k, f'unknown connection "{k}" (expected one of: {", ".join(CONNECTIONS)})')
        if v < 0:
            err("bag", k, f"must not be negative, got {v}")
    passable = [k for k, v in t.bag.items() if v > 0 and k != "wall" and k in t.move_cost]
    if not passable:
        errors.append(f"{shown}: bag: needs at least one passable connection (one with a move cost)")
    for k, v in t.move_cost.items():
        if k not in CONNECTIONS:
            err("move_cost", k, f'unknown connection "{k}" (expected one of: {", ".join(CONNECTIONS)})')
        elif k == "wall":
            err("move_cost", k, "walls are impassable and have no move cost")
        if v < 1:
            err("move_cost", k, f"must be at least 1, got {v}")


def check_content(content: Content, where: str = "the save's content") -> list[str]:
    """The checks :func:`load_content` makes, on definitions that did not come from TOML files (a save's
    own copy of its content): one line per problem, ``[]`` if the engine can use them."""
    errors: list[str] = []

    def items(kind: str, defs: Iterable[Any]) -> dict[str, Item]:
        out: dict[str, Item] = {}
        for d in defs:
            if d.id in out:
                errors.append(f'{where}: {kind} "{d.id}": field "id": duplicate id')
            out[d.id] = Item(d, where, f'{kind} "{d.id}"')
        return out

    merged = Merged(
        races=items("race", content.races.values()),
        classes=items("class", content.classes.values()),
        rooms=items("room", content.rooms),
        monsters=items("monster", content.monsters),
        treasures=items("treasure", content.treasures),
        dxm=items("dxm", content.dxm),
        entrance=Item(content.entrance, where, "entrance"),
        tables=content.tables,
        tables_file=where,
    )
    cards = sum(m.count for m in content.monsters) + sum(t.count for t in content.treasures)
    cards += sum(d.count for d in content.dxm)
    if not 0 < cards <= MAX_CARDS or len(content.rooms) > MAX_CARDS:
        errors.append(f"{where}: {cards} cards and {len(content.rooms)} rooms (at most {MAX_CARDS} of each)")
        return errors
    heroes: list[tuple[str, RaceDef | ClassDef]] = [*content.races.items(), *content.classes.items()]
    for key, d in heroes:
        if key != d.id:
            errors.append(f'{where}: "{key}": field "id": the entry says "{d.id}"')
    validate(merged, errors)
    return errors
