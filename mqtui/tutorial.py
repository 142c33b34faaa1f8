"""The guided first game (the tutorial): lessons set up as scenario positions, steps that teach in play.

``seeds/tutorial.toml`` holds the lessons (format: ``docs/ui.md``, "The tutorial"). Each lesson is a
scenario position (every setup key of ``docs/scenarios.md``: seats, stacked decks, dice, rooms,
monsters) plus the ordered steps of guidance, each one or two lines of text and the event that
completes it, and the lesson's ``script``: what the computer players do, in order, whenever it is
legal for them (otherwise they do the least they can: pass, get ready, end the phase, decline), so
that a bot's fight or a curse happens when the lesson says.

:func:`load` reads and checks the file (errors name the file and the entry); :func:`lesson_store`
builds a lesson's game as a :class:`~mqtui.store.LocalStore`; :class:`Guide` follows a game's log
and says which step the player is on. No Textual here: the screen is ``mqtui.ui.screens.tutorial``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from mqtui.bots import Choice
from mqtui.engine.actions import SPECS, Action, Event, EventKind, NotationError
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.scenario import build, resolve_action
from mqtui.engine.scenario_spec import ScenarioError, Setup, decode
from mqtui.engine.state import State
from mqtui.paths import SEEDS_DIR
from mqtui.seat_kinds import HUMAN, SeatKind
from mqtui.store import LocalStore, Seat

TEXT_MAX = 150  # characters in a step's text: two lines of the guidance panel at 80 columns
HUMAN_SEAT = 0  # the learner plays the first seat; the others are computer players
PASSIVE: tuple[str, ...] = ("done", "pass", "end", "decline")  # what an unscripted computer does first


def tutorial_file() -> Path:
    return SEEDS_DIR / "tutorial.toml"


class StepSpec(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: str  # one or two lines of guidance, our own words
    event: EventKind | Literal[""] = ""  # the kind of event that completes the step ("": the key does)
    says: str = ""  # ...and words its text must hold (any case; the learner's private text counts)
    walk: list[str] = []  # what the learner does to get there, in the notation (the tests play it)


class LessonSpec(Setup, kw_only=True):
    title: str
    script: list[str] = []  # the computer players' actions, in order, each played when legal
    step: list[StepSpec] = []


class TutorialSpec(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    title: str = "Learn to play"
    lesson: list[LessonSpec] = []


@dataclass(frozen=True)
class Step:
    text: str
    event: str = ""
    says: str = ""
    walk: tuple[str, ...] = ()

    def met_by(self, event: Event) -> bool:
        """Whether ``event`` completes this step."""
        if not self.event or event.kind != self.event:
            return False
        words = self.says.lower()
        return (
            not words
            or words in event.text.lower()
            or (event.seat == HUMAN_SEAT and words in event.private.lower())
        )


@dataclass(frozen=True)
class Lesson:
    title: str
    setup: LessonSpec
    steps: tuple[Step, ...]
    script: tuple[str, ...]
    where: str  # "file: lesson[n]" for messages


@dataclass(frozen=True)
class Tutorial:
    title: str
    lessons: tuple[Lesson, ...]
    path: str


class TutorialError(ValueError):
    """The tutorial file is wrong; the message names the file and the entry."""


def load(path: Path | str | None = None, engine: Engine | None = None) -> Tutorial:
    """Read and check the tutorial: every lesson's position builds, every step has its text (at most
    two panel lines) and a known event kind. Raises :class:`TutorialError`."""
    p = Path(path) if path is not None else tutorial_file()
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
        spec = decode(raw, TutorialSpec, str(p))
    except (OSError, tomllib.TOMLDecodeError, ScenarioError) as exc:
        raise TutorialError(str(exc) if isinstance(exc, ScenarioError) else f"{p}: {exc}") from None
    if not spec.lesson:
        raise TutorialError(f"{p}: no [[lesson]]")
    lessons = []
    for i, ls in enumerate(spec.lesson):
        where = f"{p}: lesson[{i}] ({ls.title})"
        steps = []
        for j, st in enumerate(ls.step):
            text = " ".join(st.text.split())
            if not text or len(text) > TEXT_MAX:
                raise TutorialError(f"{where}: step[{j}]: the text needs 1 to {TEXT_MAX} characters")
            for action in st.walk:
                _check_action(action, f"{where}: step[{j}].walk", range(HUMAN_SEAT, HUMAN_SEAT + 1))
            steps.append(Step(text, st.event, st.says, tuple(st.walk)))
        if not steps:
            raise TutorialError(f"{where}: no [[lesson.step]]")
        seats = len(ls.hero or ls.heroes)
        for action in ls.script:
            _check_action(action, f"{where}: script", range(HUMAN_SEAT + 1, seats))
        lessons.append(Lesson(ls.title, ls, tuple(steps), tuple(ls.script), where))
    tutorial = Tutorial(spec.title, tuple(lessons), str(p))
    if engine is not None:
        for lesson in tutorial.lessons:
            lesson_store(engine, lesson)  # (a position that does not build is an error of the file)
    return tutorial


def _check_action(text: str, where: str, seats: range) -> None:
    """An action of the file in the notation: a seat that may act there and a known kind (its cards and
    monsters are found when it is played)."""
    words = text.split()
    if len(words) < 2 or not words[0].isdigit() or int(words[0]) not in seats or words[1] not in SPECS:
        raise TutorialError(
            f"{where}: {text!r}: an action is 'SEAT KIND ...' (the learner is seat 0, the computer "
            "players the others)"
        )


# -- the computer players ----------------------------------------------------------------------------


@dataclass
class ScriptedBot:
    """A computer player that plays the lesson's script in order, each action as soon as it is legal
    for its seat, and otherwise does the least it can (:data:`PASSIVE`, else its first legal action).
    Shared by the lesson's computer seats: the script names the seat of each action."""

    script: tuple[str, ...]
    at: int = 0
    kind: str = "tutorial"
    needs_view: bool = True

    def choose(self, engine: Engine, view: State | None, seat: int, legal: list[Action]) -> Choice:
        if self.at < len(self.script) and view is not None:
            text = self.script[self.at]
            if text.split()[0] == str(seat):
                try:
                    action = resolve_action(engine, view, text)
                except (ScenarioError, NotationError):
                    action = None
                if action in legal:
                    self.at += 1
                    return Choice(action, "the lesson's script")
        for kind in PASSIVE:
            for action in legal:
                if action.kind == kind:
                    return Choice(action)
        return Choice(legal[0])


def lesson_store(engine: Engine, lesson: Lesson, bot_delay: float = 0.4) -> LocalStore:
    """The lesson's game: its position built, the learner in seat 0, the script's computer players."""
    try:
        state, events = build(engine, lesson.setup)
    except (ScenarioError, NotationError) as exc:
        raise TutorialError(f"{lesson.where}: {exc}") from None
    seats = tuple(
        Seat(h.name, h.colour, SeatKind(HUMAN) if i == HUMAN_SEAT else SeatKind.EASY)
        for i, h in enumerate(state.heroes)
    )
    store = LocalStore(engine, state, seats, bot_delay=bot_delay, log=list(events), origin=copy_state(state))
    bot = ScriptedBot(lesson.script)
    for seat in range(1, len(seats)):
        store.set_bot(seat, bot)
    return store


# -- following the learner ---------------------------------------------------------------------------


@dataclass
class Guide:
    """Which lesson and step the learner is on, moved on by the game's events (:meth:`follow`) or by
    the skip key (:meth:`skip`)."""

    tutorial: Tutorial
    lesson: int = 0
    step: int = 0
    seen: int = 0  # the log events looked at so far in this lesson's game
    done: list[tuple[int, int]] = field(default_factory=list)  # (lesson, step) completed in play

    @property
    def current(self) -> Lesson:
        return self.tutorial.lessons[self.lesson]

    @property
    def current_step(self) -> Step | None:
        steps = self.current.steps
        return steps[self.step] if self.step < len(steps) else None

    @property
    def lesson_over(self) -> bool:
        return self.step >= len(self.current.steps)

    @property
    def last_lesson(self) -> bool:
        return self.lesson == len(self.tutorial.lessons) - 1

    def follow(self, log: list[Event]) -> bool:
        """Look at the events since the last look; True when a step was completed."""
        self.seen = min(self.seen, len(log))  # (an undo cut the log back)
        moved = False
        while self.seen < len(log):
            step = self.current_step
            if step is None or not step.event:
                break  # (a step the key ends: the events wait for the steps after it)
            event = log[self.seen]
            self.seen += 1
            if step.met_by(event):
                self.done.append((self.lesson, self.step))
                self.step += 1
                moved = True
        return moved

    def skip(self) -> None:
        """On to the next step (past a lesson's last: see :meth:`next_lesson`)."""
        if not self.lesson_over:
            self.step += 1

    def next_lesson(self) -> bool:
        """The next lesson's first step; False after the last lesson."""
        if self.last_lesson:
            return False
        self.lesson, self.step, self.seen = self.lesson + 1, 0, 0
        return True
