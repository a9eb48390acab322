"""The routes of training from the page (:mod:`.training`): start a run, poll it, stop it."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from .errors import ERRORS
from .models import EveryBox, TrainingStatus
from .routing import owner_of
from .training import BOXES_PAGE, MAX_GAMES, OPPONENTS, Trainer

router = APIRouter(tags=["learners"])


class TrainingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    opponent: str = Field(max_length=20, description=f"one of {', '.join(OPPONENTS)}", examples=["random"])
    games: int = Field(ge=1, le=max(MAX_GAMES.values()), description="how many games", examples=[100])
    side: int | None = Field(None, ge=0, le=1, description="the learner's side (0 moves first); none: its usual one")
    seed: int | None = Field(None, ge=0, le=2**31 - 1, description="seed of the run's games")
    options: str = Field(
        "", max_length=80, description="the learner's options for the run (a remedy: restock=on)", examples=[""]
    )


def trainer_of(request: Request) -> Trainer:
    trainer: Trainer = request.app.state.trainer
    return trainer


@router.get(
    "/api/learners/{kind}/training",
    summary="A learner's training run from the page",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def training(kind: str, request: Request, game: str = Query(..., max_length=40)) -> TrainingStatus:
    """The latest run: games played of games asked for, wins, losses, draws, and `points`, the
    yardstick's grade (`keeps`, `best`, `blunders`: shares of the suite's positions) before
    its first game and at each checkpoint, against the games trained."""
    return trainer_of(request).status(owner_of(request), kind, game)


@router.post(
    "/api/learners/{kind}/training",
    summary="Train a learner against random, perfect, mixed or itself for N games",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def train(kind: str, body: TrainingIn, request: Request, game: str = Query(..., max_length=40)) -> TrainingStatus:
    """Runs on the server in the background (poll the GET); each game is kept by the keeper
    as a game played on the page is.  One run per browser; 503 when the server runs as many
    as it may."""
    trainer = trainer_of(request)
    return trainer.start(
        owner_of(request), kind, game, body.opponent, body.games, body.side, body.seed, options=body.options
    )


@router.delete(
    "/api/learners/{kind}/training",
    summary="Stop a training run after its current game",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def stop(kind: str, request: Request, game: str = Query(..., max_length=40)) -> TrainingStatus:
    return trainer_of(request).stop(owner_of(request), kind, game)


@router.get(
    "/api/learners/{kind}/every-box",
    summary="Every box a matchbox learner can have, opened or not",
    responses=ERRORS,
)
def every_box(
    kind: str,
    request: Request,
    game: str = Query(..., max_length=40),
    side: int | None = Query(None, ge=0, le=1),
    offset: int = Query(0, ge=0, le=100_000),
    limit: int = Query(BOXES_PAGE, ge=1, le=BOXES_PAGE),
) -> EveryBox:
    """Each box with its beads as kept (`opened` false: not met yet, its beads as it will open)."""
    return trainer_of(request).every_box(owner_of(request), kind, game, side, offset, limit)
