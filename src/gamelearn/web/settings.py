"""The web app's limits, in one place: how many games and new visitors it keeps, how many computer
moves it works on at once, and how much work one computer move may cost.  Every limit has a
default that suits one small server; ``create_app(settings=WebSettings(...))`` changes them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: Bounds on the work one computer move may cost the server: option -> (largest value, per game).
DEFAULT_WORK_BOUNDS: dict[str, dict[str, int]] = {
    "playouts": {"teeko": 10_000, "hexapawn": 20_000, "tictactoe": 20_000},
    "depth": {"teeko": 4, "hexapawn": 12, "tictactoe": 12},
}


def _default_workers() -> int:
    return max(2, min(8, os.cpu_count() or 2))


@dataclass(frozen=True)
class WebSettings:
    #: Games kept in memory for one browser; its oldest go first.
    games_per_owner: int = 16
    #: Games kept in memory in all.  When full, finished games of idle browsers go first; another
    #: browser's unfinished game is never put out for a newcomer (who is told to come back later).
    total_games: int = 2000
    #: A browser that has not been seen for this long is idle: its unfinished games may go from
    #: memory when the server is full (they stay in the store and come back when asked for).
    idle_seconds: float = 3600.0
    #: New browsers (owner ids) one client address may start games for within ``owner_window_seconds``.
    new_owners_per_address: int = 50
    owner_window_seconds: float = 600.0
    #: Games kept in the store per browser (finished ones first out), and for how long untouched.
    stored_games_per_owner: int = 50
    stored_game_days: float = 30.0
    #: Computer moves worked on at once, and how long a request waits for a free worker before it
    #: is answered 503 with Retry-After.
    move_workers: int = field(default_factory=_default_workers)
    move_wait_seconds: float = 2.0
    retry_after_seconds: int = 2
    #: The work one computer move may cost (see DEFAULT_WORK_BOUNDS).
    work_bounds: dict[str, dict[str, int]] = field(default_factory=lambda: DEFAULT_WORK_BOUNDS)
    #: The largest request body, in bytes (a move or a new game is a few dozen).
    body_limit: int = 16 * 1024
    #: Player kinds made and played once in the background when the app is made (web/warmup.py):
    #: ``gamelearn serve`` warms ``az``, whose first move would otherwise take half a minute.
    warm_up: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("games_per_owner", "total_games", "new_owners_per_address", "move_workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
