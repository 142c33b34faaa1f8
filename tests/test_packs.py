"""Content packs in every game: the player's packs folder, --pack, the New Game screen's pack list,
saves that name their packs, broken packs left out; and the player's own themes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from screen_text import notes
from textual.widgets import OptionList
from ui_helpers import make_app, press, running, settle, until

from mqtui import packs, paths
from mqtui.cli import main
from mqtui.engine.content import load_content
from mqtui.store import LocalStore
from mqtui.ui.saving import SaveFailed, load_game
from mqtui.ui.screens.cards import CardBrowserScreen
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.screens.new_game import NewGameScreen
from mqtui.ui.screens.packs import PackChooser
from mqtui.ui.screens.title import TitleScreen
from mqtui.ui.session import SeatSpec, new_store

SHIPPED = "standing-room-only"
BOTS = [SeatSpec("Ann", "normal"), SeatSpec("Bob", "normal"), SeatSpec("Cy", "normal")]


def add_user_pack(data: Path, name: str = "my-trouble") -> Path:
    """The shipped expansion copied into the player's packs folder under another name."""
    folder = data / "packs" / name
    shutil.copytree(paths.SEEDS_DIR / "packs" / SHIPPED, folder)
    return folder


def add_broken_pack(data: Path) -> Path:
    folder = data / "packs" / "broken"
    folder.mkdir(parents=True)
    (folder / "monsters.toml").write_text(
        '[[monster]]\nid = "sock-mimic"\nname = "Sock Mimic"\nlevel = "high"\n', encoding="utf-8"
    )
    return folder


def pack_uids(store: LocalStore) -> set[int]:
    """The card numbers of the cards that only the packs bring."""
    base = load_content([paths.BASE_CONTENT_DIR])
    base_ids = {d.id for d in (*base.dxm, *base.treasures, *base.monsters)}
    return {u for card_id, uids in store.cards.by_id.items() if card_id not in base_ids for u in uids}


def pack_card_in_play(store: LocalStore, uids: set[int]) -> str | None:
    """The name of a pack card in a hero's hands or on the board, if any."""
    for hero in store.state.heroes:
        for u in (*hero.hand, *hero.equipped, *hero.belt, *hero.backpack):
            if u in uids:
                return store.cards.names[u]
    for monster in store.state.monsters:
        if monster.card in uids:
            return store.cards.names[monster.card]
    return None


def play_until_a_pack_card(store: LocalStore, limit: int = 3000) -> str:
    uids = pack_uids(store)
    assert uids, "the pack brings no cards"
    for _ in range(limit):
        found = pack_card_in_play(store, uids)
        if found:
            return found
        assert store.step_bot(), "the game stopped before a pack card came up"
    raise AssertionError(f"no pack card came up in {limit} actions")


def test_a_seeded_game_with_a_user_pack_deals_its_cards_and_its_save_needs_it(data: Path) -> None:
    folder = add_user_pack(data)
    store = new_store(BOTS, seed=5, bot_delay=0, packs=["my-trouble"])
    assert store.packs == ("my-trouble",)
    name = play_until_a_pack_card(store)
    assert name in {m.name for m in load_content([paths.BASE_CONTENT_DIR, folder]).monsters} | {
        c.name for c in (*store.cards.content.treasures, *store.cards.content.dxm)
    }
    save = data / "saves" / "with-pack.mqsave"
    save.parent.mkdir(parents=True)
    store.save(save)

    again = load_game(save, bot_delay=0)  # the pack is installed: the game goes on
    assert again.packs == ("my-trouble",)
    assert again.state.heroes[0].hand == store.state.heroes[0].hand
    assert pack_card_in_play(again, pack_uids(again)) == name

    shutil.rmtree(folder)  # now it is not
    with pytest.raises(SaveFailed) as failed:
        load_game(save, bot_delay=0)
    assert str(failed.value) == "this save needs the content pack 'my-trouble', which is not installed here"


def test_mqtui_load_and_check_name_the_missing_pack_in_one_line(data: Path, capsys) -> None:
    folder = add_user_pack(data)
    store = new_store(BOTS, seed=2, bot_delay=0, packs=["my-trouble"])
    save = data / "pack-game.mqsave"
    data.mkdir(exist_ok=True)
    store.save(save)
    assert main(["check", str(save)]) == 0
    shutil.rmtree(folder)
    capsys.readouterr()
    assert main(["load", str(save)]) == 2
    err = capsys.readouterr().err
    assert err == "mqtui load: this save needs the content pack 'my-trouble', which is not installed here\n"
    assert main(["check", str(save)]) == 2
    assert "needs the content pack 'my-trouble'" in capsys.readouterr().out


def test_a_shipped_pack_game_saves_its_pack_and_loads_back(data: Path) -> None:
    store = new_store(BOTS, seed=9, bot_delay=0, packs=[SHIPPED])
    play_until_a_pack_card(store)
    save = data / "shipped.mqsave"
    data.mkdir(exist_ok=True)
    store.save(save)
    assert load_game(save).packs == (SHIPPED,)
    assert packs.game_packs(store) == (SHIPPED,)
    assert packs.describe(packs.game_packs(store)) == "Standing Room Only"


def test_new_refuses_an_unknown_or_broken_pack_before_the_screen_opens(data: Path, capsys) -> None:
    add_broken_pack(data)
    assert main(["new", "--pack", "nope"]) == 2
    assert (
        capsys.readouterr().err
        == "mqtui new: no content pack 'nope' is installed (installed: standing-room-only, broken)\n"
    )
    assert main(["new", "--pack", "broken"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mqtui new: the content pack cannot be used: ")
    assert 'broken/monsters.toml: monster "sock-mimic": field "level"' in err
    assert err.count("\n") == 1


def test_content_check_reports_a_broken_pack_with_file_and_entry_and_keeps_the_good_ones(
    data: Path, capsys
) -> None:
    add_user_pack(data)
    add_broken_pack(data)
    assert main(["content", "check", "--plain"]) == 1
    out = capsys.readouterr().out
    assert "content OK" in out
    assert "  standing-room-only: OK: Standing Room Only (shipped)" in out
    assert f"  my-trouble: OK: Standing Room Only ({data / 'packs' / 'my-trouble'})" in out
    assert "  broken: left out of games" in out
    assert 'broken/monsters.toml: monster "sock-mimic": field "level": expected int, got str' in out
    shutil.rmtree(data / "packs" / "broken")
    assert main(["content", "check", "--plain"]) == 0


def test_cards_shows_a_pack_by_name(data: Path, capsys) -> None:
    assert main(["cards", "--kind", "monster", "--search", "queue-jumper"]) == 0
    assert "no matching cards" in capsys.readouterr().out
    assert main(["cards", "--kind", "monster", "--search", "queue-jumper", "--pack", SHIPPED]) == 0
    assert "Queue-Jumping Goblin" in capsys.readouterr().out


@pytest.mark.slow
async def test_new_game_screen_lists_the_packs_and_the_game_uses_the_ticked_one(data: Path) -> None:
    add_user_pack(data)
    add_broken_pack(data)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # (each key waits for its effect, not for the app to be idle)
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        await press(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
        new_game = app.screen
        new_game.query_one("#packs").press()
        await until(pilot, lambda: isinstance(app.screen, PackChooser), "the pack chooser")
        chooser = app.screen
        assert isinstance(chooser, PackChooser)
        assert [p.name for p in chooser.packs] == [SHIPPED, "my-trouble"]
        assert "Left out (broken): broken: " in str(chooser.query_one("#broken").render())
        pack_list = chooser.query_one("#pack-list", OptionList)

        def shown() -> list[str]:
            return [str(o.prompt)[:4] for o in pack_list.options]

        await press(pilot, "down", lambda: pack_list.highlighted == 1)
        await press(pilot, "space", lambda: shown() != ["[ ] ", "[ ] "])  # tick the second: the player's copy
        assert shown() == ["[ ] ", "[x] "]  # ticked is not colour alone
        label = new_game.query_one("#packs")
        await press(pilot, "enter", lambda: app.screen is new_game and "Packs:" in str(label.label))
        assert "Packs: Standing Room Only" in str(label.label)
        await press(pilot, "ctrl+s", lambda: isinstance(app.screen, GameScreen))
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.game_store is not None
        assert packs.game_packs(app.game_store) == ("my-trouble",)
        assert "queue-jumper" in app.game_store.cards.by_id


async def test_title_card_browser_shows_pack_cards_and_leaves_a_broken_pack_out(data: Path) -> None:
    add_broken_pack(data)
    app = make_app()
    async with running(app, notifications=True) as pilot:

        def browsing() -> bool:  # the browser filled, and the word about the broken pack out
            screen = app.screen
            return isinstance(screen, CardBrowserScreen) and bool(screen.all) and bool(notes(app))

        await press(pilot, "k", browsing, "the card browser")
        assert isinstance(app.screen, CardBrowserScreen)
        from_pack = [e for e in app.screen.all if e.pack]
        assert {e.pack for e in from_pack} == {"Standing Room Only"}
        assert any(e.name == "Queue-Jumping Goblin" for e in from_pack)
        assert not any(e.name == "Sock Mimic" for e in app.screen.all)
        assert any("broken" in note for note in notes(app))


async def test_a_theme_in_the_data_folder_is_offered(data: Path) -> None:
    (data / "themes").mkdir(parents=True)
    (data / "themes" / "moss.toml").write_text(
        '[theme]\nname = "moss"\nlabel = "Moss (mine)"\nprimary = "#4A7A3A"\ndark = true\n', encoding="utf-8"
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TitleScreen), "the title screen")
        assert app.theme_labels["moss"] == "Moss (mine)"
        assert "mq-light" in app.theme_labels  # and the shipped ones still


async def test_an_app_started_with_packs_plays_them(data: Path) -> None:
    # what `mqtui new --pack standing-room-only` opens
    from mqtui.ui.app import MQApp
    from mqtui.ui.settings import Settings

    app = MQApp(
        settings=Settings(bot_delay=0.0, pass_countdown=0),
        save_settings_file=False,
        bot_delay=0,
        new_game=[SeatSpec("Ann"), SeatSpec("Bob", "random")],
        seed=4,
        packs=[SHIPPED],
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.game_store is not None
        assert packs.game_packs(app.game_store) == (SHIPPED,)
        assert "queue-jumper" in app.game_store.cards.by_id
        app.show_cards()  # the game's card browser marks what the pack brings
        await until(pilot, lambda: isinstance(app.screen, CardBrowserScreen) and app.screen.all, "the cards")
        assert isinstance(app.screen, CardBrowserScreen)
        marked = {e.name for e in app.screen.all if e.pack == "Standing Room Only"}
        assert "Queue-Jumping Goblin" in marked
        assert not any(e.pack for e in app.screen.all if e.name == "Damp Squib")


def test_a_save_naming_the_packs_old_name_finds_the_renamed_pack() -> None:
    """Saves record a pack by folder name; the shipped pack was renamed (issue 17), and games made
    with it under its old name still open with it."""
    old = next(iter(packs.RENAMED))
    assert packs.find(old) == packs.find(SHIPPED) == paths.SEEDS_DIR / "packs" / SHIPPED
    assert packs.missing_pack([old]) is None
    assert packs.content_dirs([old]) == packs.content_dirs([SHIPPED])
    assert packs.describe([old]) == "Standing Room Only"
