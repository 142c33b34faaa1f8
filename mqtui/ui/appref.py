"""The app the game's screens run in, by its type: screens call :class:`~mqtui.ui.app.MQApp`'s methods
(save, rules, leave the game...) through :func:`mq_app`, so that mypy checks every call, instead of
looking them up by name. The lobby's app (``mqtui.net.lobbyclient``) shows only the lobby screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.dom import DOMNode

if TYPE_CHECKING:
    from mqtui.ui.app import MQApp


def mq_app(node: DOMNode) -> MQApp:
    """The :class:`MQApp` that ``node`` (a screen, a widget, a command provider's screen) runs in."""
    from mqtui.ui.app import MQApp  # (here: the app imports the screens that call this)

    app = node.app
    if not isinstance(app, MQApp):
        raise TypeError(f"{type(node).__name__} runs in mqtui's app, not in {type(app).__name__}")
    return app
