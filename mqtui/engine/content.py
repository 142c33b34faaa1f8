"""The content loader: reads the TOML game data under ``seeds/`` into :class:`~mqtui.engine.defs.Content`.

A content folder holds ``races.toml``, ``classes.toml``, ``rooms.toml``, ``monsters.toml``,
``treasure.toml``, ``dxm.toml`` and ``tables.toml`` (and optionally ``pack.toml``). The base folder must
have all of them; further folders are *packs* layered on top, in order. A pack entry whose id already
exists replaces the earlier one only when it says ``replace = true``; otherwise a duplicate id is an
error. A pack's ``tables.toml`` replaces the tables of the layers below it.

Every problem is reported as a :class:`ContentError` whose lines each name the file, the entry and the
field, e.g. ``seeds/base/monsters.toml: monster "slime-baron": field "level": expected int, got str``.
See ``docs/content.md`` for the format.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from mqtui import paths
from mqtui.engine.defs import (
    COLOURS,
    CONNECTIONS,
    DEAL_KINDS,
    DICE_ACTIONS,
    DIRS,
    DUNGEON_ACTIONS,
    DXM_KINDS,
    EFFECT_KINDS,
    MOVE_KINDS,
    ONESHOT_USES,
    POWER_KINDS,
    ROOM_RULE_KINDS,
    SEARCH_RESULTS,
    SLOTS,
    TREASURE_KINDS,
    WEIRD_KINDS,
    Bonus,
    ClassDef,
    Content,
    Deal,
    Def,
    DxmDef,
    Effect,
    MonsterDef,
    Power,
    RaceDef,
    RoomDef,
    RoomRule,
    SearchRow,
    Tables,
    TreasureDef,
)

__all__ = [
    "CONTENT_FILES",
    "ContentError",
    "PackInfo",
    "check_content",
    "clear_cache",
    "counts",
    "load_content",
    "pack_info",
]

# file name -> (top-level key, definition type, label used in messages)
CONTENT_FILES: dict[str, tuple[str, type[Def], str]] = {
    "races.toml": ("race", RaceDef, "race"),
    "classes.toml": ("class", ClassDef, "class"),
    "rooms.toml": ("room", RoomDef, "room"),
    "monsters.toml": ("monster", MonsterDef, "monster"),
    "treasure.toml": ("treasure", TreasureDef, "treasure"),
    "dxm.toml": ("dxm", DxmDef, "dxm"),
}
TABLES_FILE = "tables.toml"
PACK_FILE = "pack.toml"
ALL_FILES: tuple[str, ...] = (*CONTENT_FILES, TABLES_FILE)

LOSE_SLOT_SLOTS: tuple[str, ...] = ("head", "armor", "feet", "hand", "big")
SHRINE_GIFTS: tuple[str, ...] = ("life", "dxm", "treasure")
MAX_LEVEL = 20
SEARCH_MIN, SEARCH_MAX = -5, 15
MAX_CARDS = 5000  # a bound on content that did not come from TOML (a save's own copy)

# effect/power/rule kinds whose ``amount`` must be at least 1
_EFFECT_AMOUNT = {"lose_levels", "lose_item", "lose_gold", "lose_moves", "discard_cards", "lose_life"}
_POWER_AMOUNT = {
    "combat_bonus",
    "bonus_vs_tag",
    "escape_bonus",
    "extra_moves",
    "search_bonus",
    "sell_bonus",
    "carry_big",
    "backpack",
}
_RULE_POSITIVE = {"monster_dice", "leave_cost", "heal_on_enter"}
_RULE_NONZERO = {"monster_bonus", "hero_bonus", "escape_bonus"}


class ContentError(Exception):
    """Content that cannot be loaded. ``errors`` holds one line per problem; ``str()`` joins them."""

    def __init__(self, errors: str | Sequence[str]) -> None:
        self.errors: list[str] = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("\n".join(self.errors))


@dataclass(frozen=True)
class PackInfo:
    """What a content folder's optional ``pack.toml`` says about it."""

    path: Path
    name: str
    description: str = ""


@dataclass
class _Item:
    """A converted definition together with where it came from (for error messages)."""

    obj: Any
    file: str
    label: str  # e.g. 'monster "slime-baron"'


@dataclass
class _Merged:
    races: dict[str, _Item] = field(default_factory=dict)
    classes: dict[str, _Item] = field(default_factory=dict)
    rooms: dict[str, _Item] = field(default_factory=dict)
    monsters: dict[str, _Item] = field(default_factory=dict)
    treasures: dict[str, _Item] = field(default_factory=dict)
    dxm: dict[str, _Item] = field(default_factory=dict)
    entrance: _Item | None = None
    tables: Tables | None = None
    tables_file: str = ""

    def by_key(self, key: str) -> dict[str, _Item]:
        table: dict[str, dict[str, _Item]] = {
            "race": self.races,
            "class": self.classes,
            "room": self.rooms,
            "monster": self.monsters,
            "treasure": self.treasures,
            "dxm": self.dxm,
        }
        return table[key]


# ---------------------------------------------------------------------------------------------------
# public API


def load_content(dirs: Sequence[Path | str] | None = None) -> Content:
    """Load and validate the content of ``dirs`` (default: the base content), layered in order.

    The first folder is the base and must hold every file; the rest are packs. Results are cached on
    the resolved folders (and their files' modification times), so repeated calls are cheap.
    """
    resolved = tuple(Path(d).resolve() for d in (dirs if dirs else [paths.BASE_CONTENT_DIR]))
    return _load_cached(resolved, _fingerprint(resolved))


def clear_cache() -> None:
    """Forget every cached load (tests that edit content in place use this)."""
    _load_cached.cache_clear()


def pack_info(directory: Path | str) -> PackInfo | None:
    """The ``pack.toml`` of a content folder, or None if it has none."""
    path = Path(directory) / PACK_FILE
    if not path.is_file():
        return None
    shown = _display(path)
    data = _parse_toml(path, shown)
    name = data.get("name", Path(directory).name)
    description = data.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise ContentError(f'{shown}: pack: fields "name" and "description" must be strings')
    unknown = sorted(set(data) - {"name", "description"})
    if unknown:
        raise ContentError(f'{shown}: pack: field "{unknown[0]}": unknown field')
    return PackInfo(path=Path(directory), name=name, description=description)


# ---------------------------------------------------------------------------------------------------
# loading


def _fingerprint(dirs: tuple[Path, ...]) -> tuple[tuple[str, int, int], ...]:
    out: list[tuple[str, int, int]] = []
    for d in dirs:
        for name in (*ALL_FILES, PACK_FILE):
            p = d / name
            try:
                st = p.stat()
            except OSError:
                continue
            out.append((str(p), st.st_mtime_ns, st.st_size))
    return tuple(out)


@functools.lru_cache(maxsize=32)
def _load_cached(dirs: tuple[Path, ...], fingerprint: tuple[tuple[str, int, int], ...]) -> Content:
    del fingerprint  # only part of the cache key
    return _load(dirs)


def _display(path: Path) -> str:
    """A short path for messages: relative to the folder holding seeds/ or the working directory."""
    for root in (paths.SEEDS_DIR.parent, Path.cwd()):
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
    return path.as_posix()


def _parse_toml(path: Path, shown: str) -> dict[str, Any]:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(f"{shown}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_AT.search(str(exc))
        if m:
            what = str(exc)[: m.start()].rstrip()
            raise ContentError(
                f"{shown}: line {m.group(1)}, column {m.group(2)}: TOML syntax error: {what}"
            ) from None
        raise ContentError(f"{shown}: TOML syntax error: {exc}") from None


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_MSGSPEC_AT = re.compile(r"^(?P<msg>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
_MSGSPEC_FIELD = re.compile(r"^Object (?P<what>contains unknown|missing required) field `(?P<name>[^`]*)`$")


def _convert_error(exc: msgspec.ValidationError) -> tuple[str, str]:
    """Turn msgspec's ``Expected `int`, got `str` - at `$.level``` into ("level", "expected int, got str")."""
    m = _MSGSPEC_AT.match(str(exc))
    assert m is not None
    msg, where = m.group("msg"), m.group("path") or "$"
    where = where.removeprefix("$").removeprefix(".")
    fm = _MSGSPEC_FIELD.match(msg)
    if fm:
        name = fm.group("name")
        where = f"{where}.{name}" if where else name
        msg = "unknown field" if fm.group("what") == "contains unknown" else "missing required field"
    else:
        msg = msg.replace("`", "")
        msg = msg[:1].lower() + msg[1:]
    return (where or "(entry)"), msg


def _entry_label(kind: str, entry: Any, index: int) -> str:
    if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"]:
        return f'{kind} "{entry["id"]}"'
    return f"{kind} #{index + 1}"


def _convert(entry: Any, typ: type[Any], shown: str, label: str, errors: list[str]) -> Any | None:
    if not isinstance(entry, dict):
        errors.append(f"{shown}: {label}: expected a table, got {type(entry).__name__}")
        return None
    try:
        return msgspec.convert(entry, typ)
    except msgspec.ValidationError as exc:
        where, msg = _convert_error(exc)
        errors.append(f'{shown}: {label}: field "{where}": {msg}')
        return None


def _load(dirs: tuple[Path, ...]) -> Content:
    if not dirs:
        raise ContentError("no content folders given")
    errors: list[str] = []
    merged = _Merged()
    hasher = hashlib.sha256()
    for layer, directory in enumerate(dirs):
        base = layer == 0
        if not directory.is_dir():
            raise ContentError(f"{_display(directory)}: not a content folder")
        if not base:
            pack_info(directory)  # validates pack.toml if present
        for name in sorted((*ALL_FILES, PACK_FILE)):
            p = directory / name
            if p.is_file():
                hasher.update(f"{layer}:{name}\0".encode())
                hasher.update(p.read_bytes())
                hasher.update(b"\0")
        for name, (key, typ, kind) in CONTENT_FILES.items():
            path = directory / name
            shown = _display(path)
            if not path.is_file():
                if base:
                    errors.append(f"{shown}: missing (the base content needs every file)")
                continue
            data = _parse_toml(path, shown)
            allowed = {key, "entrance"} if name == "rooms.toml" else {key}
            for top in sorted(set(data) - allowed):
                errors.append(f'{shown}: unknown table "{top}" (expected [[{key}]])')
            if name == "rooms.toml":
                _load_entrance(data, shown, base, merged, errors)
            entries = data.get(key, [])
            if not isinstance(entries, list):
                errors.append(f'{shown}: "{key}" must be an array of tables ([[{key}]])')
                continue
            target = merged.by_key(key)
            for index, raw in enumerate(entries):
                label = _entry_label(kind, raw, index)
                replace = False
                if isinstance(raw, dict) and "replace" in raw:
                    raw = dict(raw)
                    flag = raw.pop("replace")
                    if not isinstance(flag, bool):
                        errors.append(
                            f'{shown}: {label}: field "replace": expected bool, got {type(flag).__name__}'
                        )
                        continue
                    replace = flag
                obj = _convert(raw, typ, shown, label, errors)
                if obj is None:
                    continue
                ident: str = obj.id
                if not ident:
                    errors.append(f'{shown}: {label}: field "id": must not be empty')
                    continue
                item = _Item(obj, shown, label)
                if ident in target:
                    prev = target[ident]
                    if prev.file == shown:
                        errors.append(
                            f'{shown}: {label}: field "id": duplicate id (already used in this file)'
                        )
                    elif not replace:
                        errors.append(
                            f'{shown}: {label}: field "id": duplicate id (already defined in {prev.file}); '
                            "add replace = true to override it"
                        )
                    else:
                        target[ident] = item
                    continue
                if replace:
                    errors.append(
                        f'{shown}: {label}: field "replace": nothing to replace (no earlier "{ident}")'
                    )
                    continue
                target[ident] = item
        tpath = directory / TABLES_FILE
        tshown = _display(tpath)
        if tpath.is_file():
            tdata = _parse_toml(tpath, tshown)
            tables = _convert_tables(tdata, tshown, errors)
            if tables is not None:
                merged.tables, merged.tables_file = tables, tshown
        elif base:
            errors.append(f"{tshown}: missing (the base content needs every file)")
    if errors:
        raise ContentError(errors)
    _validate(merged, errors)
    if errors:
        raise ContentError(errors)
    assert merged.entrance is not None and merged.tables is not None
    return Content(
        version=hasher.hexdigest()[:12],
        races={k: v.obj for k, v in merged.races.items()},
        classes={k: v.obj for k, v in merged.classes.items()},
        entrance=merged.entrance.obj,
        rooms=tuple(v.obj for v in merged.rooms.values()),
        monsters=tuple(v.obj for v in merged.monsters.values()),
        treasures=tuple(v.obj for v in merged.treasures.values()),
        dxm=tuple(v.obj for v in merged.dxm.values()),
        tables=merged.tables,
    )


def _load_entrance(data: dict[str, Any], shown: str, base: bool, merged: _Merged, errors: list[str]) -> None:
    raw = data.get("entrance")
    if raw is None:
        if base:
            errors.append(f"{shown}: entrance: missing [entrance] table")
        return
    replace = False
    if isinstance(raw, dict) and "replace" in raw:
        raw = dict(raw)
        replace = raw.pop("replace") is True
    if not base and not replace:
        errors.append(f'{shown}: entrance: field "id": the entrance is already defined; add replace = true')
        return
    obj = _convert(raw, RoomDef, shown, "entrance", errors)
    if obj is not None:
        merged.entrance = _Item(obj, shown, "entrance")


def _convert_tables(data: dict[str, Any], shown: str, errors: list[str]) -> Tables | None:
    n = len(errors)
    for top in sorted(set(data) - {"search", "bag", "move_cost"}):
        errors.append(f'{shown}: unknown table "{top}" (expected [[search]], [bag], [move_cost])')
    rows = data.get("search")
    if not isinstance(rows, list) or not rows:
        errors.append(f"{shown}: search: missing [[search]] rows")
        rows = []
    converted: list[SearchRow] = []
    for index, raw in enumerate(rows):
        row = _convert(raw, SearchRow, shown, f"search row #{index + 1}", errors)
        if row is not None:
            converted.append(row)
    for key in ("bag", "move_cost"):
        value = data.get(key)
        if not isinstance(value, dict):
            errors.append(f"{shown}: {key}: missing [{key}] table")
            continue
        for k, v in value.items():
            if not isinstance(v, int) or isinstance(v, bool):
                errors.append(f'{shown}: {key}: field "{k}": expected int, got {type(v).__name__}')
    if len(errors) > n:
        return None
    return Tables(search=tuple(converted), bag=dict(data["bag"]), move_cost=dict(data["move_cost"]))


# ---------------------------------------------------------------------------------------------------
# semantic validation


class _Check:
    """Collects messages for one entry."""

    def __init__(self, item: _Item, errors: list[str]) -> None:
        self.prefix = f"{item.file}: {item.label}"
        self.errors = errors

    def __call__(self, ok: bool, fld: str, msg: str) -> None:
        if not ok:
            self.errors.append(f'{self.prefix}: field "{fld}": {msg}')

    def one_of(self, value: str, allowed: Iterable[str], fld: str, what: str = "") -> None:
        allowed = tuple(allowed)
        if value in allowed:  # (the message is only built for a wrong value)
            return
        self(
            False,
            fld,
            f'unknown {what or "value"} "{value}" (expected one of: {", ".join(allowed)})',
        )


def _validate(m: _Merged, errors: list[str]) -> None:
    races, classes = set(m.races), set(m.classes)
    heroes = races | classes
    tags = {t for it in m.monsters.values() for t in it.obj.tags}
    vs_ok = heroes | tags

    for rid in sorted(races & classes):
        item = m.classes[rid]
        _Check(item, errors)(False, "id", f'"{rid}" is both a race and a class id')

    def who(check: _Check, value: str, fld: str) -> None:
        if value:
            check(value in heroes, fld, f'"{value}" is not a race or class id')

    def bonuses(check: _Check, items: tuple[Bonus, ...], fld: str) -> None:
        for i, b in enumerate(items):
            check(b.vs in vs_ok, f"{fld}[{i}].vs", f'"{b.vs}" is not a race id, class id or monster tag')
            check(b.amount != 0, f"{fld}[{i}].amount", "must not be 0")

    def effects(check: _Check, items: tuple[Effect, ...], fld: str) -> None:
        for i, e in enumerate(items):
            check.one_of(e.kind, EFFECT_KINDS, f"{fld}[{i}].kind", "effect kind")
            if e.kind == "lose_slot":
                check.one_of(e.slot, LOSE_SLOT_SLOTS, f"{fld}[{i}].slot", "slot")
            else:
                check(
                    not e.slot, f"{fld}[{i}].slot", f'only "lose_slot" effects have a slot (kind "{e.kind}")'
                )
            if e.kind in _EFFECT_AMOUNT:
                check(e.amount >= 1, f"{fld}[{i}].amount", f"must be at least 1, got {e.amount}")

    def powers(check: _Check, items: tuple[Power, ...]) -> None:
        for i, p in enumerate(items):
            check.one_of(p.kind, POWER_KINDS, f"powers[{i}].kind", "power kind")
            if p.kind in _POWER_AMOUNT:
                check(p.amount >= 1, f"powers[{i}].amount", f"must be at least 1, got {p.amount}")
            if p.kind == "bonus_vs_tag":
                check(bool(p.tag), f"powers[{i}].tag", 'required for "bonus_vs_tag"')
            else:
                check(
                    not p.tag, f"powers[{i}].tag", f'only "bonus_vs_tag" powers have a tag (kind "{p.kind}")'
                )

    def named(check: _Check, obj: Any) -> None:
        check(bool(obj.name.strip()), "name", "must not be empty")
        check(bool(obj.text.strip()), "text", "must not be empty")

    for it in [*m.races.values(), *m.classes.values()]:
        c = _Check(it, errors)
        named(c, it.obj)
        powers(c, it.obj.powers)

    # rooms
    if m.entrance is not None:
        e: RoomDef = m.entrance.obj
        c = _Check(m.entrance, errors)
        c(e.id == "entrance", "id", f'the entrance\'s id must be "entrance", got "{e.id}"')
        c(e.tile == 0, "tile", f"the entrance is tile 0, got {e.tile}")
        c(not e.arrows, "arrows", "the entrance has no monster arrows")
        c(not e.rules, "rules", "the entrance has no rules")
        c(e.deal is None, "deal", "the entrance has no deal")
        c(0 < len(e.short) <= 10, "short", f"must be 1 to 10 characters, got {len(e.short)}")
    tiles: dict[int, list[_Item]] = {}
    for it in m.rooms.values():
        r: RoomDef = it.obj
        c = _Check(it, errors)
        c(bool(r.name.strip()), "name", "must not be empty")
        c(bool(r.text.strip()), "text", "must not be empty")
        c(0 < len(r.short) <= 10, "short", f"must be 1 to 10 characters, got {len(r.short)} ({r.short!r})")
        c(r.id != "entrance", "id", '"entrance" is reserved for the [entrance] table')
        c(r.tile >= 1, "tile", f"must be at least 1 (tile 0 is the entrance), got {r.tile}")
        c(-5 <= r.search <= 5, "search", f"must be between -5 and 5, got {r.search}")
        for colour, side in r.arrows.items():
            c.one_of(colour, COLOURS, f"arrows.{colour}", "colour")
            c.one_of(side, DIRS, f"arrows.{colour}", "side")
        for i, rule in enumerate(r.rules):
            _check_rule(c, rule, f"rules[{i}]")
            if rule.kind == "hero_bonus":
                who(c, rule.who, f"rules[{i}].who")
        if r.deal is not None:
            _check_deal(c, r.deal)
            who(c, r.deal.who, "deal.who")
        tiles.setdefault(r.tile, []).append(it)
    for tile, items in sorted(tiles.items()):
        if tile >= 1 and len(items) != 2:
            names = ", ".join(f'"{x.obj.id}"' for x in items)
            _Check(items[-1], errors)(
                False,
                "tile",
                f"tile {tile} must have exactly two faces (two rooms), has {len(items)}: {names}",
            )

    for it in m.monsters.values():
        mo: MonsterDef = it.obj
        c = _Check(it, errors)
        named(c, mo)
        c(1 <= mo.level <= MAX_LEVEL, "level", f"must be between 1 and {MAX_LEVEL}, got {mo.level}")
        c(mo.treasures >= 0, "treasures", f"must not be negative, got {mo.treasures}")
        c(mo.levels >= 1, "levels", f"must be at least 1, got {mo.levels}")
        c(mo.count >= 1, "count", f"must be at least 1, got {mo.count}")
        c(0 <= mo.ignores < MAX_LEVEL, "ignores", f"must be between 0 and {MAX_LEVEL - 1}, got {mo.ignores}")
        c.one_of(mo.move, MOVE_KINDS, "move", "move type")
        if mo.move == "weird":
            c(bool(mo.weird), "weird", f'required when move is "weird" (one of: {", ".join(WEIRD_KINDS)})')
            if mo.weird:
                c.one_of(mo.weird, WEIRD_KINDS, "weird", "weird rule")
        else:
            c(not mo.weird, "weird", f'only "weird" movers have a weird rule (move is "{mo.move}")')
        for i, tag in enumerate(mo.tags):
            c(bool(tag.strip()), f"tags[{i}]", "must not be empty")
        bonuses(c, mo.bonuses, "bonuses")
        effects(c, mo.bad_stuff, "bad_stuff")

    for it in m.treasures.values():
        t: TreasureDef = it.obj
        c = _Check(it, errors)
        named(c, t)
        c.one_of(t.kind, TREASURE_KINDS, "kind", "treasure kind")
        c(t.gold >= 0, "gold", f"must not be negative, got {t.gold}")
        c(t.count >= 1, "count", f"must be at least 1, got {t.count}")
        if t.kind == "equipment":
            c(bool(t.slot), "slot", 'required for kind "equipment"')
            if t.slot:
                c.one_of(t.slot, SLOTS, "slot", "slot")
        else:
            c(not t.slot, "slot", f'only equipment has a slot (kind "{t.kind}")')
            c(not t.big, "big", f'only equipment can be big (kind "{t.kind}")')
        if t.kind == "oneshot":
            c(bool(t.use), "use", f'required for kind "oneshot" (one of: {", ".join(ONESHOT_USES)})')
            if t.use:
                c.one_of(t.use, ONESHOT_USES, "use", "use")
            if t.use in ("heal", "moves"):
                c(t.amount >= 1, "amount", f'must be at least 1 for use "{t.use}", got {t.amount}')
        else:
            c(not t.use, "use", f'only one-shots have a use (kind "{t.kind}")')
            c(not t.thrown, "thrown", f'only one-shots can be thrown (kind "{t.kind}")')
        for fld in ("only", "forbid"):
            for i, ref in enumerate(getattr(t, fld)):
                c(ref in heroes, f"{fld}[{i}]", f'"{ref}" is not a race or class id')
        bonuses(c, t.bonuses, "bonuses")

    for it in m.dxm.values():
        d: DxmDef = it.obj
        c = _Check(it, errors)
        named(c, d)
        c.one_of(d.kind, DXM_KINDS, "kind", "DxM kind")
        c(d.count >= 1, "count", f"must be at least 1, got {d.count}")
        c(d.treasures >= 0, "treasures", f"must not be negative, got {d.treasures}")
        if d.kind == "race":
            c(d.race in races, "race", f'"{d.race}" is not a race id')
        else:
            c(not d.race, "race", f'only "race" cards name a race (kind "{d.kind}")')
        if d.kind == "class":
            c(d.klass in classes, "klass", f'"{d.klass}" is not a class id')
        else:
            c(not d.klass, "klass", f'only "class" cards name a class (kind "{d.kind}")')
        if d.kind == "curse":
            c(bool(d.effects), "effects", "a curse needs at least one effect")
        else:
            c(not d.effects, "effects", f'only curses have effects (kind "{d.kind}")')
        effects(c, d.effects, "effects")
        if d.kind == "enhancer":
            c(d.amount != 0, "amount", "an enhancer's amount must not be 0")
        if d.kind == "moves":
            c(d.amount >= 1, "amount", f"must be at least 1, got {d.amount}")
        if d.kind == "dungeon":
            c.one_of(d.action, DUNGEON_ACTIONS, "action", "dungeon action")
        elif d.kind == "dice":
            c.one_of(d.action, DICE_ACTIONS, "action", "dice action")
            if d.action == "plus":
                c(d.amount != 0, "amount", 'a "plus" dice card needs a non-zero amount')
        else:
            c(not d.action, "action", f'only dungeon and dice cards have an action (kind "{d.kind}")')

    if m.tables is not None:
        _check_tables(m.tables, m.tables_file, errors)


def _check_rule(c: _Check, rule: RoomRule, fld: str) -> None:
    c.one_of(rule.kind, ROOM_RULE_KINDS, f"{fld}.kind", "room rule kind")
    if rule.kind in _RULE_POSITIVE:
        c(rule.amount >= 1, f"{fld}.amount", f'must be at least 1 for "{rule.kind}", got {rule.amount}')
    if rule.kind in _RULE_NONZERO:
        c(rule.amount != 0, f"{fld}.amount", f'must not be 0 for "{rule.kind}"')
    if rule.kind != "hero_bonus":
        c(not rule.who, f"{fld}.who", f'only "hero_bonus" rules name a race/class (kind "{rule.kind}")')


def _check_deal(c: _Check, deal: Deal) -> None:
    c.one_of(deal.kind, DEAL_KINDS, "deal.kind", "deal kind")
    c(deal.price >= 0, "deal.price", f"must not be negative, got {deal.price}")
    c(deal.amount >= 1, "deal.amount", f"must be at least 1, got {deal.amount}")
    if deal.kind == "shrine":
        c.one_of(deal.gives, SHRINE_GIFTS, "deal.gives", "shrine gift")
    else:
        c(not deal.gives, "deal.gives", f'only shrines have "gives" (kind "{deal.kind}")')
    if deal.kind not in ("shrine",):
        c(not deal.who, "deal.who", f'only shrines favour a race/class (kind "{deal.kind}")')
    if deal.kind in ("buy_treasure", "heal", "buy_dxm"):
        c(deal.price >= 1, "deal.price", f'"{deal.kind}" needs a price, got {deal.price}')


def _check_tables(t: Tables, shown: str, errors: list[str]) -> None:
    def err(label: str, fld: str, msg: str) -> None:
        errors.append(f'{shown}: {label}: field "{fld}": {msg}')

    rows = t.search
    for i, row in enumerate(rows):
        label = f"search row #{i + 1}"
        if row.result not in SEARCH_RESULTS:
            err(
                label,
                "result",
                f'unknown result "{row.result}" (expected one of: {", ".join(SEARCH_RESULTS)})',
            )
        if row.low > row.high:
            err(label, "high", f"low ({row.low}) is greater than high ({row.high})")
        if row.gold < 0:
            err(label, "gold", f"must not be negative, got {row.gold}")
        if row.treasures < 0:
            err(label, "treasures", f"must not be negative, got {row.treasures}")
        if row.result == "gold" and row.gold <= 0:
            err(label, "gold", 'a "gold" row needs gold > 0')
        if row.result == "treasure" and row.treasures <= 0:
            err(label, "treasures", 'a "treasure" row needs treasures > 0')
        if i > 0:
            prev = rows[i - 1]
            if row.low != prev.high + 1:
                what = "gap" if row.low > prev.high + 1 else "overlap"
                err(
                    label,
                    "low",
                    f"{what}: rows must be sorted and contiguous; row #{i} ends at {prev.high}, "
                    f"this one starts at {row.low}",
                )
    if rows:
        if rows[0].low > SEARCH_MIN:
            err(
                "search row #1",
                "low",
                f"the table must cover rolls from {SEARCH_MIN}, starts at {rows[0].low}",
            )
        if rows[-1].high < SEARCH_MAX:
            err(
                f"search row #{len(rows)}",
                "high",
                f"the table must cover rolls up to {SEARCH_MAX}, ends at {rows[-1].high}",
            )
    for k, v in t.bag.items():
        if k not in CONNECTIONS:
            err("bag", k, f'unknown connection "{k}" (expected one of: {", ".join(CONNECTIONS)})')
        if v < 0:
            err("bag", k, f"must not be negative, got {v}")
    passable = [k for k, v in t.bag.items() if v > 0 and k != "wall" and k in t.move_cost]
    if not passable:
        errors.append(f"{shown}: bag: needs at least one passable connection (one with a move cost)")
    for k, v in t.move_cost.items():
        if k not in CONNECTIONS:
            err("move_cost", k, f'unknown connection "{k}" (expected one of: {", ".join(CONNECTIONS)})')
        elif k == "wall":
            err("move_cost", k, "walls are impassable and have no move cost")
        if v < 1:
            err("move_cost", k, f"must be at least 1, got {v}")


def counts(content: Content) -> dict[str, int]:
    """Counts per kind, as ``mqtui content check`` prints them (physical cards count copies)."""
    out: dict[str, int] = {
        "races": len(content.races),
        "classes": len(content.classes),
        "rooms": len(content.rooms),
        "tiles": len({r.tile for r in content.rooms}),
        "rooms with a deal": sum(1 for r in content.rooms if r.deal is not None),
        "rooms with rules": sum(1 for r in content.rooms if r.rules),
        "monster cards": sum(mo.count for mo in content.monsters),
        "monsters distinct": len(content.monsters),
        "treasure cards": sum(t.count for t in content.treasures),
        "treasures distinct": len(content.treasures),
        "dxm cards": sum(d.count for d in content.dxm),
        "dxm distinct": len(content.dxm),
    }
    moves: Counter[str] = Counter()
    for mo in content.monsters:
        key = f"{mo.move}:{mo.weird}" if mo.move == "weird" else mo.move
        moves[key] += mo.count
    for key in (*MOVE_KINDS[:-1], *(f"weird:{w}" for w in WEIRD_KINDS)):
        out[f"monsters {key}"] = moves.get(key, 0)
    return out


def check_content(content: Content, where: str = "the save's content") -> list[str]:
    """The checks :func:`load_content` makes, on definitions that did not come from TOML files (a save's
    own copy of its content): one line per problem, ``[]`` if the engine can use them."""
    errors: list[str] = []

    def items(kind: str, defs: Iterable[Any]) -> dict[str, _Item]:
        out: dict[str, _Item] = {}
        for d in defs:
            if d.id in out:
                errors.append(f'{where}: {kind} "{d.id}": field "id": duplicate id')
            out[d.id] = _Item(d, where, f'{kind} "{d.id}"')
        return out

    merged = _Merged(
        races=items("race", content.races.values()),
        classes=items("class", content.classes.values()),
        rooms=items("room", content.rooms),
        monsters=items("monster", content.monsters),
        treasures=items("treasure", content.treasures),
        dxm=items("dxm", content.dxm),
        entrance=_Item(content.entrance, where, "entrance"),
        tables=content.tables,
        tables_file=where,
    )
    cards = sum(m.count for m in content.monsters) + sum(t.count for t in content.treasures)
    cards += sum(d.count for d in content.dxm)
    if not 0 < cards <= MAX_CARDS or len(content.rooms) > MAX_CARDS:
        errors.append(f"{where}: {cards} cards and {len(content.rooms)} rooms (at most {MAX_CARDS} of each)")
        return errors
    heroes: list[tuple[str, RaceDef | ClassDef]] = [*content.races.items(), *content.classes.items()]
    for key, d in heroes:
        if key != d.id:
            errors.append(f'{where}: "{key}": field "id": the entry says "{d.id}"')
    _validate(merged, errors)
    return errors
