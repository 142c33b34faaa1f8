"""Frames that draw only the panes whose lines changed.

Textual draws a frame's changes by cropping the screen to one box around *all* the changed regions,
then asking every pane inside that box for all of its lines. A new log line (bottom left) and a new
status line (top) make that box the whole screen: the map, the hero sheet, the hand... each hand over
every line again (from their caches, but each line is still cut, filtered and copied). This compositor
asks a pane only for the lines of it that lie in a changed region, and skips the panes that lie in
none, or whose lines there lie wholly behind the panes in front (a container behind its children:
the screen behind the status bar, the body and the footer). What
reaches the terminal is the same: Textual writes only the changed regions, and every cell in them
still comes from the pane in front (the compositor keeps, for each cell, the first pane's).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.geometry import Region
from textual.strip import Strip


class PartialCompositor(Compositor):
    _changed: list[Region] | None = None  # a partial update's changed regions, while it is drawn

    def render_partial_update(self) -> ChopsUpdate | None:
        self._changed = list(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._changed = None

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        """A whole frame (the screen back from under a dialog, a new size): every cell changed, so the
        containers wholly behind their panes are not drawn either."""
        if simplify:  # (an export: as Textual draws it)
            return super().render_full_update(simplify)
        self._changed = [self.size.region]
        try:
            return super().render_full_update(simplify)
        finally:
            self._changed = None

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        changed = self._changed
        if not changed or crop is None:  # a whole screen: as Textual draws it
            yield from super()._get_renders(crop)
            return
        drawn: list[Region] = []  # what the panes in front draw (they come first)
        for widget, (region, clip) in self.visible_widgets.items():
            shown = region.intersection(clip)
            rows = [hit for area in changed if (hit := shown.intersection(area))]
            if not rows:
                continue
            # the changed cells that no pane in front has drawn (a container behind its panes: none)
            if drawn:
                rows = [hit for hit in rows if not any(front.contains_region(hit) for front in drawn)]
                if rows and len(drawn) > 1:  # (cells drawn by several panes side by side)
                    rows = [
                        Region(hit.x, y, hit.width, 1)
                        for hit in rows
                        for y in range(hit.y, hit.bottom)
                        if not _covered(hit.x, hit.right, y, drawn)
                    ]
                if not rows:
                    continue
            top = min(hit.y for hit in rows)
            bottom = max(hit.bottom for hit in rows)
            # whole rows of the pane's visible part: its left and right edges are cuts of the screen
            box = Region(shown.x, top, shown.width, bottom - top)
            drawn.append(box)
            lines = widget.render_lines(Region(shown.x - region.x, top - region.y, shown.width, bottom - top))
            yield region, box, lines


def _covered(left: int, right: int, y: int, drawn: list[Region]) -> bool:
    """Whether the boxes drawn already cover row ``y`` from column ``left`` up to ``right``."""
    spans = sorted((box.x, box.right) for box in drawn if box.y <= y < box.bottom and box.x < right)
    for start, end in spans:
        if start > left:
            return False
        left = max(left, end)
        if left >= right:
            return True
    return False


def partial_frames_fit() -> bool:
    """Whether this Textual's compositor has the parts the override above builds on (they are private:
    a Textual release that moves them gets Textual's own, whole-box frames instead of a broken screen)."""
    return all(
        hasattr(Compositor, name)
        for name in ("render_partial_update", "render_full_update", "_get_renders", "visible_widgets")
    ) and hasattr(Compositor(), "_dirty_regions")


PARTIAL_FRAMES = partial_frames_fit()
