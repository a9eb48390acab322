"""`gamelearn serve`: the web app on 127.0.0.1:8000 (FastAPI and uvicorn; nothing from the internet)."""

from __future__ import annotations

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
    warm: Annotated[
        bool,
        typer.Option("--warm-up/--no-warm-up", help="make az in the background at start, so its first move is quick"),
    ] = True,
) -> None:
    """Start the web app: play by clicking, watch HER, MENACE and the Teeko memory learn."""
    import uvicorn  # a base dependency, imported here so that other commands start quickly

    from ..web import create_app
    from ..web.warmup import warm_up

    try:
        app = create_app(store)
    except ValueError as error:
        fail(str(error))
    import socket

    try:  # a clear line for a port in use, before uvicorn would log and exit on its own
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    if warm:  # once the port is ours: az's network made and its search compiled in the background
        app.state.warm_up = warm_up(("az",))
    console.print(f"gamelearn web app on http://{host}:{port}/  (API documentation: /docs; Ctrl-C stops it)")
    try:
        # open pages hold a live stream each: a stop waits at most 2 s for them, not their 25 s
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error}")
    console.print("\nThe web app has stopped.")  # after ^C, on a line of its own


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
