"""The routes of games in progress: start one, move, let a computer move, resign, take back,
abandon, follow it live, and the perfect player's value of every move.

The routes that answer a game are ``async`` and hand the service's work to a worker thread
themselves (``run_in_threadpool``): FastAPI checks a plain ``def`` route's answer against its
model in a second hop to a worker thread, which costs a move more than building and serialising
the model does (docs/web.md, "Speed under load")."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from ..games import GAME_NAMES, broken_games, game_names
from ..match import DEFAULT_MAX_PLIES
from .errors import ERRORS, raw_answer
from .live import news
from .models import Analysis, GameInfo, GameView, WarmUpState
from .routing import analyst_of, check_id, owner_of, service_of
from .training import MAX_GAMES, TRAINABLE
from .views import game_info

router = APIRouter(tags=["games"])


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


@router.get("/api/games", summary="The games and the players each accepts", response_model_exclude_unset=True)
def list_games(
    request: Request,
    players: bool = Query(True, description="with each game's player kinds and their options (false: without)"),
) -> list[GameInfo]:
    """The page asks without the players first (its first load is small) and with them when its
    new-game form opens."""
    service = service_of(request)
    broken = broken_games()  # a plugin that cannot be loaded is left out of the picker (docs/own-game.md)
    infos = []
    for name in [name for name in game_names() if name not in broken]:
        game = service.load_game(name)
        # The page asks a learner's training status only where it trains (else a 400).
        trains = TRAINABLE if game.name in MAX_GAMES else ()
        infos.append(game_info(game, service.settings.work_bounds, trains=trains, options=players))
    return infos


@router.post("/api/games", summary="Start a game", responses=ERRORS, response_model_exclude_unset=True)
async def start_game(body: NewGame, request: Request) -> GameView:
    """Seats two players (any spec the game accepts, `human` included).  When a computer moves
    first against a person, its move is in the answer's `events`.  A browser's first game
    counts against its address's limit of new browsers (429 past it)."""
    return await run_in_threadpool(start, body, request)


def start(body: NewGame, request: Request) -> GameView:
    owner, service = owner_of(request), service_of(request)
    if service.is_new_owner(owner):
        request.app.state.newcomers.admit(request.client.host if request.client else "unknown", owner)
    return service.start(owner, body.game, body.players, body.seed, body.max_plies)


@router.get("/api/games/{game_id}", summary="A game in progress", responses=ERRORS, response_model_exclude_unset=True)
async def get_game(game_id: str, request: Request) -> GameView:
    service, owner, game_id = service_of(request), owner_of(request), check_id(game_id)
    return await run_in_threadpool(lambda: service.view(service.get(owner, game_id)))


@router.post(
    "/api/games/{game_id}/move", summary="A person's move", responses=ERRORS, response_model_exclude_unset=True
)
async def move(game_id: str, body: MoveIn, request: Request) -> GameView:
    """The game checks the move (an illegal one is a 400 naming the move and why, and changes
    nothing); the computer's answer follows in `events`.  With `ply`, a move made on a ply the
    game has left (another tab moved first) is a 409 with the game as it is now under `game`."""
    service = service_of(request)
    return await run_in_threadpool(service.human_move, owner_of(request), check_id(game_id), body.move, body.ply)


@router.get(
    "/api/games/{game_id}/events",
    summary="The game's changes, live (server-sent events)",
    responses=raw_answer("text/event-stream"),
    response_class=StreamingResponse,
)
async def game_events(game_id: str, request: Request) -> StreamingResponse:
    """A `text/event-stream`: an event `game` with `{"ply", "moves", "over"}` at once and after
    every change of the game (`{"gone": true}` once it is abandoned).  Each stream ends after
    some seconds and the browser's EventSource reconnects (`retry:`)."""
    owner, game_id, service = owner_of(request), check_id(game_id), service_of(request)
    web_game = await run_in_threadpool(service.get, owner, game_id)  # 404 for another's game
    service.feed.check_room(owner)
    stream = service.feed.stream(owner, game_id, news(web_game.moves, web_game.over))
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)


@router.post(
    "/api/games/{game_id}/advance", summary="One computer move", responses=ERRORS, response_model_exclude_unset=True
)
async def advance(game_id: str, request: Request, body: AdvanceIn | None = None) -> GameView:
    """For games between two computers: the side to move plays one move.  With `ply`, as for a
    move: asked on a ply the game has left (another tab moved), a 409 with the game as it is now
    under `game`, and no move is played."""
    ply = body.ply if body else None
    return await run_in_threadpool(service_of(request).computer_move, owner_of(request), check_id(game_id), ply)


@router.get("/api/warm-up", summary="What the server makes ready in the background")
def warm_up_state(request: Request) -> WarmUpState:
    """`kinds`: each player kind the server warms up (`gamelearn serve` warms az, whose first
    move takes half a minute otherwise), with its state per game: `waiting`, `loading`, `ready`,
    or `skipped` (its first move does the work).  Empty when nothing is warmed."""
    thread = request.app.state.warm_up
    return WarmUpState(kinds=thread.states() if thread is not None else {})


@router.delete("/api/games/{game_id}", summary="Abandon a game", responses=ERRORS, status_code=204)
def abandon(game_id: str, request: Request) -> Response:
    service_of(request).abandon(owner_of(request), check_id(game_id))
    return Response(status_code=204)


@router.post(
    "/api/games/{game_id}/resign", summary="The person gives up", responses=ERRORS, response_model_exclude_unset=True
)
async def resign(game_id: str, request: Request) -> GameView:
    return await run_in_threadpool(service_of(request).resign, owner_of(request), check_id(game_id))


@router.post(
    "/api/games/{game_id}/takeback",
    summary="Take back your last move (and the computer's answer)",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
async def take_back(game_id: str, request: Request) -> GameView:
    return await run_in_threadpool(service_of(request).take_back, owner_of(request), check_id(game_id))


@router.get(
    "/api/games/{game_id}/analysis",
    summary="The perfect player's value of every move",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
async def analysis(game_id: str, request: Request) -> Analysis:
    """Each legal move's value for the side to move (+1 win, 0 draw, -1 loss with best play)
    where the game's solution is available; `available` false and a `reason` where it is not."""
    service, analyst, owner, game_id = service_of(request), analyst_of(request), owner_of(request), check_id(game_id)
    return await run_in_threadpool(lambda: analyst.analysis(service.get(owner, game_id)))
