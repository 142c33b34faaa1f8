"""The lobby screen at 80x24, by keyboard, against a stand-in host (no SSH): what it lists and what it asks."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from ui_helpers import press, until

from mqtui.net import lobbyproto as lp
from mqtui.net.lobbyclient import LobbyApp
from mqtui.net.protocol import SeatInfo
from mqtui.ui.screens.lobby import LobbyScreen, NewTable, PickSeat


def _tables() -> lp.Tables:
    def seat(name: str, kind: str = "human", status: str = "empty") -> SeatInfo:
        return SeatInfo(name, "red", kind, status)

    return lp.Tables(
        host="Test host",
        tables=[
            lp.TableInfo(
                id="aaaa1111",
                seats=[seat("Ann", status="here"), seat("Bob"), seat("Cy")],
                open=[1, 2],
                round=3,
                over=False,
                spectators=2,
            ),
            lp.TableInfo(
                id="bbbb2222",
                seats=[seat("Di", status="away"), seat("Eve (hard)", "hard", "bot")],
                open=[],
                round=1,
                over=False,
                spectators=0,
            ),
        ],
        packs=["extra"],
        levels=["random", "normal", "hard"],
        max_tables=20,
    )


class FakeLink:
    """Answers like the host: the list, or a seat for any take/create/code."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    async def ask(self, request: lp.LobbyRequest, timeout: float = 15.0) -> lp.LobbyReply:
        self.asked.append(request)
        if isinstance(request, lp.ListTables):
            return _tables()
        if isinstance(request, lp.Take) and request.table == "bbbb2222" and request.seat >= 0:
            return lp.Error(reason="seat 0 is not free")
        return lp.Seated(table="aaaa1111", seat=1, name="Bob", packs=[])


async def listed(pilot: Pilot[object]) -> LobbyScreen:
    """The lobby screen once it shows the host's list."""
    app = pilot.app
    await until(pilot, lambda: "tables" in text_of(app, "#title"), "the list of tables")
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector).render()) if app.screen.query(selector) else ""


async def test_the_lobby_lists_tables_and_takes_the_chosen_open_seat() -> None:
    link = FakeLink()
    app = LobbyApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await listed(pilot)
        assert "Test host - 2 tables" in str(screen.query_one("#title").render())
        detail = str(screen.query_one("#detail").render())
        assert "seat 1  Bob" in detail and "open seat" in detail and "watching: 2" in detail
        await press(pilot, "enter", lambda: isinstance(app.screen, PickSeat))  # two open seats: which one?
        await press(pilot, "2", lambda: app.return_value is not None, "the app's answer")
    assert isinstance(app.return_value, lp.Seated)
    assert lp.Take(table="aaaa1111", seat=2) in link.asked


async def test_a_refusal_is_shown_and_watching_is_one_key() -> None:
    link = FakeLink()
    app = LobbyApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await listed(pilot)
        await press(
            pilot, "down", lambda: (table := screen.selected()) is not None and table.id == "bbbb2222"
        )
        await press(pilot, "t", lambda: text_of(app, "#msg"))  # the full table: nothing to take
        assert "no open seat" in text_of(app, "#msg")
        await press(pilot, "w", lambda: app.return_value is not None, "the app's answer")
    assert lp.Take(table="bbbb2222", seat=-1) in link.asked


async def test_a_new_table_with_a_computer_seat_a_seed_and_a_pack() -> None:
    link = FakeLink()
    app = LobbyApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await listed(pilot)
        await press(pilot, "n", lambda: isinstance(app.screen, NewTable) and app.screen.query("#seed"))

        def form() -> tuple[object, object]:  # the field with the keyboard and what it holds
            return app.focused, getattr(app.focused, "value", None)

        keys = [*"Zed", "tab", "tab", *["right"] * 4]  # seat 2: none -> open -> random -> normal -> hard
        keys += ["tab", "tab", "tab", "tab", *"42", "tab", "space"]  # the seed, the pack: yes
        for key in keys:
            before = form()
            await press(pilot, key, lambda: form() != before)  # noqa: B023 (called within the loop)
        await press(pilot, "enter", lambda: app.return_value is not None, "the app's answer")
    create = next(r for r in link.asked if isinstance(r, lp.Create))
    assert create == lp.Create(name="Zed", others=[lp.OPEN, "hard"], seed=42, packs=["extra"])
