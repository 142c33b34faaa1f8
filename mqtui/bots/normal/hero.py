"""Building the hero: identity cards, gear, the belt and levels."""

from __future__ import annotations

import msgspec

from mqtui.bots import Choice
from mqtui.bots.eval import GEAR_VALUE, best_loadout, item_score
from mqtui.bots.normal.core import FLAT_POWERS, POWER_VALUES, Ctx
from mqtui.engine.cards import DXM, CardTable
from mqtui.engine.defs import Power
from mqtui.engine.legal import LEVEL_PRICE
from mqtui.engine.state import Hero


def power_value(powers: tuple[Power, ...]) -> float:
    return sum(POWER_VALUES.get(p.kind, 0.0) * (1 if p.kind in FLAT_POWERS else p.amount) for p in powers)


def identity_score(t: CardTable, hero: Hero) -> float:
    v = GEAR_VALUE * best_loadout(t, hero)[1]
    for r in hero.races:
        v += power_value(t.content.races[t.dxm[r].race].powers)
    for c in hero.classes:
        v += power_value(t.content.classes[t.dxm[c].klass].powers)
    return v


def after_identity(t: CardTable, hero: Hero, uid: int) -> Hero:
    """The hero as it would be after playing race/class card ``uid`` (as the engine's ``_do_play``)."""
    d = t.dxm[uid]
    hand = [u for u in hero.hand if u != uid]
    if d.kind == "race":
        races = [*hero.races, uid] if hero.half_breed >= 0 and len(hero.races) < 2 else [uid]
        return msgspec.structs.replace(hero, races=races, hand=hand)
    classes = [*hero.classes, uid] if hero.super_munchkin >= 0 and len(hero.classes) < 2 else [uid]
    return msgspec.structs.replace(hero, classes=classes, hand=hand)


def build(ctx: Ctx) -> Choice | None:
    """Free improvements of the hero: identity cards, gear, belt, levels. None when there are none."""
    t, me = ctx.t, ctx.me
    now = None
    for a in ctx.has("play"):
        if t.deck_of[a.a] != DXM:
            continue
        d = t.dxm[a.a]
        if d.kind in ("half_breed", "super_munchkin"):
            return Choice(a, f"plays {d.name} to keep two {'races' if d.kind == 'half_breed' else 'classes'}")
        if d.kind in ("race", "class"):
            now = identity_score(t, me) if now is None else now
            gain = identity_score(t, after_identity(t, me, a.a)) - now
            if gain > 0.05:
                return Choice(a, f"becomes {d.name.split(' (')[0]}: +{gain:.1f} in strength and powers")
    gear = equip_step(ctx)
    if gear is not None:
        return gear
    for a in ctx.has("belt"):
        return Choice(a)
    for a in ctx.has("play"):
        if _is_level_card(t, a.a):
            return Choice(a, f"plays {t.names[a.a]} for a level")
    if ctx.has("buylevel"):
        return Choice(ctx.has("buylevel")[0], f"buys a level for {LEVEL_PRICE} gold")
    return None


def _is_level_card(t: CardTable, uid: int) -> bool:
    if t.deck_of[uid] == DXM:
        return t.dxm[uid].kind == "level"
    return t.treasure[uid].kind == "level"


def equip_step(ctx: Ctx) -> Choice | None:
    """One step toward the best loadout: equip what belongs in it, stowing what blocks it."""
    t, me = ctx.t, ctx.me
    want = ctx.loadout
    equips = {a.a: a for a in ctx.has("equip")}
    missing = sorted((u for u in want if u not in me.equipped), key=lambda u: -item_score(t.treasure[u]))
    for u in missing:
        if u in equips:
            return Choice(equips[u], f"equips {t.names[u]} (+{item_score(t.treasure[u]):g})")
    stows = {a.a: a for a in ctx.has("stow")}
    for u in missing:
        slot = t.treasure[u].slot
        for e in me.equipped:
            if e in want:
                continue
            es = t.treasure[e].slot
            blocks = es == slot or (slot in ("hand", "two_hands") and es in ("hand", "two_hands"))
            if blocks and e in stows:
                return Choice(stows[e], f"stows {t.names[e]} to make room for {t.names[u]}")
    return None
