"""Words for what the player sees: cards, actions, the current decision and log lines.

Everything here is a pure function of a :class:`~mqtui.store.Snapshot` (or parts of it) and the card
table, so the widgets, the command palette and the tests share one vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from rich.text import Text

from mqtui.engine.actions import Action, EventKind, terms_words
from mqtui.engine.cards import DXM, MONSTER, TREASURE, CardTable
from mqtui.engine.defs import RoomDef
from mqtui.engine.heroes import HAND_LIMIT, sale_price
from mqtui.engine.legal import LEVEL_PRICE, move_cost
from mqtui.engine.rules_text import words
from mqtui.engine.state import (
    ACT,
    CHARITY,
    DX,
    DY,
    FLEE,
    HIDDEN,
    INVITE,
    LOSE_ITEM,
    REWARD,
    SETUP,
    WINDOW,
    Hero,
    Monster,
    Room,
    State,
    cell_key,
)
from mqtui.seat_kinds import HUMAN, REMOTE
from mqtui.store import LogLine, Seat, Snapshot
from mqtui.ui.rails import move_note

if TYPE_CHECKING:
    from rich.console import Console

DIR_NAMES = ("north", "east", "south", "west")
DIR_ARROWS = ("↑", "→", "↓", "←")
SLOT_NAMES = {
    "head": "Head",
    "armor": "Armour",
    "feet": "Feet",
    "hand": "Hand",
    "two_hands": "Two hands",
    "trinket": "Trinket",
}
SLOT_ORDER = ("head", "armor", "feet", "hand", "two_hands", "trinket")

# Kinds of actions that belong to one of the viewer's own cards (offered in the hand pane).
CARD_KINDS = frozenset(
    {"play", "equip", "stow", "belt", "discard", "give", "curse", "enhance", "wander", "use", "dice"}
    | {"wall", "shove", "teleport"}
)
# Kinds offered in the actions pane, in this order.
ORDER = (
    "done",
    "accept",
    "decline",
    "flee",
    "move",
    "search",
    "deal",
    "pickup",
    "challenge",
    "invite",
    "take",
    "lose",
    "charity",
    "buylevel",
    "pass",
    "end",
)


# -- cards ------------------------------------------------------------------------------------------


def deck_word(cards: CardTable, uid: int) -> str:
    """'treasure', 'dxm', 'curse' or 'monster': the colour family of a card."""
    if uid == HIDDEN:
        return "hidden"
    deck = cards.deck_of[uid]
    if deck == DXM:
        return "curse" if cards.dxm[uid].kind == "curse" else "dxm"
    return "treasure" if deck == TREASURE else "monster"


def card_name(cards: CardTable, uid: int) -> str:
    return "a hidden card" if uid == HIDDEN else cards.names[uid]


def card_kind(cards: CardTable, uid: int) -> str:
    """One short line: the card's kind and its numbers."""
    if uid == HIDDEN:
        return "hidden"
    deck = cards.deck_of[uid]
    if deck == DXM:
        d = cards.dxm[uid]
        k = d.kind
        if k == "race":
            return f"DxM · Race: {cards.content.races[d.race].name}"
        if k == "class":
            return f"DxM · Class: {cards.content.classes[d.klass].name}"
        if k == "enhancer":
            extra = f", +{d.treasures} Treasure" if d.treasures else ""
            return f"DxM · Monster {d.amount:+d}{extra}"
        if k == "dice":
            return "DxM · Dice: reroll" if d.action == "reroll" else f"DxM · Dice {d.amount:+d}"
        if k == "moves":
            return f"DxM · +{d.amount} Moves"
        words = {
            "curse": "Curse",
            "half_breed": "Two races",
            "super_munchkin": "Two classes",
            "wandering": "Wandering monster",
            "dungeon": "Dungeon trick",
            "level": "Go up a level",
        }
        return f"DxM · {words.get(k, k)}"
    if deck == TREASURE:
        t = cards.treasure[uid]
        gold = f" · {t.gold}g" if t.gold else ""
        if t.kind == "equipment":
            big = " Big" if t.big else ""
            bonus = f" {t.bonus:+d}" if t.bonus else ""
            return f"{SLOT_NAMES.get(t.slot, t.slot)}{bonus}{big}{gold}"
        if t.kind == "oneshot":
            if t.use == "bonus":
                how = f"One-shot {t.bonus:+d}" + (" thrown" if t.thrown else "")
            elif t.use == "heal":
                how = f"One-shot: +{max(1, t.amount)} Life"
            else:
                how = f"One-shot: +{max(1, t.amount)} Moves"
            return how + gold
        return "Go up a level" + gold
    m = cards.monster[uid]
    return f"Monster · Level {m.level}"


def card_text(cards: CardTable, uid: int) -> str:
    """A card's rules text (made from its data), for a card the viewer may see."""
    if uid == HIDDEN:
        return "You cannot see this card."
    return words(cards.content).text(cards.card(uid))


# -- heroes and monsters ----------------------------------------------------------------------------


def hero_letters(heroes: Sequence[Hero]) -> dict[int, str]:
    """One letter per hero for the map: the name's initial, or the seat number when initials clash."""
    initials = [(h.name[:1] or "?").upper() for h in heroes]
    return {
        h.seat: initials[i] if initials.count(initials[i]) == 1 else str(h.seat + 1)
        for i, h in enumerate(heroes)
    }


def monster_label(cards: CardTable, view: State, m: Monster) -> str:
    d = cards.monster[m.card]
    target = next((h.name for h in view.heroes if h.colour == m.colour), "nobody")
    return f"{d.name} (Level {d.level}, hunting {target})"


def room_def_at(cards: CardTable, view: State, x: int, y: int) -> tuple[Room, RoomDef] | None:
    i = view.grid.get(cell_key(x, y))
    if i is None:
        return None
    room = view.rooms[i]
    return room, cards.room(room.room)


def room_name(cards: CardTable, view: State, x: int, y: int) -> str:
    found = room_def_at(cards, view, x, y)
    return "unexplored space" if found is None else found[1].name


SEARCH_STATES = ("not searched", "Ransacked (−2 to search)", "Looted out (cannot be searched)")


# -- actions ------------------------------------------------------------------------------------------


def _terms(value: int, gold: int) -> str:
    return terms_words(
        value % 10, value >= 10, gold, first_words=", first pick", join=", ", nothing="nothing but glory"
    )


def action_label(action: Action, snap: Snapshot, cards: CardTable, short: bool = False) -> str:
    """A player's words for a legal action: '→ Go to CoatCheck (door, 1 Move)'; ``short`` drops words
    that the arrow already says, for narrow panes."""
    view = snap.view
    hero = view.heroes[action.seat]
    k, a, b, c = action.kind, action.a, action.b, action.c
    heroes = view.heroes

    def name(uid: int) -> str:
        return card_name(cards, uid)

    def monster(mid: int) -> str:
        m = next((m for m in view.monsters if m.id == mid), None)
        return "the boss" if m is None else cards.monster[m.card].name

    if k == "move":
        kind = view.edges.get(_edge(hero, a), "?")
        cost = move_cost(cards, view, hero, a)
        moves = f"{cost} Move{'s' if cost != 1 else ''}" if cost is not None else "?"
        there = room_def_at(cards, view, hero.x + DX[a], hero.y + DY[a])
        if there is None:
            where = "" if short else f" {DIR_NAMES[a]}"
            return f"{DIR_ARROWS[a]} Explore{where} ({kind}, {moves})"
        note = move_note(snap, cards, action, short)  # what waits there: the monsters, your odds
        place = f"{DIR_ARROWS[a]} {'' if short else 'Go to '}{there[1].short}"
        if short and note:  # (a narrow pane's line: the cost without the kind of connection)
            return f"{place} ({moves}) {note}"
        return f"{place} ({kind}, {moves})" + (f" · {note}" if note else "")
    if k == "flee":
        return (
            f"{DIR_ARROWS[a]} Flee {DIR_NAMES[a]} to {room_name(cards, view, hero.x + DX[a], hero.y + DY[a])}"
        )
    simple = {
        "done": "Ready: start the game",
        "end": "End your action phase",
        "pass": "Pass (play nothing more)",
        "search": "Search the room (1 Move)",
        "buylevel": f"Buy a level for {LEVEL_PRICE} gold",
    }
    if k in simple:
        return simple[k]
    if k == "accept" or k == "decline":
        f = view.frames[-1] if view.frames else None
        terms = _terms(f.n + (10 if f.first else 0), f.target) if f is not None and f.kind == INVITE else ""
        who = heroes[view.combat.active].name if view.combat else "the fighter"
        if k == "accept":
            return f"Accept: help {who} for {terms}" if terms else f"Accept: help {who}"
        return f"Decline to help {who}"
    if k == "deal":
        found = room_def_at(cards, view, hero.x, hero.y)
        deal = found[1].deal if found else None
        if a >= 0 and deal is not None:
            if deal.kind == "sell":
                value = sale_price(cards, hero, a, deal.amount)
                full = " (its full value)" if value == cards.treasure[a].gold else ""
                return f"Sell {name(a)} for {value} gold{full} (1 Move)"
            return f"Swap {name(a)} for a DxM card (1 Move)"
        terms = words(cards.content).deal_terms(deal) if deal is not None else "the Deal"
        return f"Take the Deal: {terms} (1 Move)"
    if k == "pickup":
        found = room_def_at(cards, view, hero.x, hero.y)
        pile = found[0].piles[a] if found and a < len(found[0].piles) else []
        return f"Pick up {', '.join(name(u) for u in pile) or 'a pile'} (1 Move)"
    if k == "invite":
        return f"Ask {heroes[a].name} to help, offering {_terms(b, c)}"
    if k == "take":
        f = view.frames[-1] if view.frames else None
        to = heroes[f.target].name if f is not None and f.target >= 0 else "the helper"
        return f"Hand {name(a)} to {to} (agreed reward)"
    if k == "lose":
        return f"Lose {name(a)} (Bad Stuff)"
    if k == "charity":
        f = view.frames[-1] if view.frames else None
        if f is not None and f.target >= 0:
            return f"Give {name(a)} to {heroes[f.target].name} (charity)"
        return f"Discard {name(a)} (charity)"
    if k == "challenge":
        return f"Challenge {monster(a)} to a fight"
    if k == "play":
        return f"Play {name(a)}"
    if k == "equip":
        return f"Equip {name(a)}"
    if k == "stow":
        return f"Put {name(a)} in the backpack"
    if k == "belt":
        return f"Hang {name(a)} on the belt"
    if k == "discard":
        return f"Discard {name(a)}"
    if k == "give":
        return f"Give {name(a)} to {heroes[b].name}"
    if k == "curse":
        return f"Curse {heroes[b].name} with {name(a)}"
    if k == "enhance":
        return f"Play {name(a)} on {monster(b)}"
    if k == "wander":
        return f"Play {name(a)}: a wandering monster joins the fight (unless it ignores the hero)"
    if k == "use":
        verb = "Throw" if cards.treasure[a].thrown else "Use"
        return f"{verb} {name(a)} for the {'heroes' if b == 0 else 'monsters'}"
    if k == "dice":
        return f"Play {name(a)} on the {'heroes' if b == 0 else 'monsters'}' die"
    if k == "wall":
        return f"Play {name(a)}: the {DIR_NAMES[b]} wall becomes a door"
    if k == "shove":
        m = next((m for m in view.monsters if m.id == b), None)
        where = ""
        if m is not None:
            where = f" to {room_name(cards, view, m.x + DX[c], m.y + DY[c])}"
        return f"Shove {monster(b)} {DIR_NAMES[c]}{where} with {name(a)}"
    if k == "teleport":
        note = move_note(snap, cards, action, short)
        return f"Teleport to {room_name(cards, view, b, c)} with {name(a)}" + (f" · {note}" if note else "")
    return str(action)


def _edge(hero: Hero, d: int) -> int:
    from mqtui.engine.state import edge_key

    return edge_key(hero.x, hero.y, d)


def card_of(action: Action) -> int:
    """The viewer's card an action uses, or -1."""
    if action.kind in CARD_KINDS or (action.kind == "deal" and action.a >= 0):
        return action.a
    if action.kind in ("charity", "lose"):
        return action.a
    return -1


def sort_key(action: Action) -> tuple[int, int, int, int]:
    kind = ORDER.index(action.kind) if action.kind in ORDER else len(ORDER)
    return kind, action.a, action.b, action.c


def charity_terms(snap: Snapshot) -> tuple[int, str]:
    """(how many cards the viewer must still give away, to whom: "" when they are discarded)."""
    view = snap.view
    f = view.frames[-1] if view.frames else None
    if f is None or f.kind != CHARITY or snap.seat < 0 or f.seat != snap.seat:
        return 0, ""  # (another seat's charity asks nothing of the viewer, whatever they hold)
    n = max(0, len(view.heroes[snap.seat].hand) - HAND_LIMIT)
    return n, view.heroes[f.target].name if f.target >= 0 else ""


def charity_label(snap: Snapshot) -> str:
    n, to = charity_terms(snap)
    return f"Choose {n} card{'s' if n != 1 else ''} to " + (f"give to {to}…" if to else "discard…")


def pane_actions(legal: Iterable[Action]) -> list[Action]:
    """The actions for the actions pane: everything that is not one of the viewer's own card plays."""
    out = [a for a in legal if a.kind not in CARD_KINDS and not (a.kind == "deal" and a.a >= 0)]
    return sorted(out, key=sort_key)


# -- the current decision -----------------------------------------------------------------------------


def seat_name(view: State, seats: Sequence[Seat], seat: int) -> str:
    if not 0 <= seat < len(view.heroes):
        return "nobody"
    who = view.heroes[seat].name
    kind = seats[seat].kind if seat < len(seats) else HUMAN
    if kind == HUMAN:
        return who
    return f"{who} (remote)" if kind == REMOTE else f"{who} (computer)"


def window_order(view: State) -> list[int]:
    """Seats still to decide in the open combat window, the deciding one first."""
    if not view.frames or view.frames[-1].kind != WINDOW:
        return []
    f = view.frames[-1]
    n = len(view.heroes)
    return [(f.seat + i) % n for i in range(n - f.passes)]


def prompt(snap: Snapshot, seats: Sequence[Seat]) -> str:
    """One sentence: what is happening now and, if it is the viewer's decision, what to do."""
    view = snap.view
    if snap.over or not view.frames:
        winners = " and ".join(view.heroes[s].name for s in view.winners)
        return f"The game is over. {winners or 'Nobody'} won."
    f = view.frames[-1]
    who = seat_name(view, seats, f.seat)
    mine = snap.deciding == snap.seat and bool(snap.legal)
    k = f.kind
    if k == SETUP:
        # short enough for an 80-column status line: what to do first, the key last
        return (
            "Build your hero from your cards (h), then space: Ready."
            if mine
            else f"{who} is building their hero."
        )
    if k == ACT:
        if mine:
            moves = view.heroes[f.seat].moves
            return (
                f"Your turn: {moves} Move{'s' if moves != 1 else ''} left. Pick an action, or space to end."
            )
        return f"{who}'s turn."
    if k == WINDOW:
        stage = "before the dice" if f.stage == "pre" else "after the dice"
        if mine:
            card = "a card" if f.stage == "pre" else "a dice card"
            return f"Fight ({stage}): play {card}, or space to pass."
        return f"Combat ({stage}): {who} may play a card."
    if k == INVITE:
        active = view.heroes[view.combat.active].name if view.combat else "someone"
        if mine:
            return f"{active} asks you to help in a fight: y to accept, n to decline."
        return f"{who} is deciding whether to help {active}."
    if k == REWARD:
        return "Choose the Treasure the helper gets." if mine else f"{who} is sharing out the reward."
    if k == LOSE_ITEM:
        return f"Bad Stuff: choose {f.n} item(s) to lose." if mine else f"{who} is choosing an item to lose."
    if k == FLEE:
        return "You lost: choose where to flee." if mine else f"{who} is choosing where to flee."
    if k == CHARITY:
        to = "give to " + view.heroes[f.target].name if f.target >= 0 else "discard"
        return (
            f"Charity: too many cards. Choose cards to {to}."
            if mine
            else f"{who} is giving away extra cards."
        )
    return f"{who} to decide."


# -- the log --------------------------------------------------------------------------------------------

# A log entry's symbol and style come from its event's kind (the engine's, or one a host adds: see
# ``mqtui.engine.actions.Event``); the words say the rest. The style names the log's component class
# (``log--STYLE``, see ``widgets/log.py``); "" is plain text. The symbol never relies on colour.
LOG_STYLES: dict[EventKind, tuple[str, str]] = {
    "start": ("»", "turn"),
    "setup": ("☺", ""),
    "phase": ("»", ""),
    "turn": ("»", "turn"),
    "win": ("★", "win"),
    "combat": ("⚔", "combat"),
    "boss": ("⚔", "combat"),
    "result": ("⚔", "result"),
    "dice": ("⚃", "dice"),
    "colour": ("◐", ""),
    "death": ("✝", "death"),
    "level": ("▲", "level"),
    "badstuff": ("☹", "badstuff"),
    "curse": ("☹", "interfere"),
    "life": ("♥", ""),
    "escape": ("↷", "escape"),
    "flee": ("↷", "escape"),
    "interfere": ("✦", "interfere"),
    "invite": ("?", ""),
    "reward": ("+", "draw"),
    "monster": ("M", "monster"),
    "draw": ("+", "draw"),
    "bonus": ("+", "draw"),
    "pickup": ("+", "draw"),
    "search": ("⌕", ""),
    "explore": ("◇", ""),
    "room": ("◇", ""),
    "dungeon": ("◇", "interfere"),
    "move": ("→", ""),
    "moves": ("±", ""),
    "gold": ("$", "gold"),
    "deal": ("$", "gold"),
    "charity": ("♥", ""),
    "give": ("⇄", ""),
    "discard": ("−", ""),
    "lose": ("−", "badstuff"),
    "drop": ("↓", ""),
    "equip": ("▸", ""),
    "play": ("▸", ""),
    "hero": ("☺", ""),
    "power": ("✧", ""),
    # added by the hosts (the store, a network table)
    "undo": ("↶", ""),
    "save": ("·", ""),
    "away": ("…", ""),
    "timeout": ("…", "badstuff"),
    "bot": ("·", "bot"),
}
UNKNOWN_KIND = ("·", "")  # a kind this UI does not know (a newer server): plain text with a dot


def log_style(kind: EventKind) -> tuple[str, str]:
    """(symbol, style) of a log entry of this event kind."""
    return LOG_STYLES.get(kind, UNKNOWN_KIND)


def last_result(log: Sequence[LogLine]) -> str:
    """The words of the last fight's result in ``log`` ("" if there was none)."""
    line = last_result_line(log)
    return line.text if line else ""


def last_result_line(log: Sequence[LogLine]) -> LogLine | None:
    """The log entry of the last fight's result in ``log`` (None if there was none)."""
    return next((line for line in reversed(log) if line.kind == "result"), None)


def deck_label(deck: str) -> str:
    return {DXM: "DxM", TREASURE: "Treasure", MONSTER: "Monster"}.get(deck, deck)


# -- fitting text into a small pane ----------------------------------------------------------------------


def fit_lines(text: Text, width: int, height: int, more: str = "…") -> Text:
    """``text`` wrapped to ``width``; if it needs more than ``height`` lines, the first ``height`` lines
    with the last one cut to end in ``more`` (so a clipped pane says so instead of hiding the rest)."""
    return fit_lines_counted(text, width, height, more)[0]


def fit_lines_counted(text: Text, width: int, height: int, more: str = "…") -> tuple[Text, int | None]:
    """``fit_lines``, and the number of lines it takes at ``width`` when that is known without wrapping
    it again (``text`` fits whole: the lines it was measured by); None when it is not."""
    if width <= 0 or height <= 0:
        return text, None
    lines = text.wrap(_wrapping_console(), width)
    if len(lines) <= height:
        return text, len(lines)
    kept = list(lines[:height])
    last = kept[-1]
    last.rstrip()
    room = width - len(more)
    if last.cell_len > room:
        last.truncate(max(0, room))
    last.rstrip()
    last.append(more, "italic")
    return Text("\n").join(kept), None


@cache
def _wrapping_console() -> Console:
    """A console for ``Text.wrap`` (which takes the width it is given, and the console only to justify
    the lines, as every console does): made once, not for each text fitted."""
    from rich.console import Console

    return Console(width=80, color_system=None)


def labelled(
    actions: Iterable[Action], snap: Snapshot, cards: CardTable, short: bool = False
) -> list[tuple[str, Action]]:
    """One line per different choice: actions that read the same (copies of one card, two identical
    piles) become one line with a count, and it does the first of them (they are interchangeable);
    two monsters of the same name are told apart by whom they hunt."""
    view = snap.view
    out: list[tuple[str, Action]] = []
    counts: dict[str, int] = {}
    firsts: dict[str, Action] = {}
    for action in actions:
        label = action_label(action, snap, cards, short)
        if label in firsts and action.kind == "challenge":
            m = next((m for m in view.monsters if m.id == action.a), None)
            if m is not None:
                label = f"Challenge {monster_label(cards, view, m)}"
        if label in firsts:
            counts[label] += 1
            continue
        counts[label] = 1
        firsts[label] = action
        out.append((label, action))
    return [(f"{label} (×{counts[label]})" if counts[label] > 1 else label, a) for label, a in out]
