"""The routes of games leaving the page: a finished game's text record to download (this
browser's game, or one of its kept games), a record's text posted to be reviewed, and a read-only
shared link of a finished game.

A shared game is kept in the store under the owner :data:`SHARED_OWNER` (no browser's id has
that form), the link's token as its context; opening it needs no cookie.  What is shared is the
game alone: its moves, result, seed and the players' kinds with their options, less every
learner's name and memory (:func:`public_spec`), never the owner's id.

Sharing is bounded, so that no browser and no flood of them can grow the store without end: the
store's ``web_shares`` row of each link says which browser made it, for which copy (a digest of
what is shared), and when.  The same game shared again by the same browser answers its link; a
browser keeps at most ``WebSettings.shares_per_owner`` links and the server ``total_shares``; a
link lasts ``share_days`` (then it and its copy are forgotten), and a new one past a bound is a
429 whose Retry-After is when the oldest that counts expires."""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..games.record import End, GameRecord
from ..games.record_text import format as format_record
from ..games.record_text import parse
from ..games.specs import Spec, split_spec
from ..keeper import Keeper
from .analysis_board import seats
from .errors import ERRORS, raw_answer
from .guards import TooManyShares, how_long
from .models import Review, ShareLink
from .review import review
from .routing import check_id, cookie_owner, owner_of, service_of
from .service import NotFound, WebService
from .sessions import NotYourTurn

router = APIRouter(tags=["records"])
#: The store's owner of shared games: shorter than any browser's id (guards.OWNER_PATTERN).
SHARED_OWNER = "shared"
#: A share token: 128 random bits, as URL-safe base64.
TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")
#: The options of a player spec that name a learner's knowledge (a name, a memory file).
PRIVATE_OPTIONS = ("name", "memory")
TEXT_PLAIN = "text/plain; charset=utf-8"


def public_spec(spec: str) -> str:
    """``spec`` without the options that name a learner's knowledge: ``menace:name=mine,train=off``
    is shared as ``menace:train=off`` (read by the one grammar, so a file name's comma is the
    file name's)."""
    name, options = split_spec(spec)
    return Spec(name, tuple(option for option in options if option.key not in PRIVATE_OPTIONS)).text()


def file_name(spec: str, label: str) -> str:
    """A download's file name: ``tictactoe-17.txt`` (a form's spec made safe for a file name)."""
    return f"{re.sub(r'[^A-Za-z0-9_-]+', '-', spec).strip('-')}-{label}.txt"


def text_answer(text: str, name: str) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
    return Response(text, media_type=TEXT_PLAIN, headers=headers)


def finished_record(service: WebService, owner: str, game_id: str) -> GameRecord[Any]:
    """The record of this browser's finished game; a game still in play is a 409 (NotYourTurn's)."""
    web_game = service.get(owner, check_id(game_id))
    record = web_game.record
    if record is None or not web_game.over or record.end is End.ABANDONED:
        raise NotYourTurn("the game is not finished: a record is written when it ends")
    return record


def kept_record(service: WebService, owner: str, record_id: int) -> tuple[GameRecord[Any], datetime.date]:
    row = service.record(owner, record_id)
    record = GameRecord.from_dict(service.load_game(row["game"]), row)
    return record, datetime.datetime.fromtimestamp(float(row["created"]), tz=datetime.UTC).date()


def today() -> datetime.date:
    return datetime.datetime.now(tz=datetime.UTC).date()


@router.get(
    "/api/games/{game_id}/record",
    summary="A finished game's text record",
    responses=raw_answer("text/plain"),
    response_class=Response,
)
def game_record(game_id: str, request: Request) -> Response:
    """The game as a text record (tag pairs, then the moves), as a file to save; 409 while it is played."""
    record = finished_record(service_of(request), owner_of(request), game_id)
    return text_answer(format_record(record, date=today()), file_name(record.game, game_id))


@router.get(
    "/api/records/{record_id}/record",
    summary="A kept game's text record",
    responses=raw_answer("text/plain"),
    response_class=Response,
)
def kept_record_text(record_id: int, request: Request) -> Response:
    record, date = kept_record(service_of(request), owner_of(request), record_id)
    return text_answer(format_record(record, date=date), file_name(record.game, str(record_id)))


@router.post(
    "/api/records/review",
    summary="A text record graded move by move",
    responses=ERRORS,
    response_model=Review,
    openapi_extra={"requestBody": {"content": {"text/plain": {"schema": {"type": "string"}}}, "required": True}},
    response_model_exclude_unset=True,
)
async def review_text(request: Request) -> Review:
    """The body is a record's text (as the routes above write it): replayed by the rules and
    graded as /api/records/{id}/review grades a kept game.  A text that is not a record is a 400
    naming the line and what is wrong."""
    body = await request.body()
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"the record is not UTF-8 text (byte {error.start})") from None
    record = parse(text).record
    game = service_of(request).load_game(record.game)
    # A record may name people ("Ana"): shown as written, seated on the analysis board as human.
    players = list(record.players)
    answer = review(game, record.opening + record.moves)
    answer.players, answer.seats = players, seats(game, players)
    return answer


def share(service: WebService, owner: str, record: GameRecord[Any], base: str) -> ShareLink:
    """The link to a copy of ``record`` (players as :func:`public_spec` shows them): the one this
    browser made of the same copy while it lasts, else a new one within the bounds (TooManyShares)."""
    row = {
        "players": [public_spec(player) for player in record.players],
        "moves": list(record.opening + record.moves),  # the page replays from the initial position
        "winner": record.winner,
        "end": record.end.value,
        "seed": record.seed,
    }
    source = hashlib.sha256(json.dumps([record.game, row], sort_keys=True).encode()).hexdigest()[:32]
    settings, store = service.settings, service.store
    lasts = settings.share_days * 86400
    since = time.time() - lasts
    token = store.find_share(owner, source, since)  # a read: 2,000 shares of one game write nothing
    if token is None:
        store.forget_shares(since, SHARED_OWNER)
        with store.transaction():  # the checks and the copy together: two at once make one link
            token = store.find_share(owner, source, since)
            if token is None:
                token = new_share(service, owner, source, GameRecord.from_dict(service.load_game(record.game), row))
    return ShareLink(token=token, url=f"{base.rstrip('/')}/?shared={token}")


def new_share(service: WebService, owner: str, source: str, shown: GameRecord[Any]) -> str:
    settings, store = service.settings, service.store
    lasts = settings.share_days * 86400
    now = time.time()
    for who, bound, whose in (
        (owner, settings.shares_per_owner, "this browser has"),
        (None, settings.total_shares, "the server keeps"),
    ):
        count, oldest = store.share_count(who, now - lasts)
        if count >= bound:
            wait = (oldest if oldest is not None else now) + lasts - now
            raise TooManyShares(
                f"{whose} {count} shared links, the most it may; each lasts {how_long(lasts)}, and the oldest "
                f"expires in {how_long(wait)}",
                wait,
            )
    token = secrets.token_urlsafe(16)
    record_id = Keeper(store, SHARED_OWNER).keep_record(shown, context=token)
    store.add_share(owner, source, token, record_id)
    return token


@router.post("/api/games/{game_id}/share", summary="A read-only link to a finished game", responses=ERRORS)
def share_game(game_id: str, request: Request) -> ShareLink:
    """A link anyone can open to see the game's review (no cookie needed, nothing of this browser
    or its learners in it); 409 while the game is played, 403 without this browser's cookie.  The
    same game shared again answers the same link; a new link past this browser's bound or the
    server's is a 429 with Retry-After (docs/web.md)."""
    service = service_of(request)
    owner = cookie_owner(request)
    record = finished_record(service, owner, game_id)
    return share(service, owner, record, str(request.base_url))


@router.post("/api/records/{record_id}/share", summary="A read-only link to a kept game", responses=ERRORS)
def share_record(record_id: int, request: Request) -> ShareLink:
    service = service_of(request)
    owner = cookie_owner(request)
    record, _ = kept_record(service, owner, record_id)
    return share(service, owner, record, str(request.base_url))


def shared_row(service: WebService, token: str) -> dict[str, Any]:
    rows = service.reader.records(owner=SHARED_OWNER, context=token, limit=1) if TOKEN.match(token) else []
    if rows and float(rows[0]["created"]) < time.time() - service.settings.share_days * 86400:
        rows = []  # expired, not yet forgotten
    if not rows:
        raise NotFound("no shared game at this link: check the link you were given")
    return rows[0]


@router.get(
    "/api/shared/{token}",
    summary="A shared game's review",
    responses=ERRORS,
    response_model_exclude_unset=True,
)
def shared_review(token: str, request: Request) -> Review:
    """The shared game graded, read-only, for any browser: players shown by kind and options
    (no learner's name), no owner."""
    service = service_of(request)
    row = shared_row(service, token)
    answer = review(service.load_game(row["game"]), row["moves"])
    answer.players, answer.shared = row["players"], token
    return answer


@router.get(
    "/api/shared/{token}/record",
    summary="A shared game's text record",
    responses=raw_answer("text/plain"),
    response_class=Response,
)
def shared_record_text(token: str, request: Request) -> Response:
    service = service_of(request)
    row = shared_row(service, token)
    record = GameRecord.from_dict(service.load_game(row["game"]), row)
    date = datetime.datetime.fromtimestamp(float(row["created"]), tz=datetime.UTC).date()
    return text_answer(format_record(record, date=date), file_name(record.game, "shared"))
