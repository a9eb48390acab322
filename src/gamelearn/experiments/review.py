"""A game reviewed move by move against the perfect player: each position's exact value (from the
first player's side, as an evaluation bar reads it) and each move's grade (best, keeps, mistake,
blunder) with the best moves there, and per side the yardstick's tally over the positions where a
move could lose the value.  The web page's review and ``gamelearn review FILE`` both read it."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..games import Game
from ..solver import solve
from .grading import Tally, judge
from .suites import graded_position

#: The grades of a move, best first.
GRADES = ("best", "keeps", "mistake", "blunder")


@dataclass(frozen=True)
class ReviewedPosition:
    """A position of the game and its exact value: +1, 0, -1 from the first player's side, with
    the plies to the end under perfect play (None where the solution does not count them)."""

    state: Hashable
    to_move: int
    value: int
    distance: int | None
    over: bool


@dataclass(frozen=True)
class ReviewedPly:
    """One move (``ply`` counts from 1), who made it, its grade and the perfect player's moves there."""

    ply: int
    side: int
    move: str
    grade: str
    best: tuple[str, ...]


@dataclass(frozen=True)
class GameReview:
    """Every position (one more than the moves) and every move graded; per side, how many moves
    had each grade (``grades[side][grade]``) and the yardstick's tally (``measure[side]``)."""

    game: str
    positions: tuple[ReviewedPosition, ...]
    plies: tuple[ReviewedPly, ...]
    grades: tuple[dict[str, int], dict[str, int]]
    measure: tuple[Tally, Tally]


def review_moves(game: Game[Any], moves: Sequence[str], start: Hashable | None = None) -> GameReview:
    """The review of ``moves`` played from ``start`` (the initial position by default).  The
    game's solution is read with :func:`gamelearn.solver.solve` (Teeko needs its table: a
    TableError where it is not built); an illegal move is the rules' IllegalMove."""
    solution = solve(game)
    state = game.initial() if start is None else start
    positions: list[ReviewedPosition] = []
    plies: list[ReviewedPly] = []
    measured = [Tally(), Tally()]
    for index, move in enumerate(moves):
        positions.append(_position(game, solution, state))
        mover = game.to_move(state)
        graded = graded_position(game, solution, state)
        if graded is not None:
            measured[mover] += judge(graded, move)
        grade = str(solution.grade(state, move))
        plies.append(ReviewedPly(index + 1, mover, move, grade, tuple(solution.best_moves(state))))
        state = game.play(state, move)
    positions.append(_position(game, solution, state))
    counts: tuple[dict[str, int], dict[str, int]] = ({g: 0 for g in GRADES}, {g: 0 for g in GRADES})
    for ply in plies:
        counts[ply.side][ply.grade] += 1
    return GameReview(game.spec, tuple(positions), tuple(plies), counts, (measured[0], measured[1]))


def _position(game: Game[Any], solution: Any, state: Hashable) -> ReviewedPosition:
    value, distance = solution.outcome(state)
    mover = game.to_move(state)
    # From the first player's side, so the bar does not flip with the side to move.
    shown = int(value if mover == 0 else -value)
    return ReviewedPosition(state, mover, shown, distance, game.is_over(state))


__all__ = ["GRADES", "GameReview", "ReviewedPly", "ReviewedPosition", "review_moves"]
