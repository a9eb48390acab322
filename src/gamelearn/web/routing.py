"""What every route module shares: who the browser is (its owner cookie), the app's services,
and the check of a game id in a path."""

from __future__ import annotations

import re

from fastapi import Request

from .analysis import Analyst
from .errors import NoCookie
from .learner_service import LearnerService
from .service import NotFound, WebService

GAME_ID = r"^[A-Za-z0-9_-]{1,32}$"


def owner_of(request: Request) -> str:
    """The browser's owner id (its cookie; a new browser's id is made by app.py's middleware)."""
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


def service_of(request: Request) -> WebService:
    service: WebService = request.app.state.service
    return service


def learners_of(request: Request) -> LearnerService:
    learners: LearnerService = request.app.state.learners
    return learners


def analyst_of(request: Request) -> Analyst:
    analyst: Analyst = request.app.state.analyst
    return analyst
