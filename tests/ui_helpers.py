"""Helpers for the UI tests: stores set up in known positions, apps that touch only a temp folder,
and waiting until the app and the computer players are idle."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence

from screen_text import notes
from textual.app import App
from textual.pilot import Pilot
from waiting import SAFETY_NET, wait_until

from mqtui.engine.actions import Action
from mqtui.engine.state import STAGE_SETUP, Hero, Monster, Room, State, cell_key, edge_key
from mqtui.store import LocalStore
from mqtui.ui.app import MQApp
from mqtui.ui.screens.confirm import ConfirmAction
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.session import SeatSpec, new_store
from mqtui.ui.settings import Settings
from mqtui.ui.widgets.footer import DescribesKeys, KeySpec, QuietFooter


def store_for(
    players: Sequence[tuple[str, str]] = (("Ann", "human"), ("Bob", "random")),
    seed: int = 3,
    setup_done: bool = True,
) -> LocalStore:
    """A new local game; with ``setup_done`` every seat has said "done" (seat 0's action phase)."""
    store = new_store([SeatSpec(name, kind) for name, kind in players], seed, bot_delay=0)
    if setup_done:
        while store.state.stage == STAGE_SETUP:
            store.apply(Action(store.engine.deciding(store.state), "done"))
    return store


def make_app(store: LocalStore | None = None, **settings: object) -> MQApp:
    """An app with default settings (plus ``settings``), instant computer players, no settings file."""
    values: dict[str, object] = {"pass_countdown": 0, "bot_delay": 0.0}
    values.update(settings)
    return MQApp(store, settings=Settings(**values), save_settings_file=False, bot_delay=0)  # type: ignore[arg-type]


def local_app(store: LocalStore, **settings: object) -> MQApp:
    """An app that plays ``store`` as a local game (saves, title screen behind it)."""
    app = make_app(None, **settings)

    def open_it() -> None:
        app.open_game(store)  # type: ignore[arg-type]

    app.call_later(open_it)
    return app


# -- positions ----------------------------------------------------------------------------------------


def room_index(store: LocalStore, room_id: str) -> int:
    rooms = store.cards.content.rooms
    return next(i for i, r in enumerate(rooms) if r.id == room_id)


def add_room(
    store: LocalStore, room_id: str, x: int, y: int, sides: str | dict[int, str] = "passage"
) -> Room:
    """Place a room at (x, y); its sides without a connection get ``sides`` (one kind, or per side)."""
    s = store.state
    index = room_index(store, room_id)
    tile = store.cards.content.rooms[index].tile
    if tile in s.tiles:
        s.tiles.remove(tile)
    room = Room(room=index, x=x, y=y)
    s.grid[cell_key(x, y)] = len(s.rooms)
    s.rooms.append(room)
    for d in range(4):
        key = edge_key(x, y, d)
        if key not in s.edges:
            s.edges[key] = sides if isinstance(sides, str) else sides.get(d, "passage")
    return room


def _take_from_piles(s: State, uid: int) -> None:
    for pile in (s.dxm, s.treasure, s.monster_deck, s.dxm_discard, s.treasure_discard, s.monster_discard):
        if uid in pile:
            pile.remove(uid)
            return
    for hero in s.heroes:
        for pile in (hero.hand, hero.equipped, hero.belt, hero.backpack):
            if uid in pile:
                pile.remove(uid)
                return


def card(store: LocalStore, card_id: str, n: int = 0) -> int:
    return store.cards.by_id[card_id][n]


def give(store: LocalStore, seat: int, card_ids: Iterable[str], where: str = "hand") -> list[int]:
    """Put cards (by content id) into a hero's hand (or ``equipped``/``belt``/``backpack``)."""
    uids = []
    hero = store.state.heroes[seat]
    used = set(hero.hand + hero.equipped + hero.belt + hero.backpack)
    for card_id in card_ids:
        uid = next(u for u in store.cards.by_id[card_id] if u not in used)
        used.add(uid)
        _take_from_piles(store.state, uid)
        getattr(hero, where).append(uid)
        uids.append(uid)
    return uids


def empty_hands(store: LocalStore) -> None:
    s = store.state
    for hero in s.heroes:
        for uid in hero.hand:
            (s.dxm_discard if store.cards.deck_of[uid] == "dxm" else s.treasure_discard).append(uid)
        hero.hand = []


def add_monster(store: LocalStore, monster_id: str, x: int, y: int, colour: str) -> Monster:
    s = store.state
    uid = next(u for u in store.cards.by_id[monster_id] if u in s.monster_deck)
    s.monster_deck.remove(uid)
    m = Monster(id=s.next_monster, card=uid, colour=colour, x=x, y=y)
    s.next_monster += 1
    s.monsters.append(m)
    return m


def hero(store: LocalStore, seat: int) -> Hero:
    return store.state.heroes[seat]


def _game_screen(app: MQApp) -> GameScreen | None:
    return next((s for s in reversed(app.screen_stack) if isinstance(s, GameScreen)), None)


def shows_latest(app: MQApp) -> bool:
    """The computer players are idle and the game screen shows the store's latest state (or holds it
    back behind the hand-off screen)."""
    store, screen = app.game_store, _game_screen(app)
    if store is None or screen is None:
        return False
    if isinstance(store, LocalStore) and store.bots_running:
        return False
    shown = screen.snapshot
    return (shown is not None and shown.n == store.snapshot().n) or screen.holding_back


async def handled(app: App[object], timeout: float = 2 * SAFETY_NET) -> None:
    """Until the app and every node of its screen have handled what was posted to them so far (or the app
    has ended). ``Pilot.pause`` waits for the same, but at most 30 s (Textual's own ceiling, then
    ``WaitForScreenTimeout``), which a screen that mounts or lays out its widgets on a loaded machine
    passes (seen at load 20 with the tests at nice 10); this one's ceiling is the suite's, for a hung
    test. (``call_later`` runs its callback once the node has handled the messages before it.)"""
    left = [0]

    def one() -> None:
        left[0] -= 1

    for node in [app, *app.screen.walk_children(with_self=True)]:
        if node.call_later(one):
            left[0] += 1
    await wait_until(lambda: left[0] <= 0 or not app.is_running, timeout, "the app to handle its messages")


async def pause(pilot: Pilot[object]) -> None:
    """``Pilot.pause`` (what was posted handled, the app idle, the screen drawn), without its 30 s ceiling
    on the handling: :func:`handled` first, so that what the pause itself waits for is what came since."""
    await handled(pilot.app)
    await pilot.pause()


async def drain(pilot: Pilot[object]) -> None:
    """Until the app is idle: what was posted to it so far handled, the screen drawn (:func:`pause`)."""
    await pause(pilot)


async def until(
    pilot: Pilot[object], condition: Callable[[], object], what: str, timeout: float = SAFETY_NET
) -> None:
    """Until ``condition()`` holds, the app left to run until idle in between (``Pilot.pause``); an
    assertion error if it does not within ``timeout`` seconds (a safety net, never the meaning)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        await pause(pilot)
        if condition():
            return
        if loop.time() > end:
            raise AssertionError(f"{what} was not met within {timeout:g} s")


async def press(pilot: Pilot[object], key: str, done: Callable[[], object], what: str = "") -> None:
    """Press ``key`` (``Pilot.press``) and wait until ``done()``: the key's effect, which the caller knows."""
    await pilot.press(key)
    await until(pilot, done, what or f"the effect of {key!r}")


async def perform(pilot: Pilot[object], app: MQApp, screen: GameScreen, action: Action) -> None:
    """Do ``action`` as a player who means it: the app's question before a risky one (a hopeless
    fight, a gift, a card for the other side) is answered yes."""
    await screen.perform(action)
    if isinstance(app.screen, ConfirmAction):
        await press(pilot, "y", lambda: not isinstance(app.screen, ConfirmAction), "the question answered")


async def act(pilot: Pilot[object], app: MQApp, key: str) -> None:
    """Press a key that sends the game an action: wait until the store has taken it, then settle."""
    store = app.game_store
    assert isinstance(store, LocalStore)
    n = store.state.n
    await press(pilot, key, lambda: store.state.n != n, f"an action by {key!r}")
    await settle(pilot, app)


async def notes_so_far(pilot: Pilot[object], app: MQApp) -> list[str]:
    """The notes on show (:func:`screen_text.notes`) once every one raised so far shows: toasts show in
    the order they were raised, so this raises a marker and waits for its toast (left out of the list).
    What "no such note" is checked by: a note raised and not shown yet would be missed."""
    marker = f"(the notes so far: {len(notes(app))})"
    app.notify(marker, timeout=1)
    await until(pilot, lambda: any(marker in note for note in notes(app)), "the marker's toast")
    return [note for note in notes(app) if marker not in note]


async def resize(pilot: Pilot[object], size: tuple[int, int], done: Callable[[], object], what: str) -> None:
    """Resize the terminal (``Pilot.resize_terminal``) and wait until ``done()``."""
    await pilot.resize_terminal(*size)
    await until(pilot, done, what)


async def settle(pilot: Pilot[object], app: MQApp) -> None:
    """Wait until the computer players are idle and the screen shows the store's latest state, then
    draw the screen once (layout and sizes current, as after ``Pilot.pause``).

    It waits on that condition, not on the app being idle; with no game on screen (a title screen, a
    game still opening) it waits once for the app to be idle and returns if there is still none."""
    await drain(pilot)
    if _game_screen(app) is None or app.game_store is None:
        await pause(pilot)
        if _game_screen(app) is None or app.game_store is None:
            return
    await until(pilot, lambda: shows_latest(app), "the screen to show the store's latest state")
    await redraw(pilot)


async def redraw(pilot: Pilot[object]) -> None:
    """Draw the screen on top now (layout and sizes current), once what was posted to it is handled:
    ``Pilot.pause``, which ends with a redraw (:func:`pause`)."""
    await pause(pilot)


@contextlib.asynccontextmanager
async def running(
    app: MQApp, size: tuple[int, int] = (80, 24), notifications: bool = False
) -> AsyncIterator[Pilot[object]]:
    """``app.run_test(size=size, notifications=...)``, settled: a game on screen shows the store's latest
    state (or the title screen is idle). With ``notifications`` the toasts show (see :func:`notes`)."""
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await settle(pilot, app)
        yield pilot


async def screenshot(
    app: MQApp,
    size: tuple[int, int] = (80, 24),
    run_before: Callable[[Pilot[object]], Awaitable[object]] | None = None,
) -> str:
    """The app's screen as an SVG picture, as ``snap_compare`` takes it (headless, notifications on,
    animations over, layout current), after ``run_before`` and the store's latest state is shown.

    Compare it with the stored picture through the ``svg_snapshot`` fixture. (``snap_compare`` waits for
    the app to be idle five times around ``run_before``; this waits on the conditions instead.)"""
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot, app)
        if run_before is not None:
            await run_before(pilot)
            await settle(pilot, app)
        await app.animator.wait_until_complete()
        await redraw(pilot)
        return app.export_screenshot(title=app.title, simplify=True)


async def past_hand_off(pilot: Pilot[object], app: MQApp) -> None:
    """A hot-seat game opens on the hand-off screen: the first player presses Enter."""
    from mqtui.ui.screens.handoff import HandoffScreen

    await settle(pilot, app)
    if isinstance(app.screen, HandoffScreen):
        await pilot.press("enter")
        await settle(pilot, app)


# -- the footer ------------------------------------------------------------------------------------------


def textual_specs(footer: QuietFooter) -> list[KeySpec]:
    """The keys as Textual's own ``Screen.active_bindings`` gives them (every key of the screen asked
    for, where the footer asks only for the keys it can show)."""
    app, active = footer.app, footer.screen.active_bindings
    firsts: dict[str, KeySpec] = {}
    for node, binding, enabled, tooltip in active.values():
        if binding.show and binding.action not in firsts:
            display = app.get_key_display(binding)
            words = node.describe_binding(binding) if isinstance(node, DescribesKeys) else binding.description
            firsts[binding.action] = KeySpec(
                binding.key, display, words, binding.action, not enabled, tooltip
            )
    specs = list(firsts.values())
    palette = active.get(app.COMMAND_PALETTE_BINDING)
    if footer.show_command_palette and app.ENABLE_COMMAND_PALETTE and palette is not None:
        _node, binding, enabled, _tooltip = palette
        tip = binding.tooltip or binding.description
        display = app.get_key_display(binding)
        specs.append(
            KeySpec(binding.key, display, binding.description, binding.action, not enabled, tip, True)
        )
    return specs
