"""The race strip: every hero's Level, Life and room always on the game screen, at both sizes, a
warning when a hero is close to winning, and nothing private in it (also over a hot-seat hand-off)."""

from __future__ import annotations

import copy

import pytest
from screen_text import notes, private_names
from ui_helpers import add_room, empty_hands, give, hero, make_app, notes_so_far, store_for, until

from mqtui.engine.actions import Action
from mqtui.engine.state import WINDOW, Combat, Frame, cell_key
from mqtui.engine.view import view_for
from mqtui.store import LogLine, Snapshot
from mqtui.ui.app import MQApp
from mqtui.ui.flow import could_stop_a_win, counts_down
from mqtui.ui.race import Recaps, race_warning, race_warnings, rooms_to_entrance
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.handoff import HandoffScreen
from mqtui.ui.widgets.race import RaceStrip

FOUR = (("Ann", "human"), ("Grizzlebeard", "random"), ("Dame Pointy", "random"), ("Snaggletooth", "random"))
SIZES = ((80, 24), (120, 40))


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


# -- the warning, decided from public state ----------------------------------------------------------


def test_no_warning_below_level_9() -> None:
    store = store_for(FOUR)
    for h in store.state.heroes:
        h.level = 8
    assert race_warnings(store.state, 0) == []


def test_level_10_is_one_boss_fight_from_winning() -> None:
    store = store_for(FOUR)
    hero(store, 3).level = 10
    assert (
        race_warning(store.state, 3)
        == "Snaggletooth is Level 10, in the Entrance: one boss fight from winning"
    )


def test_level_9_counts_the_rooms_to_the_entrance() -> None:
    store = store_for(FOUR)
    add_room(store, "pawn-shop", 1, 0)
    add_room(store, "coat-check", 2, 0)
    snag = hero(store, 3)
    snag.level, snag.x, snag.y = 9, 2, 0
    assert rooms_to_entrance(store.state, 2, 0) == 2
    assert (
        race_warning(store.state, 3)
        == "Snaggletooth is Level 9, 2 rooms from the Entrance: one kill from Level 10"
    )


def test_warnings_leave_out_the_viewer_and_put_the_closest_first() -> None:
    store = store_for(FOUR)
    hero(store, 0).level = 10  # the viewer's own: the strip shows it already
    hero(store, 2).level = 9
    hero(store, 3).level = 10
    warnings = race_warnings(store.state, 0)
    assert [w.split(" is ")[0] for w in warnings] == ["Snaggletooth", "Dame Pointy"]


def test_a_dead_hero_comes_back_at_the_entrance() -> None:
    store = store_for(FOUR)
    snag = hero(store, 3)
    snag.level, snag.dead = 9, True
    assert race_warning(store.state, 3) == (
        "Snaggletooth is Level 9, back at the Entrance next turn: one kill from Level 10"
    )


def test_the_warning_reads_only_public_facts() -> None:
    """The same words from every seat's redacted view as from the whole state."""
    store = store_for(FOUR)
    hero(store, 3).level = 9
    whole = race_warnings(store.state, 0)
    assert whole and race_warnings(view_for(store.state, 0), 0) == whole
    assert race_warnings(view_for(store.state, 1), 1) == whole


# -- on screen --------------------------------------------------------------------------------------


def strip_lines(app: MQApp) -> list[str]:
    return str(app.screen.query_one(RaceStrip).render()).splitlines()


@pytest.mark.parametrize("size", SIZES)
async def test_the_strip_shows_every_hero_and_fits(size: tuple[int, int]) -> None:
    store = store_for(FOUR)
    add_room(store, "pawn-shop", 1, 0)
    grizz = hero(store, 1)
    grizz.x, grizz.life = 1, 3
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        strip = app.screen.query_one(RaceStrip)
        text = "\n".join(strip_lines(app))
        for h in store.state.heroes:
            assert h.name in text, f"{h.name} missing from the strip at {size}"
        assert "▶Ann L1 ♥4 " in text  # the active hero is marked by a symbol, not colour only
        # the room's whole name where it fits, else the map's short name
        assert any(f" Grizzlebeard L1 ♥3 {room}" in text for room in ("Ye Olde Pawn Shoppe", "PawnShop"))
        # nothing cut off: every line fits the strip, and the strip lies inside the screen
        assert all(len(line) <= strip.content_size.width for line in strip_lines(app))
        assert app.screen.region.contains_region(strip.region)
        assert strip.region.height == len(strip_lines(app)) <= 2
        if size == (120, 40):
            assert len(strip_lines(app)) == 1  # four heroes share one line on a wide screen


@pytest.mark.parametrize("size", SIZES)
async def test_the_strip_follows_a_level_and_warns(size: tuple[int, int]) -> None:
    store = store_for(FOUR)
    hero(store, 0).gold = 1000
    hero(store, 3).level = 9
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert "▶Ann L1" in "\n".join(strip_lines(app))
        assert strip_lines(app)[-1].startswith("⚠ Snaggletooth is Level 9")
        await pilot.press("plus")  # Ann buys a level with her 1000 gold
        await pilot.pause()
        assert hero(store, 0).level == 2
        assert "▶Ann L2" in "\n".join(strip_lines(app))


@pytest.mark.parametrize(("level", "lines", "sheet"), [(1, 2, 7), (9, 3, 6)])
async def test_each_line_the_strip_takes_past_one_comes_out_of_a_short_screens_hero_sheet(
    level: int, lines: int, sheet: int
) -> None:
    store = store_for(FOUR)
    hero(store, 3).level = level  # Level 9: a warning line under the heroes' two
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert len(strip_lines(app)) == lines
        sheet_pane = app.screen.query_one("#hero")
        assert sheet_pane.styles.max_height is not None and sheet_pane.styles.max_height.value == sheet
        assert sheet_pane.region.height <= sheet
        # the panes that give the lines back are marked, not the screen (a class on the screen restyles
        # every widget of it)
        for pane in (sheet_pane, app.screen.query_one("#card-box")):
            assert pane.has_class("-race-2") and pane.has_class("-race-3") == (lines >= 3)
        assert not app.screen.has_class("-race-2") and not app.screen.has_class("-race-3")


async def test_the_strip_shows_nothing_private_over_a_hand_off() -> None:
    """Hot seat: the strip, on the hand-off screen and after it, holds no card of either hand."""
    store = store_for((("Ann", "human"), ("Bob", "human")))
    empty_hands(store)  # (few enough cards: no charity at the end of Ann's turn)
    give(store, 0, ["pocket-sand", "cheese-grenade"])
    give(store, 1, ["jar-of-bees", "hard-hat"])
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("space")  # Ann ends her action phase: the keyboard goes to Bob in time
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, HandoffScreen):
                break
        assert isinstance(app.screen, HandoffScreen)
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        strip_text = str(game.query_one(RaceStrip).render())
        names = private_names(store, 0) | private_names(store, 1)
        assert names and not [n for n in names if n in strip_text]
        assert "Ann" in strip_text and "Bob" in strip_text
        assert "card" not in strip_text.lower()  # no card counts either


def test_rooms_to_entrance_over_unknown_ground() -> None:
    store = store_for(FOUR)
    assert rooms_to_entrance(store.state, 0, 0) == 0
    assert cell_key(5, 5) not in store.state.grid
    assert rooms_to_entrance(store.state, 5, 5) is None


# -- the recap at the start of your turn -------------------------------------------------------------


def test_the_recap_says_what_the_others_did() -> None:
    store = store_for(FOUR)
    recaps = Recaps()
    log = list(store.snapshot(0).log)
    assert recaps.turn_started(store.state, log, 0) == []  # the first turn seen: nothing to tell
    grizz, dame, snag = hero(store, 1), hero(store, 2), hero(store, 3)
    grizz.level, grizz.kills = 3, 2
    dame.deaths = 1
    snag.level = 2
    hero(store, 0).level = 5  # the viewer's own: not recapped
    log += [
        LogLine("curse", "Dame Pointy curses Ann with Curse! Demoted: That hero must lose 1 Level."),
        LogLine("curse", "Dame Pointy curses Snaggletooth with Curse! Demoted: That hero must lose 1 Level."),
    ]
    assert recaps.turn_started(store.state, log, 0) == [
        "▲ Grizzlebeard: Level 1 → 3, 2 kills",
        "▲ Dame Pointy: died",
        "▲ Snaggletooth: Level 1 → 2",
        "☹ Dame Pointy curses Ann with Curse! Demoted",
    ]
    assert recaps.turn_started(store.state, log, 0) == []  # nothing new since


RECAP = "Since your last turn\n"  # the recap's title, as its toast shows it


async def test_the_recap_shows_when_your_turn_comes_round() -> None:
    store = store_for((("Ann", "human"), ("Bob", "random")))
    empty_hands(store)  # (nothing to play: every window passes by itself)
    app = make_app(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        assert not [note for note in await notes_so_far(pilot, app) if note.startswith(RECAP)]
        game = app.screen
        assert isinstance(game, GameScreen)
        bob = hero(store, 1)
        bob.level, bob.kills = 4, 3  # (as if Bob had fought on Ann's turn)
        await pilot.press("space")  # Ann ends her turn; Bob plays his; Ann's comes round again
        for _ in range(200):  # until Ann's next turn (declining Bob's calls for help on the way)
            await pilot.pause()
            snap = game.snapshot
            assert snap is not None
            if store.state.round == 2 and store.state.active == 0 and snap.n == store.state.n:
                break
            if snap.n == store.state.n and snap.legal:
                await pilot.press("n" if any(a.kind == "decline" for a in snap.legal) else "space")
        await until(pilot, lambda: any(note.startswith(RECAP) for note in notes(app)), "the recap's toast")
        recaps = [note.removeprefix(RECAP) for note in notes(app) if note.startswith(RECAP)]
        assert recaps and recaps[0].startswith("▲ Bob: Level 1 → ")
        assert "kills" in recaps[0]


def test_a_window_that_could_stop_a_win_never_passes_by_itself() -> None:
    """Another hero's boss fight, or the fight of a Level 9 hero (a kill takes them to Level 10 and
    to the boss), with a card to play: no countdown (an ordinary fight counts down)."""
    store = store_for((("Ann", "human"), ("Bob", "human")))
    view = copy.deepcopy(store.state)
    view.frames = [*view.frames, Frame(kind=WINDOW, seat=1, stage="pre")]
    legal = (Action(1, "pass"), Action(1, "play", hero(store, 1).hand[0]))
    for boss, level, waits in ((False, 1, False), (False, 8, False), (False, 9, True), (True, 10, True)):
        view.heroes[0].level = level
        view.combat = Combat(x=0, y=0, active=0, monsters=[], boss=boss)
        snap = Snapshot(seat=1, view=view, legal=legal, deciding=1, log=(), n=view.n)
        assert counts_down(snap) is not waits
        assert could_stop_a_win(snap) is waits
