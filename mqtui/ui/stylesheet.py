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

It also remembers the styles of widgets' component classes (the parts a widget styles itself: a map's
cells, a log's kinds of line, an option list's highlight). Textual works each one out again for every
restyle of the widget, through a throwaway node matched against every rule (the map has 18 of them,
the log 14): on each mount, focus change and class change of the widget. What a component's rules are
depends only on the rules and on the state that selectors can test of each node on its path (type,
id, classes and the pseudo classes its rules use), so :meth:`SharedStylesheet._process_component_classes`
keys the rules Textual found by exactly that and sets the same rules again when the key comes back.
(Checked against Textual 8.2.8's ``Stylesheet.apply`` and ``_process_component_classes``;
``tests/test_ui_styles.py`` checks that a component's style still follows focus and theme.)
"""

from __future__ import annotations

from typing import Any

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.styles import RulesMap
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

_PARSED: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(512)
# the component styles worked out for each list of rules (every app of a process that opens the same
# screens in the same order has the same parsed rules, in the same order): the rules, what was found
_PARTS: LRUCache[tuple[int, ...], tuple[list[RuleSet], dict[Any, Any]]] = LRUCache(64)


def _parts_for(rules: list[RuleSet]) -> dict[Any, Any]:
    """The component styles remembered for these rules (the rule sets are kept alive with them, so
    that their ids stay theirs)."""
    key = tuple(map(id, rules))
    entry = _PARTS.get(key)
    if entry is None:
        entry = _PARTS[key] = (list(rules), {})
    return entry[1]


class _Capture:
    """The rules ``apply`` sets on one node (the component node being worked out), caught on the way."""

    node: DOMNode | None = None
    rules: RulesMap | None = None


_CAPTURE = _Capture()


class SharedStylesheet(Stylesheet):
    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key = tuple(sorted((variables or {}).items()))
        self._parts_of: list[RuleSet] | None = None  # the rules the component styles in _parts are of
        self._parts: dict[Any, Any] = {}  # key -> the component's rules (None: none matched)
        # (and a widget's component classes -> the pseudo classes their candidate rules test)

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

    # -- component classes ---------------------------------------------------------------------------

    @classmethod
    def replace_rules(cls, node: DOMNode, rules: RulesMap, animate: bool = False) -> None:
        if node is _CAPTURE.node:
            _CAPTURE.rules = rules
        super().replace_rules(node, rules, animate=animate)

    def _process_component_classes(self, node: DOMNode) -> None:
        """As Textual's, with each component's rules remembered by what they depend on."""
        component_classes = node._get_component_classes()
        if not component_classes:
            return
        rules = self.rules
        if rules is not self._parts_of:  # new rules (a new source, another theme)
            self._parts_of, self._parts = rules, _parts_for(rules)
        parts = self._parts
        pseudo = parts.get(component_classes)
        if pseudo is None:  # the pseudo classes that these components' candidate rules test
            rules_map = self.rules_map
            used: set[str] = set()
            for component in component_classes:
                names = rules_map.keys() & DOMNode(classes=component)._selector_names
                used.update(*(rule.pseudo_classes for name in names for rule in rules_map[name]))
            pseudo = parts[component_classes] = tuple(sorted(used))
        path = node.css_path_nodes
        shape = tuple((type(n), n._id, frozenset(n._classes)) for n in path)
        state = tuple([n.has_pseudo_class(p) for n in path for p in pseudo])
        refresh_node = False
        old_component_styles = node._component_styles.copy()
        node._component_styles.clear()
        for component in sorted(component_classes):
            virtual_node = DOMNode(classes=component)
            virtual_node._attach(node)
            key = (component, shape, state)
            if key in parts:
                found = parts[key]
                if found is not None:
                    Stylesheet.replace_rules(virtual_node, found, animate=False)
            else:
                _CAPTURE.node, _CAPTURE.rules = virtual_node, None
                try:
                    self.apply(virtual_node, animate=False)
                    parts[key] = _CAPTURE.rules
                finally:
                    _CAPTURE.node = _CAPTURE.rules = None
            if not refresh_node and old_component_styles.get(component) != virtual_node.styles:
                refresh_node = True  # the styles changed: the node draws again
            node._component_styles[component] = virtual_node.styles
        if refresh_node:
            node.refresh()
