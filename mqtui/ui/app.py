"""The mqtui Textual app: title screen, new game, the game itself, and the dialogs around it.

``MQApp()`` opens the title screen and plays local games (hot seat and computer players).
``MQApp(store)`` opens straight on the game screen for any :class:`~mqtui.store.GameStore` (the SSH
server passes a networked store) and touches no local files except the settings.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen

from mqtui.ui.appref import GameApp
from mqtui.ui.commands import AppCommands, LegalActionsCommands
from mqtui.ui.screens.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen
from mqtui.ui.settings import Settings, load_settings, save_settings
from mqtui.ui.themes import DEFAULT_THEME, GAME_VARIABLES, load_themes

if TYPE_CHECKING:  # the game's modules load when a game starts, not with the title screen
    from mqtui.store import GameStore, Snapshot
    from mqtui.ui.session import SeatSpec


class MQApp(App[None]):
    """Munchkin Quest in the terminal."""

    TITLE = "mqtui"
    SUB_TITLE = "Munchkin Quest in the terminal"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # (a path of its own: subclasses live elsewhere)
    COMMANDS = App.COMMANDS | {LegalActionsCommands, AppCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="app.quit", show=False, priority=True)]

    def __init__(
        self,
        store: GameStore | None = None,
        *,
        settings: Settings | None = None,
        save_settings_file: bool = True,
        new_game: Sequence[SeatSpec] | None = None,
        seed: int | None = None,
        load: Path | None = None,
        bot_delay: float | None = None,
        replay: Path | None = None,
        replay_seat: int | None = None,
        packs: Sequence[str] = (),
        save_on_signals: bool = False,
    ) -> None:
        """
        Args:
            store: play this game (e.g. a networked store); None: the title screen and local games.
            settings: use these instead of the saved settings.
            save_settings_file: remember setting changes in the data folder.
            new_game: start a local game with these seats at once.
            seed: the seed for ``new_game``.
            load: open this saved game at once.
            bot_delay: seconds between computer moves (overrides the settings; 0 in tests).
            replay: open this saved game in the replay view at once (``replay_seat``: whose eyes).
            packs: content packs (names) for ``new_game``.
            save_on_signals: SIGTERM and SIGHUP save a local game at once, then end the app
                (:mod:`mqtui.ui.signals`; the command line sets it).
        """
        self._mq_ready = False  # (before Textual's __init__, which sets the theme)
        self._last_size: Size | None = None
        self.terminal_resize: events.Resize | None = None
        self.settings = settings if settings is not None else load_settings()
        self.save_settings_file = save_settings_file
        self.bot_delay = self.settings.bot_delay if bot_delay is None else bot_delay
        self.initial_store = store
        self.local = store is None
        self._new_game = list(new_game) if new_game else None
        self._seed = seed
        self._packs = tuple(packs)
        self._load = load
        self._replay = replay
        self._replay_seat = replay_seat
        loaded = load_themes()
        self.theme_labels = loaded.labels
        self.theme_errors = loaded.errors
        # NO_COLOR: Textual turns the colours into greys, still sent as colour codes (a 256-colour
        # terminal got 256-colour greys); in its ANSI-colour mode it removes them all instead
        super().__init__(ansi_color="NO_COLOR" in os.environ)
        self.set_class(self.no_color, "-no-color")  # (Textual reads and removes NO_COLOR above)
        for theme in loaded.themes.values():
            self.register_theme(theme)
        self.theme = self.settings.theme if self.settings.theme in loaded.themes else DEFAULT_THEME
        self._continuous = False
        self.game_store: GameStore | None = None
        self.save_failure = ""  # why the last save of the game failed
        self._left_unsaved_at = -1  # the state the player was told, on quitting, that it is not saved
        self.autosave_file: Path | None = None  # this game's own autosave (local games)
        self.finished_file: Path | None = None  # where a game that ended here was kept
        self._unfinished = False  # the game was not over when opened: keep it when it ends
        self.save_on_signals = save_on_signals
        self._signals_off: Callable[[], None] = lambda: None
        self.keymap: dict[str, str] = {}  # the settings' keymap as used (mqtui.ui.keymap)
        self.key_defaults: dict[str, str] = {}  # binding id to its own keys (with a keymap)
        self._clashes_said: set[str] = set()

    def allows_command(self, command_id: str) -> bool:
        """Every command of the palette (an app served over SSH offers a list: mqtui.net.remote_app)."""
        return True

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(GAME_VARIABLES)

    def get_default_screen(self) -> Screen[Any]:
        """The title screen is the bottom of the stack for local play (no empty screen under it)."""
        if self.initial_store is None:
            from mqtui.ui.screens.title import TitleScreen

            return TitleScreen()
        return Screen()

    # -- start-up -------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        for error in self.theme_errors:
            self.notify(error, title="Theme not loaded", severity="warning")
        self._apply_keymap()
        if self.initial_store is not None:
            self.open_game(self.initial_store)
        elif self._new_game:
            self.start_new_game(self._new_game, self._seed, self._packs)
        elif self._load is not None:
            self.open_file(self._load)
        elif self._replay is not None:
            self.open_replay(self._replay, seat=self._replay_seat)
        self._mq_ready = True
        self._check_size(self.size.width, self.size.height)

    def on_unmount(self) -> None:
        self._signals_off()
        if self.game_store is not None and self.local:
            from mqtui.ui.saving import end_autosave_writer

            end_autosave_writer(self.game_store)

    def _apply_keymap(self) -> None:
        """The settings file's keymap, checked: what is wrong is said and left out, the rest used."""
        if not self.settings.keymap:
            return  # (the screens' modules are imported only to check a keymap)
        from mqtui.ui.keymap import check_keymap, known_bindings

        known = known_bindings([type(self)])
        self.keymap, errors = check_keymap(self.settings.keymap, known)
        self.key_defaults = known
        self._clashes_said |= {i for i in self.keymap if i not in self.settings.keymap}  # (kept keys)
        for error in errors:
            self.notify(
                f"{error}; that entry is left out.", title="Keymap in settings.json", severity="warning"
            )
        self.set_keymap(self.keymap)

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: Any) -> None:
        """A keymap that gives a key already in use: said once per clash (Textual asks at every key; the
        bindings that keep their shared key, see ``check_keymap``, are no clash)."""
        for binding in clashed_bindings:
            if binding.id is not None and binding.id not in self._clashes_said:
                self._clashes_said.add(binding.id)
                self.notify(
                    f"the key {binding.key!r} of {binding.id!r} is also given to another binding by the keymap",
                    title="Keymap in settings.json",
                    severity="warning",
                )

    def watch_theme(self, theme: str) -> None:
        if self._mq_ready and theme in self.theme_labels and theme != self.settings.theme:
            self.settings.theme = theme
            self.remember_settings()

    def set_theme(self, name: str) -> None:
        self.theme = name

    def remember_settings(self) -> None:
        if self.save_settings_file:
            save_settings(self.settings)

    # -- the minimum size -----------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        if event.size == self._last_size:
            # Textual would pass the same size on to every screen once more (at start it gets it twice),
            # each laying itself out again
            event.prevent_default()
        else:
            self.terminal_resize = event  # (what Textual passes on to the screens)
        self._last_size = event.size
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        if not self._mq_ready:
            return
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        top = self.screen
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen())
        elif small and isinstance(top, TooSmallScreen):
            top.show(width, height)
        elif not small:
            while isinstance(self.screen, TooSmallScreen):
                self.pop_screen()

    # -- games ----------------------------------------------------------------------------------------

    def start_new_game(
        self, specs: Sequence[SeatSpec], seed: int | None = None, packs: Sequence[str] = ()
    ) -> None:
        """Start a local game with content ``packs`` (raises ValueError for a bad table or pack)."""
        from mqtui.ui.session import new_store

        store = new_store(specs, seed, bot_delay=self.bot_delay, packs=packs)
        self.open_game(cast("GameStore", store))  # LocalStore.cards is a property: see the report

    def open_game(
        self,
        store: GameStore,
        autosave_file: Path | None = None,
        *,
        keep: bool = True,
        screen: Callable[[GameStore], Screen[None]] | None = None,
    ) -> None:
        """Play ``store``; a local game in progress autosaves to ``autosave_file`` (default: a new file
        of its own, so that no other game's autosave is ever replaced). Without ``keep`` (a tutorial's
        lesson) the game is neither autosaved nor kept when it ends; ``screen`` makes the screen that
        shows it (default: the game screen)."""
        from mqtui.ui.saving import new_autosave_path, start_autosave
        from mqtui.ui.screens.game import GameScreen
        from mqtui.ui.screens.title import TitleScreen

        if self.local:
            while len(self.screen_stack) > 1 and not isinstance(self.screen, TitleScreen):
                self.pop_screen()
        self.game_store = store
        self._unfinished = keep and self.local and not store.snapshot().over
        self.finished_file = None
        self.autosave_file = (autosave_file or new_autosave_path()) if self._unfinished else None
        self._continuous = self.autosave_file is not None and start_autosave(store, self.autosave_file)
        if self.save_on_signals:
            from mqtui.ui.signals import save_on_signals

            self._signals_off()
            self._signals_off = save_on_signals(self, store)
        settings = self.settings
        if screen is not None:
            self.push_screen(screen(store))
            return
        self.push_screen(GameScreen(store, handoff=settings.handoff, countdown=settings.pass_countdown))

    def open_file(self, path: Path) -> bool:
        from mqtui.ui.saving import SaveFailed, autosave_path_for, load_game

        try:
            store = load_game(path, bot_delay=self.bot_delay)
        except SaveFailed as exc:
            self.notify(str(exc), title="Cannot load", severity="error")
            return False
        self.open_game(cast("GameStore", store), autosave_path_for(path))
        if store.snapshot().over:  # a finished game: it is kept where it was loaded from
            self.finished_file = Path(path)
        return True

    def autosave(self, store: GameStore | None = None) -> Path | None:
        """Save the game to its own autosave, where Continue finds it (local games only). A game that
        ends here is kept in the history of finished games (``saves/finished/``), never deleted."""
        from mqtui.ui.saving import SaveFailed, keep_finished, save_game, stop_autosave

        store = store if store is not None else self.game_store
        if not self.local or store is None:
            return None
        if store.snapshot().over:
            if self._unfinished:
                self._unfinished = False
                stop_autosave(store)
                self.finished_file = keep_finished(store, self.autosave_file)
                self.autosave_file = None
            return None
        if self.autosave_file is None:
            return None
        try:
            return save_game(store, self.autosave_file)
        except SaveFailed as exc:
            self.save_failure = str(exc)
            return None

    def _unsaved_leave_refused(self) -> bool:
        """A local game in progress whose save just failed: the first quit says so and stays (the
        help promises "the game is saved"); quitting again in the same state leaves it unsaved."""
        store = self.game_store
        if not self.local or store is None or not self._unfinished or self.autosave_file is None:
            return False
        n = store.snapshot().n
        if self._left_unsaved_at == n:
            return False
        self._left_unsaved_at = n
        self.notify(
            f"The game is NOT saved: {self.save_failure}. Quit again to leave it unsaved (Continue then "
            "picks it up as it was last saved), or free some space and quit again.",
            title="Not saved",
            severity="error",
            timeout=20,
        )
        return True

    def autosave_each_turn(self, store: GameStore) -> None:
        """Called by the game screen at each new turn: saves unless the store saves after every change."""
        if not self._continuous:
            self.autosave(store)

    def leave_game(self, screen: object) -> None:
        """Back to the title screen (local games, after saving) or out of the app (a given store)."""
        if not self.local:
            self.exit()
            return
        from mqtui.ui.saving import stop_autosave

        saved = self.autosave()
        if saved is None and self._unsaved_leave_refused():
            return
        if self.game_store is not None:
            stop_autosave(self.game_store)
        self.game_store = None
        from mqtui.ui.screens.title import TitleScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, TitleScreen):
            self.pop_screen()
        if saved is not None:
            self.notify("Game saved: Continue picks it up.", title="Saved")

    def game_over(self, final_fight: Any, snap: Snapshot) -> None:
        from mqtui.ui.screens.game_over import GameOverScreen

        store = self.game_store
        if store is None:
            return
        self.autosave(store)  # a game that ended here goes to the history of finished games

        def done(what: str | None) -> None:
            if what == "quit":
                self.exit()
            elif not self.local:
                return
            elif what == "new":
                self.leave_game(None)
                self.title_new()
            else:
                self.leave_game(None)

        from mqtui.packs import game_packs
        from mqtui.ui.advisor import tally_for

        over = GameOverScreen(
            store.cards,
            store.seats,
            snap,
            fight=final_fight,
            kept=self.finished_file,
            packs=game_packs(store),
            can_replay=self.local,
            advice=tally_for(store).line(),
        )
        self.push_screen(over, done)

    def replay_finished_game(self) -> None:
        """The replay of the game just finished, every hand open (from the game-over screen)."""
        from mqtui.timeline import Timeline, TimelineError
        from mqtui.ui.screens.replay import ReplayScreen

        try:
            timeline = Timeline.from_store(self.game_store)
        except TimelineError as exc:
            self.notify(str(exc), title="No replay", severity="error")
            return
        self.push_screen(ReplayScreen(timeline, seat=-1))

    def open_replay(self, path: Path, seat: int | None = None) -> bool:
        """The replay of a save file: a finished game with every hand open, a game in progress through
        the eyes of one seat only (``seat``, default: the person whose decision it is)."""
        from mqtui import saves
        from mqtui.timeline import Timeline, TimelineError
        from mqtui.ui.saving import engine_for_save
        from mqtui.ui.screens.replay import ReplayScreen

        try:
            timeline = Timeline.from_file(path, engine_for_save(path))
        except (TimelineError, saves.SaveError) as exc:
            self.notify(str(exc), title="Cannot replay", severity="error")
            return False
        self.push_screen(ReplayScreen(timeline, seat=seat))
        return True

    def save_dialog(self, store: GameStore) -> None:
        from mqtui.ui.saving import SaveFailed, save_game
        from mqtui.ui.screens.saves import SaveDialog

        if not self.local:
            self.notify("This game is saved by its server.", severity="information")
            return

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                save_game(store, path)
            except SaveFailed as exc:
                self.notify(str(exc), title="Not saved", severity="error")
                return
            self.notify(f"Saved to {path}", title="Saved")

        self.push_screen(SaveDialog(), chosen)

    async def action_quit(self) -> None:
        if self.game_store is not None and self.local:
            from mqtui.ui.saving import stop_autosave

            if self.autosave() is None and self._unsaved_leave_refused():
                return
            stop_autosave(self.game_store)
        self.exit()

    # -- title menu -----------------------------------------------------------------------------------

    def title_new(self) -> None:
        from mqtui.ui.screens.new_game import NewGameScreen

        self.push_screen(NewGameScreen())

    def title_continue(self) -> None:
        from mqtui.ui.saving import latest_unfinished

        path = latest_unfinished()
        if path is None:
            self.notify("There is no saved game to continue.", severity="warning")
            return
        self.open_file(path)

    def title_tutorial(self) -> None:
        from mqtui.tutorial import TutorialError
        from mqtui.ui.screens.tutorial import start_tutorial

        try:
            start_tutorial(self)
        except TutorialError as exc:
            self.notify(str(exc), title="The tutorial cannot start", severity="error")

    def title_load(self) -> None:
        from mqtui.ui.screens.saves import LoadDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_file(path)

        self.push_screen(LoadDialog(), chosen)

    def title_rules(self) -> None:
        self.show_rules()

    def title_cards(self) -> None:
        self.show_cards()

    def title_settings(self) -> None:
        from mqtui.store import LocalStore
        from mqtui.ui.screens.settings import SettingsScreen

        def chosen(settings: Settings | None) -> None:
            if settings is None:
                return
            self.settings = settings
            self.bot_delay = settings.bot_delay
            if isinstance(self.game_store, LocalStore):
                self.game_store.bot_delay = settings.bot_delay
            from mqtui.ui.screens.game import GameScreen

            for screen in self.screen_stack:
                if isinstance(screen, GameScreen):
                    screen.countdown = settings.pass_countdown
                    screen.handoff_enabled = settings.handoff
            self.theme = settings.theme
            self.remember_settings()

        self.push_screen(SettingsScreen(self.settings, self.theme_labels), chosen)

    def title_quit(self) -> None:
        self.exit()

    # -- reference screens ----------------------------------------------------------------------------

    def show_help(self) -> None:
        from mqtui.store import LocalStore
        from mqtui.ui.screens.help import HelpScreen

        self.clear_notifications()  # (a toast left from the game would sit over the help text)
        at_a_host = self.game_store is not None and not isinstance(self.game_store, LocalStore)
        self.push_screen(HelpScreen(self.keymap, self.key_defaults, self.help_offers, at_a_host=at_a_host))

    def help_offers(self, binding_id: str) -> bool:
        """Whether the help lists the key of ``binding_id``: the app and its game offer it (a game
        played at a host is saved there and takes nothing back; the tutorial is a local app's)."""
        if binding_id == "game.save" or binding_id.startswith("tutorial."):
            return self.local
        if binding_id in ("game.undo", "game.redo"):
            return self.game_store is None or self.game_store.takes_back
        if binding_id == "game.advice":
            return self.settings.advisor
        return True

    def show_rules(self) -> None:
        from mqtui.ui.screens.rules import RulesScreen

        self.push_screen(RulesScreen())

    def show_cards(self) -> None:
        from mqtui.packs import game_packs
        from mqtui.ui.screens.cards import CardBrowserScreen, game_entries, installed_entries

        store = self.game_store
        if store is not None:
            self.push_screen(CardBrowserScreen(items=game_entries(store.cards.content, game_packs(store))))
            return
        found, broken = installed_entries()  # the base and every installed pack
        for line in broken:
            self.notify(line, title="Pack left out", severity="warning")
        self.push_screen(CardBrowserScreen(items=found))


__all__ = ["MQApp"]


def _is_a_game_app(app: MQApp) -> GameApp:
    return app  # mypy checks here that MQApp gives the screens all that GameApp promises
