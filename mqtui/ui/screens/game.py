"""The game screen: map, combat, log, hero sheet, actions and hand, all bound to one snapshot.

The screen holds the store's latest :class:`~mqtui.store.Snapshot` in one reactive; every pane is
bound to it with ``data_bind`` and redraws only when its own slice changed. All choices come from
``Snapshot.legal``; the keys in the footer follow what is legal now (``check_action``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Static

from mqtui.bots.advice import Advice
from mqtui.engine.actions import Action, ActionKind, IllegalAction
from mqtui.engine.state import ACT, INVITE, WINDOW
from mqtui.seat_kinds import HUMAN, PEOPLE_KINDS
from mqtui.store import GameStore, LocalStore, Snapshot
from mqtui.ui.advisor import advice_for, tally_for
from mqtui.ui.appref import mq_app
from mqtui.ui.describe import DIR_NAMES, action_label, charity_terms, labelled, prompt
from mqtui.ui.ending import deciding_fight, timeline_of, with_final_fight
from mqtui.ui.flow import PassCountdown, counts_down, nothing_to_play
from mqtui.ui.messages import (
    ActionChosen,
    ActionsOffered,
    CardHighlighted,
    CharityRequested,
    Explain,
    RoomSelected,
    SnapshotArrived,
)
from mqtui.ui.race import Recap, Recaps, recap_moment
from mqtui.ui.rails import helpful_first, risk
from mqtui.ui.screens.charity import CharityDialog
from mqtui.ui.screens.choose import ChooseAction
from mqtui.ui.screens.confirm import ConfirmAction
from mqtui.ui.screens.handoff import HandoffScreen
from mqtui.ui.screens.room import RoomScreen
from mqtui.ui.screens.steady import SteadyScreen
from mqtui.ui.widgets.actions import ActionList
from mqtui.ui.widgets.combat import CombatPane
from mqtui.ui.widgets.footer import QuietFooter
from mqtui.ui.widgets.hand import CardList
from mqtui.ui.widgets.hero_sheet import HeroSheet
from mqtui.ui.widgets.log import GameLog
from mqtui.ui.widgets.map import MapView
from mqtui.ui.widgets.race import RaceStrip
from mqtui.ui.widgets.room_info import RoomInfo, player_styles, room_details
from mqtui.ui.widgets.status import StatusBar
from mqtui.ui.widgets.steady import SteadyHorizontal, SteadySwitcher, SteadyVertical

# game keys that map to one action kind, and the words used when that kind is not legal now
KIND_KEYS: dict[str, ActionKind] = {
    "s": "search",
    "t": "deal",
    "u": "pickup",
    "f": "challenge",
    "v": "invite",
    "y": "accept",
    "n": "decline",
    "plus": "buylevel",
}
MOVE_KEYS = {"shift+up": 0, "shift+right": 1, "shift+down": 2, "shift+left": 3}
GREY_IN_TURN: frozenset[ActionKind] = frozenset(("search", "deal", "pickup", "buylevel"))
RESULT_SECONDS = 2.5  # how long a fight's result stays up on small screens
RECAP_SECONDS = 8  # the recap of the others' turns at the start of yours


class GameScreen(SteadyScreen[None]):
    """One game, seen through one seat's eyes (hot seat: the deciding human's)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    AUTO_FOCUS = "#actions"

    # In the footer's order: what a newcomer needs first (an 80-column footer cannot show them all).
    BINDINGS = [
        Binding("enter", "results", "Results", id="game.results", priority=True),
        Binding("space", "step('done')", "Ready", id="game.done"),
        Binding("space", "step('end')", "End phase", id="game.end"),
        Binding("space", "step('pass')", "Pass", id="game.pass"),
        Binding("shift+up", "go(0)", "Move", id="game.north", key_display="⇧+arrows"),
        Binding("shift+right", "go(1)", "Move east", id="game.east", show=False),
        Binding("shift+down", "go(2)", "Move south", id="game.south", show=False),
        Binding("shift+left", "go(3)", "Move west", id="game.west", show=False),
        Binding("y", "kind('accept')", "Accept", id="game.accept"),
        Binding("n", "kind('decline')", "Decline", id="game.decline"),
        Binding("w", "advice", "Advice", id="game.advice"),
        Binding("f1,question_mark", "help", "Help", id="game.help", key_display="?"),
        Binding("q", "quit_to_title", "Quit", id="game.quit"),
        # (in the row of keys, not docked at the right where the keys that do not fit run under it)
        Binding(
            "ctrl+p", "app.command_palette", "All actions", id="game.palette", key_display="^p", priority=True
        ),
        Binding("ctrl+z", "undo", "Undo", id="game.undo"),
        Binding("s", "kind('search')", "Search", id="game.search"),
        Binding("t", "kind('deal')", "Deal", id="game.deal"),
        Binding("u", "kind('pickup')", "Pick up", id="game.pickup"),
        Binding("f", "kind('challenge')", "Fight", id="game.challenge"),
        Binding("v", "kind('invite')", "Ask for help", id="game.invite"),
        Binding("plus", "kind('buylevel')", "Buy level", id="game.buylevel"),
        Binding("c", "toggle_combat", "Fight/Map", id="game.combat"),
        Binding("o", "other_hero", "Heroes", id="game.heroes"),
        Binding("i", "inspect", "Inspect room", id="game.inspect", show=False),
        Binding("W", "why", "Why? (computer)", id="game.why", show=False),
        Binding("R", "recap", "Recap in the replay", id="game.recap", show=False),
        Binding("L,f3", "history", "Message history", id="game.history", show=False),
        Binding("m", "focus_pane('map')", "Map", id="game.focus_map", show=False),
        Binding("a", "focus_pane('actions')", "Actions", id="game.focus_actions", show=False),
        Binding("h", "focus_pane('hand')", "Hand", id="game.focus_hand", show=False),
        Binding("l", "focus_pane('log')", "Log", id="game.focus_log", show=False),
        Binding("ctrl+y", "redo", "Redo", id="game.redo", show=False),
        Binding("ctrl+s", "save", "Save", id="game.save", show=False),
        Binding("r", "rules", "Rules", id="game.rules", show=False),
        Binding("f2", "cards", "Cards", id="game.cards", show=False),
        # the numbered actions work from any pane, not only when "What you can do" has the focus
        *[Binding(str(n), f"pick({n})", f"Action {n}", id=f"game.pick{n}", show=False) for n in range(1, 10)],
    ]

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    """What the panes show: the latest snapshot the viewer may see."""

    def __init__(self, store: GameStore, *, handoff: bool = True, countdown: int = 3) -> None:
        super().__init__()
        self.store = store
        self.cards = store.cards
        self.seats = store.seats
        self.handoff_enabled = handoff
        self.countdown = countdown  # seconds before passing in others' fights (0: ask)
        self._clock = PassCountdown(self, self._show_countdown, self._countdown_pass)
        self._unsubscribe: Any = None
        self._pending: Snapshot | None = None  # held back behind the hand-off screen
        self._shown_seat: int | None = None
        self._fighting = False
        self._over_shown = False
        self._turn_key: tuple[int, int] | None = None
        self._latest: Snapshot | None = None  # the newest snapshot not handled yet
        self._final: Any = None  # a finished game: (the state before its deciding fight,) or None
        self._advised: tuple[int, Advice] | None = None  # (state number, advice) the player has seen
        self._advice_kept: tuple[object, object, Advice | None] | None = None  # (view, (seat, legal), advice)
        self._fight_panes: tuple[Widget, ...] | None = None  # the panes a fight restyles (looked up once)
        self._keys: tuple[object, ...] | None = None  # what the keys were last worked out from
        self._kinds: tuple[tuple[Action, ...], frozenset[str]] = ((), frozenset())  # (legal, their kinds)
        self._actions_pane: ActionList | None = None  # (looked up once)
        self._combat_panes: list[CombatPane] | None = None  # (looked up once)
        self._recaps = Recaps()  # each seat's race at the start of its last turn
        self._turn_at: dict[int, int] = {}  # each seat's last turn began at this position (local games)
        self._recap: tuple[int, int, list[Recap]] | None = None  # the last recap: (seat, from, lines)

    # -- layout ---------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        cards, seats = self.cards, self.seats
        # the panes start out as compact as the breakpoint classes the screen opens with say (set before
        # compose): no second building of their lines when the first resize confirms them
        sheet, hand, actions = (
            HeroSheet(cards, id="hero"),
            CardList(cards, id="hand"),
            ActionList(cards, seats, id="actions"),
        )
        sheet.compact, hand.compact, actions.compact = self._compact()
        yield StatusBar(seats, id="status").data_bind(GameScreen.snapshot)
        yield RaceStrip(cards, id="race").data_bind(GameScreen.snapshot)
        with SteadyHorizontal(id="body"):
            with SteadyVertical(id="left"):
                with SteadySwitcher(initial="map", id="main"):
                    yield MapView(cards, id="map").data_bind(GameScreen.snapshot)
                    yield CombatPane(cards, seats, id="combat-main").data_bind(GameScreen.snapshot)
                yield RoomInfo(cards, id="room-info").data_bind(GameScreen.snapshot)
                yield GameLog(id="log").data_bind(GameScreen.snapshot)
            with SteadyVertical(id="right"):
                yield sheet.data_bind(GameScreen.snapshot)
                yield CombatPane(cards, seats, id="combat-side", lazy=True).data_bind(GameScreen.snapshot)
                yield actions.data_bind(GameScreen.snapshot)
                yield hand.data_bind(GameScreen.snapshot)
                with VerticalScroll(id="card-box"):  # long card texts scroll (Tab to it, arrows)
                    yield Static(id="card-text")
        yield QuietFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#map").border_title = "Map (m)"
        self.query_one("#log").border_title = "Log (l)"
        self.query_one("#actions").border_title = "What you can do (a)"
        self.query_one("#hand").border_title = "Your cards (h)"
        self.query_one("#combat-main").border_title = "Combat"
        self.query_one("#combat-side").border_title = "Combat"
        self._unsubscribe = self.store.subscribe(self._listener)
        self._receive(self.store.snapshot())
        self.query_one("#actions").focus()
        if isinstance(self.store, LocalStore):
            self.store.start()  # the computer players go first if it is their turn

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            with contextlib.suppress(ValueError):
                self._unsubscribe()
            self._unsubscribe = None

    def _listener(self, snap: Snapshot) -> None:
        # Coalesce: when the computer players act faster than the screen redraws, only the latest
        # snapshot is shown (a waiting message picks up whatever is newest when it is handled).
        waiting = self._latest is not None
        self._latest = snap
        if not waiting:
            self.post_message(SnapshotArrived(snap))

    def resized(self) -> None:
        self._layout_classes()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # small screens show the highlighted card's text only while the hand has the focus
        self.query_one("#card-box").set_class(event.widget.id in ("hand", "card-box"), "-hand-focus")

    def _compact(self) -> tuple[bool, bool, bool]:
        """Whether the hero sheet, the hand and the actions are compact at the breakpoint classes the
        screen has."""
        wide, tall = self.has_class("-wide"), self.has_class("-tall")
        return not (wide and tall), not tall, not wide

    def _layout_classes(self) -> None:
        wide = self.has_class("-wide")
        sheet, hand, actions = self._compact()
        self.query_one(HeroSheet).compact = sheet
        self.query_one(CardList).compact = hand
        self.query_one(ActionList).compact = actions
        if wide and self.query_one(ContentSwitcher).current != "map":
            self.query_one(ContentSwitcher).current = "map"
        self._fight_classes(self._fighting)

    def _fight_classes(self, fighting: bool) -> None:
        """A fight hides the room lines on a narrow screen and shows the side combat pane on a wide one
        (app.tcss): each pane gets ``-fighting`` only at the width where it matters (a class change
        restyles the pane: the side pane, hidden at 80 columns whatever its class, needs none). At every
        width the hero sheet shrinks to its first lines and the actions pane to its few actions, so
        that the hand, whose cards are what a fight is played with, keeps its room (and on a short
        screen the card's text has more lines), and the race strip keeps to one line."""
        if self._fight_panes is None:
            self._fight_panes = tuple(
                self.query_one(f"#{name}")
                for name in ("room-info", "combat-side", "hero", "actions", "card-box")
            )
        wide = self.has_class("-wide")
        room_lines, side, *right = self._fight_panes
        room_lines.set_class(fighting and not wide, "-fighting")
        side.set_class(fighting and wide, "-fighting")
        restyled = any(pane.has_class("-fighting") != fighting for pane in right)
        for pane in right:
            pane.set_class(fighting, "-fighting")
        self.query_one(RaceStrip).compact = fighting
        if restyled:  # their new heights now, in the layout the classes ask for: not a second layout
            self.query_one(ActionList).fit_height()
            self.query_one(HeroSheet).fit()

    # -- snapshots ------------------------------------------------------------------------------------

    @on(SnapshotArrived)
    def _on_snapshot(self, message: SnapshotArrived) -> None:
        snap, self._latest = self._latest or message.snapshot, None
        if snap is self.snapshot and self._pending is None:
            return  # already shown (undo and redo show their result at once)
        self._receive(snap)

    def _plays(self, seat: int) -> bool:
        """A person plays this seat from here (a human seat, or ours in a networked game)."""
        return 0 <= seat < len(self.seats) and self.seats[seat].kind in PEOPLE_KINDS

    def _humans(self) -> int:
        return sum(1 for s in self.seats if s.kind == HUMAN)

    def _receive(self, snap: Snapshot) -> None:
        pending = self._pending
        if pending is not None and snap.seat != pending.seat:
            # the decision moved to another seat before the keyboard was passed: that hand-off is
            # void (after Enter it showed the new seat's cards under the old one's name)
            self._pending = None
            if isinstance(self.app.screen, HandoffScreen):
                self.app.pop_screen()
        if self._needs_handoff(snap):
            if nothing_to_play(snap):  # not worth calling them to the keyboard
                self.call_later(self._auto_pass, snap)
                return
            if not snap.legal and isinstance(self.store, LocalStore) and self._shown_seat is not None:
                # nothing for that player to decide (a computer does; the store's eyes stayed with
                # the last person who decided, one whose pass went by itself): no keyboard to pass,
                # the screen keeps the eyes it has (a hand-off to Bob came twice, one for nothing)
                self._show(self.store.snapshot(self._shown_seat))
                return
            first = self._pending is None
            self._pending = snap
            if first:
                self.close_dialogs()
                self.app.clear_notifications()  # a toast may name the previous player's cards
                hero = snap.view.heroes[snap.seat]
                why = prompt(snap, self.seats)
                self.app.push_screen(HandoffScreen(hero.name, hero.colour, why), self._handed_over)
            return
        if self._pending is not None:
            self._pending = snap
            return
        self._show(snap)

    def _needs_handoff(self, snap: Snapshot) -> bool:
        """A hand-off screen first when the keyboard passes between people sharing this screen; also
        before the first decision shown (a new game, Continue, a load), since anyone may be looking."""
        if not self.handoff_enabled or self._humans() < 2 or snap.seat < 0:
            return False
        if snap.seat == self._shown_seat or self.seats[snap.seat].kind != HUMAN:
            return False
        return self._shown_seat is None or self.seats[self._shown_seat].kind == HUMAN

    def close_dialogs(self) -> None:
        """Close the private dialogs open over this screen (a choice, the palette, the charity dialog,
        the history, a room): what the previous player left open must not show to the next."""
        from mqtui.ui.screens.history import HistoryScreen

        private = (ChooseAction, ConfirmAction, CommandPalette, CharityDialog, HistoryScreen, RoomScreen)
        while self.app.screen is not self and self in self.app.screen_stack:
            if not isinstance(self.app.screen, private):
                break
            self.app.pop_screen()

    def _new_viewer(self) -> None:
        """Another seat's eyes: nothing the previous viewer saw may stay on screen."""
        self.close_dialogs()
        self.app.clear_notifications()
        self.query_one(HeroSheet).shown = -1
        self.query_one("#card-text", Static).update("")

    def _handed_over(self, _result: object = None) -> None:
        snap, self._pending = self._pending, None
        if snap is not None:
            self._show(snap)

    async def _auto_pass(self, snap: Snapshot) -> None:
        current = self.store.snapshot()
        if current.n == snap.n and nothing_to_play(current):
            await self.perform(current.legal[0])

    @property
    def holding_back(self) -> bool:
        """A snapshot waits behind the hand-off screen (shown once the next player is at the keys)."""
        return self._pending is not None

    def passing_by_itself(self) -> bool:
        """The window on screen passes without a key (nothing to play, or the countdown runs)."""
        snap = self.snapshot
        return snap is not None and (
            self._clock.running or (nothing_to_play(snap) and self._plays(snap.seat))
        )

    def _show_countdown(self, left: int) -> None:
        self.query_one(StatusBar).countdown(left)

    async def _countdown_pass(self) -> None:
        current = self.store.snapshot()
        if current.n == self._clock.n and counts_down(current):
            await self.perform(next(a for a in current.legal if a.kind == "pass"))

    def _show(self, snap: Snapshot) -> None:
        if snap.over:  # the deciding fight stays on screen, its cards and dice, until Enter
            if self._final is None:
                self._final = (deciding_fight(timeline_of(self.store)),)
            snap = with_final_fight(snap, self._final[0])
        if snap.legal and not self._plays(snap.seat):
            snap = dataclasses.replace(snap, legal=())  # watching a computer player: nothing to press
        if snap.seat != self._shown_seat:
            self._new_viewer()
        before = self.snapshot if snap.seat == self._shown_seat else None
        if (
            self._plays(snap.seat)
            and charity_terms(snap)[0]
            and (before is None or not charity_terms(before)[0])
        ):
            self.call_later(self.open_charity)  # the hand is over the limit: choose at once
        elif not charity_terms(snap)[0] and isinstance(self.app.screen, CharityDialog):
            self.app.pop_screen()  # charity is over (given from elsewhere, or taken back)
        self._shown_seat = snap.seat
        self._advise_fight(snap)
        self.snapshot = snap
        view = snap.view
        fighting = view.combat is not None
        self._fight_classes(fighting)
        if fighting != self._fighting:
            self._fighting = fighting
            if not self.has_class("-wide"):
                if fighting:
                    self.query_one(ContentSwitcher).current = "combat-main"
                else:  # leave the result up for a moment, then back to the map
                    self.set_timer(RESULT_SECONDS, self.back_to_map)
        keys = self._keys_depend_on()
        if keys != self._keys:  # (most snapshots while others play change none of the keys)
            self._keys = keys
            self.refresh_bindings()
        turn = (view.round, view.active)
        if turn != self._turn_key:
            if self._turn_key is not None:
                self._autosave()
            self._turn_key = turn
            self.query_one(HeroSheet).shown = -1  # a new turn: back to your own hero
            if view.active == snap.seat and self._plays(snap.seat) and not snap.over:
                self._show_recap(snap)
        if snap.over and not self._over_shown:
            self._over_shown = True
            won = " and ".join(view.heroes[w].name for w in view.winners) or "Nobody"
            self.notify(f"{won} won the game! Enter: the results.", title="Game over", timeout=10)
        elif nothing_to_play(snap) and self._plays(snap.seat):
            self.call_later(self._auto_pass, snap)
        elif self.countdown > 0 and counts_down(snap) and self._plays(snap.seat):
            self._clock.start(self.countdown, snap.n)
        if self._clock.running and self._clock.n != snap.n:
            self._clock.stop()

    def _show_recap(self, snap: Snapshot) -> None:
        """Your turn begins: what the others did since your last, in a few log-style lines; R opens
        the replay at the moment one of them tells of (a game played on this computer)."""
        entries = self._recaps.entries(snap.view, snap.log, snap.seat)
        start = self._turn_at.get(snap.seat)
        if isinstance(self.store, LocalStore):
            self._turn_at[snap.seat] = len(self.store.actions)
        if entries:
            self._recap = (snap.seat, start, entries) if start is not None else None
            more = "\nR: see them in the replay" if self._recap is not None else ""
            text = "\n".join(e.text for e in entries) + more
            self.notify(text, title="Since your last turn", timeout=RECAP_SECONDS)

    def action_recap(self) -> None:
        """The last recap's lines: the one chosen opens the replay at that moment, through your eyes."""
        snap, recap = self.snapshot, self._recap
        if snap is None or recap is None or recap[0] != snap.seat:
            self.notify("No recap of the others' turns to replay yet.", title="Recap")
            return
        seat, start, entries = recap

        def chosen(i: int | None) -> None:
            from mqtui.timeline import Timeline, TimelineError
            from mqtui.ui.screens.replay import ReplayScreen

            if i is None:
                return
            try:
                timeline = Timeline.from_store(self.store)
            except TimelineError as exc:
                self.notify(str(exc), title="No replay", severity="error")
                return
            at = recap_moment(timeline, start, seat, entries[i])
            self.app.push_screen(ReplayScreen(timeline, seat=seat, at=at))

        choices = [(e.text, i) for i, e in enumerate(entries)]
        self.app.push_screen(ChooseAction("Since your last turn: see which in the replay?", choices), chosen)

    @property
    def final_fight(self) -> Any:
        """A finished game: the whole state just before its deciding fight was decided (or None)."""
        return self._final[0] if self._final else None

    def action_results(self) -> None:
        if self.snapshot is not None and self.snapshot.over:
            self.app.clear_notifications()
            self._game_over(self.snapshot)

    def back_to_map(self) -> None:
        if not self._fighting:
            self.query_one(ContentSwitcher).current = "map"
            self.refresh_bindings()

    def _game_over(self, snap: Snapshot) -> None:
        mq_app(self).game_over(self.final_fight, snap)

    def _autosave(self) -> None:
        mq_app(self).autosave_each_turn(self.store)

    # -- doing things ---------------------------------------------------------------------------------

    def asks_first(self) -> bool:
        """Settings: ask before a risky action (a hopeless fight, a gift, a card for the other side)."""
        return mq_app(self).settings.confirm_risky

    async def perform(self, action: Action) -> None:
        """Do an action; a risky one (:func:`mqtui.ui.rails.risk`) is asked about once, first."""
        snap = self.snapshot
        question = risk(snap, self.cards, action) if snap is not None and self.asks_first() else ""
        if snap is None or not question:
            await self._send(action)
        else:
            self.confirm(action_label(action, snap, self.cards), question, partial(self._send, action))

    def confirm(self, what: str, question: str, then: Callable[[], Awaitable[None]]) -> None:
        """Ask ``question`` about an action (in words: ``what``); on a yes, ``then()`` does it."""

        async def answered(yes: bool | None) -> None:
            if yes:
                await then()

        self.app.push_screen(ConfirmAction(what, question), answered)

    async def _send(self, action: Action) -> None:
        """Send an action to the store; an illegal one is explained."""
        snap = self.snapshot
        if self._advised is not None and snap is not None and self._advised[0] == snap.n:
            tally_for(self.store).record(self._advised[1], action)
        self._advised = None
        try:
            await self.store.send(action)
        except IllegalAction as exc:
            self.notify(str(exc) or self.store.explain(action), title="Not now", severity="warning")

    @on(ActionChosen)
    async def _on_action_chosen(self, message: ActionChosen) -> None:
        await self.perform(message.action)

    @on(ActionsOffered)
    def _on_actions_offered(self, message: ActionsOffered) -> None:
        self.offer(message.title, message.actions)

    def offer(self, title: str, actions: list[Action]) -> None:
        snap = self.snapshot
        if snap is None or not actions:
            return
        choices = labelled(helpful_first(actions, snap, self.cards), snap, self.cards)

        async def chosen(action: Action | None) -> None:
            if action is not None:
                await self.perform(action)

        self.app.push_screen(ChooseAction(title, choices), chosen)

    @on(CharityRequested)
    def open_charity(self) -> None:
        """The dialog that chooses every card over the hand limit at once."""
        snap = self.snapshot
        n, to = charity_terms(snap) if snap is not None else (0, "")
        if snap is None or n <= 0 or not self._plays(snap.seat) or isinstance(self.app.screen, CharityDialog):
            return  # (a person chooses their own cards; a computer answers by itself)
        seat = snap.seat

        async def give(uids: list[int]) -> None:
            for uid in uids:
                current = self.store.snapshot()
                action = Action(seat, "charity", uid)
                if current.seat != seat or action not in current.legal:
                    break
                await self._send(action)

        async def chosen(uids: list[int] | None) -> None:
            if uids and to and self.asks_first():  # a gift: asked about once, for all the cards
                names = ", ".join(self.cards.names[uid] for uid in uids)
                question = f"Give {names} to {to}? A gift cannot be taken back."
                self.confirm(f"Charity: {names}", question, partial(give, uids))
            elif uids:
                await give(uids)

        self.app.push_screen(CharityDialog(self.cards, list(snap.view.heroes[seat].hand), n, to), chosen)

    @on(Explain)
    def _on_explain(self, message: Explain) -> None:
        text = message.text
        if message.action is not None:
            text = f"{text}: {self.store.explain(message.action)}"
        self.notify(text, title="Not now", severity="warning")

    @on(RoomSelected)
    def _on_room_selected(self, message: RoomSelected) -> None:
        self.query_one(RoomInfo).show_cell(message.x, message.y)

    @on(CardHighlighted)
    def _on_card_highlighted(self, message: CardHighlighted) -> None:
        message.stop()
        text = self.query_one("#card-text", Static)
        if text.content != message.text:  # (the same card, highlighted again, is on show already)
            # a hidden card box (a short screen, the hand not focused) is laid out when it is shown
            text.update(message.text, layout=self.query_one("#card-box").display)

    # -- bindings -------------------------------------------------------------------------------------

    def _legal(self) -> tuple[Action, ...]:
        snap = self.snapshot
        return snap.legal if snap is not None else ()

    def _legal_kinds(self) -> frozenset[str]:
        """The kinds of the legal actions (``check_action`` asks for each key of the footer)."""
        legal = self._legal()
        if self._kinds[0] is not legal:
            self._kinds = (legal, frozenset(a.kind for a in legal))
        return self._kinds[1]

    def _my_turn_frame(self) -> bool:
        snap = self.snapshot
        return bool(snap is not None and snap.legal and snap.view.frames and snap.view.frames[-1].kind == ACT)

    def _keys_depend_on(self) -> tuple[object, ...]:
        """What ``check_action`` reads from a snapshot (and the screen): when it is as it was, the
        footer's keys are too (the panes refresh the keys they own themselves)."""
        snap = self.snapshot
        if snap is None:
            return ()
        turn = self._my_turn_frame()
        return (
            snap.legal,
            snap.over,
            snap.undo,
            snap.redo,
            turn,
            self._fighting,
            self.has_class("-wide"),
            self._advisor_on(),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        kinds = self._legal_kinds()
        if action == "results":
            return self.snapshot is not None and self.snapshot.over
        if action == "step":
            return parameters[0] in kinds
        if action == "go":
            if "move" in kinds or "flee" in kinds:
                return True
            return None if self._my_turn_frame() else False
        if action == "kind":
            kind = str(parameters[0])
            if kind in kinds:
                return True
            return None if kind in GREY_IN_TURN and self._my_turn_frame() else False
        if action in ("undo", "redo"):
            snap = self.snapshot
            if snap is None or not self.store.takes_back:
                return False  # (a game over the network takes nothing back: no key is shown for it)
            allowed = snap.undo if action == "undo" else snap.redo
            return True if allowed else (None if action == "undo" else False)
        if action == "pick" and parameters:
            if self._actions_pane is None:
                self._actions_pane = self.query_one(ActionList)
            return int(str(parameters[0])) <= self._actions_pane.entry_count
        if action == "toggle_combat":  # small screens, while there is a fight (or its result) to see
            return not self.has_class("-wide") and (
                self._fighting or self.query_one(ContentSwitcher).current != "map"
            )
        if action == "advice":
            return self._advisor_on() and (True if len(self._legal()) > 1 else None)
        return True

    def on_key(self, event: events.Key) -> None:
        """Explain a game key that is not legal now (greyed out in the footer)."""
        self._clock.stop()  # any key: the person wants to decide this window themselves
        kind = KIND_KEYS.get(event.key)
        snap = self.snapshot
        if event.key == "ctrl+z" and snap is not None and not snap.undo:
            event.stop()
            if not self.store.takes_back:
                self.notify(
                    "A game played over the network takes nothing back: an action sent is the table's.",
                    title="No undo here",
                    severity="warning",
                )
                return
            self.notify(
                "Only your own last actions that revealed nothing new (no room, card or die) can be taken back.",
                title="Nothing to undo",
                severity="warning",
            )
            return
        if event.key in MOVE_KEYS and snap is not None and self._my_turn_frame():
            if not any(a.kind in ("move", "flee") for a in snap.legal):  # the key is greyed out
                event.stop()
                d = MOVE_KEYS[event.key]
                reason = self.store.explain(Action(snap.seat, "move", d))
                self.notify(f"Cannot go {DIR_NAMES[d]}: {reason}", title="Not now", severity="warning")
            return
        if kind is None or snap is None or any(a.kind == kind for a in snap.legal):
            return
        if kind in GREY_IN_TURN and self._my_turn_frame():
            event.stop()
            self.notify(self.store.explain(Action(snap.seat, kind)), title="Not now", severity="warning")

    async def action_step(self, kind: str) -> None:
        for action in self._legal():
            if action.kind == kind:
                await self.perform(action)
                return

    async def action_go(self, d: int) -> None:
        snap = self.snapshot
        if snap is None:
            return
        kinds: tuple[ActionKind, ...] = ("move", "flee")
        for kind in kinds:
            action = Action(snap.seat, kind, d)
            if action in snap.legal:
                await self.perform(action)
                return
        kind = "flee" if any(a.kind == "flee" for a in snap.legal) else "move"
        reason = self.store.explain(Action(snap.seat, kind, d))
        self.notify(f"Cannot go {DIR_NAMES[d]}: {reason}", title="Not now", severity="warning")

    async def action_kind(self, kind: str) -> None:
        actions = [a for a in self._legal() if a.kind == kind]
        if len(actions) == 1:
            await self.perform(actions[0])
        elif actions:
            titles = {
                "invite": "Ask whom to help, and for what?",
                "pickup": "Pick up which pile?",
                "challenge": "Challenge which monster?",
            }
            self.offer(titles.get(kind, "Which one?"), actions)

    # -- the advisor ----------------------------------------------------------------------------------

    def _advisor_on(self) -> bool:
        return mq_app(self).settings.advisor

    def _advise_fight(self, snap: Snapshot) -> None:
        """In a fight decision of ours, the advisor's line goes into the combat pane: worked out once
        the screen has drawn the decision (the look-ahead takes up to ``ADVICE_MS``; the player sees
        the new state first), and only if that decision is still the one on show."""
        frame = snap.view.frames[-1] if snap.view.frames else None
        wanted = self._advisor_on() and frame is not None and frame.kind in (WINDOW, INVITE) and snap.legal
        if self._combat_panes is None:
            self._combat_panes = list(self.query(CombatPane))
        for pane in self._combat_panes:  # (the line of a decision that is over never stays up)
            pane.advice = ""  # (drawn with the snapshot, set next)
        if wanted:
            self.call_after_refresh(self._advise_shown, snap)

    def _advise_shown(self, snap: Snapshot) -> None:
        if self.snapshot is not snap or not self.is_attached:
            return  # a newer snapshot came first: its own line (if any) is on its way
        advice = self._advice(snap)
        if advice is not None:
            self._advised = (snap.n, advice)
            self._show_advice(advice.text)

    def _show_advice(self, text: str) -> None:
        if self._combat_panes is None:
            self._combat_panes = list(self.query(CombatPane))
        for pane in self._combat_panes:
            pane.show_advice(text)

    def _advice(self, snap: Snapshot) -> Advice | None:
        """The advisor's advice for the snapshot's decision, worked out once for each state (the
        fight pane's line and the key ``w`` share it)."""
        kept = self._advice_kept
        if kept is not None and kept[0] is snap.view and kept[1] == (snap.seat, snap.legal):
            return kept[2]
        advice = advice_for(snap, self.cards)
        self._advice_kept = (snap.view, (snap.seat, snap.legal), advice)
        return advice

    def action_advice(self) -> None:
        snap = self.snapshot
        advice = self._advice(snap) if snap is not None and self._advisor_on() else None
        if snap is None or advice is None:
            self.notify("Nothing to decide just now.", title="Advisor")
            return
        self._advised = (snap.n, advice)
        self.notify(advice.text, title="Advisor: the computer would…", timeout=10)

    def action_pick(self, n: int) -> None:
        self.query_one(ActionList).action_pick(n)

    def action_toggle_combat(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = "combat-main" if switcher.current == "map" else "map"
        self.refresh_bindings()

    def action_other_hero(self) -> None:
        self.query_one(HeroSheet).cycle()

    def action_inspect(self) -> None:
        snap = self.snapshot
        if snap is None:
            return
        cell = self.query_one(MapView).cursor
        details = room_details(self.cards, snap.view, *cell, full=True, colours=player_styles(self.app))
        self.app.push_screen(RoomScreen(details))

    def action_history(self) -> None:
        """Every log line this seat may read, full screen."""
        from mqtui.ui.screens.history import HistoryScreen

        if self.snapshot is not None:
            self.app.push_screen(HistoryScreen(self.snapshot))

    def action_why(self) -> None:
        """The computer players' last reasons (kept out of the log)."""
        from mqtui.ui.screens.why import reasons_text

        snap = self.snapshot
        if snap is None:
            return
        reasons = self.store.reasons if isinstance(self.store, LocalStore) else []
        self.app.push_screen(RoomScreen(reasons_text(reasons, snap, self.seats, self.cards)))

    def action_focus_pane(self, which: str) -> None:
        target = {"map": "#map", "actions": "#actions", "hand": "#hand", "log": "#log"}[which]
        if which == "map":
            self.query_one(ContentSwitcher).current = "map"
        pane = self.query_one(target)
        if self.focused is not pane:  # (Textual draws a pane again when it is focused, even if it was)
            pane.focus()

    async def _take_back(self, what: str, step: Callable[[], Awaitable[None]]) -> None:
        """Undo or redo (``step``); what the store refuses is explained."""
        try:
            await step()
        except Exception as exc:
            self.notify(str(exc), title=f"Cannot {what}", severity="warning")
            return
        self._receive(self.store.snapshot())

    async def action_undo(self) -> None:
        await self._take_back("undo", self.store.undo)

    async def action_redo(self) -> None:
        await self._take_back("redo", self.store.redo)

    def action_save(self) -> None:
        mq_app(self).save_dialog(self.store)

    def action_rules(self) -> None:
        mq_app(self).show_rules()

    def action_cards(self) -> None:
        mq_app(self).show_cards()

    def action_help(self) -> None:
        mq_app(self).show_help()

    def action_quit_to_title(self) -> None:
        mq_app(self).leave_game(self)
