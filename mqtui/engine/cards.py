"""The physical cards of a game: every copy of every card gets a number (uid), in content order."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, Literal, NamedTuple

from mqtui.engine.defs import Content, DxmDef, MonsterDef, Power, RoomDef, TreasureDef

Deck = Literal["dxm", "treasure", "monster"]  # the three card decks
DXM: Final = "dxm"
TREASURE: Final = "treasure"
MONSTER: Final = "monster"


class Traits(NamedTuple):
    """What one combination of race and class cards adds up to (see heroes.traits)."""

    ids: frozenset[str]  # race and class ids ("human" without a race card)
    powers: tuple[Power, ...]
    totals: dict[str, int]  # power kind -> summed amount, for every kind among the powers
    text: str  # in words (heroes.describe)


@dataclass
class CardTable:
    content: Content
    deck_of: list[Deck] = field(default_factory=list)
    dxm: dict[int, DxmDef] = field(default_factory=dict)
    treasure: dict[int, TreasureDef] = field(default_factory=dict)
    monster: dict[int, MonsterDef] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    tiles: dict[int, tuple[int, ...]] = field(default_factory=dict)  # tile -> room indexes
    by_id: dict[str, list[int]] = field(default_factory=dict)  # card id -> uids
    arrows: list[dict[str, int]] = field(default_factory=list)  # room index -> colour -> side 0..3
    deck_uids: dict[Deck, tuple[int, ...]] = field(default_factory=dict)  # deck -> its uids, in order
    traits_cache: dict[tuple[int, ...], Traits] = field(default_factory=dict)  # (*races, -1, *classes)
    # the bots' best loadouts, by (pool, backpack, races, classes): see mqtui.bots.eval.best_loadout
    loadout_cache: dict[tuple[tuple[int, ...], ...], tuple[frozenset[int], float]] = field(
        default_factory=dict
    )

    @classmethod
    def build(cls, content: Content) -> CardTable:
        table = cls(content)
        for d in content.dxm:
            for _ in range(d.count):
                table._add(DXM, d.id, d.name)
                table.dxm[len(table.deck_of) - 1] = d
        for t in content.treasures:
            for _ in range(t.count):
                table._add(TREASURE, t.id, t.name)
                table.treasure[len(table.deck_of) - 1] = t
        for m in content.monsters:
            for _ in range(m.count):
                table._add(MONSTER, m.id, m.name)
                table.monster[len(table.deck_of) - 1] = m
        for i, room in enumerate(content.rooms):
            table.arrows.append({colour: "NESW".index(side) for colour, side in room.arrows.items()})
            table.tiles.setdefault(room.tile, ())
            table.tiles[room.tile] = (*table.tiles[room.tile], i)
        table.deck_uids = {deck: tuple(table.uids(deck)) for deck in (DXM, TREASURE, MONSTER)}
        return table

    def _add(self, deck: Deck, card_id: str, name: str) -> None:
        self.by_id.setdefault(card_id, []).append(len(self.deck_of))
        self.deck_of.append(deck)
        self.names.append(name)

    def private(self) -> CardTable:
        """The same cards with caches of its own. The caches remember what they were asked about (a hand's
        items, a race card in a hand), so one card table per seat's computer player, never shared."""
        return replace(self, traits_cache={}, loadout_cache={})

    def uids(self, deck: Deck) -> list[int]:
        return [uid for uid, d in enumerate(self.deck_of) if d == deck]

    def room(self, index: int) -> RoomDef:
        return self.content.entrance if index < 0 else self.content.rooms[index]

    def card(self, uid: int) -> DxmDef | TreasureDef | MonsterDef:
        """The definition of a physical card, whichever deck it is from."""
        deck = self.deck_of[uid]
        if deck == DXM:
            return self.dxm[uid]
        if deck == TREASURE:
            return self.treasure[uid]
        return self.monster[uid]

    def card_id(self, uid: int) -> str:
        return self.card(uid).id
