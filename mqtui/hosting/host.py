"""One hosted game's record and the one way to change it: an action applied with rollback."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mqtui.bots import Bot, Choice
from mqtui.engine.actions import Action, Event, IllegalAction
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import State
from mqtui.engine.view import view_for


@dataclass(slots=True)
class Step:
    """One applied action, with what the undo rule needs to take it back."""

    action: Action
    before: State  # the whole state before the action (never shown: snapshots are views)
    events: list[Event]
    n_log: int  # the event log's length before the action


@dataclass(slots=True)
class Host:
    """The state, the action log and the event log of one game, changed only through :meth:`apply`.

    With ``rollback`` (the default) an engine failure half-way puts the state back as it was before
    the action (the state object is replaced by the copy taken before); the simulator turns it off (a
    failed game is reported, not resumed) and then :attr:`Step.before` is the changed state itself.
    """

    engine: Engine
    state: State
    log: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    rollback: bool = True
    blind: dict[int, Engine] = field(default_factory=dict)  # each bot seat's own engine (see decide)

    def apply(self, action: Action, expect_n: int | None = None) -> Step:
        """Apply ``action``; IllegalAction (nothing changed) or the engine's failure propagate."""
        before = copy_state(self.state) if self.rollback else self.state
        n_log = len(self.log)
        try:
            events = self.engine.apply(self.state, action, expect_n)
        except IllegalAction:
            raise
        except Exception:
            self.state = before  # an engine failure half-way must not leave a half-changed game
            raise
        self.actions.append(action)
        self.log.extend(events)
        return Step(action, before, events, n_log)

    def restore(self, step: Step) -> None:
        """Take back ``step``, the last action applied: its state, its action and its events."""
        self.state = step.before
        self.actions.pop()
        del self.log[step.n_log :]

    def deciding(self) -> int:
        return self.engine.deciding(self.state)

    def decide(self, bot: Bot, who: int, legal: Sequence[Action] | None = None) -> Choice:
        """The computer player ``bot``'s choice for seat ``who`` among ``legal`` (default: the seat's
        legal actions now), from that seat's view only (none for a bot that needs none).

        The one place a game's bots are asked. A bot is handed the view, the legal actions and the
        seat's own blind engine (never :attr:`engine`, whose legal-action cache holds the real state),
        so nothing it can reach holds another seat's hand or the deck order."""
        if legal is None:
            legal = self.engine.legal(self.state, who)
        view = view_for(self.state, who) if bot.needs_view else None
        engine = self.blind.get(who)
        if engine is None:
            engine = self.blind[who] = self.engine.blind()
        engine.forget()  # (it holds no more than the bot's own last question: drop even that)
        return bot.choose(engine, view, who, list(legal))


class Hosted:
    """Something that runs a game on a :class:`Host` (the local store, the authority): the game's
    engine, state and logs, read through."""

    host: Host

    @property
    def engine(self) -> Engine:
        return self.host.engine

    @property
    def state(self) -> State:
        return self.host.state

    @property
    def log(self) -> list[Event]:
        return self.host.log

    @property
    def actions(self) -> list[Action]:
        return self.host.actions
