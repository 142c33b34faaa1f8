"""The lobby of a host with many tables: list the tables, create one, take an open seat, or watch.

The screen talks to the host through a :class:`~mqtui.net.lobbyproto.LobbyLink` (it asks for the list
every few seconds) and dismisses itself with the :class:`~mqtui.net.lobbyproto.Seated` answer once the
visitor has a seat (or a place among the spectators); ``None`` when they quit.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from mqtui.net import lobbyproto as lp
from mqtui.net.limits import Limits
from mqtui.net.protocol import ProtocolError, SeatInfo
from mqtui.seat_kinds import HUMAN, SeatKind
from mqtui.ui.screens.dialog import Dialog
from mqtui.ui.screens.steady import StyledAtMount

REFRESH = Limits.lobby_refresh  # seconds between two looks at the list (unless the host says)
NO_SEAT = "none"
PLAYERS_WIDTH = 42  # the list fits 80 columns; the box below has every seat in full


def seat_word(seat: SeatInfo) -> str:
    if seat.kind != HUMAN:
        return f"computer ({seat.kind})"
    return {"here": "player, here", "away": "player, away", "auto": "player, away (auto)"}.get(
        seat.status, "open seat" if seat.status == "empty" else f"player, {seat.status}"
    )


class LobbyScreen(StyledAtMount, Screen[lp.Seated | None]):
    """Every table of the host, and what a visitor can do with them."""

    BINDINGS = [
        Binding("n", "new", "New table", id="lobby.new"),
        Binding("t", "take", "Take a seat (Enter)", id="lobby.take"),
        Binding("w", "watch", "Watch", id="lobby.watch"),
        Binding("c", "code", "Join code", id="lobby.code"),
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("q,ctrl+q", "leave", "Quit", id="lobby.quit"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    LobbyScreen #title { height: 1; text-style: bold; padding: 0 1; }
    LobbyScreen DataTable { height: 1fr; min-height: 5; border: round $accent; }
    LobbyScreen #detail { height: auto; max-height: 10; border: round $accent; padding: 0 1; }
    LobbyScreen #msg { height: 1; padding: 0 1; color: $warning; }
    """

    def __init__(self, link: lp.LobbyLink, refresh: float | None = None) -> None:
        super().__init__()
        self.link = link
        self.list_every = refresh or REFRESH  # seconds between two looks at the list (the host's choice)
        self.listing: lp.Tables | None = None
        self._shown: list[lp.TableInfo] | None = None

    def compose(self) -> ComposeResult:
        yield Static("mqtui lobby", id="title")
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=False)
        table.border_title = "Tables"
        yield table
        yield Static(id="detail")
        yield Static(id="msg")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Table", "Round", "Open", "Watching", "Players")
        table.focus()
        self.action_refresh()
        self.set_interval(self.list_every, self.action_refresh)

    # -- the list -------------------------------------------------------------------------------------

    @work(exclusive=True, group="lobby-list")
    async def action_refresh(self) -> None:
        try:
            reply = await self.link.ask(lp.ListTables())
        except (OSError, TimeoutError, ConnectionError, ProtocolError) as exc:
            self.lost(exc)
            return
        if isinstance(reply, lp.Tables):
            self.show(reply)

    def show(self, listing: lp.Tables) -> None:
        same = (
            self.listing is not None and listing.tables == self._shown and listing.host == self.listing.host
        )
        self.listing = listing
        if same:
            return  # nothing changed: no redraw (every idle lobby asks every 2 s)
        n = len(listing.tables)
        self.query_one("#title", Static).update(
            Text(
                f"mqtui lobby - {listing.host} - {n} table{'s' if n != 1 else ''} (at most {listing.max_tables})"
            )
        )
        self._shown = listing.tables
        table: DataTable[str] = self.query_one(DataTable)
        keep = self.selected()
        table.clear()
        for info in listing.tables:
            players = ", ".join(s.name + ("" if s.kind == HUMAN else "*") for s in info.seats)
            mine = f"(yours: seat {info.mine}) " if info.mine >= 0 else ""
            state = "over" if info.over else str(info.round)
            who = mine + players
            who = who if len(who) <= PLAYERS_WIDTH else who[: PLAYERS_WIDTH - 1] + "…"
            table.add_row(info.id, state, str(len(info.open)), str(info.spectators), who, key=info.id)
        if keep is not None and keep.id in {t.id for t in listing.tables}:
            table.move_cursor(row=table.get_row_index(keep.id))
        self.show_detail()

    def selected(self) -> lp.TableInfo | None:
        if self.listing is None or not self.listing.tables:
            return None
        table: DataTable[str] = self.query_one(DataTable)
        row = table.cursor_row
        shown = self._shown or []
        return shown[row] if 0 <= row < len(shown) else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_take()

    def show_detail(self) -> None:
        info = self.selected()
        detail = self.query_one("#detail", Static)
        if info is None:
            detail.border_title = "No tables yet"
            detail.update(Text("Press n to create the first table."))
            return
        detail.border_title = f"Table {info.id}" + (
            " - the game is over" if info.over else f" - round {info.round}"
        )
        lines = [
            f"seat {i}  {s.name:<16} {s.colour:<7} {seat_word(s)}{'  (yours)' if i == info.mine else ''}"
            for i, s in enumerate(info.seats)
        ]
        extra = f"watching: {info.spectators}"
        if info.packs:
            extra += f"   packs: {', '.join(info.packs)}"
        lines.append(extra + "   (* computer player)")
        detail.update(Text("\n".join(lines), no_wrap=True, overflow="ellipsis"))

    def lost(self, exc: Exception) -> None:
        """The host did not answer: say so; if it closed the lobby, leave (the app shows why)."""
        if isinstance(exc, ConnectionError | ProtocolError):
            self.app.exit(None, message=f"mqtui: the lobby closed ({exc or 'the host went away'})")
        else:
            self.say(f"the host does not answer: {exc}")

    def say(self, text: str) -> None:
        self.query_one("#msg", Static).update(Text(text, no_wrap=True, overflow="ellipsis"))

    # -- actions --------------------------------------------------------------------------------------

    def action_take(self) -> None:
        info = self.selected()
        if info is None:
            self.say("no table to sit at: press n to create one")
            return
        if info.mine >= 0:
            self.ask(lp.Take(table=info.id, seat=info.mine))
            return
        if not info.open:
            self.say(f"table {info.id} has no open seat: w watches it")
            return
        if len(info.open) == 1:
            self.ask(lp.Take(table=info.id, seat=info.open[0]))
            return

        def picked(seat: int | None) -> None:
            if seat is not None:
                self.ask(lp.Take(table=info.id, seat=seat))

        self.app.push_screen(PickSeat(info), picked)

    def action_watch(self) -> None:
        info = self.selected()
        if info is None:
            self.say("no table to watch yet")
            return
        self.ask(lp.Take(table=info.id, seat=-1))

    def action_new(self) -> None:
        listing = self.listing
        levels: list[str] = listing.levels if listing else [SeatKind.NORMAL]
        packs = listing.packs if listing else []

        def made(request: lp.Create | None) -> None:
            if request is not None:
                self.ask(request)

        self.app.push_screen(NewTable(levels, packs), made)

    def action_code(self) -> None:
        def typed(code: str | None) -> None:
            if code:
                self.ask(lp.Code(code=code))

        self.app.push_screen(TypeCode(), typed)

    def action_leave(self) -> None:
        self.dismiss(None)

    @work(exclusive=True, group="lobby-ask")
    async def ask(self, request: lp.LobbyRequest) -> None:
        self.say("asking the host...")
        try:
            reply = await self.link.ask(request)
        except (OSError, TimeoutError, ConnectionError, ProtocolError) as exc:
            self.lost(exc)
            return
        if isinstance(reply, lp.Error):
            self.say(f"refused: {reply.reason}")
        elif isinstance(reply, lp.Seated):
            self.workers.cancel_group(self, "lobby-list")
            self.dismiss(reply)
        else:
            self.show(reply)


class PickSeat(Dialog[int]):
    """Which open seat of a table (its number, or Enter on it)."""

    DEFAULT_CSS = """
    PickSeat > Vertical { width: 60; }
    PickSeat OptionList { height: auto; max-height: 8; border: none; }
    """

    def __init__(self, info: lp.TableInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Table {self.info.id}: which seat?")
            yield OptionList(*[Option(f"{i}  {self.info.seats[i].name}", id=str(i)) for i in self.info.open])
            yield Label("a seat's number or Enter: take it · Esc: back")

    def on_key(self, event: events.Key) -> None:
        if event.key.isdigit() and int(event.key) in self.info.open:
            event.stop()
            event.prevent_default()
            self.dismiss(int(event.key))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))


class Cycle(Static, can_focus=True):
    """One choice of a new table on one line: left/right (or space) go through the choices."""

    BINDINGS = [
        Binding("right,space", "turn(1)", "Next", show=False, id="cycle.next"),
        Binding("left", "turn(-1)", "Previous", show=False, id="cycle.previous"),
    ]
    DEFAULT_CSS = """
    Cycle { height: 1; padding: 0 1; }
    Cycle:focus { background: $accent 40%; text-style: bold; }
    """

    def __init__(
        self,
        label: str,
        choices: list[tuple[str, str]],
        value: str,
        *,
        id: str | None = None,
        classes: str = "",
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.choices = choices  # (value, words)
        self.value = value

    def on_mount(self) -> None:
        self.draw()

    def draw(self) -> None:
        words = dict(self.choices)[self.value]
        self.update(Text(f"{self.label}: < {words} >"))

    def action_turn(self, step: int) -> None:
        values = [v for v, _ in self.choices]
        self.value = values[(values.index(self.value) + step) % len(values)]
        self.draw()


class NewTable(Dialog[lp.Create]):
    """A new table: your hero's name, the other seats, a seed and content packs."""

    BINDINGS = [
        Binding("ctrl+s", "create", "Create", id="new.create"),
    ]
    DEFAULT_CSS = """
    NewTable > Vertical { max-width: 98%; max-height: 100%; }
    NewTable Input { width: 1fr; }
    NewTable .hint { color: $text-muted; width: 1fr; }
    """

    def __init__(self, levels: list[str], packs: list[str]) -> None:
        super().__init__()
        self.levels = levels
        self.packs = packs

    def compose(self) -> ComposeResult:
        kinds = [(lp.OPEN, "open seat (a person joins)"), *((k, f"computer, {k}") for k in self.levels)]
        with Vertical():
            yield Label("New table - you sit at seat 0")
            yield Input(placeholder="your hero's name", id="name", max_length=16, compact=True)
            for seat in range(1, 6):
                choices = kinds if seat == 1 else [*kinds, (NO_SEAT, "(no seat)")]
                yield Cycle(f"seat {seat}", choices, lp.OPEN if seat == 1 else NO_SEAT, classes="seat")
            yield Input(placeholder="seed (empty: random)", id="seed", restrict=r"[0-9]*", compact=True)
            for pack in self.packs:
                yield Cycle(f"pack {pack}", [("no", "no"), ("yes", "yes")], "no", id=f"pack-{pack}")
            yield Label("", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()
        hint = "Tab: next · left/right: change a seat · Enter: create · Esc: back"
        self.query_one(".hint", Label).update(hint)  # shown once the form takes keys

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    def on_key(self, event: events.Key) -> None:
        if event.key == "enter" and isinstance(self.focused, Cycle):
            event.stop()
            self.action_create()

    def action_create(self) -> None:
        others = [p.value for p in self.query(".seat").results(Cycle) if p.value != NO_SEAT]
        seed_text = self.query_one("#seed", Input).value
        packs = [p for p in self.packs if self.query_one(f"#pack-{p}", Cycle).value == "yes"]
        self.dismiss(
            lp.Create(
                name=self.query_one("#name", Input).value.strip(),
                others=others,
                seed=int(seed_text) if seed_text.isdigit() else None,
                packs=packs,
            )
        )


class TypeCode(Dialog[str]):
    """A join code typed in the lobby."""

    DEFAULT_CSS = """
    TypeCode > Vertical { width: 50; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Join code (from the person who made the table):")
            yield Input(placeholder="code-XXXXXX", max_length=24, compact=True)
            yield Label("Enter: join · Esc: back")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)
