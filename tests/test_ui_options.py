"""Option lists that keep their options' drawn lines (``KeptOptions``) still draw what they hold: set
again, reordered, with a prompt replaced, or clicked."""

from __future__ import annotations

import dataclasses

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import OptionList

from mqtui.ui.widgets.options import KeptOptions


class Kept(KeptOptions, OptionList):
    pass


class OptionsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        yield Kept()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.chosen.append(event.option_index)


def drawn(pane: Kept) -> list[str]:
    return [pane.render_line(y).text.rstrip() for y in range(pane.option_count)]


def show(pane: Kept, words: list[str]) -> None:
    pane.set_options(pane.kept_option(Text(w), id=w) for w in words)


async def test_kept_options_draw_what_they_hold() -> None:
    app = OptionsApp()
    async with app.run_test(size=(30, 10)) as pilot:
        pane = app.query_one(Kept)
        show(pane, ["Pass", "End phase", "Search"])
        await pilot.pause()
        first = pane.get_option_at_index(0)
        assert drawn(pane) == ["Pass", "End phase", "Search"]
        show(pane, ["Pass", "End phase", "Search"])
        assert pane.get_option_at_index(0) is first  # the same words: the same option
        await pilot.pause()
        assert drawn(pane) == ["Pass", "End phase", "Search"]
        show(pane, ["Search", "Pass"])  # new places (the same options: ids follow the words, as cards)
        await pilot.pause()
        assert drawn(pane) == ["Search", "Pass"]
        await pilot.click(Kept, offset=(2, 1 + pane.gutter.top))
        await pilot.pause()
        assert app.chosen == [1]  # a kept line still says which option it is, in its new place
        pane.replace_option_prompt_at_index(1, Text("Pass (whole)"))
        await pilot.pause()
        assert drawn(pane) == ["Search", "Pass (whole)"]
        show(pane, ["Search", "Pass"])  # the replaced option is not handed out for "Pass" again
        await pilot.pause()
        assert drawn(pane) == ["Search", "Pass"]


async def test_the_hands_card_lines_follow_the_theme_and_what_can_be_played() -> None:
    """A card's line in the hand is kept while what it is made of stays (the card, whether it can be
    played, compact or not); a new theme colours it again, and a card that can no longer be played
    loses its ▶."""
    from ui_helpers import make_app, settle, store_for, until

    from mqtui.ui.colours import theme_style
    from mqtui.ui.describe import card_name, deck_word
    from mqtui.ui.widgets.hand import CardList

    store = store_for()
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        hand = app.screen.query_one(CardList)

        def lines() -> dict[int, Text]:
            prompts = (hand.get_option_at_index(i) for i in range(hand.option_count))
            return {int(o.id[5:]): o.prompt for o in prompts if o.id and o.id.startswith("card-")}

        def name_style(uid: int) -> object:
            text = lines()[uid]
            start = text.plain.index(card_name(hand.cards, uid))
            return next(s.style for s in text.spans if s.start <= start < s.end)

        playable = [uid for uid, text in lines().items() if text.plain.startswith("▶")]
        assert playable, "no card to play at the start of Ann's turn"
        uid = playable[0]
        family = deck_word(hand.cards, uid)
        assert name_style(uid) == theme_style(app, family, bold=True)
        before = theme_style(app, family, bold=True)
        app.theme = "mq-light"
        await until(pilot, lambda: theme_style(app, family, bold=True) != before, "the new theme")
        await until(
            pilot, lambda: name_style(uid) == theme_style(app, family, bold=True), "the card recoloured"
        )
        hand.snapshot = dataclasses.replace(hand.snapshot, legal=())  # (nothing can be played now)
        assert not lines()[uid].plain.startswith("▶")


async def test_the_hand_and_the_actions_say_what_is_out_of_view_in_words() -> None:
    """The hand and actions panes have no scroll bar (one that changes size lays the screen out
    again): under each pane, how many of its cards or actions are above and
    below its rows, as the keys move through them; the mouse's wheel still scrolls them."""
    from ui_helpers import give, make_app, press, settle, store_for

    from mqtui.ui.widgets.actions import ActionList
    from mqtui.ui.widgets.hand import CardList

    store = store_for()
    give(store, 0, ["warrior-card", "wizard-card", "cleric-card", "thief-card", "mixed-heritage"])
    app = make_app(store, handoff=False)
    async with app.run_test(size=(80, 24), notifications=False) as pilot:
        await settle(pilot, app)
        hand, actions = app.screen.query_one(CardList), app.screen.query_one(ActionList)
        assert not hand.show_vertical_scrollbar and not actions.show_vertical_scrollbar
        cards = len(store.state.heroes[0].hand)
        rows = hand.scrollable_content_region.height
        assert cards + 1 > rows, "the hand fits: the test needs more cards than rows"
        assert hand.border_subtitle == f"{cards} in hand · ↓{cards + 1 - rows} more"
        await press(pilot, "h", lambda: hand.has_focus)
        await press(pilot, "end", lambda: hand.scroll_y == hand.max_scroll_y > 0)
        await press(pilot, "end", lambda: "↑" in str(hand.border_subtitle))
        assert "↓" not in str(hand.border_subtitle)
        above = int(str(hand.border_subtitle).split("↑")[1].split()[0])
        headings = [i for i in range(hand.option_count) if hand.get_option_at_index(i).disabled]
        assert headings == [0]  # (only the hand: one line per card at 80x24 under its heading)
        assert above == hand.max_scroll_y - 1
        if actions.max_scroll_y > 0:
            assert "↓" in str(actions.border_subtitle)
        else:
            assert not actions.border_subtitle
        assert hand.allow_vertical_scroll  # (what Textual asks before the mouse's wheel scrolls a pane)
        await press(pilot, "home", lambda: "↑" not in str(hand.border_subtitle))  # (the first card)
        assert "↓" in str(hand.border_subtitle)
