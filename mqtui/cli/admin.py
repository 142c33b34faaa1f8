"""``mqtui admin``: the operator's tool for a running ``mqtui serve`` (see :mod:`mqtui.net.admin`)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

HELP = (
    "operate a running server: list tables and sessions, kick, ban or unban, send a message, close a "
    "table, the message of the day, its figures (health)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--socket", metavar="PATH", help="the server's admin socket (default: DATA/admin.sock)"
    )
    parser.add_argument("--json", action="store_true", help="print the server's answer as JSON")
    sub = parser.add_subparsers(dest="admin_cmd", metavar="ACTION", required=True)
    sub.add_parser("list", help="tables, seats and sessions (addresses, identities), bans")
    kick = sub.add_parser("kick", help="end a session (its id from 'list')")
    kick.add_argument("id", type=int)
    kick.add_argument("--why", default="", help="what its person reads")
    ban = sub.add_parser(
        "ban", help="ban an address, a range (10.1.0.0/16) or a key (SHA256:...), kept on disk"
    )
    ban.add_argument("what")
    ban.add_argument("--note", default="")
    unban = sub.add_parser("unban", help="lift a ban")
    unban.add_argument("what")
    say = sub.add_parser("say", help="a message in the log of every player (of one table with --table)")
    say.add_argument("text", nargs="+")
    say.add_argument("--table", default="")
    close = sub.add_parser("close", help="close a table: its players told why, its game saved")
    close.add_argument("table")
    close.add_argument("--why", default="", help="what its players read")
    motd = sub.add_parser("motd", help="show the message of the day, or set it (--clear: none)")
    motd.add_argument("text", nargs="*")
    motd.add_argument("--clear", action="store_true")
    sub.add_parser("health", help="the host's figures, in Prometheus' text format (--json: as JSON)")


def run(args: argparse.Namespace) -> int:
    import asyncio
    import json

    from mqtui.net.admin import default_socket, request

    req: dict[str, Any] = {"cmd": args.admin_cmd}
    if args.admin_cmd == "kick":
        req.update(id=args.id, why=args.why)
    elif args.admin_cmd == "ban":
        req.update(what=args.what, note=args.note)
    elif args.admin_cmd == "unban":
        req.update(what=args.what)
    elif args.admin_cmd == "say":
        req.update(text=" ".join(args.text), table=args.table)
    elif args.admin_cmd == "close":
        req.update(table=args.table, why=args.why)
    elif args.admin_cmd == "motd" and (args.text or args.clear):
        req.update(text=" ".join(args.text))
    path = Path(args.socket) if args.socket else default_socket()
    try:
        answer = asyncio.run(request(path, req))
    except (OSError, TimeoutError, ValueError) as exc:
        print(f"mqtui admin: cannot reach the server at {path}: {exc}")
        return 2
    if args.json:
        print(json.dumps(answer.get("figures", answer) if answer.get("ok") else answer, indent=1))
    elif not answer.get("ok"):
        print(f"mqtui admin: {answer.get('error', 'refused')}")
    else:
        print(_text(args.admin_cmd, answer))
    return 0 if answer.get("ok") else 1


def _text(cmd: str, answer: dict[str, Any]) -> str:
    if cmd == "list":
        lines = [f"{len(answer['tables'])} table(s)"]
        for t in answer["tables"]:
            seats = ", ".join(f"{s['seat']} {s['name']} ({s['status']})" for s in t["seats"])
            paused = "  PAUSED: cannot save" if t["paused"] else ""
            lines.append(
                f"  table {t['id']}  round {t['round']}  {t['spectators']} watching  {seats}{paused}"
            )
        lines.append(f"{len(answer['sessions'])} session(s)")
        now = time.time()
        for s in answer["sessions"]:
            where = f"table {s['table']} seat {s['seat']}" if s["table"] else "no table yet"
            lines.append(f"  {s['id']:>4}  {s['addr']:<39} {s['who']:<28} {where}  {now - s['since']:.0f} s")
        lines.append(f"{len(answer['bans'])} ban(s)")
        lines.extend(f"  {entry}  {note}".rstrip() for entry, note in answer["bans"].items())
        return "\n".join(lines)
    if cmd == "ban":
        return f"banned {answer['ban']}" + (
            f"; ended sessions {answer['kicked']}" if answer["kicked"] else ""
        )
    if cmd == "say":
        return f"told {answer['reached']} player(s)"
    if cmd == "motd":
        return str(answer["motd"]) or "(no message of the day)"
    if cmd == "health":
        return str(answer["prometheus"]).rstrip("\n")
    return "done"
