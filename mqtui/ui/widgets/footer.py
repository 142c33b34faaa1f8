"""The footer: the keys that work now, on one line that this one widget draws.

Textual's Footer is a row of key widgets and recomposes on every ``refresh_bindings``; the game screen
refreshes its bindings on every snapshot (they follow what is legal). Here the keys are worked out
once per change (a few refreshes in one step make one check), compared with the keys on show, and a
change draws this one line again: no widget is mounted, restyled or laid out, whatever changed
(a key's words, a key shown or hidden, a key greyed out or lit).

It looks like Textual's compact or normal footer (the same component styles as ``FooterKey``); a
click on a key presses it (a key not possible now rings the bell), and the key under the mouse is
lit and gives its tooltip, if it has one.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from mqtui.ui.widgets.nolinks import NoLinks

BAR = "▏"  # the left edge before the command palette's key (Textual's ``vkey`` border)


class DescribesKeys:
    """Mix in for a widget whose keys' words change (the footer asks it, rather than the binding)."""

    def describe_binding(self, binding: Binding) -> str:
        return binding.description


class KeySpec(NamedTuple):
    """One key as the footer shows it."""

    key: str
    display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    palette: bool = False


class Shown(NamedTuple):
    """A key on show and the columns it takes (``start`` up to, not including, ``end``)."""

    start: int
    end: int
    spec: KeySpec


class QuietFooter(NoLinks, Widget, can_focus=False):
    """Only the keys that fit whole, in order (the screen lists the most needed first): a key cut at
    the right edge ("s Sea") says nothing. Key groups are not supported (no screen of ours has one)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--hover", "footer-key--bar"}
    DEFAULT_CSS = """
    QuietFooter {
        dock: bottom;
        height: 1;
        text-wrap: nowrap;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--hover {
            background: $block-hover-background;
        }
        .footer-key--bar {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, *, compact: bool = False, show_command_palette: bool = True) -> None:
        super().__init__()
        self.compact = compact
        self.show_command_palette = show_command_palette
        self.shown: list[Shown] = []
        """The keys on show, left to right (the command palette's, at the right edge, last)."""
        self._ready = False  # the screen has told its keys once
        self._queued = False
        self._hover: int | None = None  # which of ``shown`` is under the mouse
        self._drawn: Strip | None = None
        self._styles: dict[str, Style] = {}
        self._kept: dict[tuple[object, ...], Strip] = {}  # lines drawn before, by what they show

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        # Several refreshes in one step (the screen and each pane ask) make one check, after the frame:
        # working out the active keys is not free, and a key press should reach the screen first.
        self._ready = True
        if not screen.app.app_focus:  # (as Textual's footer: the focus is away, its keys are not)
            return
        if self.is_attached and screen is self.screen and not self._queued:
            self._queued = True
            self.call_later(self._check)

    def on_resize(self, event: events.Resize) -> None:
        self._check()

    def _check(self) -> None:
        self._queued = False
        if not self.is_attached:
            return
        shown = self._place(self._specs()) if self._ready else []
        if shown != self.shown:
            self.shown = shown
            self._hover = None
            self._redraw()

    def _width(self, spec: KeySpec) -> tuple[int, int]:
        """The columns a key takes, and the room after it (what FooterKey's styles give it)."""
        gap = 1 if self.compact else 0
        if not spec.description:
            return cell_len(spec.display), gap
        own = cell_len(spec.display) + cell_len(spec.description) + 1
        if spec.palette:  # the bar before it (and in a normal footer, its padding at the right)
            own += 1 if self.compact else 2
        elif not self.compact:  # the padding around the key
            own += 2
        return own, gap

    def _specs(self) -> list[KeySpec]:
        """What the screen's keys would make in Textual's footer (the first key of each action)."""
        palette_key = self.app.COMMAND_PALETTE_BINDING
        show_palette = self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE
        active = self.screen.active_bindings
        firsts: dict[str, KeySpec] = {}
        for node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in firsts:
                display = self.app.get_key_display(binding)
                words = (
                    node.describe_binding(binding) if isinstance(node, DescribesKeys) else binding.description
                )
                firsts[binding.action] = KeySpec(
                    binding.key, display, words, binding.action, not enabled, tooltip
                )
        specs = list(firsts.values())
        if show_palette:
            palette = active.get(palette_key)
            if palette is not None:
                _node, binding, enabled, _tooltip = palette
                display = self.app.get_key_display(binding)
                tip = binding.tooltip or binding.description
                specs.append(
                    KeySpec(binding.key, display, binding.description, binding.action, not enabled, tip, True)
                )
        return specs

    def _place(self, specs: list[KeySpec]) -> list[Shown]:
        """The keys that fit whole, where they go."""
        room = self.size.width or self.app.size.width
        shown: list[Shown] = []
        used = 0
        for spec in specs:
            own, gap = self._width(spec)
            if used + own + gap > room:
                continue  # (a later, shorter key may still fit)
            shown.append(Shown(used, used + own, spec))
            used += own + gap
        if shown and shown[-1].spec.palette:  # docked at the right edge
            start, end, spec = shown[-1]
            gap = self._width(spec)[1]
            shown[-1] = Shown(room - gap - (end - start), room - gap, spec)
        return shown

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn = None  # (a new theme)
        self._styles.clear()
        self._kept.clear()

    def _style(self, part: str) -> Style:
        """A part's style (Textual forgets them at each refresh; they change only with the styles)."""
        style = self._styles.get(part)
        if style is None:
            style = self._styles[part] = self.get_component_rich_style(f"footer-key--{part}")
        return style

    def _redraw(self) -> None:
        self._drawn = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        """The one line (drawn once for the keys on show: the screen asks for it again each frame
        that draws any cell of it)."""
        if self._drawn is None:
            width = self.size.width
            # (a player's turn and the others' turns show a few sets of keys, again and again)
            key = (tuple(self.shown), self._hover, width)
            kept = self._kept.get(key)
            if kept is None:
                drawn = Visual.to_strips(self, visualize(self, self.line()), width, 1, self.visual_style)
                kept = drawn[0] if drawn else Strip.blank(width, self.visual_style.rich_style)
                if len(self._kept) >= 32:
                    self._kept.clear()
                self._kept[key] = kept
            self._drawn = kept
        return self._drawn

    def line(self) -> Text:
        """The keys on show, as drawn."""
        key_style, words_style = self._style("key"), self._style("description")
        hover = Style(bgcolor=self._style("hover").bgcolor)
        text = Text(no_wrap=True, overflow="crop", end="")
        used = 0
        for i, (start, end, spec) in enumerate(self.shown):
            text.append(" " * (start - used))
            used = end
            on = Style(dim=True) if spec.disabled else Style()
            if i == self._hover:
                on = hover + on
            if spec.palette:
                text.append(BAR, self._style("bar") + on)
            pad = "" if self.compact or spec.palette else " "  # (Textual's palette key is always compact)
            if spec.description:
                text.append(f"{pad}{spec.display}{pad}", key_style + on)
                words = f"{spec.description} " if pad else f" {spec.description}"
                text.append(words, words_style + on)
                if spec.palette and not self.compact:
                    text.append(" ", on)
            else:
                text.append(spec.display, key_style + on)
        return text

    def _at(self, x: int) -> int | None:
        for i, (start, end, _spec) in enumerate(self.shown):
            if start <= x < end:
                return i
        return None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        i = self._at(event.x)
        if i is not None:
            spec = self.shown[i].spec
            if spec.disabled:
                self.app.bell()
            else:
                self.app.simulate_key(spec.key)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        i = self._at(event.x)
        if i != self._hover:
            self._hover = i
            self.tooltip = (self.shown[i].spec.tooltip or None) if i is not None else None
            self._redraw()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.tooltip = None
            self._redraw()
