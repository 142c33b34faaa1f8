"""The game log: every event the viewer may read, newest at the bottom, a symbol and colour by its kind."""

from __future__ import annotations

from itertools import accumulate
from typing import NamedTuple

from rich.cells import cell_len
from rich.console import ConsoleOptions
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import Reactive, reactive
from textual.strip import Strip
from textual.widgets import RichLog

from mqtui.store import LogLine, Snapshot
from mqtui.ui.describe import LOG_STYLES, log_style
from mqtui.ui.textual_internals import forget_log_lines, log_line, log_size_known
from mqtui.ui.widgets.steady import SteadyScroll

KIND_CLASSES = frozenset(style for _, style in LOG_STYLES.values() if style)  # each has a rule below

_DRAWN: dict[tuple[str, str, Style | None, int], list[Strip]] = {}
"""Each entry's lines as drawn, by (symbol, words, style, wrap width): what an entry looks like is
all in its key, so the same entry at the same width is drawn once, whichever pane shows it (a
hand-off, a resize back to a width seen before, the replay and the game over of one game, the
log of a saved game opened again). Never changed once drawn (a pane's ``lines`` are its own lists)."""
_DRAWN_LIMIT = 8192  # entries (a long game's log at two or three widths); then it starts again


class _Wrapped(NamedTuple):
    """A seat's log as wrapped: the entries, their lines, where each entry's lines end, at what width."""

    shown: tuple[LogLine, ...]
    lines: list[Strip]
    ends: list[int]
    widest: int
    width: int


class GameLog(SteadyScroll, RichLog):
    """The log pane; scroll with the arrow keys and Page Up/Down when it has focus."""

    COMPONENT_CLASSES = {f"log--{k}" for k in KIND_CLASSES}
    DEFAULT_CSS = """
    GameLog { height: 1fr; background: $surface; scrollbar-size-vertical: 1; overflow-x: hidden; overflow-y: scroll; }
    GameLog > .log--win { color: $accent; text-style: bold; }
    GameLog > .log--turn { color: $primary; text-style: bold; }
    GameLog > .log--result { color: $accent; text-style: bold; }
    GameLog > .log--combat { color: $mq-monster; text-style: bold; }
    GameLog > .log--dice { color: $foreground; }
    GameLog > .log--death { color: $mq-bad; text-style: bold; }
    GameLog > .log--level { color: $mq-good; text-style: bold; }
    GameLog > .log--badstuff { color: $mq-bad; }
    GameLog > .log--escape { color: $mq-good; }
    GameLog > .log--interfere { color: $mq-curse; }
    GameLog > .log--monster { color: $mq-monster; }
    GameLog > .log--draw { color: $mq-dxm; }
    GameLog > .log--bot { color: $foreground 60%; text-style: italic; }
    GameLog > .log--gold { color: $mq-treasure; }
    """

    snapshot: reactive[Snapshot | None] = reactive(None, always_update=True, repaint=False)
    # (new lines redraw the lines, not the whole pane with its border: see ``_append``)
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=2000, min_width=20)
        self._shown: tuple[LogLine, ...] = ()
        self._wrapped_at = 0
        self._ends: list[int] | None = []  # where each shown entry's wrapped lines end (None: unknown)
        self._unwritten = False
        self._seat: int | None = None  # whose log is shown: another seat's means a whole rewrite
        self._style: Style | None = None  # the pane's style (see render_line)
        self._styled: dict[int, tuple[Strip, Strip]] = {}  # a line (by id) and the line styled
        self._kept: dict[int, _Wrapped] = {}  # each other seat's log as last wrapped (hot seat)

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        if snap is None or snap.log is self._shown:
            return
        log = snap.log
        if not log_size_known(self):  # written once the pane knows its width
            self._shown, self._unwritten, self._seat = log, True, snap.seat
            return
        # a new pair of eyes: nothing of the previous seat's log stays (its own lines come back, if kept)
        if snap.seat != self._seat and not self._swap_seat(snap.seat):
            self._seat = snap.seat
            self._shown = log
            self._rewrite(log)
            self._to_end()
            return
        old = self._shown
        if len(log) >= len(old) and (not old or log[len(old) - 1] == old[-1]):
            new = log[len(old) :]
        else:  # an undo took entries back: drop their lines, keep the rest as wrapped
            keep = next(
                (i for i, (a, b) in enumerate(zip(old, log, strict=False)) if a != b), min(len(old), len(log))
            )
            if self._rewind(keep):
                new = log[keep:]
            else:
                self._rewrite(log)
                new = ()
        self._shown = log
        if new:
            self._append(new)
            self._to_end()

    def _swap_seat(self, seat: int) -> bool:
        """Keep the shown seat's wrapped lines and take back ``seat``'s, as last wrapped at this width
        (False if there are none): a hot-seat hand-off then wraps only what that seat has not seen."""
        width = self._wrap_width()
        if width < 1 or self._ends is None or int(getattr(self, "_start_line", 1)):
            self._kept.clear()
            return False
        if self._seat is not None:
            self._kept[self._seat] = _Wrapped(
                self._shown, self.lines, self._ends, self._widest_line_width, width
            )
        kept = self._kept.pop(seat, None)
        if kept is None or kept.width != width:
            return False
        self._seat = seat
        self._shown, self.lines, self._ends = kept.shown, kept.lines, kept.ends
        forget_log_lines(self)
        self._widest_line_width = kept.widest
        self.virtual_size = Size(kept.widest, len(kept.lines))
        self.refresh()
        self._to_end()
        return True

    def _write(self, line: LogLine) -> None:
        self.write(self.line_text(line), scroll_end=False)
        if self._ends is not None:  # unknown once RichLog drops old lines (max_lines)
            trimmed = int(getattr(self, "_start_line", 1))
            self._ends = None if trimmed else [*self._ends, len(self.lines)]

    def _wrap_width(self) -> int:
        """The width ``write`` wraps entries at (0: not known yet): max(min(an entry's width, the
        pane's, the console's), min_width); an entry that fits is never broken, so this one width
        gives every entry the same rows."""
        if not log_size_known(self):
            return 0
        width = max(
            min(self.scrollable_content_region.width, self.app.console.options.max_width), self.min_width
        )
        return max(width, 0)

    def _drawn(self, line: LogLine, width: int, options: ConsoleOptions) -> list[Strip]:
        """An entry's lines as ``write`` draws them at ``width`` (kept: see ``_DRAWN``); ``options``:
        the console's (its ``options`` is worked out again, with the terminal's size, at each call)."""
        symbol, style = self._look(line)
        key = (symbol, line.text, style, width)
        drawn = _DRAWN.get(key)
        if drawn is None:
            if len(_DRAWN) >= _DRAWN_LIMIT:
                _DRAWN.clear()
            text = self._assemble(symbol, style, line)
            drawn = _DRAWN[key] = self._strips(self._rows(text, width, options))
        return drawn

    def _rows(self, text: Text, width: int, options: ConsoleOptions) -> list[Text]:
        """An entry's rows, wrapped as ``write`` wraps it."""
        console = self.app.console
        text.expand_tabs()
        plain = text.plain
        if "\n" not in plain and cell_len(plain) <= width and not (text.justify or options.justify):
            return [text]  # what ``wrap`` gives a line that fits, without its cost
        return list(
            text.wrap(
                console,
                width,
                justify=text.justify or options.justify or "default",
                overflow=text.overflow or options.overflow or "fold",
                tab_size=console.tab_size if text.tab_size is None else text.tab_size,
                no_wrap=text.no_wrap if text.no_wrap is not None else bool(options.no_wrap),
            )
        )

    def _strips(self, rows: list[Text]) -> list[Strip]:
        """An entry's rows drawn in one pass (as ``write`` draws it)."""
        if not rows:
            return []
        text = rows[0] if len(rows) == 1 else Text("\n").join(rows)
        segments = text.render(self.app.console, end="\n")
        return Strip.from_lines(list(Segment.split_lines(segments)))

    def _append(self, entries: tuple[LogLine, ...]) -> None:
        """Write new entries at the end: the lines ``write`` gives each, drawn in one pass, and the
        pane's size (and scroll bar) set once for all of them."""
        self.refresh(self.lines_region())  # (not the border, nor the scroll bar)
        width = self._wrap_width()
        if width < 1:
            for line in entries:
                self._write(line)
            return
        options = self.app.console.options
        chunks = [self._drawn(line, width, options) for line in entries]
        strips = [strip for drawn in chunks for strip in drawn]
        if self._ends is not None:  # where each new entry's lines end
            self._ends += list(accumulate((len(drawn) for drawn in chunks), initial=len(self.lines)))[1:]
        self.lines.extend(strips)
        limit = self.max_lines
        if limit is not None and len(self.lines) > limit:  # (as ``write`` drops the oldest lines)
            self._start_line += len(self.lines) - limit
            self.lines = self.lines[-limit:]
            self.refresh()
        if int(getattr(self, "_start_line", 1)):  # unknown once old lines are dropped
            self._ends = None
        widest = max((strip.cell_length for strip in strips), default=0)
        self._widest_line_width = max(self._widest_line_width, widest)
        self.virtual_size = Size(self._widest_line_width, len(self.lines))

    def _rewrite(self, log: tuple[LogLine, ...]) -> None:
        """Wrap the whole log again in one pass: the lines ``write`` would give entry by entry (the
        same wrap width, ``max_lines`` kept), without its per-entry measure, render and resize."""
        width = self._wrap_width()
        if width < 1:
            self._rewrite_each(log)
            return
        limit = self.max_lines
        chunks: list[list[Strip]] = []  # each entry's lines, newest entry first
        rows_seen = 0
        options = self.app.console.options
        for line in reversed(log):  # older entries past ``max_lines`` are never shown: not wrapped
            if limit is not None and rows_seen >= limit:
                break
            drawn = self._drawn(line, width, options)
            chunks.append(drawn)
            rows_seen += len(drawn)
        chunks.reverse()
        lines = [strip for drawn in chunks for strip in drawn]
        dropped = len(log) - len(chunks)
        if limit is not None and len(lines) > limit:
            dropped += len(lines) - limit
            lines = lines[-limit:]
        self._ends = None if dropped else list(accumulate(len(drawn) for drawn in chunks))
        self.lines = lines
        self._start_line = dropped  # only ever compared with 0 here (RichLog keys its line cache on it)
        forget_log_lines(self)
        self._widest_line_width = max((strip.cell_length for strip in lines), default=0)
        self.virtual_size = Size(self._widest_line_width, len(lines))
        self.refresh()

    def _rewrite_each(self, log: tuple[LogLine, ...]) -> None:
        """Write the log again entry by entry (RichLog's own way; ``_rewrite`` gives the same lines)."""
        self.clear()
        self._ends = []
        for line in log:
            self._write(line)

    def _rewind(self, keep: int) -> bool:
        """Drop the wrapped lines of the entries after the first ``keep``; False if they are not known
        (RichLog has no way to remove lines, so this trims its line list as ``clear`` would)."""
        ends = self._ends
        trimmed = int(getattr(self, "_start_line", 1))  # RichLog dropped old lines (max_lines)
        if ends is None or len(ends) != len(self._shown) or trimmed:
            return False
        del self.lines[ends[keep - 1] if keep else 0 :]
        self._ends = ends[:keep]
        forget_log_lines(self)
        self.virtual_size = Size(self.virtual_size.width, len(self.lines))
        self._to_end()
        self.refresh()
        return True

    def _to_end(self) -> None:
        """Show the newest lines now, in this frame (the pane's size is set by the screen, so the
        end is known without waiting for a layout)."""
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: Resize) -> None:
        """Wrap the whole log again for the new width (RichLog keeps lines as first wrapped)."""
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if self._unwritten or (self._wrapped_at and width != self._wrapped_at and self._shown):
            self._unwritten = False
            self._rewrite(self._shown)
            self._to_end()
        self._wrapped_at = width

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._style = None
        self._kept.clear()  # (their lines carry the old styles)

    def render_line(self, y: int) -> Strip:
        """RichLog's line with the pane's style, kept from frame to frame (RichLog works the style out
        from every ancestor, and styles a new copy of the line, for each line of each frame)."""
        if self._style is None:
            self._style = self.rich_style
            self._styled.clear()
        scroll_x, scroll_y = self.scroll_offset
        line = log_line(self, scroll_y + y, scroll_x, self.scrollable_content_region.width)
        kept = self._styled.get(id(line))
        if kept is None or kept[0] is not line:
            if len(self._styled) > 256:
                self._styled.clear()
            kept = self._styled[id(line)] = (line, line.apply_style(self._style))
        return kept[1]

    def line_text(self, line: LogLine) -> Text:
        return self._assemble(*self._look(line), line)

    def _look(self, line: LogLine) -> tuple[str, Style | None]:
        """An entry's symbol and style, by its kind."""
        symbol, name = log_style(line.kind)
        return symbol, self.get_component_rich_style(f"log--{name}") if name else None

    @staticmethod
    def _assemble(symbol: str, style: Style | None, line: LogLine) -> Text:
        return Text.assemble((f"{symbol} ", style or ""), (line.text, style or ""))
