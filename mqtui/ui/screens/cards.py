"""The card browser: every card, monster, race, class, room and table of the game, with the rules text
made from its data (:mod:`mqtui.engine.rules_text`), searchable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from mqtui.engine.defs import Content
from mqtui.engine.rules_text import words
from mqtui.ui.screens.steady import StyledAtMount
from mqtui.ui.widgets.footer import QuietFooter


@dataclass(frozen=True)
class Entry:
    group: str
    name: str
    kind: str
    text: str
    flavour: str = ""
    count: int = 1
    id: str = ""
    pack: str = ""  # the content pack it comes from ("" for the base game)


def entries(content: Content) -> list[Entry]:
    out: list[Entry] = []
    rules = words(content)
    for d in content.dxm:
        kind = d.kind.replace("_", " ")
        out.append(Entry("DxM", d.name, kind, rules.text(d), d.flavour, d.count, id=d.id))
    for t in content.treasures:
        kind = t.kind if t.kind != "equipment" else f"equipment ({t.slot.replace('_', ' ')})"
        extra = f" · {t.gold} gold" if t.gold else ""
        out.append(Entry("Treasure", t.name, kind + extra, rules.text(t), t.flavour, t.count, id=t.id))
    for m in content.monsters:
        kind = f"Level {m.level} · {m.treasures} Treasure · {m.move}"
        if m.ignores:
            kind += f" · ignores Level ≤{m.ignores}"
        out.append(Entry("Monster", m.name, kind, rules.text(m), m.flavour, m.count, id=m.id))
    for r in content.races.values():
        out.append(Entry("Race", r.name, "race", rules.text(r), r.flavour, id=r.id))
    for c in content.classes.values():
        out.append(Entry("Class", c.name, "class", rules.text(c), c.flavour, id=c.id))
    for room in (content.entrance, *content.rooms):
        kind = f"room · map: {room.short}"
        out.append(Entry("Room", room.name, kind, rules.text(room), room.flavour, id=room.id))
    out.append(Entry("Table", "Search table", "d10 + modifiers", "\n".join(rules.search_rows()), id="search"))
    out.append(Entry("Table", "Connections", "the bag", "\n".join(rules.connections()), id="bag"))
    return out


def installed_entries() -> tuple[list[Entry], list[str]]:
    """The base game's entries, then each installed pack's new or changed ones (marked with the pack);
    and one line for each broken pack (left out)."""
    from mqtui.engine.content import load_content
    from mqtui.packs import scan
    from mqtui.paths import BASE_CONTENT_DIR

    base = entries(load_content([BASE_CONTENT_DIR]))
    out, broken = list(base), []
    for pack in scan():
        if not pack.ok:
            broken.append(f"{pack.name}: {pack.errors[0]}")
            continue
        layered = entries(load_content([BASE_CONTENT_DIR, pack.path]))
        out += [replace(e, pack=pack.label) for e in layered if e not in base]
    return out, broken


def game_entries(content: Content, packs: Sequence[str]) -> list[Entry]:
    """A game's entries, those its ``packs`` bring or change marked with the packs' titles."""
    if not packs:
        return entries(content)
    from mqtui.engine.content import load_content
    from mqtui.packs import describe
    from mqtui.paths import BASE_CONTENT_DIR

    base, label = entries(load_content([BASE_CONTENT_DIR])), describe(packs)
    return [e if e in base else replace(e, pack=label) for e in entries(content)]


class CardBrowserScreen(StyledAtMount, Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back", id="cards.close"),
        Binding("slash", "search", "Search", id="cards.search"),
    ]
    DEFAULT_CSS = """
    CardBrowserScreen Horizontal { height: 1fr; }
    CardBrowserScreen #list-side { width: 1fr; min-width: 30; }
    CardBrowserScreen OptionList { height: 1fr; }
    CardBrowserScreen #detail { width: 1fr; border: round $primary; padding: 0 1; }
    """

    def __init__(self, content: Content | None = None, *, items: list[Entry] | None = None) -> None:
        """The entries of ``content``, or the given ``items``."""
        super().__init__()
        if items is None:
            assert content is not None
            items = entries(content)
        self.all = items
        self.shown: list[Entry] = []

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="list-side"):
                yield Input(placeholder="Search cards (/)", id="filter")
                yield OptionList(id="cards")
            with VerticalScroll(id="detail"):
                yield Static(id="text")
        yield QuietFooter()

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#cards", OptionList).focus()

    def _fill(self, query: str) -> None:
        q = query.lower().strip()
        self.shown = [
            e for e in self.all if not q or any(q in x.lower() for x in (e.name, e.text, e.group, e.pack))
        ]
        options = self.query_one("#cards", OptionList)
        options.clear_options()
        options.add_options(
            [
                Option(Text.assemble((f"{e.group:<8} ", "dim"), (e.name, "bold"), (" +" if e.pack else "")))
                for e in self.shown
            ]
        )
        if self.shown:
            options.highlighted = 0
        self._show(0)
        detail = self.query_one("#detail", VerticalScroll)
        detail.border_title = f"{len(self.shown)} of {len(self.all)}"

    def _show(self, index: int | None) -> None:
        text = self.query_one("#text", Static)
        if index is None or not 0 <= index < len(self.shown):
            text.update("No card matches.")
            return
        e = self.shown[index]
        body = Text.assemble((e.name, "bold"), "\n", (f"{e.group} · {e.kind}", "italic"))
        if e.count > 1:
            body.append(f" · {e.count} copies", "italic")
        if e.pack:
            body.append(f"\nFrom the pack {e.pack}", "italic")
        body.append(f"\n\n{e.text}")
        if e.flavour:
            body.append(f"\n\n{e.flavour}", "dim italic")
        text.update(body)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#cards", OptionList).focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def action_search(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_close(self) -> None:
        self.app.pop_screen()
