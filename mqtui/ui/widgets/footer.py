"""A footer that rebuilds only when the keys it shows really change.

Textual's Footer recomposes on every ``refresh_bindings`` call; the game screen refreshes its bindings
on every snapshot (they follow what is legal), which made the footer rebuild hundreds of times a
second when computer players move fast. This one compares what it would show first: the same keys
with the same words are left alone, and when only some keys became possible or impossible, those keys
are greyed or lit in place (a rebuild restyles every key and lays the screen out again).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from mqtui.ui.widgets.steady import SteadySize


class KeySpec(NamedTuple):
    """One key as the footer shows it."""

    key: str
    display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    palette: bool = False


class QuietKey(SteadySize, FooterKey):
    """A footer key whose new width moves the keys after it in one layout, not two, and that is
    greyed out without restyling it from the whole stylesheet (FooterKey's class ``-disabled`` only
    sets ``text-style: dim``; setting that on the key itself looks the same)."""

    def __init__(
        self,
        key: str,
        key_display: str,
        description: str,
        action: str,
        disabled: bool = False,
        tooltip: str = "",
        classes: str = "",
    ) -> None:
        super().__init__(key, key_display, description, action, tooltip=tooltip, classes=classes)
        grey(self, disabled)


def grey(key: FooterKey, disabled: bool) -> None:
    """Grey a key out (a key that is not possible now) or light it."""
    if isinstance(key, QuietKey):
        if disabled != key._disabled:
            key.styles.text_style = "dim" if disabled else None
    else:
        key.set_class(disabled, "-disabled")
    key._disabled = disabled  # (what FooterKey checks when clicked)


class QuietFooter(SteadySize, Footer):
    def __init__(self, *, compact: bool = False, show_command_palette: bool = True) -> None:
        super().__init__(compact=compact, show_command_palette=show_command_palette)
        self._shown: object = None
        self._layout: object = None
        self._queued = False
        self._width = 0

    def compose(self) -> ComposeResult:
        """Only the keys that fit whole, in order (the screen lists the most needed first): a key cut
        at the right edge ("s Sea") says nothing."""
        specs = self._specs()
        if specs is None:  # key groups: Footer's own way, cut to the keys that fit
            yield from self._fit(super().compose())
            return
        for spec in specs:
            key = QuietKey(
                spec.key,
                spec.display,
                spec.description,
                spec.action,
                disabled=spec.disabled,
                tooltip=spec.tooltip,
                classes="-command-palette" if spec.palette else "",
            )
            yield key if spec.palette else key.data_bind(compact=Footer.compact)

    def _fits(self, display: str, description: str, used: int) -> int:
        """The room used once this key is added, or -1 if it does not fit."""
        need = cell_len(display) + 1 + (cell_len(description) + 1 if description else 0)
        return used + need if used + need <= self._width else -1

    def _fit(self, items: Iterable[Widget]) -> Iterator[Widget]:
        self._width = self.size.width or self.app.size.width
        used = 0
        for item in items:
            if isinstance(item, FooterKey):
                room = self._fits(item.key_display, item.description, used)
                if room < 0:
                    continue  # (a later, shorter key may still fit)
                used = room
            yield item

    def _specs(self) -> list[KeySpec] | None:
        """The keys that fit, as Footer would make them (one per action), without making widgets;
        None when some key is in a group (Footer nests those)."""
        self._width = self.size.width or self.app.size.width
        if not self._bindings_ready:
            return []
        active = self.screen.active_bindings
        firsts: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                if binding.group is not None:
                    return None
                firsts.setdefault(binding.action, (binding, enabled, tooltip))
        specs: list[KeySpec] = []
        used = 0
        for binding, enabled, tooltip in firsts.values():
            display = self.app.get_key_display(binding)
            room = self._fits(display, binding.description, used)
            if room >= 0:
                used = room
                specs.append(
                    KeySpec(binding.key, display, binding.description, binding.action, not enabled, tooltip)
                )
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _node, binding, enabled, _tooltip = palette
                tip = binding.tooltip or binding.description
                display = self.app.get_key_display(binding)
                if self._fits(display, binding.description, used) >= 0:
                    specs.append(
                        KeySpec(
                            binding.key, display, binding.description, binding.action, not enabled, tip, True
                        )
                    )
        return specs

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._shown = None
            self.call_later(self.recompose)

    @staticmethod
    def _signature(screen: Screen[object]) -> tuple[tuple[str, str, str, bool], ...]:
        """The keys on show (hidden ones come and go with what is legal, unseen), and which are lit."""
        return tuple(
            (key, active.binding.action, active.binding.description, active.enabled)
            for key, active in screen.active_bindings.items()
            if active.binding.show
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        # Several refreshes in one step (the screen and each pane ask) make one check, after the frame:
        # working out the active keys is not free, and a key press should reach the screen first.
        if self.is_attached and screen is self.screen:
            if not self._queued:
                self._queued = True
                self.call_later(self._check, screen)
            return
        super().bindings_changed(screen)

    def _check(self, screen: Screen[object]) -> None:
        self._queued = False
        if self.is_attached and screen is self.screen:
            signature = self._signature(screen)
            if signature == self._shown:
                return
            layout = tuple(entry[:3] for entry in signature)
            same_keys = layout == self._layout
            self._shown, self._layout = signature, layout
            if same_keys and self._relight(screen):
                return
            if not same_keys and self._relabel():
                return
        super().bindings_changed(screen)

    def _relabel(self) -> bool:
        """Show the new keys in the key widgets already there (their letters, words and light), hiding
        the ones left over or adding widgets at the end, instead of rebuilding all of them (a rebuild
        mounts and styles every key again, and a key mounted or removed lays the screen out once more
        after the frame); False when that cannot give what a rebuild shows."""
        keys = list(self.children)
        if not keys or not self._bindings_ready:  # the first keys are built by Footer itself
            return False
        specs = self._specs()
        if specs is None or not all(isinstance(k, FooterKey) for k in keys):
            return False
        for k, spec in zip(keys, specs, strict=False):
            assert isinstance(k, FooterKey)
            if k.has_class("-command-palette") != spec.palette:
                return False
        for k, spec in zip(keys, specs, strict=False):
            assert isinstance(k, FooterKey)
            if (k.key_display, k.description) != (spec.display, spec.description):
                # a key as wide as before keeps its place: only its own cells are drawn again
                wider = cell_len(k.key_display + k.description) != cell_len(spec.display + spec.description)
                k.key_display, k.description = spec.display, spec.description
                k.refresh(layout=wider or not k.description or not spec.description)
            k.display = True
            k.key, k.action = spec.key, spec.action
            if k._disabled != spec.disabled:
                grey(k, spec.disabled)
            if k.tooltip != (spec.tooltip or None):
                k.tooltip = spec.tooltip or None
        for k in keys[len(specs) :]:
            k.display = False
        if len(specs) > len(keys):
            self.mount_all(list(self.compose())[len(keys) :])
        return True

    def _relight(self, screen: Screen[object]) -> bool:
        """Grey or light the shown keys in place; False if the keys on show are not the expected ones."""
        enabled = {(a.binding.key, a.binding.action): a.enabled for a in screen.active_bindings.values()}
        keys = [k for k in self.query_children(FooterKey) if k.display]
        if not keys or any((k.key, k.action) not in enabled for k in keys if k.action != "command_palette"):
            return False
        for k in keys:
            on = enabled.get((k.key, k.action), True)
            if k._disabled == on:
                grey(k, not on)
        return True
