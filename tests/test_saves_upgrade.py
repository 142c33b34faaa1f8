"""Saves outlive content changes (issue 18): a game goes on with the content it began with.

The content is changed in temporary copies (a card renamed and retuned, a card added), and the
installed content is pointed at the copy, as an upgrade would: saves made before the change, this
program's and mqtui 0.1.0's (``saves/old/``, byte for byte as 0.1.0 wrote them), still load, replay
identically (``--verify``), continue with the old cards, and save again carrying them.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from mqtui import paths, saves
from mqtui.cli import main
from mqtui.engine.content import clear_cache, load_content
from mqtui.engine.game import Engine
from mqtui.net import persist
from mqtui.net.serve import ServeOptions, build_authority
from mqtui.store import LocalStore, Seat

ROOT = Path(__file__).resolve().parent.parent
OLD = ROOT / "saves" / "old"  # the saves/ folder of mqtui 0.1.0 (commit 8cb3f2a), byte for byte
MINIMAL = ROOT / "tests" / "fixtures" / "minimal_content"
SEATS = (Seat("Ann", "red"), Seat("Bob", "blue", "random"), Seat("Cy", "green", "random"))


@pytest.fixture(autouse=True)
def _clear_cache() -> None:  # (each test has its own data folder: tests/conftest.py)
    clear_cache()


def retune(folder: Path, file: str, ident: str, **fields: object) -> None:
    """Change (or set) fields of the entry ``ident`` in ``folder/file``, as a designer would."""
    path = folder / file
    text = path.read_text()
    start = text.index(f'id = "{ident}"')
    end = text.find("[[", start)
    end = len(text) if end < 0 else end
    entry = text[start:end]
    for key, value in fields.items():
        shown = f'"{value}"' if isinstance(value, str) else str(value)
        entry, n = re.subn(rf"(?m)^{key} = .*$", f"{key} = {shown}", entry)
        if n == 0:  # a field left at its default
            first, _, rest = entry.partition("\n")
            entry = f"{first}\n{key} = {shown}\n{rest}"
    path.write_text(text[:start] + entry + text[end:])


def first_monster(folder: Path) -> str:
    found = re.search(r'(?m)^id = "([^"]+)"', (folder / "monsters.toml").read_text())
    assert found is not None
    return found.group(1)


def add_monster(folder: Path) -> None:
    """A new card: every card number after it moves."""
    path = folder / "monsters.toml"
    first = path.read_text()
    extra = (
        '[[monster]]\nid = "new-arrival"\nname = "New Arrival"\nlevel = 2\ntreasures = 1\n'
        'text = "Bad Stuff: lose 1 Level."\nbad_stuff = [{ kind = "lose_levels", amount = 1 }]\ncount = 3\n\n'
    )
    at = first.index("[[monster]]")
    path.write_text(first[:at] + extra + first[at:])


@pytest.fixture
def upgraded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The installed content after an upgrade: a copy of seeds/ (base and packs) with a card renamed and
    retuned and a card added, and the same for the test content; returns the new seeds folder."""
    seeds = tmp_path / "seeds-new"
    shutil.copytree(paths.SEEDS_DIR, seeds, ignore=shutil.ignore_patterns("scenarios"))
    retune(
        seeds / "base", "monsters.toml", first_monster(seeds / "base"), name="Soggy Squib", level=3, count=3
    )
    add_monster(seeds / "base")
    pack = next(p for p in (seeds / "packs").iterdir() if p.is_dir())
    retune(pack, "monsters.toml", first_monster(pack), name="Renamed In The Pack", level=9)
    monkeypatch.setattr(paths, "SEEDS_DIR", seeds)
    monkeypatch.setattr(paths, "BASE_CONTENT_DIR", seeds / "base")
    return seeds


def keep_playing(store: LocalStore, actions: int, seed: int = 3) -> None:
    """Bots play their seats, the humans choose at random (seeded), for ``actions`` actions."""
    pick = random.Random(seed)
    for _ in range(actions):
        if store.state.stage == "over":
            return
        if not store.step_bot():
            who = store.engine.deciding(store.state)
            store.apply(pick.choice(store.engine.legal(store.state, who)))


def choose_for_everyone(store: LocalStore, actions: int, seed: int) -> None:
    """Seeded random choices for every seat (bots keep a state of their own that a save does not hold)."""
    pick = random.Random(seed)
    for _ in range(actions):
        who = store.engine.deciding(store.state)
        if who < 0:
            return
        store.apply(pick.choice(store.engine.legal(store.state, who)))


def minimal_engine(tmp_path: Path, changed: bool) -> Engine:
    folder = tmp_path / "minimal"
    if not folder.exists():
        shutil.copytree(MINIMAL, folder)
    if changed:
        retune(folder, "monsters.toml", "mini-slime", name="Maxi Slime", level=4)
        clear_cache()
    return Engine(load_content([folder]))


def old_saves() -> list[Path]:
    return sorted(OLD.glob("*.mqsave"))


def test_the_old_fixtures_are_0_1_0s_files() -> None:
    """saves/old holds what mqtui 0.1.0 wrote: formats 0 and 1, no content inside."""
    found = {p.name: saves.read(p) for p in old_saves()}
    assert set(found) == {"format-0.mqsave", "format-1.mqsave", "sample.mqsave"}
    assert [found[n].format for n in sorted(found)] == [0, 1, 1]
    assert all(d.header.program == "0.1.0" for d in found.values())
    # their content comes from the archive of released contents
    assert all(d.defs is not None and d.defs.version == d.header.content for d in found.values())


@pytest.mark.parametrize(
    "saved",
    [
        OLD / "format-0.mqsave",
        OLD / "format-1.mqsave",
        OLD / "sample.mqsave",
        # this program's: a change to the shape of the definitions would orphan them (a tripwire)
        ROOT / "saves" / "format-2.mqsave",
        ROOT / "saves" / "sample.mqsave",
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_an_old_save_loads_continues_and_verifies_after_the_content_changed(
    saved: Path, upgraded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = saved.name
    path = tmp_path / name
    shutil.copyfile(saved, path)
    old = saves.read(path)
    installed = Engine(load_content()) if name == "sample.mqsave" else minimal_engine(tmp_path, True)
    assert installed.content.version != old.header.content  # the content did change
    kept = "kept by mqtui" if old.format < 2 else "kept in the save"

    store = LocalStore.load(path, installed, bot_delay=0, verify=True)
    assert store.engine.content.version == old.header.content
    assert kept in store.content_note and installed.content.version in store.content_note
    assert store.log[-1].text == f"C{store.content_note[1:]}."  # the players read it in the log
    names = set(store.cards.names)
    assert "Soggy Squib" not in names and "Maxi Slime" not in names and "New Arrival" not in names

    keep_playing(store, 120)
    assert store.state.n > old.state.n
    again = tmp_path / f"again-{name}"
    store.save(again)
    data = saves.read(again)
    assert data.format == saves.FORMAT and data.defs is not None
    assert data.defs.version == old.header.content  # saved again with the cards it began with
    saves.load(again, installed, check_log=True)

    for file in (path, again):  # the commands agree, without being told where the content is
        assert main(["replay", str(file), "--verify", "-q"]) == 0
        assert main(["check", "--verify", str(file)]) == 0
    out = capsys.readouterr().out
    assert f"content {old.header.content}" in out and kept in out and "kept in the save" in out


def test_a_card_changed_after_saving_keeps_its_old_name_and_numbers(tmp_path: Path) -> None:
    base = tmp_path / "base"
    shutil.copytree(paths.BASE_CONTENT_DIR, base)
    before = Engine(load_content([base]))
    store = LocalStore.new(before, SEATS, 17, bot_delay=0)
    keep_playing(store, 400)
    path = tmp_path / "game.mqsave"
    store.save(path)

    ident = first_monster(base)
    was = next(m for m in before.content.monsters if m.id == ident)
    retune(
        base,
        "monsters.toml",
        ident,
        name="Soggy Squib",
        level=was.level % 20 + 1,
        treasures=was.treasures + 1,
    )
    clear_cache()
    after = Engine(load_content([base]))
    assert after.content.version != before.content.version
    renamed = next(m for m in after.content.monsters if m.id == ident)
    assert (renamed.name, renamed.level, renamed.treasures) == (
        "Soggy Squib",
        was.level % 20 + 1,
        was.treasures + 1,
    )

    loaded = LocalStore.load(path, after, bot_delay=0, verify=True)  # replays identically
    assert next(m for m in loaded.engine.content.monsters if m.id == ident) == was  # the old card, whole
    assert was.name in loaded.cards.names and "Soggy Squib" not in loaded.cards.names
    assert loaded.state == store.state and loaded.actions == store.actions

    # both go on the same way: the loaded game plays with the old card, exactly as the original would
    choose_for_everyone(store, 300, seed=9)
    choose_for_everyone(loaded, 300, seed=9)
    assert loaded.state == store.state
    assert [e.text for e in loaded.log[-50:]] == [e.text for e in store.log[-50:]]
    # a new game uses the new content
    fresh = LocalStore.new(after, SEATS, 17, bot_delay=0)
    assert "Soggy Squib" in fresh.cards.names


def test_a_save_made_with_a_pack_survives_a_change_to_the_pack(upgraded: Path, tmp_path: Path) -> None:
    # made before the upgrade: the shipped base and pack (as archived for 0.1.0)
    pack_name = next(p.name for p in (upgraded / "packs").iterdir() if p.is_dir())
    original = Engine(load_content([ROOT / "seeds" / "base", ROOT / "seeds" / "packs" / pack_name]))
    store = LocalStore.new(original, SEATS, 23, bot_delay=0)
    store.packs = (pack_name,)
    keep_playing(store, 300)
    path = tmp_path / "packed.mqsave"
    store.save(path)

    installed = Engine(load_content([upgraded / "base", upgraded / "packs" / pack_name]))
    assert installed.content.version != original.content.version
    loaded = LocalStore.load(path, installed, bot_delay=0, verify=True)
    assert loaded.engine.content == original.content
    assert "Renamed In The Pack" not in loaded.cards.names
    keep_playing(loaded, 100)
    assert main(["check", "--verify", str(path)]) == 0  # engine_for would pick the upgraded pack
    # the pack uninstalled: the player chose not to play it, and the save says what it needs
    shutil.rmtree(upgraded / "packs" / pack_name)
    with pytest.raises(saves.SaveError, match=f"needs the content pack '{pack_name}'"):
        LocalStore.load(path, Engine(load_content()), bot_delay=0)


def test_same_content_uses_the_installed_engine(tmp_path: Path) -> None:
    eng = minimal_engine(tmp_path, False)
    store = LocalStore.new(eng, SEATS, 5, bot_delay=0)
    keep_playing(store, 50)
    path = tmp_path / "same.mqsave"
    store.save(path)
    loaded = LocalStore.load(path, eng, bot_delay=0)
    assert loaded.engine is eng
    assert loaded.content_note.endswith(", as installed")
    assert loaded.log[-1].kind != "save"  # nothing to tell the players


def test_an_old_save_whose_content_is_not_archived_needs_that_content(tmp_path: Path) -> None:
    data = saves.read(OLD / "format-1.mqsave")
    data.defs = None  # as if its content had never been archived
    with pytest.raises(saves.SaveError, match="does not carry its content"):
        saves.engine_of(data, minimal_engine(tmp_path, True))
    assert saves.engine_of(data, Engine(load_content([MINIMAL]))).content.version == data.header.content


def test_damaged_content_in_a_save_is_one_clear_line(tmp_path: Path) -> None:
    store = LocalStore.new(minimal_engine(tmp_path, False), SEATS, 5, bot_delay=0)
    data = saves.decode(store.to_bytes())
    assert data.defs is not None
    good = data.defs
    for bad, words in (
        (saves.Defs(version=good.version, data=good.data[:-9]), "cut short"),
        (saves.Defs(version=good.version, data=b"not zlib"), "damaged content"),
        (saves.Defs(format=7, version=good.version, data=good.data), "shape 7"),
        (saves.Defs(version="0123456789ab", data=good.data), "carries content 0123456789ab but says"),
    ):
        data.defs = bad
        with pytest.raises(saves.SaveError, match=words):
            saves.engine_of(saves.decode(saves.encode(data)))


def test_serve_load_resumes_a_table_saved_before_an_upgrade(upgraded: Path, tmp_path: Path) -> None:
    path = tmp_path / "table.mqsave"
    shutil.copyfile(OLD / "sample.mqsave", path)  # a 0.1.0 save, served with --load
    old = saves.read(path)
    opts = ServeOptions(load=str(path), ssh=False, bot_delay=0, timeout=0, abandon=0)
    authority, save_path = build_authority(opts)
    try:
        assert (
            authority.engine.content.version == old.header.content != Engine(load_content()).content.version
        )
        assert authority.state == old.state
        who = authority.engine.deciding(authority.state)
        ok, why = authority.apply(authority.engine.legal(authority.state, who)[0])
        assert ok, why
        authority.save_now()
    finally:
        assert authority.saver is not None
        authority.saver.close()
    resumed, _ = persist.load(save_path)
    assert resumed.state.n == old.state.n + 1 and resumed.defs is not None
    assert resumed.defs.version == old.header.content
    again, _ = build_authority(opts)
    try:
        assert again.state == resumed.state and again.engine.content.version == old.header.content
    finally:
        assert again.saver is not None
        again.saver.close()


def test_the_saves_list_says_which_games_play_with_older_content(
    upgraded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "list"
    folder.mkdir()
    shutil.copyfile(OLD / "sample.mqsave", folder / "old.mqsave")
    LocalStore.new(Engine(load_content()), SEATS, 3, bot_delay=0).save(folder / "new.mqsave")
    version = saves.read(folder / "old.mqsave").header.content
    assert main(["saves", "--dir", str(folder)]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    assert (
        f"content {version} (base), kept by mqtui: the game goes on with the cards it began" in lines["old"]
    )
    assert "content" not in lines["new"]  # the installed content: nothing to say
    assert main(["saves", "--dir", str(folder), "--json"]) == 0
    listed = {e["name"]: e["content"] for e in json.loads(capsys.readouterr().out)}
    assert listed["new"] is None and listed["old"].startswith(f"content {version}")


def test_a_log_that_no_longer_replays_says_which_mqtui_wrote_it(tmp_path: Path) -> None:
    """Content travels with a save, rules do not: if a later rule made an old log play out otherwise,
    the message says the save is older (and the game itself still loads)."""
    data = saves.read(OLD / "format-1.mqsave")
    data.state.heroes[1].gold += 100  # as if the rules had changed what the log leads to
    with pytest.raises(saves.SaveError, match=r"heroes\[1\]\.gold .* \(written by mqtui 0\.1\.0: the rules"):
        saves.verify(data, saves.engine_of(data))
    store = LocalStore.new(minimal_engine(tmp_path, False), SEATS, 5, bot_delay=0)
    keep_playing(store, 30)
    mine = saves.decode(store.to_bytes())
    mine.state.heroes[1].gold += 100
    with pytest.raises(saves.SaveError) as info:
        saves.verify(mine, store.engine)
    assert "written by" not in str(info.value)
