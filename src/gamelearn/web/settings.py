"""The web app's limits, in one place: how many games and new visitors it keeps, how many computer
moves it works on at once, and how much work one computer move may cost.  Every limit has a
default that suits one small server; ``create_app(settings=WebSettings(...))`` changes them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .live import HEARTBEAT_SECONDS

#: Bounds on the work one computer move may cost the server: option -> (largest value, per game).
DEFAULT_WORK_BOUNDS: dict[str, dict[str, int]] = {
    "playouts": {"teeko": 10_000, "hexapawn": 20_000, "tictactoe": 20_000},
    "depth": {"teeko": 4, "hexapawn": 12, "tictactoe": 12},
    # az's search: 256 simulations is eight times its default (docs/performance.md, the web's bounds)
    "simulations": {"teeko": 256, "hexapawn": 256, "tictactoe": 256},
}

#: Up to these values a player's move is ordinary work and goes in the ordinary lane; above any of
#: them, or for a kind of HEAVY_KINDS, it queues in the heavy lane (WebSettings.heavy_workers).
#: An ordinary move takes well under a second (docs/performance.md, the web's bounds).
DEFAULT_ORDINARY_WORK: dict[str, dict[str, int]] = {
    "playouts": {"teeko": 500, "hexapawn": 5_000, "tictactoe": 5_000},
    "depth": {"teeko": 2, "hexapawn": 12, "tictactoe": 6},
}
#: Kinds of player whose every move is heavy work: az evaluates a network (JAX) at each simulation.
HEAVY_KINDS = ("az",)


def _default_workers() -> int:
    return max(2, min(8, os.cpu_count() or 2))


def _default_heavy_workers() -> int:
    """Half the cores for heavy moves (one on a 2-core machine): the others stay for ordinary ones."""
    return max(1, min(4, (os.cpu_count() or 2) // 2))


@dataclass(frozen=True)
class WebSettings:
    #: Games kept in memory for one browser; its oldest go first.
    games_per_owner: int = 16
    #: Games kept in memory in all.  When full, finished games of idle browsers go first; another
    #: browser's unfinished game is never put out for a newcomer (who is told to come back later).
    total_games: int = 2000
    #: A browser that has not been seen for this long (15 minutes) is idle: when the server is full
    #: its games, finished or not, go from memory to make room, for a newcomer too (they stay in the
    #: store and come back, replayed, when asked for), so a flood of made-up browsers cannot keep
    #: the server full for longer than this.
    idle_seconds: float = 900.0
    #: New browsers (owner ids) one client address may start games for within ``owner_window_seconds``.
    new_owners_per_address: int = 50
    owner_window_seconds: float = 600.0
    #: Games kept in the store per browser (finished ones first out), and for how long untouched.
    stored_games_per_owner: int = 50
    stored_game_days: float = 30.0
    #: Shared links (a read-only copy of a finished game each, kept in the store): a browser keeps
    #: at most ``shares_per_owner`` and the server ``total_shares``, each for ``share_days`` from
    #: when it was made; past a bound a new link is a 429 whose Retry-After is when the oldest
    #: expires.  Sharing a game again answers its link.
    shares_per_owner: int = 50
    total_shares: int = 10_000
    share_days: float = 30.0
    #: Computer moves worked on at once, and how long a request waits for a free worker before it
    #: is answered 503 with Retry-After.
    move_workers: int = field(default_factory=_default_workers)
    move_wait_seconds: float = 2.0
    retry_after_seconds: int = 2
    #: The work one computer move may cost (see DEFAULT_WORK_BOUNDS).
    work_bounds: dict[str, dict[str, int]] = field(default_factory=lambda: DEFAULT_WORK_BOUNDS)
    #: Heavy moves (above ``ordinary_work``, or of HEAVY_KINDS) have a lane of their own: this many
    #: at once, the others waiting in one first-come queue (one move per browser, so the queue
    #: takes the browsers in turn) of at most ``heavy_queue``, each for ``heavy_wait_seconds`` at
    #: most before a 503.  Ordinary moves never wait behind a heavy one.
    ordinary_work: dict[str, dict[str, int]] = field(default_factory=lambda: DEFAULT_ORDINARY_WORK)
    heavy_workers: int = field(default_factory=_default_heavy_workers)
    heavy_queue: int = 16
    heavy_wait_seconds: float = 180.0
    #: How long a write waits for the store's lock (another process's write) before the request is
    #: answered 503 with Retry-After, the move undone (the command line waits longer).
    store_wait_seconds: float = 2.0
    #: A quiet live stream sends an event ``beat`` this often (web/live.py).  The page's own clocks
    #: are counted in beats (static/js/connection.js: live while heard within 2.5 beats), so the
    #: page is served saying it (``data-beat-ms``, web/app.py).
    heartbeat_seconds: float = HEARTBEAT_SECONDS
    #: The largest request body, in bytes (a move or a new game is a few dozen).
    body_limit: int = 16 * 1024
    #: The largest file uploaded to the console page (a thesis memory.m: 33 bytes a record; the
    #: thesis's largest is 74,052 bytes, this holds 63,550 records).
    upload_limit: int = 2 * 1024 * 1024
    #: Player kinds made and played once in the background when the app is made (web/warmup.py):
    #: ``gamelearn serve`` warms ``az``, whose first move would otherwise take half a minute.
    warm_up: tuple[str, ...] = ()
    #: Seconds the warm-up waits before it begins (its state, GET /api/warm-up, says "waiting").
    warm_up_delay_seconds: float = 0.0
    #: The ``Host`` values the app answers to (``name:port``, lower case; guards.own_hosts makes
    #: them); any other is a 400 before anything else is read.  None: any Host (an app embedded
    #: behind a server of its own); ``gamelearn serve`` always gives them.
    allowed_hosts: frozenset[str] | None = None

    def __post_init__(self) -> None:
        counts = ("games_per_owner", "total_games", "new_owners_per_address", "move_workers", "heavy_workers")
        for name in (*counts, "shares_per_owner", "total_shares"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
