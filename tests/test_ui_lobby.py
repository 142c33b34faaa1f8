"""The lobby screen at 80x24, by keyboard, against a stand-in host (no SSH): what it lists and what it asks."""

from __future__ import annotations

from typing import Any

from mqtui.net import lobbyproto as lp
from mqtui.net.lobbyclient import LobbyApp
from mqtui.net.protocol import SeatInfo


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


async def test_the_lobby_lists_tables_and_takes_the_chosen_open_seat() -> None:
    link = FakeLink()
    app = LobbyApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert "Test host - 2 tables" in str(screen.query_one("#title").render())
        detail = str(screen.query_one("#detail").render())
        assert "seat 1  Bob" in detail and "open seat" in detail and "watching: 2" in detail
        await pilot.press("enter")  # two open seats: which one?
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
    assert isinstance(app.return_value, lp.Seated)
    assert lp.Take(table="aaaa1111", seat=2) in link.asked


async def test_a_refusal_is_shown_and_watching_is_one_key() -> None:
    link = FakeLink()
    app = LobbyApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "t")  # the full table: nothing to take
        await pilot.pause()
        assert "no open seat" in str(app.screen.query_one("#msg").render())
        await pilot.press("w")
        await pilot.pause()
    assert lp.Take(table="bbbb2222", seat=-1) in link.asked


async def test_a_new_table_with_a_computer_seat_a_seed_and_a_pack() -> None:
    link = FakeLink()
    app = LobbyApp(link)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(
            *"Zed", "tab", "tab", *["right"] * 4
        )  # seat 2: none -> open -> random -> normal -> hard
        await pilot.press("tab", "tab", "tab", "tab", *"42", "tab", "space")  # the seed, the pack: yes
        await pilot.press("enter")
        await pilot.pause()
    create = next(r for r in link.asked if isinstance(r, lp.Create))
    assert create == lp.Create(name="Zed", others=[lp.OPEN, "hard"], seed=42, packs=["extra"])
