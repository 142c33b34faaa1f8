"""The content loader (mqtui.engine.content), the shipped content, and ``mqtui content check`` / ``cards``."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from mqtui import paths
from mqtui.cli import main
from mqtui.engine import defs
from mqtui.engine.content import ContentError, clear_cache, counts, load_content

FIXTURES = Path(__file__).parent / "fixtures"
MINIMAL = FIXTURES / "minimal_content"
BROKEN = FIXTURES / "broken_content"
PACK = paths.SEEDS_DIR / "packs" / "standing-room-only"

# case -> (file, text to replace (must occur once in MINIMAL), replacement, expected message parts)
CASES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "unknown_field": (
        "monsters.toml",
        'id = "mini-slime"\n',
        'id = "mini-slime"\ncolour = "red"\n',
        ('monsters.toml: monster "mini-slime": field "colour": unknown field',),
    ),
    "wrong_type": (
        "monsters.toml",
        "level = 1\n",
        'level = "one"\n',
        ('monsters.toml: monster "mini-slime": field "level": expected int, got str',),
    ),
    "dangling_race": (
        "dxm.toml",
        'race = "elf"',
        'race = "orc"',
        ('dxm.toml: dxm "elf-card": field "race": "orc" is not a race id',),
    ),
    "impossible_level": (
        "monsters.toml",
        "level = 6\n",
        "level = 25\n",
        ('monsters.toml: monster "mini-ghost": field "level": must be between 1 and 20, got 25',),
    ),
    "duplicate_id": (
        "treasure.toml",
        'id = "mini-potion"',
        'id = "mini-hat"',
        ('treasure.toml: treasure "mini-hat": field "id": duplicate id',),
    ),
    "missing_weird": (
        "monsters.toml",
        'weird = "hunts"\n',
        "",
        ('monsters.toml: monster "mini-ghost": field "weird": required when move is "weird"',),
    ),
    "bad_arrow_side": (
        "rooms.toml",
        'yellow = "W"',
        'yellow = "X"',
        ('rooms.toml: room "mini-shop": field "arrows.yellow": unknown side "X"',),
    ),
    "bad_arrow_colour": (
        "rooms.toml",
        'purple = "E"',
        'pink = "E"',
        ('rooms.toml: room "mini-shop": field "arrows.pink": unknown colour "pink"',),
    ),
    "toml_syntax": (
        "treasure.toml",
        "gold = 200\n",
        "gold = 200 200\n",
        ("treasure.toml: line 7, column 12: TOML syntax error",),
    ),
    "tile_one_face": (
        "rooms.toml",
        'tile = 1\nflavour = "Sweaty."',
        'tile = 2\nflavour = "Sweaty."',
        (
            'rooms.toml: room "mini-gym": field "tile": tile 2 must have exactly two faces',
            'rooms.toml: room "mini-shop": field "tile": tile 1 must have exactly two faces',
        ),
    ),
    "search_gap": (
        "tables.toml",
        "low = 4\n",
        "low = 5\n",
        ('tables.toml: search row #3: field "low": gap',),
    ),
    "search_short": (
        "tables.toml",
        "high = 99\n",
        "high = 12\n",
        ('tables.toml: search row #7: field "high": the table must cover rolls up to 15',),
    ),
    "missing_id": (
        "monsters.toml",
        'id = "mini-slime"\n',
        "",
        ('monsters.toml: monster #1: field "id": missing required field',),
    ),
    "bad_effect_kind": (
        "monsters.toml",
        'kind = "lose_gold", amount = 100',
        'kind = "lose_shirt", amount = 100',
        ('monsters.toml: monster "mini-slime": field "bad_stuff[0].kind": unknown effect kind "lose_shirt"',),
    ),
    "nested_wrong_type": (
        "monsters.toml",
        'kind = "lose_gold", amount = 100',
        'kind = "lose_gold", amount = "lots"',
        ('monsters.toml: monster "mini-slime": field "bad_stuff[0].amount": expected int, got str',),
    ),
    "bad_bonus_vs": (
        "monsters.toml",
        'vs = "elf"',
        'vs = "gnome"',
        (
            'monsters.toml: monster "mini-ghost": field "bonuses[0].vs": "gnome" is not a race id, class id or monster tag',
        ),
    ),
    "dangling_only": (
        "treasure.toml",
        'only = ["elf"]',
        'only = ["paladin"]',
        ('treasure.toml: treasure "mini-hat": field "only[0]": "paladin" is not a race or class id',),
    ),
    "equipment_without_slot": (
        "treasure.toml",
        'slot = "head"\n',
        "",
        ('treasure.toml: treasure "mini-hat": field "slot": required for kind "equipment"',),
    ),
    "oneshot_without_use": (
        "treasure.toml",
        'use = "heal"\n',
        "",
        ('treasure.toml: treasure "mini-potion": field "use": required for kind "oneshot"',),
    ),
    "negative_gold": (
        "treasure.toml",
        "gold = 100\n",
        "gold = -100\n",
        ('treasure.toml: treasure "mini-potion": field "gold": must not be negative',),
    ),
    "short_too_long": (
        "rooms.toml",
        'short = "Shop"',
        'short = "ShopShopShop"',
        ('rooms.toml: room "mini-shop": field "short": must be 1 to 10 characters, got 12',),
    ),
    "bad_deal_kind": (
        "rooms.toml",
        'kind = "buy_treasure"',
        'kind = "buy_pony"',
        ('rooms.toml: room "mini-shop": field "deal.kind": unknown deal kind "buy_pony"',),
    ),
    "bad_rule_kind": (
        "rooms.toml",
        'kind = "monster_bonus"',
        'kind = "monster_party"',
        ('rooms.toml: room "mini-gym": field "rules[0].kind": unknown room rule kind "monster_party"',),
    ),
    "bad_power": (
        "races.toml",
        'kind = "escape_bonus"',
        'kind = "flight"',
        ('races.toml: race "elf": field "powers[0].kind": unknown power kind "flight"',),
    ),
    "zero_count": (
        "monsters.toml",
        "count = 2\n",
        "count = 0\n",
        ('monsters.toml: monster "mini-slime": field "count": must be at least 1',),
    ),
    "bad_move": (
        "monsters.toml",
        'move = "slow"',
        'move = "sideways"',
        ('monsters.toml: monster "mini-slime": field "move": unknown move type "sideways"',),
    ),
    "negative_ignores": (
        "monsters.toml",
        "ignores = 2\n",
        "ignores = -1\n",
        ('monsters.toml: monster "mini-ghost": field "ignores": must be between 0 and 19',),
    ),
    "bag_negative": (
        "tables.toml",
        "locked = 9\n",
        "locked = -9\n",
        ('tables.toml: bag: field "locked": must not be negative',),
    ),
    "move_cost_unknown": (
        "tables.toml",
        "hidden = 3\n",
        "hidden = 3\nportal = 1\n",
        ('tables.toml: move_cost: field "portal": unknown connection "portal"',),
    ),
    "unknown_table": (
        "monsters.toml",
        '[[monster]]\nid = "mini-ghost"',
        '[[monsters]]\nid = "mini-ghost"',
        ('monsters.toml: unknown table "monsters"',),
    ),
    "bad_slot": (
        "treasure.toml",
        'slot = "head"',
        'slot = "hat"',
        (
            'treasure.toml: treasure "mini-hat": field "slot": unknown slot "hat" '
            "(expected one of: head, armor, feet, hand, two_hands, trinket)",
        ),
    ),
    "bad_lose_slot": (
        "monsters.toml",
        'kind = "lose_slot", slot = "head"',
        'kind = "lose_slot", slot = "nose"',
        ('monsters.toml: monster "mini-ghost": field "bad_stuff[0].slot": unknown slot "nose"',),
    ),
    "bad_treasure_kind": (
        "treasure.toml",
        'kind = "oneshot"',
        'kind = "snack"',
        ('treasure.toml: treasure "mini-potion": field "kind": unknown treasure kind "snack"',),
    ),
    "bad_dxm_kind": (
        "dxm.toml",
        'kind = "curse"',
        'kind = "hex"',
        ('dxm.toml: dxm "mini-curse": field "kind": unknown DxM kind "hex"',),
    ),
    "bad_search_result": (
        "tables.toml",
        'result = "nothing"',
        'result = "zilch"',
        ('tables.toml: search row #2: field "result": unknown result "zilch"',),
    ),
    "curse_without_effects": (
        "dxm.toml",
        'effects = [{ kind = "lose_gold", amount = 100 }]\n',
        "",
        ('dxm.toml: dxm "mini-curse": field "effects": a curse needs at least one effect',),
    ),
}

# cases that also exist as real folders under tests/fixtures/broken_content/ (for `mqtui content check`)
FOLDER_CASES = (
    "unknown_field",
    "wrong_type",
    "dangling_race",
    "missing_weird",
    "bad_arrow_side",
    "toml_syntax",
    "tile_one_face",
    "search_gap",
)


def make_case(case: str, dst: Path) -> Path:
    """Copy the minimal content to ``dst`` with the one defect of ``case``."""
    file, old, new, _ = CASES[case]
    shutil.copytree(MINIMAL, dst)
    text = (MINIMAL / file).read_text()
    assert text.count(old) == 1, f"{case}: {old!r} must occur exactly once in {file}"
    (dst / file).write_text(text.replace(old, new))
    return dst


def write_pack(dst: Path, files: dict[str, str]) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (dst / name).write_text(text)
    return dst


# ---------------------------------------------------------------------------------------------------
# the shipped base content


@pytest.fixture(scope="module")
def base() -> defs.Content:
    return load_content()


def physical(items: object) -> int:
    return sum(x.count for x in items)  # type: ignore[attr-defined]


def test_base_loads_and_counts(base: defs.Content) -> None:
    assert set(base.races) == {"elf", "dwarf", "halfling"}
    assert set(base.classes) == {"warrior", "wizard", "cleric", "thief"}
    assert base.entrance.id == "entrance" and base.entrance.tile == 0
    assert not base.entrance.arrows and not base.entrance.rules and base.entrance.deal is None
    assert len(base.rooms) == 48
    tiles = Counter(r.tile for r in base.rooms)
    assert sorted(tiles) == list(range(1, 25)) and set(tiles.values()) == {2}
    assert physical(base.monsters) >= 68 and len(base.monsters) >= 60
    assert physical(base.treasures) >= 81
    assert physical(base.dxm) >= 51
    c = counts(base)
    assert c["rooms with a deal"] >= 12
    assert c["rooms with rules"] >= 16


def test_base_rooms(base: defs.Content) -> None:
    deals = Counter(r.deal.kind for r in base.rooms if r.deal)
    assert set(deals) == set(defs.DEAL_KINDS)
    assert any(r.deal.kind == "sell" and r.deal.amount == 100 for r in base.rooms if r.deal)
    assert all(300 <= r.deal.price <= 500 for r in base.rooms if r.deal and r.deal.kind == "buy_treasure")
    rules = Counter(rule.kind for r in base.rooms for rule in r.rules)
    assert set(rules) == set(defs.ROOM_RULE_KINDS)
    assert all(-2 <= r.search <= 2 for r in base.rooms)
    full = [r for r in base.rooms if set(r.arrows) == set(defs.COLOURS)]
    assert len(full) >= 40 and len(full) < 48  # mostly all six colours, a few rooms miss one
    assert all(r.flavour and len(r.short) <= 10 for r in base.rooms)


def test_base_monsters(base: defs.Content) -> None:
    ms = base.monsters
    by_band = Counter(
        "low" if m.level <= 4 else "mid" if m.level <= 9 else "high" for m in ms for _ in range(m.count)
    )
    total = physical(ms)
    assert by_band["low"] >= total // 4 and by_band["mid"] >= total // 4 and by_band["high"] >= total // 5
    assert sum(m.count for m in ms if m.level <= 12) > total * 2 // 3
    assert min(m.level for m in ms) == 1 and max(m.level for m in ms) == 20
    moves = Counter(m.move for m in ms)
    assert all(moves[k] >= 5 for k in defs.MOVE_KINDS)
    assert {m.weird for m in ms if m.move == "weird"} == set(defs.WEIRD_KINDS)
    effects = Counter(e.kind for m in ms for e in m.bad_stuff)
    assert all(effects[k] >= 2 for k in defs.EFFECT_KINDS), effects
    assert all(m.level >= 15 for m in ms if any(e.kind == "death" for e in m.bad_stuff))
    assert all(1 <= m.treasures <= 5 for m in ms)
    assert any(m.levels == 2 for m in ms) and any(m.ignores for m in ms) and any(m.bonuses for m in ms)
    assert sum(1 for m in ms if "undead" in m.tags) >= 5


def test_base_treasures_and_dxm(base: defs.Content) -> None:
    ts = base.treasures
    slots = Counter(t.slot for t in ts if t.kind == "equipment")
    assert all(slots[s] >= 1 for s in defs.SLOTS)
    uses = Counter(t.use for t in ts if t.kind == "oneshot")
    assert all(uses[u] >= 1 for u in defs.ONESHOT_USES)
    assert any(t.thrown for t in ts) and any(t.big for t in ts) and any(t.kind == "level" for t in ts)
    assert any(t.only for t in ts) and any(t.forbid for t in ts) and any(t.bonuses for t in ts)
    assert all(0 <= t.gold <= 1000 for t in ts)
    dk: Counter[str] = Counter()
    for d in base.dxm:
        dk[d.kind] += d.count
    for race in base.races:
        assert 2 <= sum(d.count for d in base.dxm if d.race == race) <= 3
    for klass in base.classes:
        assert 2 <= sum(d.count for d in base.dxm if d.klass == klass) <= 3
    assert 1 <= dk["half_breed"] <= 2 and 1 <= dk["super_munchkin"] <= 2
    assert dk["curse"] >= 8 and dk["enhancer"] >= 8 and dk["wandering"] >= 3 and dk["dungeon"] >= 4
    assert dk["dice"] >= 4 and dk["moves"] >= 3 and dk["level"] >= 3
    assert {d.action for d in base.dxm if d.kind == "dungeon"} == set(defs.DUNGEON_ACTIONS)
    assert any(d.amount < 0 for d in base.dxm if d.kind == "enhancer")
    assert any(p.kind.startswith("d10_") for k in base.classes.values() for p in k.powers)


def test_base_tables(base: defs.Content) -> None:
    t = base.tables
    assert t.bag == {"passage": 22, "door": 26, "locked": 9, "hidden": 8, "wall": 8}
    assert t.move_cost == {"passage": 1, "door": 1, "locked": 3, "hidden": 3}

    def row(roll: int) -> defs.SearchRow:
        (hit,) = [r for r in t.search if r.low <= roll <= r.high]
        return hit

    assert row(1).result == "monster" and row(-5).result == "monster"
    assert row(2).result == row(3).result == "nothing"
    assert row(4).gold == row(5).gold == 100 and row(6).gold == row(7).gold == 200
    assert (row(8).result, row(8).treasures) == ("treasure", 1)
    assert (row(9).gold, row(9).treasures) == (300, 1)
    assert row(10).treasures == row(15).treasures == 2


# Names that belong to the publisher of the board game or to other games' publishers (issue 17).
NOT_OURS = (
    "super munchkin",
    "half-breed",
    "half breed",
    "beholder",
    "mind flayer",
    "looking for trouble",
    "looking-for-trouble",
)


def test_no_names_of_other_publishers_in_content_ui_or_docs() -> None:
    """Card, monster and room names, texts and flavour, pack titles and folder names, the UI's words and
    the docs use only our own names (the content's `kind` keys are schema, not text)."""
    both = load_content([paths.BASE_CONTENT_DIR, PACK])
    texts = [
        f"{x.name} {getattr(x, 'text', '')} {getattr(x, 'flavour', '')}"
        for x in (
            *both.rooms,
            *both.monsters,
            *both.treasures,
            *both.dxm,
            *both.races.values(),
            *both.classes.values(),
        )
    ]
    texts += [p.name for p in (paths.SEEDS_DIR / "packs").iterdir()]
    texts += [f.read_text() for f in (paths.SEEDS_DIR / "packs").rglob("*.toml")]
    texts += [f.read_text() for f in (paths.PACKAGE_DIR / "ui").rglob("*.py")]
    texts += [f.read_text() for f in (paths.PROJECT_DIR / "docs").glob("*.md")]
    texts += [f.read_text() + f.name for f in (paths.SEEDS_DIR / "scenarios").glob("*.toml")]
    for text in texts:
        low = text.lower()
        assert not [n for n in NOT_OURS if n in low], text[:200]


def test_no_published_names(base: defs.Content) -> None:
    banned = (
        "plutonium dragon",
        "boots of butt-kicking",
        "duck of doom",
        "potted plant",
        "gelatinous octahedron",
        "potion of halitosis",
        "loaded die",
        "super munchkin",
        "half-breed",
        "wandering monster",
        "drooling slime",
        "lame goblin",
        "horny helmet",
        "pointy hat of power",
    )
    names = [x.name.lower() for x in (*base.rooms, *base.monsters, *base.treasures, *base.dxm)]
    for name in names:
        assert not any(b in name for b in banned), name


def test_version_and_cache(base: defs.Content) -> None:
    assert len(base.version) == 12 and int(base.version, 16) >= 0
    assert load_content() is load_content()
    assert load_content([paths.BASE_CONTENT_DIR]).version == base.version
    assert load_content([MINIMAL]).version != base.version


# ---------------------------------------------------------------------------------------------------
# broken content


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_content(case: str, tmp_path: Path) -> None:
    d = make_case(case, tmp_path / case)
    with pytest.raises(ContentError) as info:
        load_content([d])
    message = str(info.value)
    for part in CASES[case][3]:
        assert part in message, f"{part!r} not in:\n{message}"


def test_minimal_is_valid() -> None:
    c = load_content([MINIMAL])
    assert len(c.rooms) == 2 and physical(c.monsters) == 3


@pytest.mark.parametrize("case", FOLDER_CASES)
def test_broken_fixture_folders(case: str, tmp_path: Path) -> None:
    """The real folders under broken_content/ are exactly the minimal content plus the case's defect."""
    folder = BROKEN / case
    expected = make_case(case, tmp_path / case)
    for f in expected.iterdir():
        assert (folder / f.name).read_text() == f.read_text(), f"{folder / f.name} is out of date"
    with pytest.raises(ContentError) as info:
        load_content([folder])
    assert f"tests/fixtures/broken_content/{case}/{CASES[case][0]}" in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    d = shutil.copytree(MINIMAL, tmp_path / "c")
    (d / "dxm.toml").unlink()
    with pytest.raises(ContentError, match=r"dxm\.toml: missing"):
        load_content([d])


def test_several_errors_are_all_reported(tmp_path: Path) -> None:
    d = make_case("impossible_level", tmp_path / "c")
    text = (d / "treasure.toml").read_text().replace("gold = 100\n", "gold = -100\n")
    (d / "treasure.toml").write_text(text)
    with pytest.raises(ContentError) as info:
        load_content([d])
    assert len(info.value.errors) == 2


def test_edits_invalidate_cache(tmp_path: Path) -> None:
    d = shutil.copytree(MINIMAL, tmp_path / "c")
    first = load_content([d])
    assert load_content([d]) is first
    text = (d / "monsters.toml").read_text().replace("level = 6\n", "level = 7\n")
    (d / "monsters.toml").write_text(text + "\n")
    second = load_content([d])
    assert second.version != first.version
    assert [m.level for m in second.monsters] == [1, 7]
    clear_cache()


# ---------------------------------------------------------------------------------------------------
# packs

EXTRA_MONSTER = """
[[monster]]
id = "pack-bat"
name = "Pack Bat"
level = 2
treasures = 1
text = "Bad Stuff: lose 1 Move on your next turn."
bad_stuff = [{ kind = "lose_moves" }]
"""

GHOST_AGAIN = """
[[monster]]
id = "mini-ghost"
name = "Bigger Ghost"
level = 9
treasures = 3
move = "lurking"
text = "Bad Stuff: lose 1 Level."
bad_stuff = [{ kind = "lose_levels" }]
"""


def test_pack_adds(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", {"pack.toml": 'name = "P"\n', "monsters.toml": EXTRA_MONSTER})
    base = load_content([MINIMAL])
    both = load_content([MINIMAL, pack])
    assert len(both.monsters) == len(base.monsters) + 1
    assert both.monsters[-1].id == "pack-bat"
    assert both.version != base.version


def test_pack_duplicate_without_replace(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", {"monsters.toml": GHOST_AGAIN})
    with pytest.raises(ContentError) as info:
        load_content([MINIMAL, pack])
    msg = str(info.value)
    assert 'p/monsters.toml: monster "mini-ghost": field "id": duplicate id (already defined in' in msg
    assert "replace = true" in msg


def test_pack_replace(tmp_path: Path) -> None:
    pack = write_pack(
        tmp_path / "p",
        {"monsters.toml": GHOST_AGAIN.replace('id = "mini-ghost"', 'id = "mini-ghost"\nreplace = true')},
    )
    c = load_content([MINIMAL, pack])
    ghost = {m.id: m for m in c.monsters}["mini-ghost"]
    assert (ghost.name, ghost.level, ghost.move) == ("Bigger Ghost", 9, "lurking")
    assert [m.id for m in c.monsters] == ["mini-slime", "mini-ghost"]  # keeps its place


def test_pack_replace_nothing(tmp_path: Path) -> None:
    pack = write_pack(
        tmp_path / "p", {"monsters.toml": EXTRA_MONSTER.replace("level = 2", "level = 2\nreplace = true")}
    )
    with pytest.raises(ContentError, match=r'monster "pack-bat": field "replace": nothing to replace'):
        load_content([MINIMAL, pack])


def test_pack_tables_replace_and_references(tmp_path: Path) -> None:
    tables = (MINIMAL / "tables.toml").read_text().replace("wall = 8", "wall = 20")
    dxm = '[[dxm]]\nid = "gnome-card"\nname = "Gnome"\nkind = "race"\nrace = "gnome"\ntext = "You are a Gnome."\n'
    races = '[[race]]\nid = "gnome"\nname = "Gnome"\ntext = "Small."\n'
    pack = write_pack(tmp_path / "p", {"tables.toml": tables, "dxm.toml": dxm, "races.toml": races})
    c = load_content([MINIMAL, pack])
    assert c.tables.bag["wall"] == 20 and "gnome" in c.races
    # the same card without its race is a dangling reference, reported against the pack's file
    (pack / "races.toml").unlink()
    with pytest.raises(
        ContentError, match=r'p/dxm\.toml: dxm "gnome-card": field "race": "gnome" is not a race id'
    ):
        load_content([MINIMAL, pack])


def test_shipped_pack(base: defs.Content) -> None:
    both = load_content([paths.BASE_CONTENT_DIR, PACK])
    assert {r.tile for r in both.rooms} - {r.tile for r in base.rooms} == {25, 26}
    assert len(both.rooms) == 52
    assert physical(both.monsters) > physical(base.monsters)
    assert physical(both.treasures) > physical(base.treasures)
    assert physical(both.dxm) > physical(base.dxm)


# ---------------------------------------------------------------------------------------------------
# command line


def test_cli_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check"]) == 0
    out = capsys.readouterr().out
    assert "content OK" in out
    assert "rooms" in out and "48" in out


def test_cli_check_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check", str(paths.BASE_CONTENT_DIR), str(PACK)]) == 0
    out = capsys.readouterr().out
    assert "Standing Room Only" in out and "52" in out


def test_cli_check_broken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check", str(BROKEN / "dangling_race")]) == 1
    out = capsys.readouterr().out
    assert 'dxm.toml: dxm "elf-card": field "race": "orc" is not a race id' in out
    assert "content check failed: 1 error" in out


def test_cli_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--kind", "monster", "--search", "slime baron"]) == 0
    out = capsys.readouterr().out
    assert "Slime" in out and "Baron" in out and "Treasures" not in out
    assert main(["cards", "--kind", "room", "--search", "zzz-no-such-card"]) == 0
    assert "no matching cards" in capsys.readouterr().out
    assert main(["cards", "--dir", str(MINIMAL)]) == 0
    out = capsys.readouterr().out
    assert "Mini" in out and "Races" in out
