"""80x24 that reads well: the footer's keys fit whole, the log shows six lines, actions take one line
each (whole when highlighted), check boxes say their state in text."""

from __future__ import annotations

import pytest
from ui_helpers import add_room, make_app, settle, store_for, until

from mqtui.ui.widgets.actions import ActionList
from mqtui.ui.widgets.footer import QuietFooter
from mqtui.ui.widgets.log import GameLog


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("MQTUI_DATA", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_footer_keys_fit_whole_and_the_log_has_six_lines(size: tuple[int, int]) -> None:
    app = make_app(store_for())
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        footer = app.screen.query_one(QuietFooter)
        keys = footer.shown
        assert len(keys) >= 5
        line = footer.line().plain
        for start, end, key in keys:
            assert end <= footer.size.width, key.description
            assert line[start:end] == f"{key.display} {key.description}"  # drawn where it is said to be
        assert any(k.spec.description == "Help" for k in keys) and any(
            k.spec.description == "Quit" for k in keys
        )
        assert app.screen.query_one(GameLog).scrollable_content_region.height >= 6


async def test_actions_one_line_each_and_whole_when_highlighted() -> None:
    store = store_for()
    add_room(store, "coat-check", 0, 0)  # Ann stands in it: its Deal is a long action
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        actions = app.screen.query_one(ActionList)
        width = actions.scrollable_content_region.width
        prompts = [actions.get_option_at_index(i).prompt for i in range(actions.option_count)]
        cut = [i for i, prompt in enumerate(prompts) if str(prompt).endswith("…")]
        assert cut, "no action label too long for the pane at 80 columns"
        i = cut[0]
        assert prompts[i].cell_len <= width and actions.highlighted != i
        actions.highlighted = i
        await until(pilot, lambda: actions.get_option_at_index(i).prompt.cell_len > width, "whole")
        whole = actions.get_option_at_index(i).prompt.plain
        assert whole.startswith(str(prompts[i])[:-1]) and not whole.endswith("…")


async def test_settings_check_boxes_say_their_state() -> None:
    from mqtui.ui.screens.settings import SettingsScreen
    from mqtui.ui.settings import Settings
    from mqtui.ui.widgets.toggles import TextCheckbox

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SettingsScreen(Settings(handoff=True), app.theme_labels))
        await until(pilot, lambda: app.screen.query("#handoff"), "the settings screen")
        box = app.screen.query_one("#handoff", TextCheckbox)
        assert "[x]" in str(box.render())
        box.value = False
        await until(pilot, lambda: "[ ]" in str(box.render()), "the box unticked")


async def test_the_footer_names_what_enter_does() -> None:
    app = make_app(store_for())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        actions = app.screen.query_one(ActionList)

        footer = app.screen.query_one(QuietFooter)

        def enter_says() -> str:
            return next((s.spec.description for s in footer.shown if s.spec.key == "enter"), "").rstrip("…")

        for i in (0, 1):
            actions.highlighted = i  # (the highlighted action's line shows its whole label)
            label = actions.get_option_at_index(i).prompt.plain.split(" ", 1)[1]
            await until(pilot, lambda: enter_says() and label.startswith(enter_says()), "Enter's words")  # noqa: B023
