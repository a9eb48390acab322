"""The routes of the thesis program's console page (/console): its screen, a typed line, starting
the program again, and its memory.m and stat.m downloaded and uploaded (thesis/web.py)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..web.errors import ERRORS, raw_answer
from ..web.routing import cookie_owner, service_of
from .memories import has_memory
from .web import LINE_LIMIT, MEMORY_NAME, SEED_LIMIT, ConsoleFiles, ConsoleService, ConsoleView

router = APIRouter(tags=["console"])

#: The page is the web app's, with its other pages (web/static).
PAGE = Path(__file__).resolve().parent.parent / "web" / "static" / "console.html"
MEMORY_PATH = "/api/console/memory.m"
STAT_PATH = "/api/console/stat.m"
#: The paths that take a file, each with the larger body limit (WebSettings.upload_limit).
UPLOADS = (MEMORY_PATH, STAT_PATH)
THESIS_FILE = {"requestBody": {"content": {"application/octet-stream": {"schema": {"type": "string"}}}}}
FILE_ANSWER = raw_answer("application/octet-stream")


class TypedLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    line: str = Field(max_length=LINE_LIMIT, description="what was typed at the prompt, without the Enter")


class Restart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int | None = Field(None, ge=0, le=SEED_LIMIT, description="seed of the program's random choices")
    original: bool | None = Field(
        None, description="the original 1999 console (true) or the fixed program (false); left out, as it was"
    )


def console_of(request: Request) -> ConsoleService:
    console: ConsoleService = request.app.state.console
    return console


def owner_here(request: Request) -> str:
    """The browser (its cookie: the page was loaded); a browser new to the server counts against
    its address's limit of new browsers, as its first game does."""
    owner = cookie_owner(request)
    console, service = console_of(request), service_of(request)
    if not console.knows(owner) and not has_memory(service.reader, MEMORY_NAME, owner=owner):
        if service.is_new_owner(owner):
            request.app.state.newcomers.admit(request.client.host if request.client else "unknown", owner)
    return owner


@router.get("/console", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(PAGE, media_type="text/html")


@router.get("/api/console", summary="The console's screen", responses=ERRORS, response_model=ConsoleView)
def screen(request: Request) -> ConsoleView:
    """The thesis program's console for this browser, as the terminal's `gamelearn teeko console`
    shows it (the program is started if it was not running)."""
    return console_of(request).view(owner_here(request))


@router.post("/api/console/line", summary="A line typed at the prompt", responses=ERRORS, response_model=ConsoleView)
def line(body: TypedLine, request: Request) -> ConsoleView:
    """The program reads the line as the console did (a menu choice, a move rc or rcRC, y to a
    draw offer) and answers; its moves are in the new lines of `screen`."""
    return console_of(request).send(owner_here(request), body.line)


@router.post("/api/console/restart", summary="Start the program again", responses=ERRORS, response_model=ConsoleView)
def restart(body: Restart, request: Request) -> ConsoleView:
    """A new session on the same memory and score (a game in progress is dropped), in the mode
    `original` chooses (kept for this browser) or the one it was in."""
    return console_of(request).restart(owner_here(request), body.seed, body.original)


@router.get(MEMORY_PATH, summary="The console's memory.m", responses=FILE_ANSWER, response_class=Response)
def memory_file(request: Request) -> Response:
    """The program's memory in the thesis format, byte for byte (33-byte records)."""
    return attachment(console_of(request).memory_file(cookie_owner(request)), "memory.m")


@router.get(STAT_PATH, summary="The console's stat.m", responses=FILE_ANSWER, response_class=Response)
def stat_file(request: Request) -> Response:
    return attachment(console_of(request).stat_file(cookie_owner(request)), "stat.m")


@router.put(
    MEMORY_PATH,
    summary="Load a thesis memory.m",
    responses=ERRORS,
    response_model=ConsoleFiles,
    openapi_extra=THESIS_FILE,
)
async def load_memory(request: Request, name: str = Query("memory.m", max_length=100)) -> ConsoleFiles:
    """The file becomes this browser's memory (a refused file, 400 naming the record and what is
    wrong, changes nothing); `name` is the file's own, for that message."""
    data = await request.body()
    owner = await run_in_threadpool(owner_here, request)
    return await run_in_threadpool(console_of(request).load_memory, owner, data, name)


@router.put(
    STAT_PATH, summary="Load a thesis stat.m", responses=ERRORS, response_model=ConsoleFiles, openapi_extra=THESIS_FILE
)
async def load_stat(request: Request, name: str = Query("stat.m", max_length=100)) -> ConsoleFiles:
    data = await request.body()
    owner = await run_in_threadpool(owner_here, request)
    return await run_in_threadpool(console_of(request).load_stat, owner, data, name)


def attachment(content: bytes, filename: str) -> Response:
    return Response(
        content,
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
