"""The routes of training from the page (:mod:`.training`): start a run, poll it, stop it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from .training import BOXES_PAGE, MAX_GAMES, OPPONENTS, Trainer


class TrainingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    opponent: str = Field(max_length=20, description=f"one of {', '.join(OPPONENTS)}", examples=["random"])
    games: int = Field(ge=1, le=max(MAX_GAMES.values()), description="how many games", examples=[100])
    side: int | None = Field(None, ge=0, le=1, description="the learner's side (0 moves first); none: its usual one")
    seed: int | None = Field(None, ge=0, le=2**31 - 1, description="seed of the run's games")


def add_training_routes(app: FastAPI, errors: dict[int | str, dict[str, Any]]) -> Trainer:
    """Register the routes on ``app`` (its ``state.service`` is the WebService); the Trainer."""
    trainer = Trainer(app.state.service)
    app.state.trainer = trainer

    def owner_of(request: Request) -> str:
        return str(request.state.owner)

    @app.get(
        "/api/learners/{kind}/training",
        tags=["learners"],
        summary="A learner's training run from the page",
        responses=errors,
    )
    def training(kind: str, request: Request, game: str = Query(..., max_length=40)) -> dict[str, Any]:
        """The latest run: games played of games asked for, wins, losses, draws, and `points`, the
        yardstick's grade (`keeps`, `best`, `blunders`: shares of the suite's positions) before
        its first game and at each checkpoint, against the games trained."""
        return trainer.status(owner_of(request), kind, game)

    @app.post(
        "/api/learners/{kind}/training",
        tags=["learners"],
        summary="Train a learner against random, perfect or itself for N games",
        responses=errors,
    )
    def train(kind: str, body: TrainingIn, request: Request, game: str = Query(..., max_length=40)) -> dict[str, Any]:
        """Runs on the server in the background (poll the GET); each game is kept by the keeper
        as a game played on the page is.  One run per browser; 503 when the server runs as many
        as it may."""
        return trainer.start(owner_of(request), kind, game, body.opponent, body.games, body.side, body.seed)

    @app.delete(
        "/api/learners/{kind}/training",
        tags=["learners"],
        summary="Stop a training run after its current game",
        responses=errors,
    )
    def stop(kind: str, request: Request, game: str = Query(..., max_length=40)) -> dict[str, Any]:
        return trainer.stop(owner_of(request), kind, game)

    @app.get(
        "/api/learners/{kind}/every-box",
        tags=["learners"],
        summary="Every box a matchbox learner can have, opened or not",
        responses=errors,
    )
    def every_box(
        kind: str,
        request: Request,
        game: str = Query(..., max_length=40),
        side: int | None = Query(None, ge=0, le=1),
        offset: int = Query(0, ge=0, le=100_000),
        limit: int = Query(BOXES_PAGE, ge=1, le=BOXES_PAGE),
    ) -> dict[str, Any]:
        """Each box with its beads as kept (`opened` false: not met yet, its beads as it will open)."""
        return trainer.every_box(owner_of(request), kind, game, side, offset, limit)

    return trainer
