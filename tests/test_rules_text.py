"""Rules text made from the card data (issue 26): one generator, a template per kind of clause, and
``mqtui content check`` failing on a text that is not the generated one or on data no template prints;
``mqtui cards --json``; the places a player reads rules text; saves that carried the old texts."""

from __future__ import annotations

import json
import shutil
import zlib
from pathlib import Path

import msgspec
import pytest
from engine_helpers import do, fight, plain_rooms, position, texts

from mqtui import paths, saves
from mqtui.cli import main
from mqtui.engine import templates_en
from mqtui.engine.cards import CardTable
from mqtui.engine.content import ContentError, clear_cache, load_content, text_drift
from mqtui.engine.defs import CONNECTIONS, Content, DxmDef, MonsterDef, RoomDef, TreasureDef
from mqtui.engine.game import Engine
from mqtui.engine.rules_text import EN, Definition, Locale, Words, words
from mqtui.engine.state import HIDDEN
from mqtui.store import LocalStore, Seat
from mqtui.ui.describe import card_text

ROOT = Path(__file__).resolve().parent.parent
PACK = paths.SEEDS_DIR / "packs" / "standing-room-only"


@pytest.fixture(autouse=True)
def _fresh_loads() -> None:
    clear_cache()


@pytest.fixture
def content() -> Content:
    return load_content([paths.BASE_CONTENT_DIR, PACK])


def by_id(content: Content, ident: str) -> Definition:
    found: list[Definition] = [*content.rooms, content.entrance, *content.monsters, *content.treasures]
    found += [*content.dxm, *content.races.values(), *content.classes.values()]
    return next(d for d in found if d.id == ident)


def write_pack(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


# -- the generated words ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ident", "expected"),
    [
        ("thinking-cap", "Headgear. +2 in combat. Usable only by Wizards."),
        ("clanking-plate", "Armor. Big. +2 in combat. Not usable by Halflings."),
        ("casual-vestments", "Armor. +2 in combat. +2 more against Undead. Usable only by Clerics."),
        (
            "rage-scroll",
            "One-shot: +4 to either side of a fight in this room. Usable only by Warriors or Dwarves. "
            "Then discard it.",
        ),
        (
            "tap-holy-water",
            "One-shot, thrown: +2 to either side of a fight in this room or an adjacent one. "
            "+3 more against Undead. Then discard it.",
        ),
        ("single-use-skates", "One-shot, on your turn outside a fight: +1 Move this turn. Then discard it."),
        (
            "curse-laundry-day",
            "Curse! Play on another hero on your turn. That hero must lose their armor and lose their footgear.",
        ),
        (
            "elf-card",
            "Race. Play on your hero on your turn, outside a fight: you are an Elf (+1 to run away, "
            "1 extra Move each turn). Replaces your current race; with two races allowed it joins the one you "
            "have, and a third replaces both.",
        ),
        (
            "gym-membership",
            "Play on a monster in a fight, before the dice are rolled: +5 to that monster's strength. "
            "If it is defeated, the winners draw 1 extra Treasure card.",
        ),
        ("table-bump", "Play right after the dice of a fight are rolled: -2 to one side's dice."),
        ("halfling", "Items you sell fetch 50% more gold. +1 to every run-away roll."),
        (
            "notarised-chapel",
            "Clerics get +2 in fights here. Shrine Deal (1 Move): only a Cleric may use it: pay 100 gold "
            "to gain 1 Life (not above your maximum).",
        ),
        (
            "tax-office",
            "Deal (1 Move): sell one item (from your hand or carried) for 50% of its gold value. "
            "Searching here: -2 to the roll.",
        ),
        ("poster-corridor", "All heroes get +1 in fights here."),
        (
            "bureaucracy-golem",
            "Construct Bureaucrat. Ignores heroes of Level 3 or lower. Slow: moves only one room. "
            "Bad Stuff: lose 3 Moves on your next turn and lose 1 item you carry (your choice).",
        ),
        # the data gives 2 Levels: the text says so; the titan's gives 1 (the hand-written text said 2)
        (
            "red-tape-dragon",
            "Dragon Bureaucrat. Ignores heroes of Level 7 or lower. Killing it gives 2 Levels. "
            "Slow: moves only one room. Bad Stuff: you die.",
        ),
        (
            "middle-management-titan",
            "Bureaucrat. Ignores heroes of Level 5 or lower. Bad Stuff: lose 2 Levels and go back to the Entrance.",
        ),
    ],
)
def test_a_cards_rules_text_is_made_from_its_data(content: Content, ident: str, expected: str) -> None:
    assert words(content).text(by_id(content, ident)) == expected


def test_a_change_to_the_data_changes_the_text(content: Content) -> None:
    titan = by_id(content, "middle-management-titan")
    assert isinstance(titan, MonsterDef)
    again = msgspec.structs.replace(titan, levels=3, tags=("bureaucrat", "slimy"))
    assert "Bureaucrat Slimy. Ignores heroes of Level 5 or lower. Killing it gives 3 Levels." in Words(
        content
    ).text(again)


def test_every_entry_has_a_text_and_all_of_its_data_is_printed(content: Content) -> None:
    rules = words(content)
    entries: list[Definition] = [
        content.entrance,
        *content.races.values(),
        *content.classes.values(),
        *content.rooms,
        *content.monsters,
        *content.treasures,
        *content.dxm,
    ]
    assert len(entries) > 250
    for d in entries:
        assert rules.text(d), d.id
        assert rules.check(d) == [], d.id
    assert len(rules.search_rows()) == len(content.tables.search)
    assert rules.search_rows()[-1] == "Search roll 10 or more: 2 Treasure cards."
    assert "Wall: impassable; 8 in the bag." in rules.connections()


def test_a_second_language_is_a_second_table_of_templates(content: Content) -> None:
    pirate = Locale(
        name="pirate",
        templates={
            **templates_en.TEMPLATES,
            "slot.head": "Hat, arr.",
            "item.only": "Only {who} may wear it.",
        },
        tag_words=templates_en.tag_words,
        plural_index=templates_en.plural_index,
        article=templates_en.article,
        plural=templates_en.plural,
    )
    cap = by_id(content, "thinking-cap")
    assert isinstance(cap, TreasureDef)
    assert Words(content, pirate).text(cap) == "Hat, arr. +2 in combat. Only Wizards may wear it."
    # a language that lacks a template says which card needs it, and which field
    partial = Locale(
        "partial", {"slot.armor": "Armour."}, EN.tag_words, EN.plural_index, EN.article, EN.plural
    )
    squib = by_id(content, "damp-squib")
    assert isinstance(squib, MonsterDef)
    missing = Words(content, partial).check(squib)
    assert ("move", 'no "move.slow" template in the rules text of language "partial"') in missing
    assert any(f == "bad_stuff[0]" and "bad_stuff.lose_gold" in why for f, why in missing)


def test_a_race_may_say_its_plural_when_the_rule_gets_it_wrong(tmp_path: Path) -> None:
    races = '[[race]]\nid = "gnome"\nname = "Gnome"\n\n[[race]]\nid = "fungus"\nname = "Fungus"\nplural = "Fungi"\n'
    treasure = (
        '[[treasure]]\nid = "tiny-hat"\nname = "Tiny Hat"\nkind = "equipment"\nslot = "head"\nbonus = 1\n'
    )
    treasure += 'only = ["gnome", "fungus", "thief"]\n'
    pack = write_pack(tmp_path / "p", {"races.toml": races, "treasure.toml": treasure})
    content = load_content([paths.BASE_CONTENT_DIR, pack])
    hat = by_id(content, "tiny-hat")
    assert words(content).text(hat) == "Headgear. +1 in combat. Usable only by Gnomes, Fungi or Thieves."


# -- mqtui content check ------------------------------------------------------------------------------

DRIFTING = """
[[monster]]
id = "pack-troll"
name = "Pack Troll"
level = 16
treasures = 2
levels = 1
text = "Killing it gives 2 Levels. Bad Stuff: lose 2 Levels."
bad_stuff = [{ kind = "lose_levels", amount = 2 }]
"""


def test_content_check_fails_on_a_text_that_is_not_the_generated_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = write_pack(tmp_path / "p", {"monsters.toml": DRIFTING})
    dirs = [str(paths.BASE_CONTENT_DIR), str(pack)]
    assert main(["content", "check", *dirs]) == 1
    out = capsys.readouterr().out
    assert (
        'p/monsters.toml: monster "pack-troll": field "text": differs from the rules text made from its data: '
        in out
    )
    assert '"Bad Stuff: lose 2 Levels."' in out and "content check failed: 1 error" in out
    # the game itself plays the card with the words made from its data
    troll = next(m for m in load_content(dirs).monsters if m.id == "pack-troll")
    assert words(load_content(dirs)).text(troll) == "Bad Stuff: lose 2 Levels."
    # written as the data says, it passes
    (pack / "monsters.toml").write_text(DRIFTING.replace("Killing it gives 2 Levels. ", ""), encoding="utf-8")
    clear_cache()
    assert text_drift(dirs) == []
    assert main(["content", "check", *dirs]) == 0


def test_content_check_fails_on_data_that_no_template_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "treasure.toml": '[[treasure]]\nid = "odd-coupon"\nname = "Odd Coupon"\nkind = "level"\nbonus = 2\n',
        "dxm.toml": '[[dxm]]\nid = "odd-shortcut"\nname = "Odd Shortcut"\nkind = "moves"\namount = 1\ntreasures = 1\n',
        "monsters.toml": '[[monster]]\nid = "odd-imp"\nname = "Odd Imp"\nlevel = 2\ntreasures = 1\n'
        'bad_stuff = [{ kind = "to_entrance", amount = 3 }]\n',
    }
    pack = write_pack(tmp_path / "p", files)
    assert main(["content", "check", str(paths.BASE_CONTENT_DIR), str(pack)]) == 1
    out = capsys.readouterr().out
    why = "no rules text prints it for this kind of entry (remove it)"
    assert f'p/treasure.toml: treasure "odd-coupon": field "bonus": {why}' in out
    assert f'p/dxm.toml: dxm "odd-shortcut": field "treasures": {why}' in out
    assert f'p/monsters.toml: monster "odd-imp": field "bad_stuff[0].amount": {why}' in out
    assert "content check failed: 3 errors" in out


def test_content_check_fails_on_a_card_whose_kind_has_no_template(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(templates_en.TEMPLATES, "dxm.wandering")
    assert main(["content", "check", str(paths.BASE_CONTENT_DIR)]) == 1
    out = capsys.readouterr().out
    assert 'dxm.toml: dxm "uninvited-guest": field "kind": no "dxm.wandering" template' in out
    with pytest.raises(ContentError, match="plus-one"):
        load_content([paths.BASE_CONTENT_DIR])


def test_content_check_passes_on_the_base_game_and_the_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check", str(paths.BASE_CONTENT_DIR), str(PACK)]) == 0
    assert main(["content", "check"]) == 0  # the base, then each installed pack on it
    assert "error" not in capsys.readouterr().out
    assert text_drift() == [] and text_drift([paths.BASE_CONTENT_DIR, PACK]) == []


def test_the_shipped_content_writes_no_rules_text() -> None:
    """The rules text lives in the templates only: no file of the base game or the pack repeats it."""
    for path in [*paths.BASE_CONTENT_DIR.glob("*.toml"), *PACK.glob("*.toml")]:
        assert "\ntext = " not in path.read_text(encoding="utf-8"), path


# -- mqtui cards --json -------------------------------------------------------------------------------


def test_cards_json_prints_every_entry_with_its_data_and_rules_text(
    content: Content, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "--json", "--pack", PACK.name]) == 0
    found = json.loads(capsys.readouterr().out)
    tables = content.tables
    cards = len(content.monsters) + len(content.treasures) + len(content.dxm)
    places = 1 + len(content.rooms) + len(content.races) + len(content.classes)  # (1: the Entrance)
    assert len(found) == cards + places + len(tables.search) + len(CONNECTIONS)
    rules = words(content)
    kinds: dict[str, type[Definition]] = {"monster": MonsterDef, "treasure": TreasureDef, "dxm": DxmDef}
    for entry in found:
        if entry["kind"] in {*kinds, "room"}:  # the data is the definition, whole
            d: Definition = msgspec.convert(entry["data"], kinds.get(entry["kind"], RoomDef))
            assert entry["id"] == d.id and entry["text"] == rules.text(d)
    bat = next(e for e in found if e["id"] == "queue-jumper")
    assert bat["kind"] == "monster" and bat["data"]["flavour"] and bat["text"].startswith("Goblin. Fast:")
    rows = [e for e in found if e["kind"] == "search"]
    assert [r["text"] for r in rows] == rules.search_rows() and rows[0]["data"]["result"] == "monster"
    door = next(e for e in found if e["kind"] == "connection" and e["id"] == "door")
    assert door["data"] == {"bag": tables.bag["door"], "move_cost": 1}

    assert main(["cards", "--json", "--kind", "race", "--search", "halfling"]) == 0
    only = json.loads(capsys.readouterr().out)
    assert [(e["kind"], e["id"]) for e in only] == [("race", "halfling")]


# -- where a player reads it --------------------------------------------------------------------------


def test_the_card_pane_and_the_inspector_show_the_generated_text(content: Content) -> None:
    from mqtui.ui.screens.cards import entries
    from mqtui.ui.widgets.room_info import room_details

    cards = CardTable.build(content)
    uid = cards.by_id["middle-management-titan"][0]
    assert card_text(cards, uid) == words(content).text(cards.monster[uid])
    assert "2 Levels. Bad" not in card_text(cards, uid)
    assert card_text(cards, HIDDEN) == "You cannot see this card."  # (nothing is looked up for it)
    browser = {e.id: e for e in entries(content)}
    assert browser["thinking-cap"].text == "Headgear. +2 in combat. Usable only by Wizards."
    assert (
        browser["search"].group == "Table"
        and "Search roll 9: 300 gold and 1 Treasure card." in browser["search"].text
    )
    s, _ = position(heroes=[{}, {}])
    entrance = room_details(cards, s, 0, 0).plain
    assert "Every hero starts here and returns here after dying." in entrance


def test_the_deal_action_says_the_deals_terms_only() -> None:
    from mqtui.store import Snapshot
    from mqtui.ui.describe import action_label

    s, _ = position(
        heroes=[{"class": "thief-card", "at": [1, 0], "gold": 300}, {}],
        rooms=[{"id": "shrine-pocketsworth", "at": [1, 0]}],
    )
    eng = Engine(load_content())
    deal = next(a for a in eng.legal(s, 0) if a.kind == "deal")
    snap = Snapshot(seat=0, view=s, legal=(deal,), deciding=0, log=(), n=s.n)
    assert (
        action_label(deal, snap, eng.cards) == "Take the Deal: pay 200 gold to draw 1 Treasure card (1 Move)"
    )


def test_the_log_restates_a_cards_rule_in_the_generated_words() -> None:
    s, _ = position(heroes=[{"hand": ["curse-laundry-day"]}, {}])
    lines = texts(do(s, "0 curse {curse-laundry-day} @1"))
    assert (
        "Ann curses Bob with Curse! Laundry Day: Bob must lose their armor and lose their footgear." in lines
    )
    (room,) = plain_rooms(1)
    s, _ = position(
        heroes=[{"at": [1, 0]}, {}],
        rooms=[{"id": room, "at": [1, 0]}],
        monsters=[{"card": "damp-squib", "at": [1, 0], "colour": "yellow"}],
    )
    lines = texts(fight(s, 1, 6, 4))
    assert (
        "Ann fails to escape Damp Squib (d6 4, 5 needed): Bad Stuff: lose 100 gold." in lines
    )  # not its moves


# -- saves ----------------------------------------------------------------------------------------------


def _content_of(data: saves.SaveData) -> object:
    assert data.defs is not None
    return msgspec.msgpack.decode(zlib.decompress(data.defs.data))


def _has_text(plain: object) -> bool:
    if isinstance(plain, dict):
        return "text" in plain or any(_has_text(v) for v in plain.values())
    if isinstance(plain, list):
        return any(_has_text(v) for v in plain)
    return False


def test_card_texts_are_not_stored_in_saves(tmp_path: Path) -> None:
    store = LocalStore.new(
        Engine(load_content()), (Seat("Ann", "red"), Seat("Bob", "blue", "random")), 5, bot_delay=0
    )
    data = saves.decode(store.to_bytes())
    assert data.defs is not None and data.defs.format == saves.defs.DEFS_FORMAT == 2
    assert not _has_text(_content_of(data))


@pytest.mark.parametrize("name", ["sample.mqsave", "format-2.mqsave"])
def test_a_save_whose_content_carries_the_old_texts_loads_continues_and_replays(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """saves/shape-1/ holds saves written before this change (26047a8's saves/sample.mqsave and
    format-2.mqsave): their content is of shape 1, with a hand-written text per entry."""
    path = tmp_path / name
    shutil.copyfile(ROOT / "saves" / "shape-1" / name, path)
    old = saves.read(path)
    assert old.defs is not None and old.defs.format == 1 and _has_text(_content_of(old))
    store = LocalStore.load(path, Engine(load_content()), bot_delay=0, verify=True)
    assert store.engine.content.version == old.header.content
    monster = store.engine.content.monsters[0]
    assert words(store.engine.content).text(monster).endswith(".")  # shown in today's words
    n = store.state.n
    for _ in range(40):
        if store.state.stage == "over" or not store.step_bot():
            who = store.engine.deciding(store.state)
            if who < 0:
                break
            store.apply(store.engine.legal(store.state, who)[0])
    assert store.state.n > n
    again = tmp_path / f"again-{name}"
    store.save(again)
    data = saves.read(again)
    assert data.defs is not None and data.defs.format == 2 and not _has_text(_content_of(data))
    assert data.defs.version == old.header.content  # the same content, without its old texts
    for file in (path, again):
        assert main(["replay", str(file), "--verify", "-q"]) == 0
        assert main(["check", "--verify", str(file)]) == 0
    capsys.readouterr()


def test_cards_whose_text_says_outside_a_fight_are_never_played_in_one(content: Content) -> None:
    """The text of healing and Moves one-shots, Moves cards and the wall-to-door card says "on your
    turn, outside a fight": in a fight, hurt, none of them is a legal play for anyone."""
    from engine_helpers import engine, uid

    cards = ["band-aid-of-paris", "single-use-skates", "second-wind", "unpermitted-renovation"]
    s, _ = position(
        heroes=[{"at": [1, 0], "life": 2, "hand": cards}, {"life": 2, "hand": ["chicken-soup"]}],
        rooms=[{"id": "pawn-shop", "at": [1, 0]}],
        monsters=[{"card": "skeleton-intern", "at": [1, 0], "colour": "blue"}],
    )
    assert s.combat is not None
    e = engine()
    for card in [*cards, "chicken-soup"]:
        assert "outside a fight" in words(content).text(by_id(content, card)), card
    held = {uid(c) for c in [*cards, "chicken-soup"]}
    for seat in (0, 1):
        assert not [a for a in e.legal(s, seat) if a.a in held and a.kind not in ("discard", "use")], seat
