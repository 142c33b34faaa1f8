"""The UI's parts without a screen: themes, settings, words for actions and cards, the map drawing,
seats from the command line, the command palette and undo by key."""

from __future__ import annotations

import random

import pytest
from ui_helpers import act, add_monster, add_room, make_app, press, resize, running, settle, store_for, until

from mqtui.engine.actions import EVENT_KINDS, SPECS
from mqtui.ui import themes
from mqtui.ui.commands import AppCommands, LegalActionsCommands
from mqtui.ui.describe import LOG_STYLES, action_label, card_kind, card_text, hero_letters, log_style, prompt
from mqtui.ui.session import build_seats, default_specs, parse_players, resolve_kind
from mqtui.ui.settings import Settings, load_settings, save_settings
from mqtui.ui.widgets.map_canvas import CONNECTIONS, draw


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


# -- themes -------------------------------------------------------------------------------------------


def test_shipped_themes_load_and_cover_the_game_colours() -> None:
    loaded = themes.load_themes()
    assert not loaded.errors
    for name in ("mq-dark", "mq-light", "mq-contrast", "mq-colourblind", "mq-terminal"):
        assert name in loaded.themes
        assert set(themes.GAME_VARIABLES) <= set(loaded.themes[name].variables)
    assert loaded.themes["mq-light"].dark is False


def test_colour_blind_theme_uses_distinct_player_colours() -> None:
    theme = themes.load_themes().themes["mq-colourblind"]
    colours = [theme.variables[f"mq-{c}"] for c in ("red", "blue", "green", "yellow", "orange", "purple")]
    assert len(set(colours)) == 6


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"theme": {"primary": "#fff"}}, r"bad.toml: theme\.name: missing required field"),
        ({"theme": {"name": " ", "primary": "#fff"}}, r"theme\.name: must not be empty"),
        ({"theme": {"name": "x"}}, r"theme\.primary: missing required field"),
        ({"theme": {"name": "x", "primary": "nope"}}, r"theme\.primary = 'nope' is not a colour"),
        (
            {"theme": {"name": "x", "primary": "#fff", "sparkle": 1}},
            r"theme\.sparkle: unknown field \(known:",
        ),
        (
            {"theme": {"name": "x", "primary": "#fff"}, "variables": {"mq-red": "bad"}},
            "mq-red = 'bad' is not a colour",
        ),
        ({"theme": {"name": "x", "primary": "#fff", "dark": "yes"}}, r"theme\.dark: expected bool, got str"),
        (
            {"theme": {"name": "x", "primary": "#fff", "text_alpha": 2}},
            r"theme\.text_alpha: expected float <= 1",
        ),
        (
            {"theme": {"name": "x", "primary": "#fff"}, "extra": {}},
            r"extra: unknown field \(known: theme, variables\)",
        ),
    ],
)
def test_bad_theme_files_are_refused_with_a_reason(data, error) -> None:
    with pytest.raises(themes.ThemeError, match=error):
        themes.parse_theme(data, "bad.toml")


def test_a_broken_theme_file_is_reported_not_fatal(tmp_path) -> None:
    (tmp_path / "good.toml").write_text('[theme]\nname = "good"\nprimary = "#123456"\n')
    (tmp_path / "bad.toml").write_text("[theme\n")
    loaded = themes.load_themes(tmp_path)
    assert "good" in loaded.themes and themes.DEFAULT_THEME in loaded.themes
    assert len(loaded.errors) == 1 and "bad.toml" in loaded.errors[0]


def test_settings_round_trip_and_survive_garbage(data) -> None:
    save_settings(Settings(theme="mq-light", bot_delay=0.15, pass_countdown=5))
    assert load_settings() == Settings(theme="mq-light", bot_delay=0.15, pass_countdown=5)
    (data / "settings.json").write_text("{not json")
    assert load_settings() == Settings()


# -- seats ----------------------------------------------------------------------------------------------


def test_players_from_the_command_line() -> None:
    specs = parse_players("Ann:human, Bob:bot, Cy:hard:green")
    seats = build_seats(specs)
    assert [s.name for s in seats] == ["Ann", "Bob", "Cy"]
    assert seats[0].kind == "human" and seats[1].kind in ("normal", "random")
    assert seats[2].colour == "green" and seats[0].colour == "red" and seats[1].colour == "blue"
    with pytest.raises(ValueError):
        parse_players("Ann:wizard")
    with pytest.raises(ValueError):
        build_seats(parse_players("Ann"))
    with pytest.raises(ValueError):
        build_seats(parse_players("Ann,Ann"))
    assert resolve_kind("bot") in ("normal", "random")


def test_default_table_is_one_human_against_three_computers() -> None:
    seats = build_seats(default_specs())
    assert [s.kind == "human" for s in seats] == [True, False, False, False]


def test_cli_new_rejects_a_bad_table(capsys) -> None:
    from mqtui.cli import main

    assert main(["new", "--players", "Ann"]) == 2
    assert "2 to 6" in capsys.readouterr().err


def test_cli_load_rejects_a_missing_file(capsys, tmp_path) -> None:
    from mqtui.cli import main

    assert main(["load", str(tmp_path / "nope.mqsave")]) == 2
    assert "no such file" in capsys.readouterr().err


# -- words --------------------------------------------------------------------------------------------


def test_every_legal_action_in_random_games_has_words() -> None:
    """Labels, card kinds and prompts never fail on real positions (random play, several seeds)."""
    seen: set[str] = set()
    kinds: set[str] = set()
    for seed in range(4):
        store = store_for((("A", "random"), ("B", "random"), ("C", "random")), seed=seed, setup_done=False)
        rnd = random.Random(seed)
        for _ in range(400):
            who = store.engine.deciding(store.state)
            if who < 0:
                break
            snap = store.snapshot(who)
            assert prompt(snap, store.seats)
            for action in snap.legal:
                label = action_label(action, snap, store.cards)
                short = action_label(action, snap, store.cards, short=True)
                assert label and short and not label.startswith(str(action.seat) + " ")
                seen.add(action.kind)
            for uid in snap.view.heroes[who].hand:
                assert card_kind(store.cards, uid) and card_text(store.cards, uid)
            store.apply(rnd.choice(snap.legal))
        kinds.update(line.kind for line in store.snapshot(0).log)
    assert len(seen) >= 15, seen
    assert seen <= set(SPECS)
    assert len(kinds) >= 15, kinds
    assert kinds <= set(LOG_STYLES), kinds - set(LOG_STYLES)  # every kind met has its own symbol


def test_every_event_kind_has_a_log_symbol() -> None:
    """The engine's kinds and those the hosts add (undo, save, away, bot, timeout): each has its entry."""
    assert set(LOG_STYLES) == set(EVENT_KINDS)


def test_log_symbols_come_from_the_event_kind_not_the_words() -> None:
    assert log_style("turn") == ("»", "turn")
    assert log_style("result")[0] == log_style("combat")[0] == "⚔"
    assert log_style("death") == ("✝", "death")
    assert log_style("a-kind-from-a-newer-server") == ("·", "")
    # one symbol for each kind of thing, so that without colour the symbol still tells them apart
    assert len({symbol for symbol, _ in LOG_STYLES.values()}) >= 25


def test_hero_letters_are_unique() -> None:
    store = store_for((("Ann", "human"), ("Al", "random"), ("Bob", "random")))
    letters = hero_letters(store.state.heroes)
    assert len(set(letters.values())) == 3
    assert letters[2] == "B"


def test_map_drawing_shows_kinds_by_glyph_not_colour() -> None:
    store = store_for()
    add_room(store, "coat-check", 1, 0, {1: "door", 0: "locked", 2: "wall"})
    add_monster(store, "skeleton-intern", 1, 0, "blue")
    canvas = draw(store.cards, store.state, hero_letters(store.state.heroes), cursor=(1, 0))
    text = "\n".join("".join(ch for ch, _ in row) for row in canvas.rows)
    assert "Entrance" in text and "CoatCheck" in text
    assert "+" in text and "#" in text and "█" in text and "M3" in text and "?" in text
    assert "┏" in text  # the cursor room's outline
    # no connection is drawn with a letter: letters are heroes
    assert not any(ch.isalpha() for glyphs in CONNECTIONS.values() for ch in glyphs[0] + glyphs[1])


# -- palette and undo ---------------------------------------------------------------------------------------


async def test_palette_lists_every_legal_action_by_name() -> None:
    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        provider = LegalActionsCommands(app.screen)
        hits = [hit async for hit in provider.discover()]
        legal = app.screen.snapshot.legal
        counts = [int(str(h.display).rsplit("(×", 1)[1][:-1]) if "(×" in str(h.display) else 1 for h in hits]
        assert sum(counts) == len(legal)  # every legal action, copies of one card on one line
        names = [str(hit.display) for hit in hits]
        assert "End your action phase" in names
        shown = names + [hit.help or "" for hit in hits]
        assert not any(str(a) in text for a in legal for text in shown)  # no "0 move N" notation
        assert any((hit.help or "").startswith("card: ") for hit in hits)
        found = [hit async for hit in provider.search("explore north")]
        assert found and "Explore north" in str(found[0].text)
        await found[0].command()
        await settle(pilot, app)
        assert len(store.state.rooms) == 2
        app_hits = [str(hit.display) async for hit in AppCommands(app.screen).discover()]
        assert any(h.startswith("Theme: ") for h in app_hits)


@pytest.mark.parametrize("no_color", [False, True])
async def test_undo_and_redo_by_keys_and_the_log_pane(no_color: bool, monkeypatch) -> None:
    """A move undone and redone by keys. The log pane shows real entries (the start, draws, the turn,
    a move, an undo) each with their kind's symbol, also under NO_COLOR, where the symbol and the words
    carry the meaning; the undo takes the move's line out of it.

    (One app run for what three tests checked on the same moves: the keys, the log's lines, the symbols.)"""
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    store = store_for()
    add_room(store, "coat-check", 1, 0)
    app = make_app(store)

    def shows(kind: str, symbol: str) -> bool:
        entry = next(e for e in reversed(app.screen.snapshot.log) if e.kind == kind)
        return any(strip.text.startswith(f"{symbol} {entry.text[:12]}") for strip in log.lines)

    async with running(app) as pilot:
        log = app.screen.query_one("#log")
        before = [strip.text for strip in log.lines]
        await act(pilot, app, "shift+right")  # a move into a known room reveals nothing: it can be undone
        assert (store.state.heroes[0].x, store.state.heroes[0].y) == (1, 0)
        assert any("Coat Check" in strip.text for strip in log.lines[len(before) :])
        assert shows("start", "»") and shows("draw", "+") and shows("turn", "»") and shows("move", "→")
        await act(pilot, app, "ctrl+z")
        assert (store.state.heroes[0].x, store.state.heroes[0].y) == (0, 0)
        assert app.screen.snapshot.view.heroes[0].x == 0
        assert shows("undo", "↶")
        lines = [strip.text for strip in log.lines]
        assert lines[: len(before)] == before  # the move's line is gone, and "takes back" follows
        assert "goes east" not in " ".join(lines[len(before) :]).replace("takes back: Ann goes east", "")
        assert "takes back" in lines[len(before)]
        # the same as the whole log written afresh (a resize wraps it all again, there and back)
        width = log.size.width
        await resize(pilot, (100, 24), lambda: log.size.width != width, "the wider log")
        await resize(pilot, (80, 24), lambda: log.size.width == width, "the log as it was")
        assert [strip.text for strip in log.lines] == lines
        await act(pilot, app, "ctrl+y")
        assert (store.state.heroes[0].x, store.state.heroes[0].y) == (1, 0)


class ProtocolOnly:
    """A store with nothing but the GameStore protocol (as a networked store would be)."""

    def __init__(self, inner) -> None:
        self._inner = inner
        self.cards = inner.cards
        self.seats = inner.seats

    def snapshot(self):
        return self._inner.snapshot()

    def subscribe(self, listener):
        return self._inner.subscribe(listener)

    async def send(self, action) -> None:
        await self._inner.send(action)

    def explain(self, action) -> str:
        return self._inner.explain(action)

    takes_back = False

    def can_undo(self) -> bool:
        return False

    def can_redo(self) -> bool:
        return False

    async def undo(self) -> None:
        raise RuntimeError("no undo here")

    async def redo(self) -> None:
        raise RuntimeError("no redo here")


async def test_a_given_store_opens_on_the_game_and_saves_nothing(data) -> None:
    from mqtui.ui.app import MQApp
    from mqtui.ui.screens.game import GameScreen

    store = ProtocolOnly(store_for())
    app = MQApp(store, settings=Settings(), save_settings_file=False, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await press(pilot, "shift+right", lambda: len(store._inner.state.rooms) == 2, "a room explored")
        await press(
            pilot, "q", lambda: app.return_code is not None, "the app's end"
        )  # (no title screen for a given store)
    assert not (data / "saves").exists()


def test_palette_word_order_does_not_matter() -> None:
    from mqtui.ui.commands import match_words

    label = "Curse Grizzlebeard with Wrong Turn"
    for query in ("wrong turn grizz", "curse grizz wrong", "Grizz CURSE"):
        found = match_words(query, label)
        assert found is not None, query
        assert found[1].spans  # the words found are highlighted
    assert match_words("wrong turn snaggle", label) is None
    assert match_words("", label) is None
