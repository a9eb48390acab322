"""The web app (FastAPI): a page to play the three games by clicking, watch the learners learn and
chart their results, over a JSON API documented at /docs (OpenAPI).

An interface only (the layers in README): rules are the game's, decisions the players', memories the store's.
Every bad request gets a 4xx with a one-line message in ``detail``, never a 5xx but a 503 with
Retry-After (busy, or the store locked by another process); request bodies are bounded (413 over
the limit); each browser is an owner (cookie) with its own learners; a request sent to a Host
that is not this server's is refused (400, guards.wrong_host: ``gamelearn serve`` answers only to
its own names), and a change that does not come from this server's own page (403, guards.cross_origin).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..store.store import Store
from ..thesis import web_routes as console_routes  # the 1999 thesis program's console page, wired in here
from ..thesis.web import ConsoleService
from . import game_routes, learner_routes, record_routes, review_routes, training_routes
from .analysis import Analyst
from .errors import add_error_handlers
from .guards import (
    OWNER_COOKIE,
    OWNER_MAX_AGE,
    SECURITY_HEADERS,
    BodyLimit,
    NewOwnerLimit,
    cross_origin,
    may_name_a_new_owner,
    new_owner_id,
    public_message,
    valid_owner,
    wrong_host,
)
from .learner_service import LearnerService
from .live import HEARTBEAT_SECONDS
from .service import WebService
from .settings import WebSettings
from .static_routes import add_offline_routes
from .training import Trainer
from .warmup import warm_up

STATIC = Path(__file__).resolve().parent / "static"


class OwnerCookie:
    """ASGI middleware: each browser is an owner: its cookie, or a new id set on the answer; a
    change that does not come from this server's own page is refused (403); every answer has the
    security headers.  Plain ASGI, not Starlette's BaseHTTPMiddleware, whose task group and
    streams per request cost a move a good part of a millisecond."""

    def __init__(self, app: ASGIApp, allowed_hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        stranger = wrong_host(request.headers.get("host"), self.allowed_hosts)
        if stranger is not None:  # first: the Origin check below trusts the Host
            answer = JSONResponse({"detail": public_message(stranger)}, status_code=400, headers=SECURITY_HEADERS)
            await answer(scope, receive, send)
            return
        owner = request.cookies.get(OWNER_COOKIE)
        fresh = not valid_owner(owner)
        request.state.owner = new_owner_id() if fresh else owner
        request.state.fresh_owner = fresh
        headers = dict(request.headers)
        refused = cross_origin(request.method, request.url.scheme, headers)
        # A request from elsewhere without the cookie is served as nobody's and sets none: the
        # browser may hold one it did not send, and a new id would take its games away.
        named = fresh and refused is None and may_name_a_new_owner(headers)

        async def send_marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = raw = list(message.get("headers", []))
                answer = MutableHeaders(raw=raw)
                for name, value in SECURITY_HEADERS.items():
                    answer.setdefault(name, value)
                if named:
                    answer.append("set-cookie", owner_cookie_header(request.state.owner))
            await send(message)

        if refused is not None:
            await JSONResponse({"detail": public_message(refused)}, status_code=403)(scope, receive, send_marked)
            return
        await self.app(scope, receive, send_marked)


def owner_cookie_header(owner: str) -> str:
    """The Set-Cookie value of a new browser's owner id, as Starlette's Response writes it."""
    probe = Response()
    probe.set_cookie(OWNER_COOKIE, owner, max_age=OWNER_MAX_AGE, httponly=True, samesite="lax", path="/")
    return probe.headers["set-cookie"]


#: The page's beat as index.html says it (the default stream's, HEARTBEAT_SECONDS).
PAGE_BEAT = b'data-beat-ms="2000"'


def add_page_routes(app: FastAPI, beat_seconds: float = HEARTBEAT_SECONDS) -> None:
    """The page, its documentation page and its static files.  The page counts its live clocks in
    the stream's beats (connection.js), and is served saying this server's beat."""
    page = (STATIC / "index.html").read_bytes()
    if PAGE_BEAT not in page:
        raise RuntimeError(f"static/index.html no longer says {PAGE_BEAT.decode()}")
    said = page.replace(PAGE_BEAT, f'data-beat-ms="{round(beat_seconds * 1000)}"'.encode())

    # HEAD too: the page asks it whether the server is back (connection.js), as HTTP lets any GET.
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> Response:
        if said == page:  # the file as it is, with its validators
            return FileResponse(STATIC / "index.html", media_type="text/html")
        return Response(said, media_type="text/html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def create_app(store_path: str | Path | None = None, settings: WebSettings | None = None) -> FastAPI:
    """The ASGI app.  ``store_path`` None: the default store in the data directory; ``settings``
    None: the default limits (web/settings.py)."""
    settings = settings or WebSettings()
    store = Store(store_path, lock_wait=settings.store_wait_seconds)
    store.forget_web_games(older_than=time.time() - settings.stored_game_days * 86400)
    store.forget_shares(time.time() - settings.share_days * 86400, record_routes.SHARED_OWNER)
    service = WebService(store, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Every request waiting in a lane of the pool holds one of anyio's threads (40 by
        # default): room for each heavy move that may wait, and 40 for everything else.
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(limiter.total_tokens, settings.heavy_queue + settings.heavy_workers + 40)
        yield

    app = FastAPI(
        lifespan=lifespan,
        # FastAPI's own /docs and /redoc load their scripts from a CDN; ours are served here.
        docs_url=None,
        redoc_url=None,
        title="gamelearn",
        version=__version__,
        description="Machines learn Teeko, hexapawn and tic-tac-toe by playing them. "
        "Every error is a 4xx with a one-line `detail`.",
    )
    app.state.service = service
    app.state.store = store
    app.state.settings = settings
    app.state.learners = LearnerService(service)
    app.state.analyst = Analyst()
    app.state.trainer = Trainer(service)
    app.state.console = ConsoleService(service)
    app.state.newcomers = NewOwnerLimit(settings.new_owners_per_address, settings.owner_window_seconds)
    uploads = dict.fromkeys(console_routes.UPLOADS, settings.upload_limit)
    app.add_middleware(BodyLimit, limit=settings.body_limit, larger=uploads)
    # The page and the API's answers, compressed for a browser that asks (an event stream never is).
    app.add_middleware(GZipMiddleware, minimum_size=500)
    # in a thread of its own: the server starts at once
    app.state.warm_up = warm_up(settings.warm_up, delay=settings.warm_up_delay_seconds)
    add_error_handlers(app)
    app.add_middleware(OwnerCookie, allowed_hosts=settings.allowed_hosts)
    add_page_routes(app, settings.heartbeat_seconds)
    for routes in (game_routes, review_routes, record_routes, learner_routes, training_routes, console_routes):
        app.include_router(routes.router)
    add_offline_routes(app, STATIC)
    return app
