"""Command palette providers: every legal action by name, the app's screens, and the themes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.fuzzy import Matcher

from mqtui.ui.appref import mq_app
from mqtui.ui.keymap import keys_in_force

if TYPE_CHECKING:
    from mqtui.ui.screens.game import GameScreen

# the key that does the same, shown under an action in the palette: as written, and its bindings (a
# keymap that changes one shows the keys in force)
_MOVES = ("game.north", "game.east", "game.south", "game.west")
KEY_HINTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "move": ("Shift+arrow", _MOVES),
    "flee": ("Shift+arrow", _MOVES),
    "done": ("space", ("game.done",)),
    "end": ("space", ("game.end",)),
    "pass": ("space", ("game.pass",)),
    "search": ("s", ("game.search",)),
    "deal": ("t", ("game.deal",)),
    "pickup": ("u", ("game.pickup",)),
    "challenge": ("f", ("game.challenge",)),
    "invite": ("v", ("game.invite",)),
    "accept": ("y", ("game.accept",)),
    "decline": ("n", ("game.decline",)),
    "buylevel": ("+", ("game.buylevel",)),
}


def key_hint(kind: str, keymap: Mapping[str, str], defaults: Mapping[str, str]) -> str:
    """The palette's line under an action of ``kind``: the key that does the same ("" if none)."""
    hint = KEY_HINTS.get(kind)
    return f"key: {keys_in_force(hint[1], hint[0], keymap, defaults)}" if hint else ""


def match_words(query: str, label: str) -> tuple[float, Text] | None:
    """Score and highlighted label when every word of ``query`` matches ``label``, in any order
    ("wrong turn grizz" finds "Curse Grizzlebeard with Wrong Turn"); None when one does not."""
    words = query.split()
    if not words:
        return None
    scores = [Matcher(word).match(label) for word in words]
    if min(scores) <= 0:
        return None
    text = Text(label)
    lower = label.lower()
    for word in words:
        at = lower.find(word.lower())
        if at >= 0:
            text.stylize("bold reverse", at, at + len(word))
    return sum(scores) / len(scores), text


Command = tuple[str, str, Callable[[], Any], str]
"""(id, label, what it does, help: its key or its kind); the id names the command in an app's allow
list (an app served over SSH offers only those it lists: ``GameApp.allows_command``)."""


def _game_screen(provider: Provider) -> GameScreen | None:
    from mqtui.ui.screens.game import GameScreen

    for screen in reversed(provider.app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    return None


class _Listed(Provider):
    """A provider whose commands are a list: all shown on opening, those whose words match on typing."""

    def _commands(self) -> list[Command]:
        raise NotImplementedError

    def allowed_commands(self) -> list[Command]:
        allows = mq_app(self.screen).allows_command
        return [command for command in self._commands() if allows(command[0])]

    async def discover(self) -> Hits:
        for _id, label, command, help_text in self.allowed_commands():
            yield DiscoveryHit(label, command, help=help_text)

    def rank(self, label: str, score: float) -> float:
        """The score a matching command is listed by (best first)."""
        return score

    async def search(self, query: str) -> Hits:
        for _id, label, command, help_text in self.allowed_commands():
            found = match_words(query, label)
            if found is not None:
                score, shown = found
                yield Hit(self.rank(label, score), shown, command, help=help_text)


class LegalActionsCommands(_Listed):
    """Every action that is legal for you now, in words."""

    _harmful: frozenset[str] = frozenset()  # the labels of the uses that harm the player (rank)

    def _commands(self) -> list[Command]:
        screen = _game_screen(self)
        if screen is None or screen.snapshot is None:
            return []
        from mqtui.ui.describe import card_kind, card_of, labelled, sort_key
        from mqtui.ui.rails import harmful, helpful_first

        snap = screen.snapshot
        out: list[Command] = []
        hurts: set[str] = set()
        actions = helpful_first(sorted(snap.legal, key=sort_key), snap, screen.cards)
        for label, action in labelled(actions, snap, screen.cards):
            if harmful(snap, screen.cards, action):
                hurts.add(label)
            uid = card_of(action)
            if uid >= 0:
                help_text = f"card: {card_kind(screen.cards, uid)}"
            else:
                app = mq_app(screen)
                help_text = key_hint(action.kind, app.keymap, app.key_defaults)
            out.append(("action", label, partial(screen.perform, action), help_text))
        self._harmful = frozenset(hurts)
        return out

    def rank(self, label: str, score: float) -> float:
        """A use that harms the player (a gift, a card for the other side) ranks below every helpful
        match: the helpful ones score from 0.5 up, the harmful ones below it."""
        return score / 2 if label in self._harmful else 0.5 + score / 2


class AppCommands(_Listed):
    """Screens, saving, settings and themes."""

    def _commands(self) -> list[Command]:
        app = mq_app(self.screen)
        out: list[Command] = [
            ("help", "Help: all keys", app.show_help, "F1"),
            ("rules", "Rules reference", app.show_rules, "r"),
            ("cards", "Card browser", app.show_cards, "F2"),
            ("settings", "Settings", app.title_settings, "theme, speed, auto-pass"),
        ]
        screen = _game_screen(self)
        if screen is not None:
            out.append(("history", "Message history", screen.action_history, "L or F3"))
            out.append(("why", "Why did the computer do that?", screen.action_why, "W (Shift+w)"))
            out.append(("save", "Save the game", partial(app.save_dialog, screen.store), "Ctrl+S"))
            out.append(("leave", "Quit to the title screen (saves)", partial(app.leave_game, screen), "q"))
        elif app.local:
            out.append(("new", "New game", app.title_new, "n"))
            out.append(("load", "Load a game", app.title_load, "l"))
        for name, label in app.theme_labels.items():
            out.append(("theme", f"Theme: {label}", partial(app.set_theme, name), f"theme {name}"))
        return out
