"""What you can do now: every legal action that is not one of your own card plays (those are in the
hand pane), in words, numbered for quick keys."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.widgets import OptionList

from mqtui.engine.actions import Action
from mqtui.engine.cards import CardTable
from mqtui.store import Seat, Snapshot
from mqtui.ui.describe import charity_label, labelled, pane_actions, seat_name, sort_key
from mqtui.ui.messages import ActionChosen, ActionsOffered, CharityRequested
from mqtui.ui.widgets.footer import DescribesKeys
from mqtui.ui.widgets.nolinks import NoLinks
from mqtui.ui.widgets.options import KeptOptions
from mqtui.ui.widgets.steady import OutOfView

ENTER_WORDS = 24  # the most of the highlighted action the footer shows after "⏎"
FIGHT_ROWS = (3, 8)  # a fight's actions pane: as tall as its lines, borders included, within these


class ActionList(DescribesKeys, NoLinks, KeptOptions, OutOfView, OptionList):
    """The actions pane. Enter (or a digit) does the highlighted action."""

    BINDINGS = [
        Binding("enter", "do", "Do it", id="actions.do"),
        *[Binding(str(n), f"pick({n})", f"Action {n}", id=f"actions.{n}", show=False) for n in range(1, 10)],
    ]
    DEFAULT_CSS = """
    ActionList { height: 1fr; border: none; padding: 0; overflow-y: hidden; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    compact: reactive[bool] = reactive(True)
    """Shorter labels for a narrow pane."""

    def __init__(self, cards: CardTable, seats: tuple[Seat, ...], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self.seats = seats
        self._key: object = None
        self._entries: list[list[Action]] = []
        self._labels: list[Text] = []  # each action's whole label
        self._lit = 0  # the highlighted one (shown whole)
        self._cut_width = -1  # the width the labels were last cut to on a resize
        self._notice = ""  # the line shown when there is nothing to do ("Waiting for Bo…"), else ""
        self.enter_words = "Do it"  # what the footer says Enter does

    def watch_compact(self) -> None:
        self._key = None
        self.watch_snapshot(self.snapshot)

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        key = (snap.legal, snap.deciding, snap.n, self.compact)
        if key == self._key:
            return
        self._key = key
        offered = len(self._entries)
        entries: list[tuple[str, list[Action]]] = []
        invites: dict[int, list[Action]] = {}
        others: list[Action] = []
        charity = [a for a in snap.legal if a.kind == "charity"]
        if charity:  # all the cards over the limit are chosen at once, in one dialog
            entries.append((charity_label(snap), charity))
        for action in pane_actions(snap.legal):
            if action.kind == "charity":
                continue
            if action.kind == "invite":
                if action.a not in invites:
                    invites[action.a] = []
                    entries.append((f"Ask {snap.view.heroes[action.a].name} to help…", invites[action.a]))
                invites[action.a].append(action)
            else:
                others.append(action)
        # copies of one card read the same: one line each, with a count
        entries += [(label, [a]) for label, a in labelled(others, snap, self.cards, short=self.compact)]
        entries.sort(key=lambda e: sort_key(e[1][0]))
        self._entries = [actions for _, actions in entries]
        # one set_options: the pane is laid out again only if its number of lines changes, and only the
        # rows that read differently are drawn again
        if not entries:
            self._labels = []
            if snap.legal:
                text = "Play cards from your hand (below)."
            elif snap.over:
                text = "The game is over."
            else:
                text = f"Waiting for {seat_name(snap.view, self.seats, snap.deciding)}…"
            if text != self._notice:  # while others play, most snapshots leave it as it is
                self._notice = text
                self.set_options([self.kept_option(Text(text, "italic"), disabled=True)])
        else:
            self._labels = [
                Text.assemble((f"{i + 1} " if i < 9 else "  ", "bold"), label)
                for i, (label, _) in enumerate(entries)
            ]
            self._lit = 0
            self._notice = ""
            self.set_options(self.kept_option(self._prompt(i), id=f"act-{i}") for i in range(len(entries)))
            self.highlighted = 0
        self._name_enter()
        self.fit_height()
        if len(self._entries) != offered:  # (the keys that pick an action: one per entry)
            self.refresh_bindings()

    def fit_height(self) -> None:
        """In a fight (``-fighting``, set by the game screen) the pane is as tall as its lines: a height
        in cells, so that the screen is laid out again only when the number of lines changes (with
        ``height: auto`` Textual lays the whole screen out again for every new list of options). Out
        of a fight, the height app.tcss gives it."""
        if self.has_class("-fighting"):
            least, most = FIGHT_ROWS
            rows = self.virtual_size.height + self.styles.gutter.height
            self.styles.height = min(most, max(least, rows))
        elif self.styles.inline.has_rule("height"):
            self.styles.height = None

    def _prompt(self, i: int) -> Text:
        """One line per action, cut with "…"; the highlighted one whole (it may wrap)."""
        label = self._labels[i]
        width = self.scrollable_content_region.width or 30
        if i == self._lit or label.cell_len <= width:
            return label
        cut = label.copy()
        cut.truncate(width - 1)
        cut.append("…")
        return cut

    def _name_enter(self) -> None:
        """The footer says what Enter does: the highlighted action in a few words."""
        i = self._lit
        words = "Do it"
        if self._labels and 0 <= i < len(self._labels) and self.option_count == len(self._labels):
            words = self._labels[i].plain.split(" ", 1)[-1]
            if len(words) > ENTER_WORDS:
                words = words[: ENTER_WORDS - 1].rstrip() + "…"
        if words != self.enter_words:
            self.enter_words = words
            self.refresh_bindings()

    def describe_binding(self, binding: Binding) -> str:
        """What the footer says a key of this pane does (Enter: the highlighted action)."""
        return self.enter_words if binding.id == "actions.do" else binding.description

    def _recut(self) -> None:
        if self._labels and self.option_count == len(self._labels):
            for i in range(len(self._labels)):
                self.replace_option_prompt_at_index(i, self._prompt(i))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()  # (nothing above the pane asks: not handed on up to the app)
        old, self._lit = self._lit, event.option_index
        if old != self._lit and self._labels and self.option_count == len(self._labels):
            if 0 <= old < len(self._labels):
                self.replace_option_prompt_at_index(old, self._prompt(old))
            self.replace_option_prompt_at_index(self._lit, self._prompt(self._lit))
        self._name_enter()

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width != self._cut_width:  # (a fight changes the pane's height only: the same lines)
            self._cut_width = width
            self._recut()

    def watch_virtual_size(self, size: Size) -> None:
        super().watch_virtual_size(size)
        self.fit_height()  # (the highlighted action wraps, or no longer does: a line more or less)

    def entry_lines(self) -> list[int]:
        # one line per action but the highlighted one, whole (it may wrap: the lines left over)
        count, lit = self.option_count, self.highlighted or 0
        extra = max(0, self.virtual_size.height - count)
        return [i if i <= lit else i + extra for i in range(count)]

    @property
    def entry_count(self) -> int:
        """How many actions are offered (numbered from 1)."""
        return len(self._entries)

    @property
    def entries(self) -> tuple[tuple[Action, ...], ...]:
        """The actions of each entry offered, in order: entry ``i`` is picked by the key ``i + 1`` (one
        of several actions is then chosen in a dialog)."""
        return tuple(tuple(actions) for actions in self._entries)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "do":
            return bool(self._entries) or None
        if action == "pick" and parameters:
            return int(str(parameters[0])) <= len(self._entries)
        return True

    def _choose(self, index: int) -> None:
        if not 0 <= index < len(self._entries):
            return
        actions = self._entries[index]
        if actions[0].kind == "charity":
            self.post_message(CharityRequested())
        elif len(actions) == 1:
            self.post_message(ActionChosen(actions[0]))
        else:
            self.post_message(ActionsOffered("Which terms do you offer?", actions))

    def action_do(self) -> None:
        if self.highlighted is not None:
            self._choose(self.highlighted)

    def action_pick(self, n: int) -> None:
        self.highlighted = n - 1
        self._choose(n - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option_index)
