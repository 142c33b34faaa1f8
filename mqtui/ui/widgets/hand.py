"""The viewer's cards: the hand, then the belt, backpack and items in use, each with its kind and
effect; the cards that can be played right now are marked ▶."""

from __future__ import annotations

from functools import partial

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from mqtui.engine.actions import Action, ActionKind
from mqtui.engine.cards import CardTable
from mqtui.store import Snapshot
from mqtui.ui.colours import theme_style
from mqtui.ui.describe import card_kind, card_name, card_of, card_text, charity_terms, deck_word
from mqtui.ui.messages import ActionChosen, ActionsOffered, CardHighlighted, CharityRequested, Explain
from mqtui.ui.widgets.nolinks import NoLinks
from mqtui.ui.widgets.options import KeptOptions
from mqtui.ui.widgets.steady import OutOfView

# key action -> (action kinds it means, words for the explanation)
KEY_KINDS: dict[str, tuple[tuple[ActionKind, ...], str]] = {
    "equip": (("equip",), "equipped"),
    "belt": (("belt",), "hung on the belt"),
    "stow": (("stow",), "put in the backpack"),
    "sell": (("deal",), "sold or swapped here"),  # (the room's Deal: a shop buys, a swap room swaps)
    "give": (("give",), "given away"),
    "discard": (("discard",), "discarded"),
}


class CardList(NoLinks, KeptOptions, OutOfView, OptionList):
    """The hand pane. Enter plays the highlighted card (or asks how, when it has several uses)."""

    BINDINGS = [
        # (Enter says what it does: in charity it opens the dialog that gives or discards)
        Binding("enter", "charity('give')", "Give away…", id="hand.charity_give"),
        Binding("enter", "charity('discard')", "Discard…", id="hand.charity_discard"),
        Binding("enter", "use_card", "Play", id="hand.play"),
        Binding("e", "card('equip')", "Equip", id="hand.equip"),
        Binding("b", "card('belt')", "Belt", id="hand.belt"),
        Binding("k", "card('stow')", "Backpack", id="hand.stow"),
        Binding("dollar_sign", "card('sell')", "Deal", id="hand.sell"),
        Binding("g", "card('give')", "Give", id="hand.give"),
        Binding("x", "card('discard')", "Discard", id="hand.discard"),
    ]
    # (no scroll bar: the cards out of view are said under the pane, OutOfView)
    DEFAULT_CSS = """
    CardList {
        height: 1fr; border: none; padding: 0; text-wrap: nowrap; text-overflow: ellipsis;
        overflow-y: hidden;
    }
    CardList > .option-list--option-disabled { color: $text-muted; text-style: bold; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    compact: reactive[bool] = reactive(True)
    """One line per card (the kind goes in the card text under the list)."""

    def __init__(self, cards: CardTable, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards = cards
        self._key: object = None
        self._shown: object = None
        self._uses: dict[int, list[Action]] = {}
        self._pile_of: dict[str, str] = {}  # a card's option id -> the pile it is listed in
        self._cards_at: list[int] = []  # the line each card's option starts on

    def watch_compact(self) -> None:
        self._key = self._shown = None
        self.watch_snapshot(self.snapshot)

    def on_resize(self) -> None:
        # the highlighted card stays in view when the pane shrinks (a fight at 120 columns opens
        # the combat pane above it: the card highlighted before could be left below the pane's end)
        self.call_after_refresh(self.scroll_to_highlight)

    def entry_lines(self) -> list[int]:
        return self._cards_at

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._restyle())

    def _restyle(self) -> None:
        self.forget_options()  # (the cards' colours come from the theme)
        self.watch_compact()

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None:
            return
        if snap.seat < 0:
            self.set_options([Option("(spectating: no hand)", disabled=True)])
            return
        hero = snap.view.heroes[snap.seat]
        key = (hero.hand, hero.belt, hero.backpack, hero.equipped, snap.legal, self.compact)
        if key == self._key:
            return
        self._key = key
        uses: dict[int, list[Action]] = {}
        for action in snap.legal:
            uid = card_of(action)
            if uid >= 0:
                uses.setdefault(uid, []).append(action)
        self._uses = uses
        playable = frozenset(uid for uid, acts in uses.items() if any(a.kind != "discard" for a in acts))
        shown = (hero.hand, hero.belt, hero.backpack, hero.equipped, playable, self.compact)
        if shown == self._shown:  # the same cards with the same marks: nothing to redraw
            self.refresh_bindings()
            return
        self._shown = shown
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        was_at, was_in = self.highlighted, dict(self._pile_of)
        self._pile_of = {}
        options: list[Option] = []
        for title, pile in (
            ("Hand", hero.hand),
            ("Belt", hero.belt),
            ("Backpack", hero.backpack),
            ("In use", hero.equipped),
        ):
            if not pile and title != "Hand":
                continue
            options.append(
                self.kept_option(
                    Text(f"── {title} ({len(pile)}) ──", "bold"), disabled=True, id=f"head-{title}"
                )
            )
            for uid in pile:  # (a card's line is made from these alone: made again only if they change)
                self._pile_of[f"card-{uid}"] = title
                made_of = (uid, uid in playable, self.compact)
                prompt = partial(self._prompt, uid, uid in playable)
                options.append(self.kept_option(prompt, id=f"card-{uid}", key=made_of))
        self.set_options(options)
        per_card = 1 if self.compact else 2
        self._cards_at, line = [], 0
        for option in options:
            if not option.disabled:
                self._cards_at.append(line)
            line += 1 if option.disabled else per_card
        self.subtitle_words = f"{len(hero.hand)} in hand"
        self.say_out_of_view()
        ids = [o.id for o in options]
        moved = keep in ids and was_in.get(keep or "") not in (None, self._pile_of.get(keep or ""))
        if moved and was_at is not None:
            # a card put on the belt or in the backpack: the cursor stays where it was in the
            # pile the card left (on the next card there), not with the card just moved, so
            # that the next key is not for that card
            left = was_in[keep or ""]
            cards = [i for i, o in enumerate(options) if not o.disabled and o.id != keep]
            same = [i for i in cards if self._pile_of.get(str(ids[i])) == left] or cards
            later = [i for i in same if i >= was_at]
            self.highlighted = later[0] if later else same[-1] if same else ids.index(keep)
        elif keep in ids:
            self.highlighted = ids.index(keep)
        else:
            cards = [i for i, o in enumerate(options) if not o.disabled]
            ready = [i for i in cards if int(str(options[i].id)[5:]) in playable]
            first = ready or cards  # a card that can be played now, if any
            self.highlighted = first[0] if first else None
        self.refresh_bindings()
        self.post_message(CardHighlighted(self.current_text()))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()  # (nothing above the pane asks: not handed on up to the app)
        self.refresh_bindings()
        self.post_message(CardHighlighted(self.current_text()))

    def _prompt(self, uid: int, playable: bool) -> Text:
        mark = ("▶ ", "bold") if playable else ("  ", "")
        family = deck_word(self.cards, uid)
        # (no colour under NO_COLOR: a grey name on the white highlighted row would not read)
        coloured = family != "hidden" and not self.app.no_color
        style = theme_style(self.app, family, bold=True) if coloured else Style(bold=True)
        text = Text.assemble(mark, (card_name(self.cards, uid), style))
        if not self.compact:
            text.append(f"\n  {card_kind(self.cards, uid)}", "dim")
        return text

    # -- the highlighted card -------------------------------------------------------------------------

    def current(self) -> int:
        option = self.highlighted_option
        if option is None or option.id is None or not option.id.startswith("card-"):
            return -1
        return int(option.id[5:])

    def current_text(self) -> Text:
        uid = self.current()
        if uid < 0:
            return Text()
        return Text.assemble((card_kind(self.cards, uid), "bold"), " — ", card_text(self.cards, uid))

    def _card_actions(self, kinds: tuple[str, ...] | None = None) -> list[Action]:
        uid = self.current()
        actions = self._uses.get(uid, [])
        if kinds is None:
            return [a for a in actions if a.kind != "discard"]
        return [a for a in actions if a.kind in kinds]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        snap = self.snapshot
        n, to = charity_terms(snap) if snap is not None else (0, "")
        if action == "charity":
            return n > 0 and (parameters[0] == "give") == bool(to)
        if action == "use_card":
            return n == 0
        if action == "card" and parameters:
            kinds = KEY_KINDS[str(parameters[0])][0]
            if snap is None or not any(a.kind in kinds and card_of(a) >= 0 for a in snap.legal):
                return False  # nothing of this kind is possible with any card: hide the key
            return True if self._card_actions(kinds) else None
        return True

    def _offer(self, actions: list[Action], title: str) -> None:
        if len(actions) == 1:
            self.post_message(ActionChosen(actions[0]))
        else:
            self.post_message(ActionsOffered(title, actions))

    def action_charity(self, _verb: str = "") -> None:
        self.post_message(CharityRequested())

    def action_use_card(self) -> None:
        uid = self.current()
        if uid < 0:
            return
        actions = self._card_actions()
        if actions:
            self._offer(actions, f"{card_name(self.cards, uid)}: what now?")
            return
        why = "it is not your decision now" if not (self.snapshot and self.snapshot.legal) else ""
        can_discard = bool(self._card_actions(("discard",)))
        self.post_message(
            Explain(
                f"{card_name(self.cards, uid)} cannot be played now"
                + (f": {why}" if why else "")
                + (" (x discards it)" if can_discard else "")
            )
        )

    def action_card(self, what: str) -> None:
        uid = self.current()
        if uid < 0:
            return
        kinds, words = KEY_KINDS[what]
        actions = self._card_actions(kinds)
        if actions:
            self._offer(actions, f"{card_name(self.cards, uid)}: {what} how?")
            return
        snap = self.snapshot
        if snap is not None and snap.seat >= 0:
            probe = Action(snap.seat, kinds[0], uid)
            self.post_message(Explain(f"{card_name(self.cards, uid)} cannot be {words} now", probe))
