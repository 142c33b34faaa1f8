"""Every screen and dialog whole at the smallest supported terminal (80×24) and at 120×40: no button,
no widget the focus can reach and no key hint lies outside what the screen shows.

What counts as shown is worked out from Textual's public geometry: a widget's ``region`` on the screen
must lie inside the screen's region and inside the ``scrollable_content_region`` of every container
around it (a container clips what does not fit in it). A widget the focus reaches (Tab) is checked
as it has the focus: a scrolling container scrolls it into view, a box that does not scroll cuts it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from endgame_helpers import game_until
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer
from textual.widgets._footer import FooterKey
from ui_helpers import (
    add_monster,
    add_room,
    empty_hands,
    give,
    local_app,
    make_app,
    notes,
    settle,
    store_for,
    until,
)

from mqtui.saves import slots
from mqtui.ui.widgets.footer import QuietFooter

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def shown(widget: Widget) -> bool:
    """Whether the widget and every container around it are displayed and visible."""
    for node in (widget, *widget.ancestors):
        if isinstance(node, Widget) and not isinstance(node, Screen) and not (node.display and node.visible):
            return False
    return True


def visible_area(widget: Widget) -> Region:
    """The part of the screen where ``widget`` can be seen: the screen, cut by each container's
    content (less its borders, padding and scroll bars)."""
    area = widget.screen.region
    for node in widget.ancestors:
        if isinstance(node, Widget) and not isinstance(node, Screen):
            area = area.intersection(node.scrollable_content_region)
    return area


def scrolls(widget: Widget) -> bool:
    """Whether a container around ``widget`` scrolls (what it cannot show can be scrolled to)."""
    return any(
        isinstance(node, Widget) and (node.allow_vertical_scroll or node.allow_horizontal_scroll)
        for node in widget.ancestors
    )


def cut_off(widget: Widget) -> str | None:
    """What is wrong with where ``widget`` is (None: it is shown whole)."""
    region = widget.region
    if not region.area:
        return f"{describe(widget)} takes no room"
    area = visible_area(widget)
    if area.contains_region(region):
        return None
    if scrolls(widget) and region.overlaps(area) and (region.height > area.height or region.width > area.width):
        return None  # (a long text in a scrolling container: the part scrolled to is shown)
    return f"{describe(widget)} at {region} lies outside the shown {area}"


def describe(widget: Widget) -> str:
    label = getattr(widget, "label", None)
    return f"{type(widget).__name__}#{widget.id}" + (f" {str(label)!r}" if label is not None else "")


def key_hints(screen: Screen[object]) -> list[Widget]:
    """The screen's key hints: its footer (and each key of Textual's own footer), hint lines."""
    found: list[Widget] = []
    for widget in screen.walk_children():
        if not isinstance(widget, Widget) or not shown(widget):
            continue
        is_hint = widget.has_class("hint") or "hint" in (widget.id or "")
        if isinstance(widget, QuietFooter | Footer | FooterKey) or is_hint:
            found.append(widget)
    return found


async def check_whole(pilot: Pilot[object], where: str) -> None:
    """Fail unless every button, key hint and widget the focus reaches on the screen on top is whole
    (the focus is walked through the screen's focus chain, then given back)."""
    app = pilot.app
    screen = app.screen
    await pilot.pause()
    problems: list[str] = []
    buttons = [w for w in screen.query(Button) if shown(w)]
    for widget in [*buttons, *key_hints(screen)]:
        problem = cut_off(widget)
        if problem:
            problems.append(problem)
    first = app.focused
    if first is not None and (problem := cut_off(first)):
        problems.append(f"(focused) {problem}")
    for widget in screen.focus_chain:
        if widget is first or widget in buttons:
            continue
        widget.focus()
        await until(pilot, lambda w=widget: app.focused is w, f"{describe(widget)} focused")  # type: ignore[misc]
        await pilot.pause()
        if problem := cut_off(widget):
            problems.append(f"(Tab) {problem}")
    if first is not None and first in screen.focus_chain:
        first.focus()
        await pilot.pause()
    assert not problems, f"{where} at {tuple(app.size)}:\n" + "\n".join(problems)


Step = Callable[[Pilot[object]], Awaitable[object]]


async def on_top(pilot: Pilot[object], kind: type[Screen[object]] | str) -> None:
    app = pilot.app
    await until(
        pilot,
        lambda: type(app.screen).__name__ == kind if isinstance(kind, str) else isinstance(app.screen, kind),
        f"the {kind} screen",
    )


async def key_to(pilot: Pilot[object], key: str, screen: str) -> None:
    await pilot.press(key)
    await on_top(pilot, screen)


# -- the title screen and what it opens ---------------------------------------------------------------


TITLE_SCREENS: list[tuple[str, list[tuple[str, str]]]] = [
    ("title", []),
    ("new game", [("n", "NewGameScreen")]),
    ("settings", [("s", "SettingsScreen")]),
    ("rules", [("r", "RulesScreen")]),
    ("cards", [("k", "CardBrowserScreen")]),
    ("load", [("l", "LoadDialog")]),
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("where", "keys"), TITLE_SCREENS, ids=[w for w, _ in TITLE_SCREENS])
async def test_title_screens_are_whole(size: tuple[int, int], where: str, keys: list[tuple[str, str]]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        for key, screen in keys:
            await key_to(pilot, key, screen)
        await check_whole(pilot, where)


async def test_settings_say_their_keys_and_esc_says_nothing_was_saved() -> None:
    """At 80x24 the footer names Ctrl+S and Esc; Esc after a change puts the theme back and says the
    settings were not saved."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await key_to(pilot, "s", "SettingsScreen")
        footer = app.screen.query_one(QuietFooter)
        await until(pilot, lambda: "^s Save" in footer.line().plain, "the footer's keys")
        assert footer.line().plain.split() == ["^s", "Save", "esc", "Cancel"]
        before = app.theme
        await pilot.press("down")
        await until(pilot, lambda: app.theme != before, "the next theme previewed")
        await pilot.press("escape")
        await on_top(pilot, "TitleScreen")
        assert app.theme == before and app.settings.theme == before
        assert any(note.startswith("Settings not saved") for note in notes(app))
