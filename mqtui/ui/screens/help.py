"""Every key of the game, on one page."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.binding import Binding

from mqtui.ui.screens.room import RoomScreen
from mqtui.ui.widgets.map_canvas import LEGEND

SECTIONS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Anywhere",
        (
            ("F1  ?", "this help"),
            ("Ctrl+P", "command palette: every legal action by name, themes, screens"),
            ("Tab / Shift+Tab", "move between panes (map, actions, hand, log)"),
            ("q", "quit to the title screen (the game is saved)"),
            ("Ctrl+Q", "quit the app (the game is saved)"),
        ),
    ),
    (
        "Game",
        (
            ("Space", "the default step: Ready / End the action phase / Pass (whichever is legal)"),
            ("any key", "in another player's fight: stop the countdown that passes for you"),
            ("Shift+arrows", "move (or flee) that way"),
            ("s", "search the room (1 Move)"),
            ("t", "take the room's Deal (1 Move)"),
            ("u", "pick up dropped treasure (1 Move)"),
            ("f", "challenge a monster that ignores you"),
            ("v", "ask another hero to help in the fight"),
            ("y / n", "accept / decline an invitation to help"),
            ("w", "advisor: what the computer would do here, and why"),
            ("+", "buy a level for 1000 gold"),
            ("Ctrl+Z / Ctrl+Y", "undo / redo (when the game allows it)"),
            ("Ctrl+S", "save the game"),
        ),
    ),
    (
        "Looking around",
        (
            ("m / a / h / l", "focus the map / actions / hand / log"),
            ("c", "switch between the map and the fight (small screens)"),
            ("o", "show the next hero's sheet (public facts)"),
            ("i", "inspect the room under the map cursor"),
            ("W", "why the computer players did what they did (their reasons)"),
            ("L / F3", "the whole message history, full screen (Esc: back)"),
            ("r / F2", "rules reference / card browser"),
        ),
    ),
    (
        "Map (when focused)",
        (
            ("arrows", "move the cursor over rooms (the view pans)"),
            ("Enter", "go to the cursor room if it is next to you; otherwise inspect it"),
            (".", "cursor back to your hero"),
        ),
    ),
    (
        "Actions (when focused)",
        (
            ("↑ ↓  Enter", "choose an action"),
            ("1-9", "do that numbered action"),
        ),
    ),
    (
        "Hand (when focused)",
        (
            ("↑ ↓", "choose a card (its full text shows below)"),
            ("Enter", "play / use the card (asks how if it has several uses)"),
            ("e  b  k", "equip / hang on the belt / put in the backpack"),
            ("$  g  x", "sell (in a shop) / give to a hero here / discard"),
        ),
    ),
)


def help_table() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for title, rows in SECTIONS:
        table.add_row(Text(title, "bold underline"), "")
        for key, what in rows:
            table.add_row(key, what)
        table.add_row("", "")
    table.add_row(Text("Map legend", "bold underline"), "")
    table.add_row("", LEGEND)
    table.add_row("", "A hero is a letter in its colour (reversed: the active hero); M4 is a Level 4 monster")
    table.add_row("", "in its target's colour; ↑→↓← in the cursor room: monster arrows per colour.")
    table.add_row(
        "", "Cards marked ▶ in your hand can be played now; the footer shows the keys that work now."
    )
    return table


class HelpScreen(RoomScreen):
    BINDINGS = [
        Binding("escape", "close", "Close", id="help.close"),
        Binding("f1", "close", "Close", show=False, id="help.close2"),
        Binding("question_mark", "close", "Close", show=False, id="help.close3"),
    ]
    DEFAULT_CSS = """
    HelpScreen > VerticalScroll { width: 100; max-width: 96%; height: 90%; }
    """

    def __init__(self) -> None:
        super().__init__(help_table(), "Keys", "↑↓ PgUp PgDn scroll · Esc close")
