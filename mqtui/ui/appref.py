"""The app the game's screens run in, by its type: screens call :class:`~mqtui.ui.app.MQApp`'s methods
(save, rules, leave the game...) through :func:`mq_app`, so that mypy checks every call against the
app itself, instead of looking them up by name. (Only the type is imported: the app imports the
screens, so a runtime import here would make a loop; the lobby's app shows only the lobby screen.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode

if TYPE_CHECKING:
    from mqtui.ui.app import MQApp


def mq_app(node: DOMNode) -> MQApp:
    """The :class:`MQApp` that ``node`` (a game, title or dialog screen, or a widget on one) runs in."""
    return cast("MQApp", node.app)
