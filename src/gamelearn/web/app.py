"""The web app (FastAPI): a page to play the three games by clicking, watch the learners learn and
chart their results, over a JSON API documented at /docs (OpenAPI).

An interface only (the layers in README): rules are the game's, decisions the players', memories the store's.
Every bad request gets a 4xx with a one-line message in ``detail``, never a 5xx but a 503 with
Retry-After (busy, or the store locked by another process); request bodies are bounded (413 over
the limit); each browser is an owner (cookie) with its own learners; a change that does not come
from this server's own page is refused (403, guards.cross_origin).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.middleware.gzip import GZipMiddleware

from .. import __version__
from ..games import GAME_NAMES
from ..match import DEFAULT_MAX_PLIES
from ..store.db import Store
from ..store.failures import StoreLocked
from .guards import (
    OWNER_COOKIE,
    OWNER_MAX_AGE,
    SECURITY_HEADERS,
    BodyLimit,
    NewOwnerLimit,
    TooManyNewOwners,
    cross_origin,
    new_owner_id,
    public_message,
    valid_owner,
)
from .live import TooManyWatchers, news
from .pool import MoveInFlight, PoolFull
from .review import review
from .service import RESET_MARK_KIND, NotFound, NotYourTurn, StaleMove, WebService
from .sessions import TableFull
from .settings import WebSettings
from .static_routes import add_offline_routes
from .tables import BuildInProgress
from .training_routes import add_training_routes
from .views import game_info
from .warmup import warm_up

STATIC = Path(__file__).resolve().parent / "static"
GAME_ID = r"^[A-Za-z0-9_-]{1,32}$"
NAME = r"^[a-z][a-z0-9-]{0,31}$"
#: How many of its latest finished games a browser can list for review.
RECORDS_LISTED = 200


class Problem(BaseModel):
    detail: str = Field(description="what was wrong, in one line")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(
        max_length=100,
        description=f"one of {', '.join(GAME_NAMES)}, or a spec with the options `/api/games` lists",
        examples=["hexapawn", "teeko:goals=advanced,drops=saaa"],
    )
    players: list[str] = Field(
        min_length=2, max_length=2, description="two player specs, the first moves first", examples=[["human", "her"]]
    )
    seed: int | None = Field(None, ge=0, le=2**31 - 1, description="seed of the computers' random choices")
    max_plies: int = Field(DEFAULT_MAX_PLIES, ge=1, le=1000, description="ply limit; reaching it is a draw")


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(
        max_length=16, description="a move in the game's notation: '4', '63', '22', '2223'", examples=["63"]
    )
    ply: int | None = Field(
        None,
        ge=0,
        le=100_000,
        description="the number of moves the page showed when it was made; another, and the answer is a 409 "
        "with the game as it is now under `game`",
    )


class AdvanceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ply: int | None = Field(
        None, ge=0, le=100_000, description="the number of moves the page showed; another, and the answer is a 409"
    )


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem, "description": "an illegal move or a bad player spec"},
    403: {"model": Problem, "description": "not from this server's own page (Origin), or no browser cookie"},
    404: {"model": Problem, "description": "no such game or learner for this browser"},
    409: {"model": Problem, "description": "not the moment: the other side is to move, or the game is over"},
    413: {"model": Problem, "description": "request body too large"},
    422: {"model": Problem, "description": "the request does not have the documented shape"},
    429: {"model": Problem, "description": "too many new browsers from one address; see Retry-After"},
    503: {
        "model": Problem,
        "description": "every worker is busy, memory is full, or the store is locked (nothing changed); see Retry-After",
    },
}


class NoCookie(PermissionError):
    """A request that needs a browser's own cookie came without one."""


def _one_line(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def create_app(store_path: str | Path | None = None, settings: WebSettings | None = None) -> FastAPI:
    """The ASGI app.  ``store_path`` None: the default store in the data directory; ``settings``
    None: the default limits (web/settings.py)."""
    settings = settings or WebSettings()
    store = Store(store_path, lock_wait=settings.store_wait_seconds)
    store.forget_web_games(older_than=time.time() - settings.stored_game_days * 86400)
    service = WebService(store, settings)
    newcomers = NewOwnerLimit(settings.new_owners_per_address, settings.owner_window_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Every request waiting in a lane of the pool holds one of anyio's threads (40 by
        # default): room for each heavy move that may wait, and 40 for everything else.
        import anyio.to_thread

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
    app.add_middleware(BodyLimit, limit=settings.body_limit)
    # The page and the API's answers, compressed for a browser that asks (an event stream never is).
    app.add_middleware(GZipMiddleware, minimum_size=500)
    # in a thread of its own: the server starts at once
    app.state.warm_up = warm_up(settings.warm_up, delay=settings.warm_up_delay_seconds)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(error)}, status_code=422)

    @app.exception_handler(NotFound)
    async def not_found(request: Request, error: NotFound) -> JSONResponse:
        return JSONResponse({"detail": public_message(error.args[0]) if error.args else "not found"}, status_code=404)

    def busy(detail: str, status: int, retry_after: int) -> JSONResponse:
        return JSONResponse({"detail": detail}, status_code=status, headers={"Retry-After": str(retry_after)})

    @app.exception_handler(PoolFull)
    async def pool_full(request: Request, error: PoolFull) -> JSONResponse:
        return busy(str(error), 503, error.retry_after)

    @app.exception_handler(TableFull)
    async def table_full(request: Request, error: TableFull) -> JSONResponse:
        return busy(str(error), 503, settings.retry_after_seconds * 30)

    @app.exception_handler(StoreLocked)
    async def store_locked(request: Request, error: StoreLocked) -> JSONResponse:
        detail = "the store is busy with another gamelearn program's write; nothing was changed, try again"
        return busy(detail, 503, settings.retry_after_seconds)

    @app.exception_handler(BuildInProgress)
    async def build_in_progress(request: Request, error: BuildInProgress) -> JSONResponse:
        return busy(public_message(error), 409, settings.retry_after_seconds * 15)

    @app.exception_handler(TooManyNewOwners)
    async def too_many_new(request: Request, error: TooManyNewOwners) -> JSONResponse:
        return busy(str(error), 429, error.retry_after)

    @app.exception_handler(NoCookie)
    async def no_cookie(request: Request, error: NoCookie) -> JSONResponse:
        return JSONResponse({"detail": public_message(error)}, status_code=403)

    @app.exception_handler(MoveInFlight)
    async def in_flight(request: Request, error: MoveInFlight) -> JSONResponse:
        return JSONResponse({"detail": public_message(error)}, status_code=409)

    @app.exception_handler(StaleMove)
    async def stale_move(request: Request, error: StaleMove) -> JSONResponse:
        return JSONResponse({"detail": public_message(error), "game": error.game}, status_code=409)

    @app.exception_handler(TooManyWatchers)
    async def too_many_watchers(request: Request, error: TooManyWatchers) -> JSONResponse:
        return busy(str(error), 503, settings.retry_after_seconds * 5)

    @app.exception_handler(NotYourTurn)
    async def not_your_turn(request: Request, error: NotYourTurn) -> JSONResponse:
        return JSONResponse({"detail": public_message(error)}, status_code=409)

    # IllegalMove is a ValueError: like a bad spec or a bad name, a person's mistake, so a 400.
    # Every detail goes through public_message: one line, no path of the server's files.
    @app.exception_handler(ValueError)
    async def bad_value(request: Request, error: ValueError) -> JSONResponse:
        return JSONResponse({"detail": public_message(error)}, status_code=400)

    @app.middleware("http")
    async def owner_cookie(request: Request, call_next: Any) -> Response:
        owner = request.cookies.get(OWNER_COOKIE)
        fresh = not valid_owner(owner)
        request.state.owner = new_owner_id() if fresh else owner
        request.state.fresh_owner = fresh
        refused = cross_origin(request.method, request.url.scheme, dict(request.headers))
        if refused is not None:
            response: Response = JSONResponse({"detail": public_message(refused)}, status_code=403)
        else:
            response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if fresh:
            response.set_cookie(
                OWNER_COOKIE, request.state.owner, max_age=OWNER_MAX_AGE, httponly=True, samesite="strict", path="/"
            )
        return response

    def owner_of(request: Request) -> str:
        return str(request.state.owner)

    def cookie_owner(request: Request) -> str:
        """The owner of a browser that came with its cookie (403 without): for work that costs the
        server much, done for a browser that has loaded the page, not for any script's request."""
        if request.state.fresh_owner:
            raise NoCookie("this needs this browser's cookie: load the page first, then try again")
        return owner_of(request)

    def check_id(game_id: str) -> str:
        if not re.match(GAME_ID, game_id):
            raise NotFound(f"no game {game_id[:40]!r} here")
        return game_id

    # The page ---------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # Games ------------------------------------------------------------------------------------

    @app.get("/api/games", tags=["games"], summary="The games and the players each accepts")
    def list_games(
        players: bool = Query(True, description="with each game's player kinds and their options (false: without)"),
    ) -> list[dict[str, Any]]:
        """The page asks without the players first (its first load is small) and with them when
        its new-game form opens."""
        infos = [game_info(service.load_game(name), settings.work_bounds) for name in GAME_NAMES]
        return infos if players else [{k: v for k, v in info.items() if k != "players"} for info in infos]

    @app.post("/api/games", tags=["games"], summary="Start a game", responses=ERRORS)
    def start_game(body: NewGame, request: Request) -> dict[str, Any]:
        """Seats two players (any spec the game accepts, `human` included).  When a computer moves
        first against a person, its move is in the answer's `events`.  A browser's first game
        counts against its address's limit of new browsers (429 past it)."""
        owner = owner_of(request)
        if service.is_new_owner(owner):
            newcomers.admit(request.client.host if request.client else "unknown")
        return service.start(owner, body.game, body.players, body.seed, body.max_plies)

    @app.get("/api/games/{game_id}", tags=["games"], summary="A game in progress", responses=ERRORS)
    def get_game(game_id: str, request: Request) -> dict[str, Any]:
        return service.view(service.get(owner_of(request), check_id(game_id)))

    @app.post("/api/games/{game_id}/move", tags=["games"], summary="A person's move", responses=ERRORS)
    def move(game_id: str, body: MoveIn, request: Request) -> dict[str, Any]:
        """The game checks the move (an illegal one is a 400 naming the move and why, and changes
        nothing); the computer's answer follows in `events`.  With `ply`, a move made on a ply the
        game has left (another tab moved first) is a 409 with the game as it is now under `game`."""
        return service.human_move(owner_of(request), check_id(game_id), body.move, body.ply)

    @app.get(
        "/api/games/{game_id}/events",
        tags=["games"],
        summary="The game's changes, live (server-sent events)",
        responses=ERRORS,
        response_class=StreamingResponse,
    )
    async def game_events(game_id: str, request: Request) -> StreamingResponse:
        """A `text/event-stream`: an event `game` with `{"ply", "moves", "over"}` at once and after
        every change of the game (`{"gone": true}` once it is abandoned).  Each stream ends after
        some seconds and the browser's EventSource reconnects (`retry:`)."""
        owner, game_id = owner_of(request), check_id(game_id)
        web_game = await run_in_threadpool(service.get, owner, game_id)  # 404 for another's game
        service.feed.check_room(owner)
        stream = service.feed.stream(owner, game_id, news(web_game.moves, web_game.over))
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    @app.post("/api/games/{game_id}/advance", tags=["games"], summary="One computer move", responses=ERRORS)
    def advance(game_id: str, request: Request, body: AdvanceIn | None = None) -> dict[str, Any]:
        """For games between two computers: the side to move plays one move.  With `ply`, as for
        a move: asked on a ply the game has left (another tab moved), a 409 with the game as it is
        now under `game`, and no move is played."""
        return service.computer_move(owner_of(request), check_id(game_id), body.ply if body else None)

    @app.get("/api/warm-up", tags=["games"], summary="What the server makes ready in the background")
    def warm_up_state() -> dict[str, Any]:
        """`kinds`: each player kind the server warms up (`gamelearn serve` warms az, whose first
        move takes half a minute otherwise), with its state per game: `waiting`, `loading`,
        `ready`, or `skipped` (its first move does the work).  Empty when nothing is warmed."""
        thread = app.state.warm_up
        return {"kinds": thread.states() if thread is not None else {}}

    @app.delete("/api/games/{game_id}", tags=["games"], summary="Abandon a game", responses=ERRORS, status_code=204)
    def abandon(game_id: str, request: Request) -> Response:
        service.abandon(owner_of(request), check_id(game_id))
        return Response(status_code=204)

    @app.post("/api/games/{game_id}/resign", tags=["games"], summary="The person gives up", responses=ERRORS)
    def resign(game_id: str, request: Request) -> dict[str, Any]:
        return service.resign(owner_of(request), check_id(game_id))

    @app.post(
        "/api/games/{game_id}/takeback",
        tags=["games"],
        summary="Take back your last move (and the computer's answer)",
        responses=ERRORS,
    )
    def take_back(game_id: str, request: Request) -> dict[str, Any]:
        return service.take_back(owner_of(request), check_id(game_id))

    @app.get("/api/games/{game_id}/review", tags=["review"], summary="A game graded move by move", responses=ERRORS)
    def review_game(game_id: str, request: Request) -> dict[str, Any]:
        """Each position's exact value (from the first player's side) and each move's grade
        against the perfect player (best, keeps, mistake, blunder), with the best moves."""
        web_game = service.get(owner_of(request), check_id(game_id))
        return review(web_game.game, web_game.moves) | {"id": web_game.id, "players": web_game.specs()}

    @app.get("/api/records", tags=["review"], summary="This browser's finished games")
    def records(request: Request, game: str | None = Query(None, max_length=100)) -> list[dict[str, Any]]:
        # records carry the game's spec (a form of Teeko is named as played)
        spec = service.load_game(game).spec if game is not None else None
        rows = service.reader.records(game=spec, owner=owner_of(request), limit=RECORDS_LISTED)
        return [{k: row[k] for k in ("id", "game", "players", "winner", "end", "plies")} for row in reversed(rows)]

    @app.get("/api/records/{record_id}/review", tags=["review"], summary="A kept game graded", responses=ERRORS)
    def review_record(record_id: int, request: Request) -> dict[str, Any]:
        row = service.record(owner_of(request), record_id)
        return review(service.load_game(row["game"]), row["moves"]) | {"record": record_id, "players": row["players"]}

    @app.get("/api/tables/{game}", tags=["review"], summary="Whether the game's solved table is ready")
    def table_status(game: str) -> dict[str, Any]:
        return service.tables.status(game[:100])

    @app.post("/api/tables/{game}/build", tags=["review"], summary="Build the game's solved table", responses=ERRORS)
    def table_build(game: str, request: Request) -> dict[str, Any]:
        """Starts the build (about 20 s for Teeko on an idle server); poll GET /api/tables/{game}.
        One build at a time in all, for a browser with its cookie (403 without); another table
        being built is a 409."""
        return service.tables.start(game[:100], cookie_owner(request))

    @app.get(
        "/api/games/{game_id}/analysis",
        tags=["games"],
        summary="The perfect player's value of every move",
        responses=ERRORS,
    )
    def analysis(game_id: str, request: Request) -> dict[str, Any]:
        """Each legal move's value for the side to move (+1 win, 0 draw, -1 loss with best play)
        where the game's solution is available; `available` false and a `reason` where it is not."""
        return service.analysis(owner_of(request), check_id(game_id))

    # Learners and the chart ---------------------------------------------------------------------

    @app.get("/api/learners", tags=["learners"], summary="This browser's learners")
    def learners(request: Request) -> list[dict[str, Any]]:
        owner = owner_of(request)
        kept = [(kind, name) for kind, name in service.reader.list_learners(owner=owner) if kind != RESET_MARK_KIND]
        return [{"kind": kind, "name": name} for kind, name in kept] + [
            {"kind": "thesis-memory", "name": name} for name in service.reader.list_memories(owner=owner)
        ]

    @app.post(
        "/api/learners/{kind}/reset", tags=["learners"], summary="Forget what a learner learned", responses=ERRORS
    )
    def reset(kind: str, request: Request, game: str = Query(..., max_length=40)) -> dict[str, Any]:
        return {"kind": kind, "game": game, "deleted": service.reset_learner(owner_of(request), kind, game)}

    @app.get("/api/learners/{kind}/export", tags=["learners"], summary="Download a learner", responses=ERRORS)
    def export(kind: str, request: Request, game: str = Query(..., max_length=40)) -> Response:
        """JSON for matchboxes (HER, HIM, MENACE); the thesis's memory.m for the Teeko memory."""
        exported = service.export_learner(owner_of(request), kind, game)
        return Response(
            exported.content,
            media_type=exported.media_type,
            headers={"Content-Disposition": f'attachment; filename="{exported.filename}"'},
        )

    @app.get("/api/learners/{kind}/boxes", tags=["learners"], summary="Every matchbox of a learner", responses=ERRORS)
    def learner_boxes(
        kind: str,
        request: Request,
        game: str = Query(..., max_length=40),
        show: str = Query("all", max_length=10, description="all, opened (in the game `game_id`) or emptied"),
        game_id: str | None = Query(None, max_length=40),
        offset: int = Query(0, ge=0, le=100_000),
        limit: int = Query(60, ge=1, le=60),
    ) -> dict[str, Any]:
        """HER's, HIM's or MENACE's boxes with their beads (a bead count of 0: the empty ring a
        lost bead leaves), 60 at most per answer."""
        if game_id is not None:
            check_id(game_id)
        return service.learner_boxes(owner_of(request), kind, game, show, game_id, offset, limit)

    @app.get(
        "/api/learners/{kind}/first-box", tags=["learners"], summary="The first box over the games", responses=ERRORS
    )
    def first_box(kind: str, request: Request, game: str = Query(..., max_length=40)) -> dict[str, Any]:
        """The bead counts of the learner's box for the empty board after each of its games."""
        return service.first_box(owner_of(request), kind, game)

    @app.get("/api/learners/thesis/memory", tags=["learners"], summary="The thesis memory's records", responses=ERRORS)
    def memory(
        request: Request,
        game: str = Query("teeko", max_length=40),
        position: str = Query("", max_length=25, description="squares of '.', 'X', 'O' or '?' (any), from 00"),
        offset: int = Query(0, ge=0, le=1_000_000),
        limit: int = Query(60, ge=1, le=60),
    ) -> dict[str, Any]:
        return service.memory(owner_of(request), game, position, offset, limit)

    @app.get("/api/chart", tags=["learners"], summary="Wins and losses over this browser's games", responses=ERRORS)
    def chart(
        request: Request, game: str = Query(..., max_length=40), learner: str | None = Query(None, max_length=40)
    ) -> dict[str, Any]:
        """Gardner's chart: a letter a game (W won, L lost, D drawn) from the learner's side."""
        return service.chart(owner_of(request), game, learner)

    add_training_routes(app, ERRORS)
    add_offline_routes(app, STATIC)
    return app
