"""`robotable serve`: the web table."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RobotableError
from .database import check_database, shown


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("robotable", appauthor=False)) / "tables.sqlite3"


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
        port: Annotated[
            int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
        ] = 8000,
        db: Annotated[
            str | None,
            typer.Option(
                help="SQLite database file (default: tables.sqlite3 in the user data dir), or "
                "a PostgreSQL URL: postgresql://user:password@host/dbname."
            ),
        ] = None,
        ai_delay: Annotated[
            float,
            typer.Option(
                min=0, max=60, help="Seconds to pause before each AI move so people can follow."
            ),
        ] = 0.6,
        ai_workers: Annotated[
            int,
            typer.Option(
                min=-1,
                max=256,
                help="Processes thinking for AI seats (-1: one per core, 0: a thread).",
            ),
        ] = -1,
        ai_max_seconds: Annotated[
            float,
            typer.Option(
                min=0.05, max=600.0, help="Longest an AI may think about one move (seconds)."
            ),
        ] = 3.0,
        ai_max_iterations: Annotated[
            int,
            typer.Option(min=1, max=10_000_000, help="Most MCTS iterations an AI may use a move."),
        ] = 20_000,
        policies: Annotated[
            str | None,
            typer.Option(
                "--policies",
                help="A folder of trained policies (robotable train) that tables may seat as "
                "policy:NAME; without it no policy plays.",
            ),
        ] = None,
        max_tables: Annotated[
            int, typer.Option(min=1, help="Open tables at most; new ones are refused past it.")
        ] = 1000,
        creates_per_minute: Annotated[
            float,
            typer.Option(min=0.01, help="New tables one client address may open a minute."),
        ] = 6.0,
        table_idle_hours: Annotated[
            float,
            typer.Option(
                min=0.01, help="An unfinished table without a move this long is given up."
            ),
        ] = 72.0,
        empty_table_minutes: Annotated[
            float,
            typer.Option(
                min=0.1,
                help="Minutes a table no person has joined (no seat connected or taken) "
                "waits before it is given up.",
            ),
        ] = 10.0,
        max_open_per_address: Annotated[
            int, typer.Option(min=1, help="Open tables one client address may have created.")
        ] = 20,
        max_watchers: Annotated[
            int, typer.Option(min=1, help="Connections to one table (players and spectators).")
        ] = 32,
        max_connections: Annotated[
            int, typer.Option(min=1, help="Connections in all; more are answered 503.")
        ] = 4000,
        max_per_address: Annotated[
            int,
            typer.Option(
                min=1, help="Connections from one client address (requests and websockets)."
            ),
        ] = 64,
        forwarded_allow_ips: Annotated[
            str,
            typer.Option(
                help="Proxies trusted to say who the client is (X-Forwarded-For), comma-separated;"
                " '*' trusts any. Client addresses count table creations and connections."
            ),
        ] = "127.0.0.1",
        allowed_hosts: Annotated[
            str | None,
            typer.Option(
                help="Host names the server answers to besides localhost, 127.0.0.1 and [::1],"
                " comma-separated ('*.example.org' matches subdomains, '*' any). Default: the "
                "--host address; required with --host 0.0.0.0 or ::."
            ),
        ] = None,
        fsync: Annotated[
            bool,
            typer.Option(
                help="Sync every commit to disk (survives power loss); --no-fsync survives a "
                "crashed or killed server only, and is faster on slow disks."
            ),
        ] = True,
        studio: Annotated[
            bool,
            typer.Option(
                help="Open the designer's studio at /studio: edit a card set, run studies on it"
                " (docs/studio.md). Beyond this machine it asks for a key, printed at start."
            ),
        ] = False,
        studio_key_file: Annotated[
            Path | None,
            typer.Option(help="With --studio: read the studio key from this file's first line."),
        ] = None,
        ray: Annotated[
            str | None,
            typer.Option(
                help="With --studio: play studies on the Ray cluster at this address ('auto',"
                " 'ray://host:10001'), not in this machine's worker processes."
            ),
        ] = None,
    ) -> None:
        """Run the web table: lobby, tables with friends and AI seats, stored in SQLite.

        Example: `robotable serve --host 0.0.0.0 --allowed-hosts games.example.org,192.168.1.20
        --port 8080 --max-tables 200`.
        """
        import uvicorn

        from .ai import AiLimits
        from .app import create_app
        from .guard import guarded_http_protocol
        from .limits import ServerLimits
        from .schemas import MAX_FRAME

        try:
            hosts = served_hosts(host, allowed_hosts)
        except RobotableError as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(2) from None
        path: str | Path = db or default_db_path()
        try:
            check_database(path)
        except RobotableError as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(2) from None
        workers = (os.cpu_count() or 1) if ai_workers < 0 else ai_workers
        try:
            studio_settings = studio_setup(studio, host, studio_key_file, ray)
        except RobotableError as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(2) from None
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        config = uvicorn.Config(
            create_app(
                path,
                ai_workers=workers,
                ai_limits=AiLimits(
                    ai_max_seconds,
                    ai_max_iterations,
                    policies=None if policies is None else str(Path(policies).resolve()),
                ),
                limits=ServerLimits(
                    max_tables=max_tables,
                    creates_per_minute=creates_per_minute,
                    idle_hours=table_idle_hours,
                    empty_minutes=empty_table_minutes,
                    max_open_per_address=max_open_per_address,
                    max_watchers=max_watchers,
                    max_connections=max_connections,
                    max_per_address=max_per_address,
                ),
                ai_delay=max(0.0, ai_delay),
                synchronous="FULL" if fsync else "NORMAL",
                tune_gc=True,
                allowed_hosts=hosts,
                forwarded_allow_ips=forwarded_allow_ips,
                studio=studio_settings,
            ),
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            ws_max_size=4 * MAX_FRAME,
            ws_ping_interval=20,
            ws_ping_timeout=20,
            # Frames are a few kilobytes of JSON; compressing each costs more CPU than it saves.
            ws_per_message_deflate=False,
            limit_concurrency=max_connections,
            # Deadlines on unfinished requests and a cap per peer address, which uvicorn lacks.
            http=guarded_http_protocol(
                header_seconds=ServerLimits().header_seconds,
                body_seconds=ServerLimits().body_seconds,
                max_per_address=max_per_address,
                trusted_proxies=forwarded_allow_ips,
            ),
            # The app applies X-Forwarded-For itself (create_app's forwarded_allow_ips), so
            # that its per-address counts see the client behind a proxy.
            proxy_headers=False,
            # On SIGTERM or Ctrl-C: websocket clients get close code 1012 (they reconnect by
            # themselves), moves in flight are committed, then the lifespan stops the AI workers
            # and the store. A connection that will not close is not waited for past this.
            timeout_graceful_shutdown=10,
        )
        server = _AnnouncingServer(config)
        from .._engine import describe

        # Which engine the AI players search with: the compiled one is 2.6-4x faster.
        typer.echo(f"robotable web table ({describe()}), games stored in {shown(path)}")
        server.run()


def studio_setup(on: bool, host: str, key_file: Path | None, ray: str | None):
    """The studio's settings for `serve --studio` (None without it). Bound beyond loopback it
    needs a key: the file's, or a new one printed here on one line."""
    if not on:
        if key_file is not None or ray is not None:
            raise RobotableError("--studio-key-file and --ray go with --studio")
        return None
    from .studio import StudioSettings, new_key, read_key_file

    if ray is not None and importlib.util.find_spec("ray") is None:
        raise RobotableError("--ray: Ray is not installed (pip install 'robotable[sim]')")
    loopback = host.lower() in ("127.0.0.1", "localhost", "::1", "[::1]")
    key = read_key_file(key_file) if key_file is not None else None
    if key is None and not loopback:
        key = new_key()
        typer.echo(f"Studio key (give it to the designers who may run studies): {key}")
    return StudioSettings(key=key, ray_address=ray)


def served_hosts(host: str, allowed_hosts: str | None) -> list[str]:
    """The Host names to answer: the local names, and those given or else the bound address.

    Listening on every interface (0.0.0.0, ::) has no name to default to: the names people
    will type are the operator's to say, since answering any Host would let a page on another
    site reach the server through a name rebound to it (DNS rebinding)."""
    from .app import DEFAULT_HOSTS

    if allowed_hosts is not None:
        names = [name.strip().lower() for name in allowed_hosts.split(",") if name.strip()]
        if not names:
            raise RobotableError("--allowed-hosts: name at least one host, or '*' for any")
        for name in names:
            if "*" in name[1:] or (name.startswith("*") and name != "*" and name[:2] != "*."):
                raise RobotableError(
                    f"--allowed-hosts: '{name}' is not a host name or a pattern like "
                    "'*.example.org'"
                )
        # The local names stay: no page on another site can send them (a rebound name is the
        # page's own), and the machine's own checks use them.
        return list(dict.fromkeys([*DEFAULT_HOSTS, *names]))
    if host in ("0.0.0.0", "::", ""):
        shown = host or "''"
        raise RobotableError(
            f"--host {shown} listens on every interface: name the hosts people will reach it "
            "by with --allowed-hosts (e.g. --allowed-hosts games.example.org,192.168.1.20)"
        )
    bound = f"[{host}]" if ":" in host else host.lower()
    return list(dict.fromkeys([*DEFAULT_HOSTS, bound]))


def _make_server_class():
    import uvicorn

    class AnnouncingServer(uvicorn.Server):
        """Says where to point the browser once the socket is really listening."""

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            if self.should_exit:
                return
            for server in self.servers:
                for sock in server.sockets:
                    host, port = sock.getsockname()[:2]
                    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
                    if ":" in shown:
                        shown = f"[{shown}]"
                    typer.echo(f"Open http://{shown}:{port}/ in a browser", err=False)
                    return

    return AnnouncingServer


def _AnnouncingServer(config):  # noqa: N802  (a factory so uvicorn is imported only for serve)
    return _make_server_class()(config)
