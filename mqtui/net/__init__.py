"""Playing one game together over SSH, each player in their own terminal (see ``docs/ssh.md``).

- :mod:`~mqtui.net.authority`: the one process that owns the game and applies every action;
- :mod:`~mqtui.net.protocol`: the length-prefixed msgpack frames between it and the players' apps;
- :mod:`~mqtui.net.netstore`: the ``GameStore`` the app uses to play through the authority;
- :mod:`~mqtui.net.sshserver` and :mod:`~mqtui.net.ptyrelay`: the asyncssh front door, one app process
  in its own pseudo-terminal per session;
- :mod:`~mqtui.net.identity`: join codes and the keys file; :mod:`~mqtui.net.persist`: autosave;
- :mod:`~mqtui.net.serve`: ``mqtui serve``; :mod:`~mqtui.net.client`: the per-session app program;
  :mod:`~mqtui.net.standin`: a plain app used when the full one is not there (and by the SSH tests).
"""
