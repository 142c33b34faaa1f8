"""Helpers for privacy tests: all the text the app shows, and the card names a seat must not see."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.widget import Widget
from textual.widgets import OptionList, RichLog, Static

from mqtui.engine.state import HIDDEN, REWARD
from mqtui.engine.view import view_for
from mqtui.store import LocalStore
from mqtui.ui.widgets.parts import Parts, PartsVisual


def _plain(renderable: object, width: int) -> str:
    if isinstance(renderable, str):
        return renderable
    if isinstance(renderable, (Text, Content)):
        return renderable.plain
    console = Console(width=max(width, 40), file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def widget_text(widget: Widget) -> str:
    """Everything a widget holds as text: all the log's lines (not only the visible ones), every option
    of a list, a static's content, and the border titles (a toast's text: :func:`notes`)."""
    parts = [str(widget.border_title or ""), str(widget.border_subtitle or "")]
    if isinstance(widget, RichLog):
        parts += [strip.text for strip in widget.lines]
    elif isinstance(widget, OptionList):
        parts += [_plain(widget.get_option_at_index(i).prompt, 80) for i in range(widget.option_count)]
    elif isinstance(widget, Static) and isinstance(widget.content, Parts) and widget.content_size.width:
        parts.append(_parts_text(widget, widget.content))
    elif isinstance(widget, Static):
        parts.append(_plain(widget.content, widget.size.width))
    return "\n".join(p for p in parts if p)


def _parts_text(widget: Static, content: Parts) -> str:
    """The lines of a pane shown in parts (the combat pane), as the pane draws them at its width: the
    lines it keeps of each part (printing them again to a console took a fifth of the hot-seat test's
    checks)."""
    strips = PartsVisual(content).lines(widget.content_size.width, widget.visual_style)
    return "\n".join(strip.text for strip in strips)


def notes(app: App[object]) -> list[str]:
    """The notifications on show, oldest first, each as its toast shows it: the title (if any), a line
    break, the message. Textual shows none in a test unless it runs with ``run_test(notifications=True)``.
    (A toast is found by its CSS type, ``Toast``, documented for styling; the class is not exported.)"""
    return [_plain(toast.render(), 80) for toast in app.screen.query("Toast")]


def screen_text(app: App[object]) -> str:
    """The text of every widget on the screen on top, the notifications' toasts with them."""
    parts = [widget_text(w) for w in app.screen.query("*")]
    return "\n".join([*parts, *notes(app)])


def visible_names(store: LocalStore, seat: int) -> set[str]:
    """Names of every card ``seat`` may see now: in its view (own hand, all gear, discards, frames)."""
    view = view_for(store.state, seat)
    uids: list[int] = [*view.dxm_discard, *view.treasure_discard, *view.monster_discard]
    for hero in view.heroes:
        uids += [*hero.hand, *hero.equipped, *hero.belt, *hero.backpack]
    for frame in view.frames:
        if frame.kind == REWARD:  # the Treasure being shared out
            uids += list(frame.options)
    return {store.cards.names[u] for u in uids if u != HIDDEN and 0 <= u < len(store.cards.names)}


def private_names(store: LocalStore, seat: int) -> set[str]:
    """Names of cards in other seats' hands that ``seat`` has no way to know of (not in its view and not
    named anywhere in its own log: a copy played earlier, say)."""
    known = visible_names(store, seat)
    log = "\n".join(line.text for line in store.snapshot(seat).log)
    names = set()
    for hero in store.state.heroes:
        if hero.seat == seat:
            continue
        for uid in hero.hand:
            name = store.cards.names[uid]
            if name not in known and name not in log:
                names.add(name)
    return names


def public_private_names(store: LocalStore) -> set[str]:
    """Names in any hand that no seat but its holder may see: nothing on a hand-off screen may show
    them."""
    spectator = set()
    log = "\n".join(line.text for line in store.snapshot(-1).log)
    private = [private_names(store, s) for s in range(len(store.seats))]
    for hero in store.state.heroes:
        for uid in hero.hand:
            name = store.cards.names[uid]
            others = [s for s in range(len(store.seats)) if s != hero.seat]
            if all(name in private[s] for s in others) and name not in log:
                spectator.add(name)
    return spectator
