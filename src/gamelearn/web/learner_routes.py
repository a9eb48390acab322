"""The routes of a browser's learners: those it keeps, forgetting one, downloading one, its
boxes and records, and Gardner's chart of its results."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ..knowledge_formats import kept_names
from .errors import ERRORS, raw_answer
from .models import BoxesPage, Chart, FirstBox, KeptLearner, MemoryPage, ResetAnswer
from .routing import check_id, learners_of, owner_of, service_of

router = APIRouter(tags=["learners"])


@router.get("/api/learners", summary="This browser's learners")
def learners(request: Request) -> list[KeptLearner]:
    owner, reader = owner_of(request), service_of(request).reader
    return [KeptLearner(kind=kind, name=name) for kind, name in kept_names(reader, owner)]


@router.post("/api/learners/{kind}/reset", summary="Forget what a learner learned", responses=ERRORS)
def reset(kind: str, request: Request, game: str = Query(..., max_length=40)) -> ResetAnswer:
    return ResetAnswer(kind=kind, game=game, deleted=learners_of(request).reset(owner_of(request), kind, game))


@router.get(
    "/api/learners/{kind}/export",
    summary="Download a learner",
    responses=raw_answer("application/json", "application/octet-stream"),
    response_class=Response,
)
def export(kind: str, request: Request, game: str = Query(..., max_length=40)) -> Response:
    """JSON for matchboxes (HER, HIM, MENACE); the thesis's memory.m for the Teeko memory."""
    exported = learners_of(request).export(owner_of(request), kind, game)
    return Response(
        exported.content,
        media_type=exported.media_type,
        headers={"Content-Disposition": f'attachment; filename="{exported.filename}"'},
    )


@router.get(
    "/api/learners/{kind}/boxes",
    summary="Every matchbox of a learner",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def learner_boxes(
    kind: str,
    request: Request,
    game: str = Query(..., max_length=40),
    show: str = Query("all", max_length=10, description="all, opened (in the game `game_id`) or emptied"),
    game_id: str | None = Query(None, max_length=40),
    offset: int = Query(0, ge=0, le=100_000),
    limit: int = Query(60, ge=1, le=60),
) -> BoxesPage:
    """HER's, HIM's or MENACE's boxes with their beads (a bead count of 0: the empty ring a
    lost bead leaves), 60 at most per answer."""
    if game_id is not None:
        check_id(game_id)
    return learners_of(request).boxes(owner_of(request), kind, game, show, game_id, offset, limit)


@router.get(
    "/api/learners/{kind}/first-box",
    summary="The first box over the games",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def first_box(kind: str, request: Request, game: str = Query(..., max_length=40)) -> FirstBox:
    """The bead counts of the learner's box for the empty board after each of its games."""
    return learners_of(request).first_box(owner_of(request), kind, game)


@router.get(
    "/api/learners/thesis/memory",
    summary="The thesis memory's records",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def memory(
    request: Request,
    game: str = Query("teeko", max_length=40),
    position: str = Query("", max_length=25, description="squares of '.', 'X', 'O' or '?' (any), from 00"),
    offset: int = Query(0, ge=0, le=1_000_000),
    limit: int = Query(60, ge=1, le=60),
) -> MemoryPage:
    return learners_of(request).memory(owner_of(request), game, position, offset, limit)


@router.get(
    "/api/chart",
    summary="Wins and losses over this browser's games",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def chart(
    request: Request, game: str = Query(..., max_length=40), learner: str | None = Query(None, max_length=40)
) -> Chart:
    """Gardner's chart: a letter a game (W won, L lost, D drawn) from the learner's side."""
    return learners_of(request).chart(owner_of(request), game, learner)
