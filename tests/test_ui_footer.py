"""The footer: it shows the keys that work now (and follows the game), and a click on a key presses it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from ui_helpers import make_app, settle, store_for, textual_specs

from mqtui.ui.screens.help import HelpScreen
from mqtui.ui.widgets.footer import KeySpec, QuietFooter


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


def drawn(footer: QuietFooter) -> str:
    """The footer's line as it hands it to the screen."""
    return footer.render_line(0).text


async def test_the_footer_follows_what_is_legal() -> None:
    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        footer = app.screen.query_one(QuietFooter)
        before = drawn(footer)
        assert "space End phase" in before and "Undo" not in before
        await pilot.press("space")  # end the action phase: over the hand limit, nothing left to end
        await settle(pilot, app)
        assert store.state.frames[-1].kind == "charity"
        after = drawn(footer)
        assert "End phase" not in after and "^z Undo" in after
        for start, end, key in footer.shown:  # each key drawn whole where a click finds it
            assert after[start:end] == f"{key.display} {key.description}"
            assert end <= footer.size.width


async def test_a_click_on_a_footer_key_presses_it() -> None:
    app = make_app(store_for())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        footer = app.screen.query_one(QuietFooter)
        (help_key,) = [k for k in footer.shown if k.spec.description == "Help"]
        await pilot.click(QuietFooter, offset=(help_key.end - 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_greyed_key_is_drawn_dim_and_a_click_on_it_only_rings_the_bell() -> None:
    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(160, 40)) as pilot:  # wide: the keys greyed in your turn fit
        await settle(pilot, app)
        footer = app.screen.query_one(QuietFooter)
        (search,) = [k for k in footer.shown if k.spec.description == "Search"]
        assert search.spec.disabled  # nothing to search in the action phase's first step
        dim = {seg.text.strip() for seg in footer.render_line(0) if seg.style and seg.style.dim}
        assert {"s", "Search"} <= dim and "Help" not in dim
        rings: list[bool] = []
        app.bell = lambda: rings.append(True)  # type: ignore[method-assign]
        actions = len(store.actions)
        await pilot.click(QuietFooter, offset=(search.start, 0))
        await pilot.pause()
        assert rings and len(store.actions) == actions


async def test_the_footer_takes_a_new_theme() -> None:
    app = make_app(store_for(), theme="mq-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        footer = app.screen.query_one(QuietFooter)

        def key_colour() -> str:
            (seg,) = [seg for seg in footer.render_line(0) if seg.text == "?"]
            assert seg.style is not None and seg.style.color is not None
            return seg.style.color.triplet.hex if seg.style.color.triplet else ""

        assert key_colour().lower() == "#e0b050"  # themes/mq-dark.toml footer-key-foreground
        app.theme = "mq-light"
        await pilot.pause()
        assert key_colour().lower() == "#7a4a12"


async def test_the_footer_shows_the_keys_textuals_active_bindings_give() -> None:
    """The footer shows what Textual's ``Screen.active_bindings`` give, in each pane, in a phase where
    Enter, Space and Ctrl+Z change meaning, and in a dialog with its own footer."""
    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(200, 24)) as pilot:  # wide: every key shown fits

        def same() -> list[KeySpec]:
            footer = app.screen.query_one(QuietFooter)
            specs = [s.spec for s in footer.shown]  # (all of them fit)
            assert specs == textual_specs(footer), (app.screen, app.focused)
            return specs

        await settle(pilot, app)
        seen = [same()]
        for _ in range(4):  # each pane in turn
            await pilot.press("tab")
            await settle(pilot, app)
            seen.append(same())
        await pilot.press("space")  # end the action phase: charity (Enter gives away, Ctrl+Z undoes)
        await settle(pilot, app)
        assert store.state.frames[-1].kind == "charity"
        seen.append(same())  # (its dialog)
        await pilot.press("escape")
        await settle(pilot, app)
        seen.append(same())
        assert len({tuple(s) for s in seen}) >= 4  # (the keys did change on the way)
        descriptions = {s.description for specs in seen for s in specs}
        assert {"Undo", "Help", "End phase", "Play", "Go there", "Give", "Later"} <= descriptions


async def test_the_dollar_key_is_the_rooms_deal_and_says_so_where_the_room_swaps() -> None:
    """In a swap room `$` swaps the card (the room's Deal): the footer said "Sell" and the help "sell
    (in a shop)" while the card went for a DxM card and no gold."""
    from ui_helpers import add_room, empty_hands, give, hero

    store = store_for()
    empty_hands(store)
    add_room(store, "swap-meet", 1, 0)
    ann = hero(store, 0)
    ann.x, ann.y = 1, 0
    (uid,) = give(store, 0, ["hard-hat"])
    store.engine.forget()
    gold = ann.gold
    app = make_app(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")  # the hand: its one card highlighted
        await settle(pilot, app)
        shown = [s.spec.description for s in app.screen.query_one(QuietFooter).shown]
        assert "Deal" in shown and "Sell" not in shown, shown
        await pilot.press("dollar_sign")
        await settle(pilot, app)
        assert uid not in hero(store, 0).hand and hero(store, 0).gold == gold  # swapped, not sold
        assert any("Swap" in line.text or "swap" in line.text for line in store.snapshot().log[-3:])
        await pilot.press("question_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        out = io.StringIO()
        Console(width=160, file=out, color_system=None).print(app.screen.details)
        assert "the room's Deal with the card (sell it, swap it)" in out.getvalue()
