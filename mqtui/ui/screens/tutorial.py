"""The guided first game on screen: the game screen with the guidance panel (``TutorialPanel``) above it.

A lesson of ``seeds/tutorial.toml`` (:mod:`mqtui.tutorial`) is played as a local game that is neither
autosaved nor kept. The panel shows the lesson, the step's one or two lines and the keys: ``ctrl+n``
skips the step (past the lesson's last step: the next lesson), ``ctrl+x`` leaves the tutorial for the
title screen, where "Learn to play" starts it again from the first lesson. (The letters are the hand's.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from rich.text import Text
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from mqtui.store import GameStore, LocalStore, Snapshot
from mqtui.tutorial import Guide, lesson_store
from mqtui.tutorial import load as load_tutorial
from mqtui.ui.appref import GameApp, mq_app
from mqtui.ui.screens.game import GameScreen
from mqtui.ui.widgets.race import RaceStrip

KEYS = "^n Next step · ^x Leave"


class TutorialPanel(Static):
    """The lesson, the step's guidance and the tutorial's keys, in three lines across the screen: the
    first line names the lesson and the keys (a long lesson title is cut to fit), then the step's text."""

    guide: Guide | None = None
    _shown: tuple[int, int, int] | None = None  # (lesson, step, width) on show: drawn again only if changed

    def show(self, guide: Guide) -> None:
        self.guide = guide
        width = self.content_region.width or self.app.size.width - 2
        key = (guide.lesson, guide.step, width)
        if key == self._shown:  # (most changes of the game move no step: nothing to lay out again)
            return
        self._shown = key
        lesson, n = guide.current, len(guide.tutorial.lessons)
        step = guide.current_step
        title = f"Lesson {guide.lesson + 1}/{n}: {lesson.title}"
        if step is not None:
            title += f" ({guide.step + 1}/{len(lesson.steps)})"
            keys, text = KEYS, step.text
        elif guide.last_lesson:
            keys = "^x Back to the title"
            text = "That is the whole game: you beat the boss! Enter shows the results. Well played, hero."
        else:
            keys = "^n Next lesson · ^x Leave"
            text = f"Lesson done! Next: {guide.tutorial.lessons[guide.lesson + 1].title}."
        head = Text(title, "bold")
        room = width - len(keys) - 2
        if head.cell_len > room:
            head.truncate(max(room - 1, 0))
            head.append("…")
        head.pad_right(width - len(keys) - head.cell_len)
        head.append(keys, "italic")
        self.update(Text("\n").join([head, Text(text)]))

    def on_resize(self) -> None:
        if self.guide is not None:
            self.show(self.guide)


class TutorialScreen(GameScreen):
    """A lesson's game, with the guidance panel under the race strip (it covers no pane: the panes
    below it make room)."""

    CSS_PATH = "tutorial.tcss"
    BINDINGS = [
        Binding("ctrl+n", "tutorial_skip", "Next step", id="tutorial.skip", show=False),
        Binding("ctrl+x", "tutorial_leave", "Leave tutorial", id="tutorial.leave", show=False),
    ]

    def __init__(self, store: GameStore, guide: Guide, **kwargs: Any) -> None:
        super().__init__(store, **kwargs)
        self.guide = guide
        self._unfollow: Any = None

    def compose(self) -> Iterator[Widget]:
        for widget in super().compose():
            yield widget
            if isinstance(widget, RaceStrip):
                # (its id says "hint": the walks of every screen check that it is whole)
                yield TutorialPanel(id="tutorial-hint")

    def on_mount(self) -> None:
        self._unfollow = self.store.subscribe(self._follow)
        self._advance()

    def on_unmount(self) -> None:
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None

    @property
    def panel(self) -> TutorialPanel:
        return self.query_one(TutorialPanel)

    def _follow(self, snap: Snapshot) -> None:
        """After every change of the game (each action, the computer players' too)."""
        self._advance()

    def _advance(self) -> None:
        if isinstance(self.store, LocalStore):
            self.guide.follow(self.store.log)
        self.panel.show(self.guide)

    def action_tutorial_skip(self) -> None:
        guide = self.guide
        if not guide.lesson_over:
            guide.skip()
            self._advance()
        elif guide.next_lesson():
            open_lesson(mq_app(self), guide)
        else:
            self.action_tutorial_leave()

    def action_tutorial_leave(self) -> None:
        app = self.app
        mq_app(self).leave_game(self)
        app.notify("Left the tutorial: Learn to play (t) starts it again.", title="Tutorial")


def open_lesson(app: GameApp, guide: Guide) -> None:
    """Play the guide's current lesson (in place of the lesson on screen)."""
    from mqtui.ui.session import engine

    store = lesson_store(engine(), guide.current, bot_delay=app.bot_delay)
    settings = app.settings

    def screen(store: GameStore) -> TutorialScreen:
        return TutorialScreen(store, guide, handoff=settings.handoff, countdown=0)  # (a window waits)

    app.open_game(cast("GameStore", store), keep=False, screen=screen)


def start_tutorial(app: GameApp) -> None:
    """The tutorial from its first lesson (the title screen's "Learn to play"); raises TutorialError
    for a broken tutorial file (every lesson's position is built here, once: none fails mid-way)."""
    from mqtui.ui.session import engine

    open_lesson(app, Guide(load_tutorial(engine=engine())))
