"""Decoding data files (content, scenarios, themes) into typed Structs, with errors in words.

It imports nothing but msgspec, so that the theme loader can use it for its messages.

msgspec checks types and closed vocabularies (``Literal`` fields) while it converts; :func:`problem`
turns its message into a field path as the files write it and a short explanation, e.g.
``Invalid enum value 'lose_shirt' - at `$.bad_stuff[0].kind``` into ``("bad_stuff[0].kind",
'unknown effect kind "lose_shirt" (expected one of: lose_levels, ...)')``. Every loader puts the file
and the entry in front.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
_FIELD = re.compile(r"^Object (?P<what>contains unknown|missing required) field `(?P<name>[^`]*)`$")
_ENUM = re.compile(r"^Invalid enum value '?(?P<value>.*?)'?$")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")


class DecodeError(Exception):
    """A value that does not fit its Struct: ``where`` is the field path ("" for the whole value)."""

    def __init__(self, where: str, message: str) -> None:
        self.where, self.message = where, message
        super().__init__(f"{where}: {message}" if where else message)


def convert(raw: Any, typ: type[T], words: Mapping[tuple[str, ...], str] | None = None) -> T:
    """``raw`` (decoded TOML) as a ``typ``; a :class:`DecodeError` in words if it does not fit.
    ``words`` names the vocabularies (Literal types) of ``typ`` for the messages."""
    try:
        return msgspec.convert(raw, typ)
    except msgspec.ValidationError as exc:
        raise DecodeError(*problem(exc, typ, raw, words)) from None


def problem(
    exc: msgspec.ValidationError,
    typ: type[Any],
    raw: Any,
    vocabularies: Mapping[tuple[str, ...], str] | None = None,
) -> tuple[str, str]:
    """Where (a field path such as ``bad_stuff[0].kind``, "" for the whole value) and what is wrong.
    ``vocabularies`` names the word lists (Literal types) of ``typ``: "unknown effect kind" rather
    than "unknown value"."""
    vocabularies = vocabularies or {}
    m = _AT.match(str(exc))
    assert m is not None
    msg, path = m.group("msg"), m.group("path") or "$"
    where, t, raw_there = _walk(path, typ, raw)
    em = _ENUM.match(msg)
    if em:
        value = em.group("value")
        if path.endswith("[...]") and isinstance(raw_there, dict):  # a dict's value: name it by its key
            key = next((k for k, v in raw_there.items() if v == value), "?")
            where = f"{where}.{key}" if where else key
        members = t.types if isinstance(t, msgspec.inspect.UnionType) else (t,)
        allowed = {
            v for m in members if isinstance(m, msgspec.inspect.LiteralType) for v in m.values if v != ""
        }
        words = next((w for w in vocabularies if set(w) == allowed), tuple(sorted(map(str, allowed))))
        what = vocabularies.get(words, "value")
        return where, f'unknown {what} "{value}" (expected one of: {", ".join(words)})'
    fm = _FIELD.match(msg)
    if fm:
        name = fm.group("name")
        where = f"{where}.{name}" if where else name
        if fm.group("what") == "missing required":
            return where, "missing required field"
        known = [f.encode_name for f in t.fields] if isinstance(t, msgspec.inspect.StructType) else []
        return where, "unknown field" + (f" (known: {', '.join(sorted(known))})" if known else "")
    msg = msg.replace("`", "")
    return where, msg[:1].lower() + msg[1:]


def _walk(path: str, typ: type[Any], raw: Any) -> tuple[str, msgspec.inspect.Type, Any]:
    """Follow a msgspec error path (``$.a[0].b``, ``$.a[...]`` for a dict's values) through the type
    and the raw data: the path as the files write it, the type there and the raw value there (the dict,
    for a dict's value)."""
    t: msgspec.inspect.Type = msgspec.inspect.type_info(typ)
    shown = ""
    for name, index in _STEP.findall(path):
        t = _unwrap(t)
        if name and isinstance(t, msgspec.inspect.StructType):
            t = next((f.type for f in t.fields if f.encode_name == name), t)
            raw = raw.get(name) if isinstance(raw, dict) else None
            shown += f".{name}"
        elif index == "..." and isinstance(t, msgspec.inspect.DictType):
            t = t.value_type  # raw stays the dict: the caller names the value by its key
        elif index.isdigit() and isinstance(t, (msgspec.inspect.VarTupleType, msgspec.inspect.ListType)):
            t = t.item_type
            raw = raw[int(index)] if isinstance(raw, list) and int(index) < len(raw) else None
            shown += f"[{index}]"
    return shown.removeprefix("."), _unwrap(t), raw


def _unwrap(t: msgspec.inspect.Type) -> msgspec.inspect.Type:
    """The one Struct, list or dict type of an optional or either-or field (``deal: Deal | None``)."""
    if isinstance(t, msgspec.inspect.UnionType):
        rest = [
            m
            for m in t.types
            if isinstance(
                m,
                (
                    msgspec.inspect.StructType,
                    msgspec.inspect.ListType,
                    msgspec.inspect.VarTupleType,
                    msgspec.inspect.DictType,
                ),
            )
        ]
        if len(rest) == 1:
            return rest[0]
    return t
