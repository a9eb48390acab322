"""The perfect player's value of every legal move in a game in progress, where the game's exact
solution is available (tic-tac-toe and hexapawn solved at once, Teeko from its solved table)."""

from __future__ import annotations

import threading
from typing import Any

from ..games import Game
from ..solver import solve
from .guards import public_message
from .models import Analysis, LineStep, MoveValue
from .sessions import WebGame

#: The longest best line shown: a win is mostly shorter; a draw is a few moves of it, not for ever.
BEST_LINE_PLIES = 12


def best_line(game: Game, solution: Any, state: Any, plies: int = BEST_LINE_PLIES) -> list[LineStep]:
    """The perfect player's line from ``state``: each ply the first of the best moves (the
    quickest win, the longest defence) and the side that plays it, until the game ends or
    ``plies`` moves are made."""
    line: list[LineStep] = []
    while len(line) < plies and not game.is_over(state):
        moves = solution.best_moves(state)
        if not moves:
            break
        line.append(LineStep(move=moves[0], side=game.to_move(state)))
        state = game.play(state, moves[0])
    return line


def unavailable(reason: str) -> Analysis:
    """No values here, and why (``moves`` empty, no value, no line)."""
    return Analysis(available=False, reason=reason, moves={})


class Analyst:
    """Values positions with the solver, one solve at a time (a table is loaded once)."""

    def __init__(self) -> None:
        self._solve_lock = threading.Lock()

    def analysis(self, web_game: WebGame) -> Analysis:
        """The perfect player's value of every legal move (for the side to move), where the
        solution is available; else why not."""
        return self.position(web_game.game, web_game.state)

    def position(self, game: Game, state: Any) -> Analysis:
        """:meth:`analysis` of any position of ``game``: each legal move's value (+1, 0, -1 for
        the side to move), its distance (plies to the end with best play after it, the move
        counted; None for a draw) and grade, the position's own ``value`` and ``distance`` (None
        once it is over) and ``best_line``, the perfect player's line from here (at most
        :data:`BEST_LINE_PLIES` plies: a drawn line goes on for ever)."""
        try:
            solution = self._solution(game)
        except Exception as error:  # no solver module yet, or no table built: say so
            return unavailable(public_message(f"no solution for {game.name}: {error}"))
        moves: dict[str, MoveValue] = {}
        if game.is_over(state):
            return Analysis(
                available=True, reason="", moves=moves, value=None, distance=None, best_line=[], best_line_over=True
            )
        try:
            best = solution.outcome(state)
            rows = {row.move: row for row in solution.analyze(state)}
            for move in game.legal_moves(state):  # the game's order, as the board lists them
                row = rows[move]
                moves[move] = MoveValue(value=int(row.value), distance=row.distance, grade=str(row.grade))
            line = best_line(game, solution, state)
            end = state
            for step in line:
                end = game.play(end, step.move)
        except Exception as error:
            return unavailable(public_message(f"the solution cannot value this position: {error}"))
        return Analysis(
            available=True,
            reason="",
            moves=moves,
            value=int(best[0]),
            distance=best[1],
            best_line=line,
            best_line_over=game.is_over(end),
        )

    def outcome(self, game: Game, state: Any) -> tuple[int, int | None] | None:
        """The position's exact value for the side to move and its distance; None without a solution."""
        try:
            value, distance = self._solution(game).outcome(state)
        except Exception:  # no solution here: position() says why
            return None
        return int(value), distance

    def _solution(self, game: Game) -> Any:
        # gamelearn.solve caches solutions itself (Teeko's table per file version, so a table
        # built while the server runs is picked up); it never builds a table unless asked to.
        with self._solve_lock:
            return solve(game)
