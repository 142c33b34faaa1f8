"""Every key of the game, on one page."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.table import Table
from rich.text import Text
from textual.binding import Binding

from mqtui.engine.legal import LEVEL_PRICE
from mqtui.ui.keymap import keys_in_force
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
            ("+", f"buy a level for {LEVEL_PRICE} gold"),
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
            ("R", "the recap of the others' turns: open the replay at one of its lines"),
            ("L / F3", "the whole message history, full screen (Esc: back)"),
            ("r / F2", "rules reference / card browser"),
        ),
    ),
    (
        "Tutorial (Learn to play)",
        (
            ("Ctrl+N", "the next step (after a lesson's last step: the next lesson)"),
            ("Ctrl+X", "leave the tutorial for the title screen"),
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
            ("$  g  x", "the room's Deal with the card (sell it, swap it) / give to a hero here / discard"),
        ),
    ),
)


# the rows whose keys a keymap can change (settings.json, mqtui.ui.keymap): their binding ids
ROW_BINDINGS: dict[str, tuple[str, ...]] = {
    "F1  ?": ("game.help",),
    "Ctrl+P": ("game.palette",),
    "q": ("game.quit",),
    "Ctrl+Q": ("app.quit",),
    "Space": ("game.done", "game.end", "game.pass"),
    "Shift+arrows": ("game.north", "game.east", "game.south", "game.west"),
    "s": ("game.search",),
    "t": ("game.deal",),
    "u": ("game.pickup",),
    "f": ("game.challenge",),
    "v": ("game.invite",),
    "y / n": ("game.accept", "game.decline"),
    "w": ("game.advice",),
    "+": ("game.buylevel",),
    "Ctrl+Z / Ctrl+Y": ("game.undo", "game.redo"),
    "Ctrl+S": ("game.save",),
    "m / a / h / l": ("game.focus_map", "game.focus_actions", "game.focus_hand", "game.focus_log"),
    "c": ("game.combat",),
    "o": ("game.heroes",),
    "i": ("game.inspect",),
    "W": ("game.why",),
    "R": ("game.recap",),
    "L / F3": ("game.history",),
    "r / F2": ("game.rules", "game.cards"),
    "Ctrl+N": ("tutorial.skip",),
    "Ctrl+X": ("tutorial.leave",),
    ".": ("map.home",),
    "e  b  k": ("hand.equip", "hand.belt", "hand.stow"),
    "$  g  x": ("hand.sell", "hand.give", "hand.discard"),
}


# the other rows that only hold where a binding is offered (a spectator moves nothing; a served app
# saves nothing): (section, keys) to the bindings, any one of which is enough
ROW_NEEDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("Game", "any key"): ("game.pass",),
    ("Map (when focused)", "Enter"): ("map.go",),
    ("Actions (when focused)", "↑ ↓  Enter"): ("actions.do",),
    ("Actions (when focused)", "1-9"): tuple(f"actions.{n}" for n in range(1, 10)),
    ("Hand (when focused)", "↑ ↓"): ("hand.play",),
    ("Hand (when focused)", "Enter"): ("hand.play",),
}

# a game that is not this app's own (it is played at a host): leaving does not save it here
AT_A_HOST: dict[str, str] = {
    "q": "leave the game (the table plays on at its host)",
    "Ctrl+Q": "quit the app (the table plays on at its host)",
}


def help_table(
    keymap: Mapping[str, str] | None = None,
    defaults: Mapping[str, str] | None = None,
    offers: Callable[[str], bool] | None = None,
    *,
    at_a_host: bool = False,
) -> Table:
    """The help; with a ``keymap`` (binding id to keys) the keys it changes, ``defaults`` giving the keys
    of the other bindings in a row it changes. With ``offers`` (binding id: whether the app offers it
    now) only the rows of keys that work here; ``at_a_host``: the game is played at a host."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for title, rows in SECTIONS:
        kept = [
            (key, AT_A_HOST.get(key, what) if at_a_host else what)
            for key, what in rows
            if offers is None or _offered(title, key, offers)
        ]
        if not kept:
            continue
        table.add_row(Text(title, "bold underline"), "")
        for key, what in kept:
            table.add_row(keys_in_force(ROW_BINDINGS.get(key, ()), key, keymap or {}, defaults or {}), what)
        table.add_row("", "")
    table.add_row(Text("Map legend", "bold underline"), "")
    table.add_row("", LEGEND)
    table.add_row("", "A hero is a letter in its colour (reversed: the active hero); M4 is a Level 4 monster")
    table.add_row("", "in its target's colour; ↑→↓← in the cursor room: monster arrows per colour.")
    table.add_row(
        "", "Cards marked ▶ in your hand can be played now; the footer shows the keys that work now."
    )
    return table


def _offered(section: str, key: str, offers: Callable[[str], bool]) -> bool:
    ids = ROW_BINDINGS.get(key) or ROW_NEEDS.get((section, key), ())
    return not ids or any(offers(i) for i in ids)


class HelpScreen(RoomScreen):
    BINDINGS = [
        Binding("escape", "close", "Close", id="help.close"),
        Binding("f1", "close", "Close", show=False, id="help.close2"),
        Binding("question_mark", "close", "Close", show=False, id="help.close3"),
    ]
    DEFAULT_CSS = """
    HelpScreen > VerticalScroll { width: 100; max-width: 96%; height: 90%; }
    """

    def __init__(
        self,
        keymap: Mapping[str, str] | None = None,
        defaults: Mapping[str, str] | None = None,
        offers: Callable[[str], bool] | None = None,
        *,
        at_a_host: bool = False,
    ) -> None:
        super().__init__(
            help_table(keymap, defaults, offers, at_a_host=at_a_host),
            "Keys",
            "↑↓ PgUp PgDn scroll · Esc close",
        )
