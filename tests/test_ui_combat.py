"""The fight pane says who the sums favour by the engine's own rule, and sums up the last fight from
the fight's data (never from its words)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import engine
from ui_helpers import local_app, settle, until

from mqtui.engine import scenario
from mqtui.engine.scenario_build import build
from mqtui.store import HUMAN, LocalStore, Seat
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.widgets.combat import CombatPane, fight_lead

SCENARIOS = Path(__file__).resolve().parent.parent / "seeds" / "scenarios"


def scenario_store(name: str) -> LocalStore:
    """The position of a scenario file, played by people at this terminal."""
    state, events = build(engine(), scenario.load(SCENARIOS / name).setup)
    seats = tuple(Seat(h.name, h.colour, HUMAN) for h in state.heroes)
    return LocalStore(engine(), state, seats, bot_delay=0, log=events)


def combat_text(app: object) -> str:
    (game,) = [s for s in app.screen_stack if isinstance(s, GameScreen)]  # type: ignore[attr-defined]
    return game.query_one("#combat-main", CombatPane).plain_text()


@pytest.mark.parametrize(
    ("hero", "monster", "winner", "says"),
    [
        (5, 4, None, "heroes lead"),
        (4, 5, "Ann", "monsters lead"),
        (5, 5, None, "tied: ties go to the monsters"),
        (5, 5, "Ann", "tied: Ann wins ties"),
    ],
)
def test_the_lead_follows_the_engines_rule(hero: int, monster: int, winner: str | None, says: str) -> None:
    assert fight_lead(hero, monster, winner) == says


async def test_a_warriors_tie_shows_as_the_warriors() -> None:
    """Scenario 4-warrior-wins-ties: Ann the Warrior and the Tax Goblin, 5 against 5 with the dice."""
    store = scenario_store("4-warrior-wins-ties.toml")
    app = local_app(store, handoff=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack), "the game")
        await settle(pilot, app)
        assert "2 vs 2 before dice, tied: Ann wins ties" in combat_text(app)
        for action in ("0 pass", "1 pass"):  # the window before the dice closes: 3 and 3 are rolled
            store.apply(scenario.resolve_action(store.engine, store.state, action))
        await settle(pilot, app)
        text = combat_text(app)
        assert "5 vs 5 with the dice, tied: Ann wins ties" in text
        assert "monsters" not in text.split("\n")[1]  # the summary line gives the monsters nothing
        for action in ("0 pass", "1 pass"):  # the window after the dice closes: the fight's result
            store.apply(scenario.resolve_action(store.engine, store.state, action))
        await settle(pilot, app)
        await until(pilot, lambda: "Last fight" in combat_text(app), "the last fight's summary")
        text = " ".join(combat_text(app).split())
        assert "Ann (1 +1 Human Warrior power +die 3 = 5) beats Tax Goblin (2 +die 3 = 5)" in text
        assert "(a tie, won by power)" in text


def test_the_hero_sheet_states_the_fighting_heros_part_of_the_engines_sum() -> None:
    """A Level 1 Cleric fights an Undead monster in a room that gives heroes +1: the sheet said
    "Strength 1 (Level 1)" while the engine's sum was 5; it now adds up what the engine does (the
    sheet shrinks to its first lines in a fight on most screens: the line shows on a tall one, and
    under ``o`` for a helper)."""
    from ui_helpers import add_monster, add_room, empty_hands, give, hero, store_for

    from mqtui.engine.actions import Action
    from mqtui.engine.combat import hero_terms
    from mqtui.ui.widgets.hero_sheet import hero_text

    store = store_for()
    empty_hands(store)
    ann = hero(store, 0)
    (cleric,) = give(store, 0, ["cleric-card"])
    ann.hand.remove(cleric)
    ann.classes.append(cleric)
    add_room(store, "poster-corridor", 1, 0)  # all heroes +1 in fights here
    add_monster(store, "skeleton-intern", 1, 0, "blue")  # Undead: the Cleric's +3
    store.engine.forget()
    view = store.snapshot(0).view
    assert "Strength 1 (Level 1)" in hero_text(store.cards, view.heroes[0], True, view=view).plain
    store.apply(Action(0, "move", 1))
    view = store.snapshot(0).view
    assert view.combat is not None
    assert sum(v for _, v in hero_terms(store.cards, view, view.combat)) == 5
    sheet = hero_text(store.cards, view.heroes[0], True, view=view).plain
    assert "Strength 5 (Level 1, powers +3, room +1)" in sheet
    bob = hero_text(store.cards, view.heroes[1], False, view=view).plain  # not in the fight
    assert "Strength 1 (Level 1)" in bob


def test_a_die_cut_below_zero_shows_what_it_counts() -> None:
    """A 1 with -2 counts 0 (the engine floors a die at 0): the die cell said "1 -2", which read as
    -1 beside a total that counted 0."""
    from ui_helpers import add_monster, add_room, empty_hands, store_for

    from mqtui.engine.actions import Action
    from mqtui.engine.combat import die_total, totals
    from mqtui.engine.state import Mod
    from mqtui.ui.widgets.combat import combat_sides

    store = store_for()
    empty_hands(store)
    add_room(store, "poster-corridor", 1, 0)
    add_monster(store, "skeleton-intern", 1, 0, "blue")
    store.engine.forget()
    store.apply(Action(0, "move", 1))
    c = store.state.combat
    assert c is not None
    c.hero_die, c.monster_dice = 1, [4]
    c.die_mods.append(Mod("Oops", -2, 0))
    c.die_mods.append(Mod("Lucky", 1, 1))
    (_, h_die, h_total), (_, m_die, m_total) = combat_sides(store.cards, store.state, c)
    assert die_total(c, 0) == 0 and h_die == "1 -2 = 0"
    assert m_die == "4 +1"  # (not floored: as it was)
    assert (h_total, m_total) == totals(store.cards, store.state, c)
