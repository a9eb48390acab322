"""The perfect player's value of every legal move in a game in progress, where the game's exact
solution is available (tic-tac-toe and hexapawn solved at once, Teeko from its solved table)."""

from __future__ import annotations

import threading
from typing import Any

from ..games import Game
from .guards import public_message
from .sessions import WebGame


class Analyst:
    """Values positions with the solver, one solve at a time (a table is loaded once)."""

    def __init__(self) -> None:
        self._solve_lock = threading.Lock()

    def analysis(self, web_game: WebGame) -> dict[str, Any]:
        """The perfect player's value of every legal move (for the side to move), where the
        solution is available; else why not."""
        return self.position(web_game.game, web_game.state)

    def position(self, game: Game, state: Any) -> dict[str, Any]:
        """:meth:`analysis` of any position of ``game``: each legal move's value (+1, 0, -1 for
        the side to move), distance (plies to the end with best play, the move counted; None for
        a draw) and grade, and the position's own ``value`` (None once it is over)."""
        try:
            solution = self._solution(game)
        except Exception as error:  # no solver module yet, or no table built: say so
            return {"available": False, "reason": public_message(f"no solution for {game.name}: {error}"), "moves": {}}
        moves: dict[str, Any] = {}
        if game.is_over(state):
            return {"available": True, "reason": "", "moves": moves, "value": None}
        try:
            for move in game.legal_moves(state):
                # for the side that plays it: the value, and the plies to the end with best play
                # after it, the move counted (None: a draw), as the hint says "X wins in 7"
                value, distance = solution.result_of(state, move)
                entry: dict[str, Any] = {"value": int(value), "distance": distance}
                grade = getattr(solution, "grade", None)
                if callable(grade):
                    graded = grade(state, move)
                    entry["grade"] = str(getattr(graded, "value", graded))
                moves[move] = entry
            position = int(solution.value(state))
        except Exception as error:
            reason = public_message(f"the solution cannot value this position: {error}")
            return {"available": False, "reason": reason, "moves": {}}
        return {"available": True, "reason": "", "moves": moves, "value": position}

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
            from ..solver import solve

            return solve(game)
