"""Running a served game: the authority, the SSH server, an optional local seat, saving on stop."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mqtui import saves
from mqtui.atomic import open_private_append
from mqtui.engine.content import ContentError, load_content
from mqtui.engine.game import Engine
from mqtui.net import persist
from mqtui.net.authority import Authority
from mqtui.net.client import AppFactory
from mqtui.net.identity import ANY, WATCH, Claim, KeyTable
from mqtui.net.options import FrontDoor, OpensDoor, host_log, show_codes, stop_on_signals, write_codes
from mqtui.net.options import ServeError as ServeError  # (re-exported: callers import them from here)
from mqtui.net.options import ServeOptions as ServeOptions
from mqtui.net.table import parse_new_spec
from mqtui.packs import PackError
from mqtui.paths import data_dir

if TYPE_CHECKING:
    from mqtui.net.sshserver import SSHHost


def web_door(opts: ServeOptions) -> OpensDoor | None:
    """What starts the browsers' front door (``--web``; aiohttp and textual-serve are imported only then)."""
    if not opts.web:
        return None
    from mqtui.net.web import start_browsers

    return start_browsers


def build_authority(opts: ServeOptions) -> tuple[Authority, Path]:
    config = opts.table_config()
    if opts.load:
        path = Path(opts.load)
        try:
            game, engine, note = persist.open_game(path)
            if note:
                print(f"mqtui serve: {note}", flush=True)
        except saves.SaveError as exc:
            raise ServeError(f"{path}: {exc}") from None
        save_path = Path(opts.save) if opts.save else path
        authority = Authority(engine, game, save_path, config, _keys(opts, save_path))
        return authority, save_path
    try:
        seats = parse_new_spec(opts.new or "2")
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    try:
        engine = Engine(load_content(persist.content_dirs(opts.packs)))
    except (ContentError, PackError) as exc:
        raise ServeError(str(exc).splitlines()[0]) from None
    authority = Authority.new(engine, seats, opts.seed, None, config, packs=opts.packs)
    save_path = Path(opts.save) if opts.save else saves.saves_dir() / f"served-{authority.game.game}.mqsave"
    authority.keys = _keys(opts, save_path)
    authority.save_to(save_path)
    return authority, save_path


def _keys(opts: ServeOptions, save_path: Path) -> KeyTable:
    return KeyTable(Path(opts.keys) if opts.keys else save_path.with_name(save_path.stem + ".keys"))


def banner(
    authority: Authority,
    save_path: Path,
    host: str | None,
    port: int,
    sock: str | None,
    fingerprint: str = "",
    codes_file: Path | None = None,
) -> str:
    """What ``mqtui serve`` says at start; with ``codes_file``, the join codes are not in it but in
    that file (which the text names)."""
    a = authority
    lines = [f"mqtui serve: game {a.game.game}, {len(a.slots)} seats, autosaving to {save_path}"]
    target = f"{host}" if host and ":" not in host else f"[{host}]"
    where = f"ssh -p {port} " if port != 22 else "ssh "

    def join(code: str) -> str:
        return f"{where}code-{code}@{target}" if host else f"--code {code}"

    if host:
        lines.append(f"SSH on {host}:{port}. Players join with (one code per seat):")
    elif sock:
        lines.append(f"Protocol socket {sock}; join codes:")
    else:  # (a browser-only host: its links, with these codes, follow the banner)
        lines.append("Join codes (one per seat):")
        join = lambda code: code  # noqa: E731
    if codes_file is not None:
        join = lambda code: f"(join code in {codes_file})"  # noqa: E731
    for i, slot in enumerate(a.slots):
        if slot.human:
            codes = a.codes_for(str(i))
            lines.append(f"  seat {i}  {slot.name:<12} {slot.colour:<7} {join(codes[0]) if codes else ''}")
        else:
            lines.append(f"  seat {i}  {slot.name:<12} {slot.colour:<7} (computer: {slot.kind})")
    for label, spec in (("any free seat", ANY), ("watch", WATCH)):
        codes = a.codes_for(spec)
        if codes:
            lines.append(f"  {label:<29} {join(codes[0])}")
    if host:
        lines.append("  (or plain 'ssh -p PORT HOST' and type the code at the 'Join code:' prompt)")
        if fingerprint:
            lines.append(f"Host key {fingerprint}: players can compare it with what ssh shows them")
    keys = a.keys
    if keys.path is not None:
        n = len(keys.entries)
        lines.append(f"Keys file: {keys.path} ({n} key{'s' if n != 1 else ''}; 'SEAT KEYTYPE KEY' lines)")
        lines.extend(f"  {e}" for e in keys.errors)
    if sock:
        lines.append(f"Protocol clients: python -m mqtui.cli.seatapp --socket {sock} --code CODE")
    lines.append(f"Resume later with: mqtui serve --load {save_path}")
    lines.append("Ctrl+C stops the server; the game is saved.")
    return "\n".join(lines)


async def serve(
    opts: ServeOptions, ready: asyncio.Future[Any] | None = None, app: AppFactory | None = None
) -> int:
    """Host the game(s) of ``opts``; ``app``: the app of the host's own seat (``--local-seat``)."""
    if why := opts.limits.check() or opts.contain.check():
        raise ServeError(why)
    if opts.new is None and opts.load is None:
        from mqtui.net.lobby import serve_lobby

        return await serve_lobby(opts, ready, web_door(opts))  # many tables and a lobby
    authority, save_path = build_authority(opts)
    if opts.local_seat is not None and not (
        0 <= opts.local_seat < len(authority.slots) and authority.slots[opts.local_seat].human
    ):
        raise ServeError(f"--local-seat {opts.local_seat}: not a human seat of this game")
    if not opts.ssh and not opts.socket and opts.local_seat is None and not opts.web:
        raise ServeError("with --no-ssh, give --web, --socket or --local-seat")
    log_file: TextIO | None = None
    out: TextIO = sys.stdout
    if opts.local_seat is not None:
        log_file = open_private_append(save_path.with_suffix(".log"))  # 0600: it shows join codes
        out = log_file
    unlog = host_log(out, opts)

    dirs = persist.client_content(authority.engine, authority.game.packs, save_path)
    host: SSHHost | None = None
    # (asyncssh is imported only for it: a --no-ssh host starts quicker). A browser-only host (--web
    # --no-ssh) has one too, which does not listen: its limits, bans, list and fork server are the
    # browsers' as they are beside SSH
    if opts.ssh or opts.web:
        from mqtui.net.admin import start_admin
        from mqtui.net.sshserver import SSHHost, prepare_host

        host = SSHHost(authority, content_dirs=dirs, app=opts.app, limits=opts.limits)
        prepare_host(host, opts)
    stop = stop_on_signals()
    if host is not None:
        host.stop = stop  # (mqtui admin close stops a one-table host)
    port = 0
    started = False
    admin = None
    web: FrontDoor | None = None
    try:
        if host is not None:
            if opts.ssh:
                await host.listen_or_explain(opts.host, opts.port, data_dir() / "ssh_host_key")
                port = host.port
            admin = await start_admin(host, opts.admin_socket, opts.metrics)
            if opts.fork:
                await host.start_forks()
            door = web_door(opts)
            if door is not None:
                web = await door(host, opts)
        if opts.socket:
            with contextlib.suppress(FileNotFoundError):
                Path(opts.socket).unlink()
            try:
                await authority.serve_unix(opts.socket)
            except OSError as exc:
                raise ServeError(f"cannot listen on {opts.socket}: {exc.strerror or exc}") from None
        await authority.start()
        started = True
        if authority.durable is not None:  # the save is on disk before the banner hands out its codes
            await authority.durable.wait(authority.state.n)
        fingerprint = host.fingerprint if host is not None else ""
        where = (opts.host if opts.ssh else None, port, opts.socket, fingerprint)
        full = banner(authority, save_path, *where)
        codes_file = save_path.with_name(save_path.stem + ".codes")
        write_codes(codes_file, full)  # the join codes, for the host's user only
        shown = full if show_codes(opts, sys.stdout) else banner(authority, save_path, *where, codes_file)
        print(shown, flush=True)
        if web is not None:
            print(web.banner(opts.web), file=out, flush=True)
        if log_file is not None:
            print(
                shown if opts.print_codes else banner(authority, save_path, *where, codes_file),
                file=log_file,
                flush=True,
            )
        if ready is not None and not ready.done():
            ready.set_result(authority)
        if opts.local_seat is not None:
            if app is None:
                raise ServeError("a local seat needs an app to play it in")
            await _local_seat(authority, opts.local_seat, app, stop)
        else:
            await stop.wait()
    finally:
        if started:
            print("mqtui serve: stopping; saving the game...", file=out, flush=True)
            await authority.close()  # goodbyes first: each player's app shows why it ends; then the save
        else:
            authority.discard()  # it never ran: leave no save behind
        if web is not None:
            await web.close()
        if admin is not None:
            await admin.close()
        if host is not None:
            await host.close()
        if started:
            print(f"mqtui serve: saved to {save_path}", flush=True)
        unlog()
        if log_file is not None:
            log_file.close()
    return 0


async def _local_seat(authority: Authority, seat: int, app: AppFactory, stop: asyncio.Event) -> None:
    """The host plays ``seat`` in this terminal, through the same protocol as everyone else."""
    from mqtui.net.client import run_app
    from mqtui.net.netstore import NetStore

    ours, theirs = socket.socketpair()
    authority.attach(ours, Claim(seat, "local", "the host's terminal"))
    store = await NetStore.open_socket(authority.engine, theirs, name="host")
    app_task = asyncio.ensure_future(run_app(store, app))
    stop_task = asyncio.ensure_future(stop.wait())
    await asyncio.wait({app_task, stop_task}, return_when=asyncio.FIRST_COMPLETED)
    if not app_task.done():
        await store.close()  # the app sees the store close and exits
        with contextlib.suppress(Exception):
            await asyncio.wait_for(app_task, 5.0)
    stop_task.cancel()
    await store.close()
