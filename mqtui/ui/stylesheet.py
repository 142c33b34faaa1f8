"""CSS parsed once per process, not once per app.

Textual parses the app's CSS and every widget's ``DEFAULT_CSS`` again for each app it starts (its
parse cache belongs to the app's stylesheet, and a theme change starts a fresh one), and each UI
test, each SSH session, each load starts an app. The parsed rules only depend on the CSS text, where
it was read from and the CSS variables (the theme's colours, filled in as it parses), and nothing
changes them once parsed: :class:`SharedStylesheet` keeps them for the whole process, keyed by all
of that.

It relies on a private method of Textual's ``Stylesheet`` (``_parse_rules``, what its own parse cache
wraps). Should that change, the app still works (every app parses its CSS again, as Textual does);
``tests/test_ui_open.py`` notices.
"""

from __future__ import annotations

from typing import Any

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

_PARSED: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(512)


class SharedStylesheet(Stylesheet):
    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key = tuple(sorted((variables or {}).items()))

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_key = tuple(sorted(variables.items()))

    def _shared_key(self, css: str, read_from: Any, *rest: Any) -> tuple[Any, ...]:
        return (css, read_from, *rest, self._variables_key)

    def _parse_rules(
        self,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = self._shared_key(css, read_from, is_default_rules, tie_breaker, scope)
        rules = _PARSED.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _PARSED[key] = rules
        return rules

    def reparse(self) -> None:
        """Parse every source again with the current variables.

        Textual's own parses them in a plain ``Stylesheet`` (so that a CSS error leaves this one as it
        was); when every source is parsed already, with these variables, nothing can fail and the
        shared rules are taken as they are."""
        if all(
            self._shared_key(source.content, read_from, source.is_defaults, source.tie_breaker, source.scope)
            in _PARSED
            for read_from, source in self.source.items()
        ):
            self.parse()
        else:
            super().reparse()
