"""The routes of reviewing games: a game graded move by move against the perfect player, the
browser's finished games, and the solved tables the grades need (Teeko's is built on request)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..keeper import Keeper
from ..players.knowledge import Learner
from .analysis_board import analysis_board
from .errors import ERRORS
from .models import AnalysisBoard, RecordRow, Review, TableStatus
from .review import review
from .routing import analyst_of, check_id, cookie_owner, learners_of, owner_of, service_of

router = APIRouter(tags=["review"])
#: How many of its latest finished games a browser can list for review.
RECORDS_LISTED = 200


@router.get(
    "/api/games/{game_id}/review",
    summary="A game graded move by move",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def review_game(game_id: str, request: Request) -> Review:
    """Each position's exact value (from the first player's side) and each move's grade
    against the perfect player (best, keeps, mistake, blunder), with the best moves."""
    web_game = service_of(request).get(owner_of(request), check_id(game_id))
    answer = review(web_game.game, web_game.moves)
    answer.id, answer.players = web_game.id, web_game.specs()
    return answer


@router.get("/api/records", summary="This browser's finished games")
def records(request: Request, game: str | None = Query(None, max_length=100)) -> list[RecordRow]:
    service = service_of(request)
    # records carry the game's spec (a form of Teeko is named as played)
    spec = service.load_game(game).spec if game is not None else None
    rows = service.reader.records(game=spec, owner=owner_of(request), limit=RECORDS_LISTED)
    return [
        RecordRow(
            id=row["id"],
            game=row["game"],
            players=row["players"],
            winner=row["winner"],
            end=row["end"],
            plies=row["plies"],
        )
        for row in reversed(rows)
    ]


@router.get(
    "/api/records/{record_id}/review",
    summary="A kept game graded",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def review_record(record_id: int, request: Request) -> Review:
    service = service_of(request)
    row = service.record(owner_of(request), record_id)
    answer = review(service.load_game(row["game"]), row["moves"])
    answer.record, answer.players = record_id, row["players"]
    return answer


@router.get("/api/tables/{game}", summary="Whether the game's solved table is ready")
def table_status(game: str, request: Request) -> TableStatus:
    return service_of(request).tables.status(game[:100])


@router.post("/api/tables/{game}/build", summary="Build the game's solved table", responses=ERRORS)
def table_build(game: str, request: Request) -> TableStatus:
    """Starts the build (about 20 s for Teeko on an idle server); poll GET /api/tables/{game}.
    One build at a time in all, for a browser with its cookie (403 without); another table
    being built is a 409."""
    return service_of(request).tables.start(game[:100], cookie_owner(request))


class AnalysisIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=100, description="the game's spec, as the review names it", examples=["hexapawn"])
    moves: list[Annotated[str, StringConstraints(max_length=16)]] = Field(
        default_factory=list, max_length=1000, description="the line of moves from the start", examples=[["63", "14"]]
    )
    players: list[Annotated[str, StringConstraints(max_length=200)]] = Field(
        default_factory=list,
        max_length=2,
        description="the game's two player specs: the one to move shows its own view of each move",
        examples=[["human", "her"]],
    )


@router.post(
    "/api/analysis", summary="A position of the analysis board", responses=ERRORS, response_model_exclude_unset=True
)
def analysis_position(body: AnalysisIn, request: Request) -> AnalysisBoard:
    """The position after `moves` played from the start by the game's rules (a move they refuse
    is a 400 naming it), its legal moves, each move's perfect value where the game's solution is
    ready here (`perfect.available` false and why where it is not: Teeko before its table), and
    what the player seated on the side to move makes of each move: this browser's own learner
    of that kind, as it is kept now (`view` None, and `none` saying why, for any other player)."""
    service, owner = service_of(request), owner_of(request)
    game = service.load_game(body.game)

    def make_learner(kind: str) -> Learner:
        learner, _ = learners_of(request).browser_learner(kind, body.game)
        Keeper(service.reader, owner).attach(learner)
        return learner

    return analysis_board(game, list(body.moves), list(body.players), analyst_of(request), make_learner)
