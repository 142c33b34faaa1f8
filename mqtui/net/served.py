"""The full app as a seat served over SSH runs it, with its allow lists (:class:`~mqtui.net.remote_app.
RemoteApp`; the plain app's served form is :class:`mqtui.net.standin.RemoteStandInApp`).
:func:`mqtui.cli.seatapp.seat_app` picks one.

The lists name every command and key a visitor gets; anything else the app has (saving, loading,
settings, new games, the title screen, screenshots) is not offered. A spectator gets no move of the game.
"""

from __future__ import annotations

from typing import ClassVar

from mqtui.net.remote_app import Allowed, RemoteApp
from mqtui.net.standin import SYSTEM
from mqtui.ui.app import MQApp

# -- the full app: what both get, then what only a player gets
_LOOKING = frozenset(
    {
        "game.results",
        "game.help",
        "game.quit",
        "game.palette",
        "game.combat",
        "game.heroes",
        "game.inspect",
        "game.why",
        "game.history",
        "game.focus_map",
        "game.focus_log",
        "game.rules",
        "game.cards",
        "map.up",
        "map.right",
        "map.down",
        "map.left",
        "map.home",
        "help.close",
        "help.close2",
        "help.close3",
        "rules.close",
        "rules.close2",
        "rules.toc",
        "cards.close",
        "cards.search",
        "history.close",
        "history.close2",
        "history.top",
        "history.bottom",
        "room.close",
        "room.close2",
        "room.close3",
        "dialog.cancel",
        "over.title2",
        "over.quit",
        "app.quit",
    }
)
_PLAYING = frozenset(
    {
        "game.done",
        "game.end",
        "game.pass",
        "game.north",
        "game.east",
        "game.south",
        "game.west",
        "game.accept",
        "game.decline",
        "game.advice",
        "game.undo",
        "game.redo",
        "game.search",
        "game.deal",
        "game.pickup",
        "game.challenge",
        "game.invite",
        "game.buylevel",
        "game.focus_actions",
        "game.focus_hand",
        *(f"game.pick{n}" for n in range(1, 10)),
        "actions.do",
        *(f"actions.{n}" for n in range(1, 10)),
        "map.go",
        "hand.charity_give",
        "hand.charity_discard",
        "hand.play",
        "hand.equip",
        "hand.belt",
        "hand.stow",
        "hand.sell",
        "hand.give",
        "hand.discard",
        "charity.give",
        "charity.discard",
        "charity.mark",
        "charity.later",
    }
)
_READING = frozenset({"help", "rules", "cards", "history", "why", "theme"})  # (the palette's, by id)


class RemoteMQApp(RemoteApp, MQApp):
    """The full app, served: the game's moves, its help, rules and cards, themes (for this session)."""

    PLAYER: ClassVar[Allowed] = Allowed(_READING | {"action"}, SYSTEM, _LOOKING | _PLAYING)
    SPECTATOR: ClassVar[Allowed] = Allowed(_READING, SYSTEM, _LOOKING)

    def help_offers(self, binding_id: str) -> bool:
        return binding_id in self.allowed.bindings and super().help_offers(binding_id)

    def remote_seat(self) -> int:
        store = self.initial_store
        return store.snapshot().seat if store is not None else 0

    # (the app's own ways to the host's files and to local games)
    save_dialog = open_file = title_new = title_load = title_continue = title_settings = RemoteApp.refuse
