"""Keys a player can change: ``"keymap"`` in ``settings.json``, binding id to keys (as Posting and
Harlequin offer), e.g. ``{"game.search": "j", "game.help": "f1,f5"}``.

The entries are checked before Textual's ``App.set_keymap`` gets them: an unknown binding id, a value
that is not a key list or a key Textual has no name for is left out with a message saying why (the
other entries still apply); nothing here can stop the app from starting.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import unicodedata
from collections.abc import Iterable, Mapping

from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.keys import Keys, format_key

MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
KEY_NAMES = frozenset(k.value for k in Keys) | frozenset(("space", "tab", "enter", "escape", "backspace"))


def _subclasses(cls: type[DOMNode]) -> Iterable[type[DOMNode]]:
    sub: type[DOMNode]
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _bindings(classes: Iterable[type]) -> dict[str, str]:
    found: dict[str, list[str]] = {}
    for cls in classes:
        if not cls.__module__.startswith("mqtui."):
            continue
        own: list[BindingType] = list(cls.__dict__.get("BINDINGS", []))
        for binding in Binding.make_bindings(own):  # (one Binding per key: "f1,question_mark" is two)
            if binding.id is not None and binding.key not in found.setdefault(binding.id, []):
                found[binding.id].append(binding.key)
    return {binding_id: ",".join(keys) for binding_id, keys in found.items()}


def known_bindings(extra: Iterable[type] = ()) -> dict[str, str]:
    """Every binding id of the app's screens and widgets, with its own keys ("f1,question_mark"); all
    screen modules are imported first (most are imported only when opened); ``extra``: classes
    outside them (the app)."""
    import mqtui.ui.screens as screens

    for info in pkgutil.iter_modules(screens.__path__):
        importlib.import_module(f"{screens.__name__}.{info.name}")
    return _bindings([*extra, *_subclasses(DOMNode)])


def key_problem(key: str) -> str | None:
    """Why ``key`` (one key, as in a Binding: "ctrl+j", "f5", "question_mark", "?") names no key."""
    *mods, name = key.split("+")
    bad = [m for m in mods if m not in MODIFIERS]
    if bad:
        return f"{bad[0]!r} is not a modifier (use {', '.join(MODIFIERS[:3])})"
    if not name:
        return "a key is missing after the modifier"
    if len(name) == 1 or name in KEY_NAMES:
        return None
    try:
        unicodedata.lookup(name.replace("_", " "))  # Textual's names for symbols: "question_mark", "plus"
    except KeyError:
        return f"{name!r} is not a key name (letters, digits, f1-f24, up, home, plus, question_mark…)"
    return None


def check_keymap(raw: Mapping[str, object], known: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """(the entries that can be used, one message for each that cannot), ``known`` giving each binding
    id its own keys.

    Textual takes a remapped binding's old key away from every binding of that widget that shared it
    (space is Ready, End phase and Pass): those keep their keys here, by entries of their own."""
    keymap: dict[str, str] = {}
    errors: list[str] = []
    for binding_id, value in raw.items():
        if binding_id not in known:
            close = difflib.get_close_matches(binding_id, list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else " (the help screen lists the keys)"
            errors.append(f"{binding_id!r} is no key binding{hint}")
            continue
        if not isinstance(value, str) or not value.strip():
            errors.append(f'{binding_id!r}: give the keys as a string, like "j" or "ctrl+j,f5"')
            continue
        keys = [k.strip() for k in value.split(",")]
        problems = [p for k in keys if (p := key_problem(k)) is not None]
        if problems:
            errors.append(f"{binding_id!r}: {problems[0]}")
            continue
        keymap[binding_id] = ",".join(keys)
    for binding_id in list(keymap):
        prefix, old = binding_id.split(".")[0] + ".", set(known[binding_id].split(","))
        for other, own in known.items():
            if other.startswith(prefix) and other not in keymap and old & set(own.split(",")):
                keymap[other] = own
    return keymap, errors


def key_label(keys: str) -> str:
    """How the help shows a key list: "ctrl+j,f5" → "Ctrl+J / F5" ("question_mark" → "?")."""
    out = []
    for key in keys.split(","):
        *mods, name = key.split("+")
        shown = format_key(name)
        if mods and len(shown) == 1:
            shown = shown.upper()
        if len(shown) > 1:
            shown = shown.capitalize() if shown.isalpha() else shown.upper()
        out.append("+".join([*(m.capitalize() for m in mods), shown]))
    return " / ".join(out)


def keys_in_force(
    ids: Iterable[str], label: str, keymap: Mapping[str, str], defaults: Mapping[str, str]
) -> str:
    """The keys of bindings ``ids`` as they are now: ``label`` (their own keys, as written), unless the
    keymap changes one of them (``defaults``: the keys of the others)."""
    ids = tuple(ids)
    if not any(i in keymap for i in ids):
        return label
    keys = dict.fromkeys(keymap.get(i, defaults.get(i, "")) for i in ids)  # (Space: one key, three ids)
    return " / ".join(key_label(k) for k in keys if k)
