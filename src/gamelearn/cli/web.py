"""`gamelearn serve`: the web app on 127.0.0.1:8000 (FastAPI and uvicorn; nothing from the internet)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from .common import console, fail


def serve(
    host: Annotated[
        str, typer.Option("--host", help="address to listen on (127.0.0.1: this machine only)")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="port to listen on")] = 8000,
    store: Annotated[
        Path | None, typer.Option("--store", help="the SQLite store (default: gamelearn.sqlite3 in the data directory)")
    ] = None,
    max_connections: Annotated[
        int, typer.Option("--max-connections", min=8, max=10_000, help="connections open at once; more are closed")
    ] = 256,
    request_timeout: Annotated[
        float,
        typer.Option(
            "--request-timeout",
            min=0.5,
            max=120,
            help="seconds a connection has to send a whole request, head and body; later: 408, closed",
        ),
    ] = 10.0,
    connections_per_client: Annotated[
        int,
        typer.Option(
            "--max-per-address",
            min=1,
            max=10_000,
            help="connections open at once from one client address (not counted for --proxies); more are closed",
        ),
    ] = 64,
    keep_alive: Annotated[
        float, typer.Option("--keep-alive", min=1, max=120, help="seconds an idle connection is kept after an answer")
    ] = 5.0,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--proxies",
            help="proxies whose X-Forwarded-For is believed (comma-separated); none by default",
        ),
    ] = "",
    allowed_hosts: Annotated[
        str,
        typer.Option(
            "--allowed-hosts",
            help="more names the server answers to (comma-separated), besides 127.0.0.1, localhost and [::1]",
        ),
    ] = "",
    warm: Annotated[
        bool,
        typer.Option("--warm-up/--no-warm-up", help="make az in the background at start, so its first move is quick"),
    ] = True,
) -> None:
    """Start the web app: play by clicking, watch HER, MENACE and the Teeko memory learn.  It
    answers only to its own names (127.0.0.1, localhost, [::1] and --allowed-hosts, with the
    port): a request for another Host is a 400."""
    # `gamelearn serve` alone: the web app and its server (FastAPI, uvicorn, numba) are 0.7 CPU s to import
    import uvicorn

    from ..web import create_app
    from ..web.guards import own_hosts
    from ..web.server import ServerLimits, check_proxies, open_to_the_network, server_config
    from ..web.settings import WebSettings
    from ..web.warmup import settle, warm_up

    try:
        limits = ServerLimits(
            request_timeout, keep_alive, max_connections, check_proxies(forwarded_allow_ips), connections_per_client
        )
        names = tuple(name for name in allowed_hosts.split(",") if name.strip())
        app = create_app(store, WebSettings(allowed_hosts=own_hosts(host, port, names)))
    except ValueError as error:
        fail(str(error))

    try:  # a clear line for a port in use, before uvicorn would log and exit on its own
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    if open_to_the_network(host):
        console.print(
            f"[bold]Warning:[/bold] on {host} the page is open to the network: anyone who can reach this "
            "machine can play, make learners and use its processors (127.0.0.1: this machine only). "
            "It answers to the names of --allowed-hosts, besides 127.0.0.1, localhost and [::1]."
        )
    # Every player module and table loaded now, not in the first game, and kept out of the
    # garbage collector's full passes, which stall every request at once (warmup.py).
    settle()
    if warm:  # once the port is ours: az's network made and its search compiled in the background
        app.state.warm_up = warm_up(("az",), then=settle)
    console.print(f"gamelearn web app on http://{host}:{port}/  (API documentation: /docs; Ctrl-C stops it)")
    # Made only now: uvicorn's Config sets up its logging on the streams of the moment.
    # Open pages hold a live stream each: a stop waits at most 2 s for them, not their 25 s.
    server = uvicorn.Server(server_config(app, host, port, limits, timeout_graceful_shutdown=2))
    try:
        server.run()
    except KeyboardInterrupt:  # as uvicorn.run: a ^C before its own handlers are in place
        pass
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error}")
    if not server.started:
        fail(f"cannot listen on {host}:{port}: the server did not start")
    console.print("\nThe web app has stopped.")  # after ^C, on a line of its own


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
