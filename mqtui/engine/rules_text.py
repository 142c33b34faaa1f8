"""Rules text: the words a player reads for every card, room, race, class and table entry, made from
its data, so that what a card says is what the engine does (issue 26).

Each kind of clause has one template (an effect kind, a power kind, a room rule, a deal, a movement
type, a slot...), in a table per language: :mod:`mqtui.engine.templates_en` for English. A second
language is a second table and a :class:`Locale` in :data:`LOCALES`; nothing here changes. Flavour is
hand-written and separate (the ``flavour`` fields), and is never made here.

A clause the data cannot express cannot be printed; and data that no template prints (a field the
engine ignores for that kind of card, or a template missing from a language) is refused when content is
loaded: :meth:`Words.check`.

The generator formats a definition its caller already has: it never looks a card up by number, so it
cannot be the way a hidden card reaches a seat (the callers check :data:`~mqtui.engine.state.HIDDEN`).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from mqtui.engine import templates_en
from mqtui.engine.content_check import EFFECT_AMOUNT, POWER_AMOUNT
from mqtui.engine.defs import (
    CONNECTIONS,
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
    SearchRow,
    Tables,
    TreasureDef,
)

Template = str | tuple[str, str]  # a str.format string, or (singular, plural) chosen by ``n``
Definition = RaceDef | ClassDef | RoomDef | MonsterDef | TreasureDef | DxmDef


@dataclass(frozen=True)
class Locale:
    """One language's templates and the few words that are not a template."""

    name: str
    templates: Mapping[str, Template]
    tag_words: Callable[[str], tuple[str, str]]  # monster tag -> (adjective, the monsters that have it)
    plural_index: Callable[[int], int]  # a number -> 0 (singular form) or 1 (plural form)
    article: Callable[[str], str]  # "Elf" -> "an"
    plural: Callable[[str], str]  # a race's or class's name -> all of them (unless the entry says)


EN = Locale(
    name="en",
    templates=templates_en.TEMPLATES,
    tag_words=templates_en.tag_words,
    plural_index=templates_en.plural_index,
    article=templates_en.article,
    plural=templates_en.plural,
)
LOCALES: dict[str, Locale] = {"en": EN}

# Which fields of each kind of definition a template prints, beyond those every entry has (its id,
# name, copies, gold value, flavour: shown apart from the rules text). A field outside its kind's set
# that is not at its default is data no template prints: the loader refuses it.
_TREASURE_FIELDS: dict[str, frozenset[str]] = {
    "equipment": frozenset({"slot", "big", "bonus", "bonuses", "only", "forbid"}),
    "bonus": frozenset({"use", "bonus", "bonuses", "thrown", "only", "forbid"}),
    "heal": frozenset({"use", "amount", "only", "forbid"}),
    "moves": frozenset({"use", "amount", "only", "forbid"}),
    "level": frozenset(),
}
_DXM_FIELDS: dict[str, frozenset[str]] = {
    "race": frozenset({"race"}),
    "class": frozenset({"klass"}),
    "curse": frozenset({"effects"}),
    "enhancer": frozenset({"amount", "treasures"}),
    "dungeon": frozenset({"action"}),
    "reroll": frozenset({"action"}),
    "plus": frozenset({"action", "amount"}),
    "moves": frozenset({"amount"}),
    "level": frozenset({"amount"}),
}
_COMMON = frozenset({"id", "name", "kind", "gold", "count", "flavour"})
_DEAL_FIELDS: dict[str, frozenset[str]] = {
    "shrine": frozenset({"price", "amount", "who", "gives"}),
    "sell": frozenset({"amount"}),
    "swap_card": frozenset(),
}


class Words:
    """The rules text of one content in one language. Build it with :func:`words` (cached)."""

    def __init__(self, content: Content, locale: Locale = EN) -> None:
        self.content = content
        self.locale = locale
        self._texts: dict[int, tuple[object, str]] = {}  # id(definition) -> (it, its text)
        self._missing: list[tuple[str, str]] | None = None  # (field, template key), while checking

    # -- public --------------------------------------------------------------------------------------

    def text(self, d: Definition) -> str:
        """The rules text of a race, class, room or card."""
        hit = self._texts.get(id(d))
        if hit is not None and hit[0] is d:
            return hit[1]
        if isinstance(d, HeroCardDef):
            text = self._sentences(
                self._t(f"power.{p.kind}", f"powers[{i}]", **self._power(p)) for i, p in enumerate(d.powers)
            )
        elif isinstance(d, RoomDef):
            text = self._room(d)
        elif isinstance(d, MonsterDef):
            text = self._monster(d)
        elif isinstance(d, TreasureDef):
            text = self._treasure(d)
        else:
            text = self._dxm(d)
        self._texts[id(d)] = (d, text)
        return text

    def bad_stuff(self, m: MonsterDef) -> str:
        """A monster's Bad Stuff, as a sentence: "Bad Stuff: lose 1 Level."."""
        if not m.bad_stuff:
            return self._t("bad_stuff.none", "bad_stuff")
        return self._t("bad_stuff", "bad_stuff", effects=self._effects("bad_stuff", m.bad_stuff, "bad_stuff"))

    def curse(self, d: DxmDef, hero: str = "") -> str:
        """What a curse does to the hero it is played on ("" : "That hero"): "Bob must lose 1 Level."."""
        who = hero or self._t("curse.that_hero", "effects")
        return self._t("curse", "effects", hero=who, effects=self._effects("curse", d.effects, "effects"))

    def deal_terms(self, deal: Deal) -> str:
        """What taking a Deal costs and gives, without who may take it: "pay 300 gold to draw 1 Treasure card"."""
        if deal.kind == "sell":
            if deal.amount == 100:
                return self._t("deal.sell.full", "deal")
            return self._t("deal.sell", "deal", n=deal.amount)
        if deal.kind == "swap_card":
            return self._t("deal.swap_card", "deal")
        gift = self._t(f"gift.{deal.gift}", "deal.gives", n=deal.amount)
        return self._t("deal.pay", "deal.price", price=deal.price, what=gift) if deal.price else gift

    def search_rows(self, tables: Tables | None = None) -> list[str]:
        """One line per row of the Search table."""
        rows = (tables or self.content.tables).search
        return [self._search_row(row, i == 0, i == len(rows) - 1) for i, row in enumerate(rows)]

    def connections(self, tables: Tables | None = None) -> list[str]:
        """One line per kind of connection: what passing it costs, how many are in the bag."""
        t = tables or self.content.tables
        out = []
        for kind in CONNECTIONS:
            name = self._t(f"connection.name.{kind}", f"bag.{kind}")
            count = t.bag.get(kind, 0)
            cost = t.move_cost.get(kind)
            if cost is None:
                out.append(self._t("connection.impassable", f"bag.{kind}", name=name, count=count))
            else:
                out.append(self._t("connection", f"move_cost.{kind}", n=cost, name=name, count=count))
        return out

    def check(self, d: Definition | SearchRow | Tables) -> list[tuple[str, str]]:
        """(field, why) for each part of a definition's data that no template prints: a template missing
        from this language, or a field the text of that kind of entry does not print (the engine does
        not use it either). ``[]`` when its whole data is in its rules text. (For the loader: it makes a
        generator of its own, as this one is not for two threads at once.)"""
        self._missing = []
        try:
            if isinstance(d, SearchRow):
                self._search_row(d, False, False)
            elif isinstance(d, Tables):
                self.connections(d)
            else:
                self._texts.pop(id(d), None)
                self.text(d)
            found = [
                (f, f'no "{key}" template in the rules text of language "{self.locale.name}"')
                for f, key in self._missing
            ]
        finally:
            self._missing = None
        return found + [
            (f, "no rules text prints it for this kind of entry (remove it)") for f in _unprinted(d)
        ]

    # -- templates -----------------------------------------------------------------------------------

    def _t(self, key: str, at: str, n: int = 0, **fields: Any) -> str:
        """The template ``key`` filled in (for the data at field ``at``, named when it is missing)."""
        template = self.locale.templates.get(key)
        if template is None:
            if self._missing is not None:
                self._missing.append((at, key))
            return ""
        if isinstance(template, tuple):
            template = template[self.locale.plural_index(n)]
        return template.format(n=n, **fields)

    @staticmethod
    def _sentences(parts: Iterable[str]) -> str:
        return " ".join(p for p in parts if p)

    def _list(self, items: list[str], last: str, at: str) -> str:
        """Items as a list in words, as "a", "a and b", "a, b and c" (``last``: "list.and" or "list.or")."""
        if len(items) <= 1:
            return "".join(items)
        head = self._t("list.sep", at).join(items[:-1])
        return self._t(last, at, items=head, last=items[-1])

    def _hero(self, ident: str) -> HeroCardDef | None:
        return self.content.races.get(ident) or self.content.classes.get(ident)

    def _name(self, ident: str) -> str:
        found = self._hero(ident)
        return found.name if found is not None else ident

    def _all_of(self, ident: str) -> str:
        """A race, class (Elves, Wizards) or monster tag (Undead, Slimy monsters), all of them."""
        found = self._hero(ident)
        if found is not None:
            return found.plural or self.locale.plural(found.name)
        return self.locale.tag_words(ident)[1]

    def _who(self, ids: Iterable[str], at: str) -> str:
        return self._list([self._all_of(i) for i in ids], "list.or", at)

    def _power(self, p: Power) -> dict[str, Any]:
        return {"n": p.amount, "against": self._all_of(p.tag) if p.tag else ""}

    def _bonuses(self, key: str, bonuses: tuple[Bonus, ...], at: str) -> list[str]:
        return [
            self._t(key, f"{at}[{i}]", n=b.amount, against=self._all_of(b.vs)) for i, b in enumerate(bonuses)
        ]

    def _effects(self, person: str, effects: tuple[Effect, ...], at: str) -> str:
        parts = []
        for i, e in enumerate(effects):
            key = f"{person}.lose_slot.{e.slot}" if e.kind == "lose_slot" else f"{person}.{e.kind}"
            parts.append(self._t(key, f"{at}[{i}]", n=e.amount))
        return self._list(parts, "list.and", at)

    # -- each kind of entry --------------------------------------------------------------------------

    def _room(self, r: RoomDef) -> str:
        parts = [self._t("room.entrance", "id") if r.id == "entrance" else ""]
        parts += [self._rule(rule, f"rules[{i}]") for i, rule in enumerate(r.rules)]
        if r.deal is not None:
            parts.append(self._deal(r.deal))
        if r.search:
            parts.append(self._t("room.search", "search", n=r.search))
        return self._sentences(parts) or self._t("room.none", "rules")

    def _rule(self, rule: RoomRule, at: str) -> str:
        if rule.kind == "hero_bonus":
            if not rule.who:
                return self._t("rule.hero_bonus.all", at, n=rule.amount)
            return self._t("rule.hero_bonus", at, n=rule.amount, who=self._all_of(rule.who))
        return self._t(f"rule.{rule.kind}", at, n=rule.amount)

    def _deal(self, deal: Deal) -> str:
        terms = self.deal_terms(deal)
        if deal.kind != "shrine":
            return self._t("deal", "deal", what=terms)
        if deal.who:
            name = self._name(deal.who)
            terms = self._t("deal.shrine.who", "deal.who", a=self.locale.article(name), who=name, what=terms)
        return self._t("deal.shrine", "deal", what=terms)

    def _monster(self, m: MonsterDef) -> str:
        tags = " ".join(self.locale.tag_words(tag)[0] for tag in m.tags)
        parts = [self._t("monster.tags", "tags", tags=tags) if tags else ""]
        if m.ignores:
            parts.append(self._t("monster.ignores", "ignores", n=m.ignores))
        parts += self._bonuses("monster.bonus", m.bonuses, "bonuses")
        if m.levels > 1:
            parts.append(self._t("monster.levels", "levels", n=m.levels))
        parts.append(self._t(f"move.weird.{m.weird}" if m.move == "weird" else f"move.{m.move}", "move"))
        parts.append(self.bad_stuff(m))
        return self._sentences(parts)

    def _treasure(self, t: TreasureDef) -> str:
        if t.kind == "level":
            return self._t("level", "kind", n=1)
        if t.kind == "equipment":
            parts = [self._t(f"slot.{t.slot}", "slot"), self._t("item.big", "big") if t.big else ""]
            parts.append(self._t("item.bonus", "bonus", n=t.bonus) if t.bonus else "")
        elif t.use == "bonus":
            parts = [self._t("oneshot.bonus.thrown" if t.thrown else "oneshot.bonus", "use", n=t.bonus)]
        else:
            parts = [self._t(f"oneshot.{t.use}", "use", n=max(1, t.amount))]
        parts += self._bonuses("item.bonus_vs", t.bonuses, "bonuses")
        if t.only:
            parts.append(self._t("item.only", "only", who=self._who(t.only, "only")))
        if t.forbid:
            parts.append(self._t("item.forbid", "forbid", who=self._who(t.forbid, "forbid")))
        if t.kind == "oneshot":
            parts.append(self._t("oneshot.discard", "kind"))
        return self._sentences(parts)

    def _dxm(self, d: DxmDef) -> str:
        k = d.kind
        if k in ("race", "class"):
            found = self.content.races.get(d.race) if k == "race" else self.content.classes.get(d.klass)
            name = found.name if found is not None else d.race or d.klass
            shorts = [
                self._t(f"short.{p.kind}", "race", **self._power(p)) for p in (found.powers if found else ())
            ]
            powers = (
                self._t("dxm.powers", "race", powers=self._t("list.sep", "race").join(shorts))
                if shorts
                else ""
            )
            return self._t(f"dxm.{k}", "kind", a=self.locale.article(name), name=name, powers=powers)
        if k == "curse":
            return self._t("dxm.curse", "kind", must=self.curse(d))
        if k == "enhancer":
            extra = self._t("dxm.enhancer.treasures", "treasures", n=d.treasures) if d.treasures else ""
            floor = self._t("dxm.enhancer.floor", "amount") if d.amount < 0 else ""  # (combat._level_terms)
            return self._sentences([self._t("dxm.enhancer", "amount", n=d.amount), floor, extra])
        if k in ("dungeon", "dice"):
            return self._t(f"dxm.{k}.{d.action}", "action", n=d.amount)
        if k == "level":
            return self._t("level", "amount", n=max(1, d.amount))
        return self._t(f"dxm.{k}", "kind", n=d.amount)

    def _search_row(self, row: SearchRow, first: bool, last: bool) -> str:
        if first:
            roll = self._t("search.roll.up_to", "high", high=row.high)
        elif last:
            roll = self._t("search.roll.from", "low", low=row.low)
        elif row.low == row.high:
            roll = self._t("search.roll.one", "low", low=row.low)
        else:
            roll = self._t("search.roll", "low", low=row.low, high=row.high)
        parts = [self._t(f"search.{row.result}", "result")] if row.result in ("monster", "nothing") else []
        if row.gold:
            parts.append(self._t("search.gold", "gold", n=row.gold))
        if row.treasures:
            parts.append(self._t("search.treasure", "treasures", n=row.treasures))
        return self._t("search.row", "result", roll=roll, result=self._list(parts, "list.and", "result"))


# -- data no template prints --------------------------------------------------------------------------


@functools.cache
def _defaults(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """Each field of a definition type and its default (NODEFAULT for a required field)."""
    out = {}
    for f in msgspec.structs.fields(cls):
        factory = f.default_factory
        out[f.name] = factory() if factory is not msgspec.NODEFAULT else f.default
    return out


def _set(d: msgspec.Struct, fields: Iterable[str], at: str = "") -> list[str]:
    """The ``fields`` of ``d`` that are not at their default (as paths under ``at``)."""
    defaults = _defaults(type(d))
    return [f"{at}{name}" for name in defaults if name in fields and getattr(d, name) != defaults[name]]


def _unprinted(d: Definition | SearchRow | Tables) -> list[str]:
    """The paths of the fields that are set but that no template prints for this kind of entry."""
    if isinstance(d, Tables):
        return []  # (its rows are checked one by one)
    names = set(_defaults(type(d)))
    if isinstance(d, TreasureDef):
        printed = _TREASURE_FIELDS.get(d.use if d.kind == "oneshot" else d.kind, frozenset())
        return _set(d, names - printed - _COMMON)
    if isinstance(d, DxmDef):
        key = d.action if d.kind == "dice" else d.kind
        return _set(d, names - _DXM_FIELDS.get(key, frozenset()) - _COMMON) + _effects_unprinted(
            d.effects, "effects"
        )
    if isinstance(d, MonsterDef):
        return _effects_unprinted(d.bad_stuff, "bad_stuff")
    if isinstance(d, HeroCardDef):
        return [
            f"powers[{i}].amount" for i, p in enumerate(d.powers) if p.kind not in POWER_AMOUNT and p.amount
        ]
    if isinstance(d, RoomDef):
        out = [f"rules[{i}].amount" for i, r in enumerate(d.rules) if r.kind == "no_help" and r.amount]
        if d.deal is not None:
            printed = _DEAL_FIELDS.get(d.deal.kind, frozenset({"price", "amount"}))
            out += _set(d.deal, {"price", "amount", "who", "gives"} - printed, "deal.")
        return out
    if d.result == "nothing":
        return _set(d, {"gold", "treasures"})
    return []


def _effects_unprinted(effects: tuple[Effect, ...], at: str) -> list[str]:
    return [
        f"{at}[{i}].amount" for i, e in enumerate(effects) if e.kind not in EFFECT_AMOUNT and e.amount != 1
    ]


# -- one generator per content ------------------------------------------------------------------------

_lock = threading.Lock()
_made: dict[tuple[int, str], tuple[Content, Words]] = {}
_KEEP = 16


def words(content: Content, locale: str = "en") -> Words:
    """The rules text generator of a content (made once per content object and language)."""
    key = (id(content), locale)
    hit = _made.get(key)
    if hit is not None and hit[0] is content:
        return hit[1]
    made = Words(content, LOCALES[locale])
    with _lock:
        _made[key] = (content, made)  # (the content is kept alive, so its id stays its own)
        while len(_made) > _KEEP:
            _made.pop(next(iter(_made)))
    return made


def text(content: Content, d: Definition) -> str:
    """The rules text of one of ``content``'s races, classes, rooms or cards."""
    return words(content).text(d)
