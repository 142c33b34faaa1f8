"""bench/same.py compare, with probes that note when one of the clause fixes of issue 26 applies.

    .venv/bin/python bench/same_issue26.py compare BEFORE.json.gz [same.py's options]

BEFORE is recorded by bench/same.py on the engine before issue 26 (e.g. 26047a8), with that
commit's content pinned by --content, so that the card texts do not hide the engine's changes.

Each probe appends to same.GAPS (cleared before every step), as same.py's own probe does for issue 17:
a game whose first difference comes at or after a step where a fix applied is "explained".
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import same  # noqa: E402


class _Ours(list[str]):
    """same.py's gap list, keeping only this branch's probes (not issue 17's, which both sides have)."""

    def append(self, gap: str) -> None:
        if gap != "spend-all with 0 Moves":
            super().append(gap)


same.GAPS = _Ours()
same._probe = lambda: None  # issue 17's Entrance-loop probe: in the engine before and after

from mqtui.engine import combat, game, handlers, heroes, legal  # noqa: E402
from mqtui.engine.state import BAD_STUFF, LOSE_ITEM, FrameKind  # noqa: E402

GAPS = same.GAPS


def _probe_enter() -> None:
    """Healing on exploring into a room that heals a hero who enters."""
    do_move, entered = handlers.HANDLERS["move"], handlers.entered
    exploring = [False]

    def move(t, s, a, ev):  # type: ignore[no-untyped-def]
        exploring[0] = True
        try:
            do_move(t, s, a, ev)
        finally:
            exploring[0] = False

    def enter(t, s, hero, ev):  # type: ignore[no-untyped-def]
        life = hero.life
        entered(t, s, hero, ev)
        if exploring[0] and hero.explored and hero.life > life:
            GAPS.append("healed exploring")

    handlers.HANDLERS["move"] = move
    handlers.entered = enter


def _probe_use() -> None:
    """A one-shot's bonus against the fight's monsters' tags."""
    do_use = handlers.HANDLERS["use"]

    def use(t, s, a, ev):  # type: ignore[no-untyped-def]
        item = t.treasure[a.a]
        do_use(t, s, a, ev)
        if s.combat is not None and s.combat.mods and s.combat.mods[-1].amount != item.bonus:
            GAPS.append("one-shot bonus vs tag")

    handlers.HANDLERS["use"] = use


def _probe_restricted() -> None:
    """A restricted one-shot left out of the next decision's legal actions."""
    usable = legal.usable
    refused = [False]

    def probe(t, hero, item):  # type: ignore[no-untyped-def]
        ok = usable(t, hero, item)
        if not ok and item.kind == "oneshot":
            refused[0] = True
        return ok

    legal.usable = probe
    apply = game.Engine.apply

    def applied(self, s, action, expect_n=None):  # type: ignore[no-untyped-def]
        ev = apply(self, s, action, expect_n)
        refused[0] = False
        who = legal.deciding(s)
        if who >= 0:
            legal.legal_actions(self.cards, s, who)
        if refused[0]:
            GAPS.append("restricted one-shot")
        return ev

    game.Engine.apply = applied  # type: ignore[method-assign]


def _probe_slot_choice() -> None:
    """A slot effect with two candidates: the victim is asked."""
    apply_effect = heroes.apply_effect

    def effect(t, s, ev, hero, e, source):  # type: ignore[no-untyped-def]
        frames = len(s.frames)
        apply_effect(t, s, ev, hero, e, source)
        if e.kind == "lose_slot" and len(s.frames) > frames and s.frames[-1].kind == LOSE_ITEM:
            GAPS.append("slot choice")

    heroes.apply_effect = effect


def _probe_escape_bonus() -> None:
    """An escape roll made after the hero lost a race or class that gave a run-away bonus."""
    settle, escapes = game._SETTLE[FrameKind.BAD_STUFF], combat._escapes
    start: dict[int, int] = {}

    def begin(t, s, f, hero, ev):  # type: ignore[no-untyped-def]
        if not f.first:
            start[hero.seat] = heroes.power_total(t, hero, "escape_bonus")
        return settle(t, s, f, hero, ev)

    def roll(t, s, ev, hero, uid, where):  # type: ignore[no-untyped-def]
        if heroes.power_total(t, hero, "escape_bonus") != start.get(hero.seat):
            GAPS.append("escape bonus after a lost race/class")
        return escapes(t, s, ev, hero, uid, where)

    game._SETTLE[FrameKind.BAD_STUFF] = begin
    combat._escapes = roll


def _probe_order() -> None:
    """A choice in Bad Stuff asked while more of it (this hero's or the helper's) is still to come."""
    settle = game._SETTLE[FrameKind.BAD_STUFF]

    def probe(t, s, f, hero, ev):  # type: ignore[no-untyped-def]
        done = settle(t, s, f, hero, ev)
        # stopped under a choice with more to come: this hero's (the frame is still there) or the
        # helper's (another Bad Stuff frame waits); before, all of it happened before any choice
        if s.frames and s.frames[-1].kind == LOSE_ITEM and any(g.kind == BAD_STUFF for g in s.frames):
            GAPS.append("choice before later Bad Stuff")
        return done

    game._SETTLE[FrameKind.BAD_STUFF] = probe


for install in (
    _probe_enter,
    _probe_use,
    _probe_restricted,
    _probe_slot_choice,
    _probe_escape_bonus,
    _probe_order,
):
    install()

if __name__ == "__main__":
    same.main()
