"""Open pages follow their game live: a server-sent event stream per game (``GET
/api/games/{id}/events``) that says the game's ply and moves after every change, so a second tab
of the same game redraws within a moment of a move made in the first (the way lichess's open tabs
follow a game).

The work is done in threads (the move pool), the streams live on the server's event loop: a change
is handed over with ``call_soon_threadsafe``.  A watcher keeps only the latest news of its game (a
slow page skips straight to the present, it never queues).  Each stream ends after
``STREAM_SECONDS`` and the page's EventSource opens a new one, so a server that stops waits for no
stream for long, and a page that went away holds nothing for long.  A quiet stream beats (an event
``beat``) every ``HEARTBEAT_SECONDS``, so the page can tell a quiet game from a dead socket.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TypedDict

#: How long one stream stays open before the page reconnects (it gets the game's state at once).
STREAM_SECONDS = 25.0
#: An event ``beat`` is sent this often while nothing changes: the page calls itself "live" only
#: while an event or a beat came within the last few seconds (``static/js/connection.js``).
HEARTBEAT_SECONDS = 2.0
#: How long the page waits before it reconnects, in milliseconds (the stream's ``retry:`` field).
RETRY_MILLISECONDS = 1000
#: Streams open at once in all, and per browser (a page has one; a browser a few tabs).
MAX_WATCHERS = 1000
MAX_WATCHERS_PER_OWNER = 16


class TooManyWatchers(RuntimeError):
    """Every stream this server (or this browser) may hold is open."""


class News(TypedDict, total=False):
    """What a stream's event ``game`` says (its JSON): the game's ply, moves and whether it is
    over, or ``gone`` once it is abandoned."""

    ply: int
    moves: list[str]
    over: bool
    gone: bool


def news(moves: tuple[str, ...] | list[str], over: bool) -> News:
    """What a stream says of a game: enough for a page to see that what it shows is out of date."""
    return {"ply": len(moves), "moves": list(moves), "over": over}


@dataclass(eq=False)
class Watcher:
    owner: str
    game_id: str
    loop: asyncio.AbstractEventLoop
    latest: News | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class GameFeed:
    """Who watches which game, and the latest news handed to each."""

    def __init__(
        self, limit: int = MAX_WATCHERS, per_owner: int = MAX_WATCHERS_PER_OWNER, beat_seconds: float | None = None
    ) -> None:
        self.limit = limit
        self.per_owner = per_owner
        self.beat_seconds = beat_seconds  # None: HEARTBEAT_SECONDS
        self._lock = threading.Lock()
        self._watchers: dict[tuple[str, str], list[Watcher]] = {}

    def __len__(self) -> int:
        with self._lock:
            return sum(len(watchers) for watchers in self._watchers.values())

    def check_room(self, owner: str) -> None:
        """TooManyWatchers where the server, or this browser, follows as many games as it may."""
        with self._lock:
            self._check_room(owner)

    def _check_room(self, owner: str) -> None:
        if sum(len(w) for w in self._watchers.values()) >= self.limit:
            raise TooManyWatchers("too many live pages on this server; the page tries again")
        mine = sum(len(w) for (who, _), w in self._watchers.items() if who == owner)
        if mine >= self.per_owner:
            raise TooManyWatchers(f"this browser already follows {mine} games live; close a tab")

    def watch(self, owner: str, game_id: str, first: News) -> Watcher:
        """A new watcher of a game, on the running event loop, with ``first`` as its news."""
        watcher = Watcher(owner, game_id, asyncio.get_running_loop(), latest=first)
        watcher.changed.set()
        with self._lock:
            self._check_room(owner)
            self._watchers.setdefault((owner, game_id), []).append(watcher)
        return watcher

    def forget(self, watcher: Watcher) -> None:
        with self._lock:
            watchers = self._watchers.get((watcher.owner, watcher.game_id), [])
            if watcher in watchers:
                watchers.remove(watcher)
            if not watchers:
                self._watchers.pop((watcher.owner, watcher.game_id), None)

    def publish(self, owner: str, game_id: str, payload: News) -> None:
        """Hand ``payload`` to every watcher of the game (from any thread)."""
        with self._lock:
            watchers = list(self._watchers.get((owner, game_id), []))
        for watcher in watchers:
            watcher.latest = payload
            try:
                watcher.loop.call_soon_threadsafe(watcher.changed.set)
            except RuntimeError:  # its loop has closed: the stream is gone
                self.forget(watcher)

    async def stream(
        self, owner: str, game_id: str, first: News, seconds: float = STREAM_SECONDS
    ) -> AsyncIterator[str]:
        """The text of one event stream: the game's news at once and after every change, and an
        event ``beat`` after every ``beat_seconds`` (``HEARTBEAT_SECONDS``) without one.  The watcher is made when
        the stream starts and forgotten when it ends, however it ends."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        watcher = self.watch(owner, game_id, first)
        beat = self.beat_seconds or HEARTBEAT_SECONDS
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n\n"
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(watcher.changed.wait(), timeout=min(left, beat))
                except TimeoutError:
                    yield "event: beat\ndata: {}\n\n"
                    continue
                watcher.changed.clear()
                if watcher.latest is not None:
                    yield f"event: game\ndata: {json.dumps(watcher.latest)}\n\n"
        finally:
            self.forget(watcher)
