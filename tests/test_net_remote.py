"""An app served over SSH offers an allow list: its palette and its footer are what its class lists, for
a player and for a spectator (mqtui/net/remote_app.py, mqtui/net/served.py), and a key of mqtui's that
no list names is neither shown nor run. A binding added to a screen must be put in a list or in
``NOT_SERVED`` here: nothing reaches a visitor by default."""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
import socket
from collections.abc import AsyncIterator

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.command import CommandList
from ui_helpers import notes_so_far
from waiting import wait_until

import mqtui.ui
from mqtui.cli.seatapp import seat_app
from mqtui.engine.game import Engine
from mqtui.net.authority import Authority
from mqtui.net.client import make_app
from mqtui.net.identity import SPECTATOR, Claim
from mqtui.net.netstore import NetStore
from mqtui.net.served import RemoteMQApp
from mqtui.net.table import TableConfig, parse_new_spec
from mqtui.ui.describe import labelled, sort_key
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.help import HelpScreen
from mqtui.ui.widgets.footer import QuietFooter

# the keys of mqtui's screens that no visitor gets: saving, the title screen, local games, replays (the
# recap's too), the tutorial
NOT_SERVED = {
    "game.recap",
    "game.save",
    "handoff.ready",
    "handoff.ready2",
    "load.replay",
    "new.back",
    "new.create",
    "new.start",
    "over.new",
    "over.replay",
    "over.title",
    "packs.done",
    "packs.tick",
    "round.cancel",
    "settings.save",
    *(f"replay.{k}" for k in ("back", "combat", "end", "eyes", "fight", "hero", "leave", "next", "round")),
    *(f"replay.{k}" for k in ("start", "turn", "turnback")),
    *(f"title.{k}" for k in ("cards", "continue", "load", "new", "quit", "rules", "settings", "tutorial")),
    "tutorial.leave",
    "tutorial.skip",
    # the lobby's, served by the lobby's own app (mqtui.net.lobbyclient.LobbyApp)
    *(f"lobby.{k}" for k in ("code", "new", "quit", "refresh", "take", "watch")),
    "cycle.next",
    "cycle.previous",
}
THEMES = [
    "Theme: Colour-blind safe (Okabe-Ito)",
    "Theme: High contrast",
    "Theme: Dungeon dark (default)",
    "Theme: Parchment light",
    "Theme: Terminal colours (16)",
]
READING = [
    "Help: all keys",
    "Rules reference",
    "Card browser",
    "Message history",
    "Why did the computer do that?",
]
SYSTEM = ["Keys", "Maximize", "Quit", "Theme"]  # (Textual's, in its order; no "Screenshot")


def test_every_key_of_the_ui_is_served_or_named_as_not_served() -> None:
    ids: set[str | None] = set()
    for found in pkgutil.walk_packages(mqtui.ui.__path__, "mqtui.ui."):
        module = importlib.import_module(found.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                ids.update(b.id for b in Binding.make_bindings(vars(cls).get("BINDINGS", ())))
    assert None not in ids, "every binding of mqtui's has an id (the allow lists name bindings by id)"
    player, spectator = RemoteMQApp.PLAYER.bindings, RemoteMQApp.SPECTATOR.bindings
    assert spectator < player
    assert ids - player == NOT_SERVED
    assert player <= ids  # (no name in a list that no binding has)
    assert not {"game.undo", "game.redo", "game.done", "game.north", "actions.do", "hand.play"} & spectator


@pytest.fixture
async def served(engine: Engine) -> AsyncIterator[object]:
    """``served(seat)``: the full app's served form, for ``seat`` (or SPECTATOR) of a two-seat table."""
    closing: list[object] = []

    async def make(seat: int) -> tuple[RemoteMQApp, NetStore]:
        config = TableConfig(bot_delay=0.0, timeout=0.0, abandon=0.0)
        a = Authority.new(engine, parse_new_spec("2"), 1, None, config)
        await a.start()
        ours, theirs = socket.socketpair()
        a.attach(ours, Claim(seat, "test", "test"))
        store = await NetStore.open_socket(engine, theirs)
        closing.extend((store, a))
        app = make_app(store, seat_app("mqapp"), remote=True)
        assert isinstance(app, RemoteMQApp)
        return app, store

    yield make
    for thing in closing:
        await thing.close()  # type: ignore[attr-defined]


async def _palette(app: RemoteMQApp, pilot: object) -> list[str]:
    """The palette's entries on opening (their first lines)."""
    await pilot.press("ctrl+p")  # type: ignore[attr-defined]
    await wait_until(lambda: app.screen.query(CommandList) and app.screen.query_one(CommandList).option_count)
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]
    hits = app.screen.query_one(CommandList)
    return [str(hits.get_option_at_index(i).prompt).split("\n")[0] for i in range(hits.option_count)]


@pytest.mark.parametrize("seat", [0, SPECTATOR], ids=["player", "spectator"])
async def test_the_palette_and_the_footer_are_the_lists(served: object, seat: int) -> None:
    app, store = await served(seat)  # type: ignore[operator]
    async with app.run_test(size=(200, 50)) as pilot:
        await wait_until(lambda: isinstance(app.screen, GameScreen) and app.screen.snapshot is not None)
        await pilot.pause()
        footer = app.screen.query_one(QuietFooter)
        shown = [s.spec.description for s in footer.shown]
        snap = store.snapshot()
        if seat == SPECTATOR:
            assert shown == ["Help", "Quit", "All actions", "Heroes"]  # (no "^z Undo": spectators only watch)
        else:
            assert shown == [
                "Ready: start the game",
                "Ready",
                "Advice",
                "Help",
                "Quit",
                "All actions",
                "Heroes",
            ]  # (no "^z Undo" either: a game over the network takes nothing back)
        assert all(
            b.binding.id in app.allowed.bindings for b in app.screen.active_bindings.values() if b.binding.id
        )
        actions = [label for label, _ in labelled(sorted(snap.legal, key=sort_key), snap, store.cards)]
        assert bool(actions) == (seat != SPECTATOR)
        # (the providers search at once: their entries come in any order)
        assert sorted(await _palette(app, pilot)) == sorted(actions + SYSTEM + READING + THEMES)
        await pilot.press("escape")
        await pilot.press("ctrl+s")  # saving is not served: no dialog
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.allows_action("undo", app.screen) == (seat != SPECTATOR)


async def test_over_the_network_ctrl_z_says_nothing_is_taken_back(served: object) -> None:
    """The local game's "only your own last actions can be taken back" would be untrue here: a game
    over the network takes nothing back, and its footer offers no undo."""
    app, _store = await served(0)  # type: ignore[operator]
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(lambda: isinstance(app.screen, GameScreen) and app.screen.snapshot is not None)
        await pilot.press("ctrl+z")
        said = await notes_so_far(pilot, app)
        assert any(n.startswith("No undo here\n") and "over the network" in n for n in said), said
        assert not any(n.startswith("Nothing to undo") for n in said)
        footer = app.screen.query_one(QuietFooter)
        assert "Undo" not in [s.spec.description for s in footer.shown]


def _help_rows(app: RemoteMQApp) -> dict[str, str]:
    """The help screen's rows: keys to what they do (section titles map to "")."""
    out = io.StringIO()
    Console(width=140, file=out, color_system=None).print(app.screen.details)  # type: ignore[attr-defined]
    return {line.split("  ")[0].strip(): line for line in out.getvalue().splitlines() if line.strip()}


@pytest.mark.parametrize("seat", [0, SPECTATOR], ids=["player", "spectator"])
async def test_the_help_lists_only_the_keys_served(served: object, seat: int) -> None:
    """The local game's help would promise Ctrl+S, undo, the tutorial's keys and "quit to the title
    screen (the game is saved)": none of that holds for a session at a host."""
    app, _store = await served(seat)  # type: ignore[operator]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: isinstance(app.screen, GameScreen) and app.screen.snapshot is not None)
        await pilot.press("question_mark")
        await wait_until(lambda: isinstance(app.screen, HelpScreen))
        rows = _help_rows(app)
        for gone in ("Ctrl+S", "Ctrl+Z / Ctrl+Y", "Ctrl+N", "Ctrl+X", "Tutorial (Learn to play)"):
            assert gone not in rows, gone
        assert "leave the game (the table plays on at its host)" in rows["q"]
        assert "quit to the title screen" not in "".join(rows.values())
        assert "this help" in rows["F1"] and "inspect the room" in rows["i"]
        playing = ("Space", "Shift+arrows", "s", "w", "1-9", "e", "Hand (when focused)")
        if seat == SPECTATOR:  # a spectator moves nothing, has no hand and gets no advice
            assert not [key for key in playing if key in rows]
        else:
            assert all(key in rows for key in playing), [key for key in playing if key not in rows]
