"""The marks a shared spectator app (:mod:`mqtui.net.watchers`) writes in its output for the host, which
strips them: in a module of their own, as both the app's driver (:mod:`mqtui.net.remote_app`) and the host
use them."""

from __future__ import annotations

SHARED_VIEW_ENV = "MQTUI_SHARED_VIEW"  # set in a shared app's environment: its driver answers SIGUSR1
MARK = "\x1b]7770;mqtui-"  # (an OSC nobody uses; stripped by the host, never reaches a terminal)
MARK_BYTES = MARK.encode()
READY = MARK + "ready\x07"  # the app answers SIGUSR1 from now on
FRAME_BEGIN = MARK + "frame\x07"  # the whole screen follows...
FRAME_END = MARK + "end\x07"  # ...up to here
