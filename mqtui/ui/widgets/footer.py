"""A footer that rebuilds only when the keys it shows really change.

Textual's Footer recomposes on every ``refresh_bindings`` call; the game screen refreshes its bindings
on every snapshot (they follow what is legal), which made the footer rebuild hundreds of times a
second when computer players move fast. This one compares what it would show first: the same keys
with the same words are left alone, and when only some keys became possible or impossible, those keys
are greyed or lit in place (a rebuild restyles every key and lays the screen out again).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class QuietFooter(Footer):
    def __init__(self, *, compact: bool = False, show_command_palette: bool = True) -> None:
        super().__init__(compact=compact, show_command_palette=show_command_palette)
        self._shown: object = None
        self._layout: object = None
        self._queued = False
        self._width = 0

    def compose(self) -> ComposeResult:
        """Only the keys that fit whole, in order (the screen lists the most needed first): a key cut
        at the right edge ("s Sea") says nothing."""
        width = self.size.width or self.app.size.width
        self._width = width
        shown: list[object] = []
        used = 0
        for item in super().compose():
            if isinstance(item, FooterKey):
                need = (
                    cell_len(item.key_display)
                    + 1
                    + (cell_len(item.description) + 1 if item.description else 0)
                )
                if used + need > width:
                    continue  # (a later, shorter key may still fit)
                used += need
            shown.append(item)
        self.styles.grid_size_columns = max(1, len(shown))
        yield from shown  # type: ignore[misc]

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
                self.call_after_refresh(self._check, screen)
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
        """Show the new keys in the key widgets already there (their letters, words and light), adding or
        removing widgets only at the end, instead of rebuilding all of them (a rebuild mounts and styles
        every key again); False when that cannot give what a rebuild shows."""
        keys = list(self.children)
        if not keys or not self._bindings_ready:  # the first keys are built by Footer itself
            return False
        try:
            fresh = list(self.compose())  # what a rebuild would show (not mounted)
        except Exception:  # a key group needs the compose machinery: rebuild
            return False
        if not all(isinstance(k, FooterKey) for k in [*keys, *fresh]):
            return False
        kinds = ("-command-palette", "-grouped")
        for k, f in zip(keys, fresh, strict=False):
            assert isinstance(k, FooterKey) and isinstance(f, FooterKey)
            if any(k.has_class(c) != f.has_class(c) for c in kinds):
                return False
        for k, f in zip(keys, fresh, strict=False):
            assert isinstance(k, FooterKey) and isinstance(f, FooterKey)
            if (k.key_display, k.description) != (f.key_display, f.description):
                k.key_display, k.description = f.key_display, f.description
                k.refresh(layout=True)
            k.key, k.action = f.key, f.action
            if k._disabled != f._disabled:
                k._disabled = f._disabled
                k.set_class(f._disabled, "-disabled")
            if k.tooltip != f.tooltip:
                k.tooltip = f.tooltip
        if len(keys) > len(fresh):
            self.remove_children(keys[len(fresh) :])
        elif len(fresh) > len(keys):
            self.mount_all(fresh[len(keys) :])
        return True

    def _relight(self, screen: Screen[object]) -> bool:
        """Grey or light the shown keys in place; False if the keys on show are not the expected ones."""
        enabled = {(a.binding.key, a.binding.action): a.enabled for a in screen.active_bindings.values()}
        keys = list(self.query_children(FooterKey))
        if not keys or any((k.key, k.action) not in enabled for k in keys if k.action != "command_palette"):
            return False
        for k in keys:
            on = enabled.get((k.key, k.action), True)
            if k.has_class("-disabled") == on:
                k._disabled = not on  # what FooterKey checks when clicked
                k.set_class(not on, "-disabled")
        return True
