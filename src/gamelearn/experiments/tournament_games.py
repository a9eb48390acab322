"""What an interrupted tournament keeps: every game that had finished, not only the pairs.

A pair's games are played in order by one worker (its learners go on learning from game to
game), so a pair cut short has played a prefix of its games, each the same game the whole
tournament plays (every game is seeded).  Each game is therefore sent to the parent as it
finishes, through a channel: a plain queue when the pairs run in this process, a manager's queue
(its own small server process, which ignores ^C) when they run in local worker processes.  On an
interrupt the parent reads what the channel holds and keeps, of each unfinished pair, its games
from the first up to the first one missing.  On a Dask cluster there is no channel (a manager's
queue does not reach a remote worker), and the pairs that finished are kept.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .runners import started_manager
from .tournament_summary import GameResult, TournamentResult


@contextmanager
def game_channel(inline: bool, dask: str | None) -> Iterator[Any]:
    """Something with ``put`` (and ``get_nowait``) that every pair's task may carry: a queue
    in this process (``inline``), a manager's queue for local workers, None on Dask."""
    if dask is not None:
        yield None
        return
    if inline:
        yield queue.SimpleQueue()
        return
    with started_manager() as manager:
        yield manager.Queue()


def drained(channel: Any) -> list[GameResult]:
    """Every game the channel holds now."""
    games: list[GameResult] = []
    if channel is None:
        return games
    while True:
        try:
            games.append(channel.get_nowait())
        except (queue.Empty, OSError, EOFError):  # empty, or its manager already gone
            return games


def kept_games(
    pairs: Sequence[list[GameResult] | None], channel: Any, games_per_pair: int | None = None
) -> tuple[list[GameResult], int]:
    """The games an interrupted tournament keeps, and how many of its pairs had finished: each
    finished pair whole, and of each other pair the games the channel holds from its first game
    up to the first one missing (a consistent prefix, as the whole tournament plays it).  A pair
    whose every game (``games_per_pair``) is in the channel finished too, though the stop came
    before its end was heard."""
    finished = {number for number, games in enumerate(pairs) if games is not None}
    sent: dict[int, dict[int, GameResult]] = {}
    for result in drained(channel):
        sent.setdefault(result.pair, {})[result.index] = result
    kept = [result for games in pairs if games is not None for result in games]
    for pair, games in sorted(sent.items()):
        if pair in finished:
            continue
        index = 0
        while index in games:
            kept.append(games[index])
            index += 1
        if index == games_per_pair:
            finished.add(pair)
    return kept, len(finished)


class TournamentInterrupted(KeyboardInterrupt):
    """A tournament stopped by ^C or SIGTERM: ``result`` holds every game that had finished
    (``games`` of them: the ``pairs`` of ``total`` pairs that finished, and the finished games of
    the others); the games not played count nothing."""

    def __init__(self, result: TournamentResult, pairs: int, total: int) -> None:
        self.games = len(result.games)
        super().__init__(f"interrupted after {pairs} of {total} pairs and {self.games} games")
        self.result, self.pairs, self.total = result, pairs, total
