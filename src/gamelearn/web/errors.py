"""How the web app answers a request that cannot be done: every error a 4xx with a one-line
``detail`` (never a traceback, never a server path: guards.public_message), or a 503 with
Retry-After when the server is busy or the store is locked by another process."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ..keeper import LearnerInTraining
from ..store.failures import StoreLocked
from .guards import TooManyNewOwners, TooManyShares, public_message
from .live import TooManyWatchers
from .pool import MoveInFlight, PoolFull
from .service import NeedsTable, NotFound, NotYourTurn, StaleMove
from .sessions import TableFull
from .settings import WebSettings
from .tables import BuildInProgress


class Problem(BaseModel):
    detail: str = Field(description="what was wrong, in one line")


#: The answers a route documents beside its own (FastAPI's ``responses``).
Responses = dict[int | str, dict[str, Any]]

ERRORS: Responses = {
    400: {"model": Problem, "description": "an illegal move or a bad player spec"},
    403: {"model": Problem, "description": "not from this server's own page (Origin), or no browser cookie"},
    404: {"model": Problem, "description": "no such game or learner for this browser"},
    409: {"model": Problem, "description": "not the moment: the other side is to move, or the game is over"},
    413: {"model": Problem, "description": "request body too large"},
    422: {"model": Problem, "description": "the request does not have the documented shape"},
    429: {
        "model": Problem,
        "description": "too many new browsers from one address, or shared links; see Retry-After",
    },
    503: {
        "model": Problem,
        "description": "every worker is busy, memory is full, or the store is locked (nothing changed); see Retry-After",
    },
}


def raw_answer(*media_types: str) -> Responses:
    """:data:`ERRORS`, and a 200 that is not a model's JSON: a stream or a file (a record's text, a
    learner's own file), in each of ``media_types``, sent as it is (a file as bytes, the way
    OpenAPI describes a download, even a learner's JSON)."""
    schema = {"type": "string"}
    binary = {"type": "string", "format": "binary"}
    content = {kind: {"schema": schema if kind.startswith("text/") else binary} for kind in media_types}
    return ERRORS | {200: {"content": content}}


class NoCookie(PermissionError):
    """A request that needs a browser's own cookie came without one."""


def one_line(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _busy(detail: str, status: int, retry_after: int) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers={"Retry-After": str(retry_after)})


def _settings(request: Request) -> WebSettings:
    settings: WebSettings = request.app.state.settings
    return settings


async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    return JSONResponse({"detail": one_line(error)}, status_code=422)


async def _not_found(request: Request, error: NotFound) -> JSONResponse:
    return JSONResponse({"detail": public_message(error.args[0]) if error.args else "not found"}, status_code=404)


async def _pool_full(request: Request, error: PoolFull) -> JSONResponse:
    return _busy(str(error), 503, error.retry_after)


async def _table_full(request: Request, error: TableFull) -> JSONResponse:
    return _busy(str(error), 503, _settings(request).retry_after_seconds * 30)


async def _store_locked(request: Request, error: StoreLocked) -> JSONResponse:
    detail = "the store is busy with another gamelearn program's write; nothing was changed, try again"
    return _busy(detail, 503, _settings(request).retry_after_seconds)


async def _build_in_progress(request: Request, error: BuildInProgress) -> JSONResponse:
    return _busy(public_message(error), 409, _settings(request).retry_after_seconds * 15)


async def _too_many_new(request: Request, error: TooManyNewOwners) -> JSONResponse:
    return _busy(str(error), 429, error.retry_after)


async def _too_many_shares(request: Request, error: TooManyShares) -> JSONResponse:
    return _busy(str(error), 429, error.retry_after)


async def _too_many_watchers(request: Request, error: TooManyWatchers) -> JSONResponse:
    return _busy(str(error), 503, _settings(request).retry_after_seconds * 5)


async def _stale_move(request: Request, error: StaleMove) -> JSONResponse:
    game = error.game.model_dump(mode="json", exclude_unset=True)  # as the game's own routes send it
    return JSONResponse({"detail": public_message(error), "game": game}, status_code=409)


async def _needs_table(request: Request, error: NeedsTable) -> JSONResponse:
    return JSONResponse({"detail": public_message(error), "table": error.table}, status_code=400)


def _plain(status: int) -> Callable[[Request, Exception], Any]:
    async def answer(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": public_message(error)}, status_code=status)

    return answer


def add_error_handlers(app: FastAPI) -> None:
    """Register the answers above (the app's ``state.settings`` gives the Retry-After times)."""
    handlers: list[tuple[type[Exception], Callable[..., Any]]] = [
        (RequestValidationError, _validation_error),
        (NotFound, _not_found),
        (PoolFull, _pool_full),
        (TableFull, _table_full),
        (StoreLocked, _store_locked),
        (BuildInProgress, _build_in_progress),
        (TooManyNewOwners, _too_many_new),
        (TooManyShares, _too_many_shares),
        (NoCookie, _plain(403)),
        (MoveInFlight, _plain(409)),
        (StaleMove, _stale_move),
        (TooManyWatchers, _too_many_watchers),
        (NotYourTurn, _plain(409)),
        (NeedsTable, _needs_table),
        (LearnerInTraining, _plain(409)),
        # IllegalMove is a ValueError: like a bad spec or a bad name, a person's mistake, so a 400.
        # Every detail goes through public_message: one line, no path of the server's files.
        (ValueError, _plain(400)),
    ]
    for error, handler in handlers:
        app.add_exception_handler(error, handler)
