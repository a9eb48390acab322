"""The review of a game, move by move, against the perfect player: each position's exact value
(from the first player's side, as an evaluation bar reads) and each move's grade (best, keeps,
mistake, blunder) with the best moves there, like an analysis board with exact values instead of
an engine's guess."""

from __future__ import annotations

from typing import Any

from ..experiments.grading import Tally, judge
from ..experiments.suites import graded_position
from ..games import Game
from .guards import public_message
from .tables import table_ready
from .views import move_squares


def review(game: Game, moves: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Every position and move of a game, graded; ``available`` False (and why) when the game's
    solution cannot be read here (Teeko without its table)."""
    ready, reason = table_ready(game.spec)  # each form of Teeko has its own table
    base: dict[str, Any] = {
        "game": game.name,
        "spec": game.spec,
        "moves": list(moves),
        "available": ready,
        "reason": reason,
    }
    if not ready:
        return base | {"positions": [], "plies": []}
    from ..solver import solve

    solution = solve(game)
    state = game.initial()
    positions: list[dict[str, Any]] = []
    plies: list[dict[str, Any]] = []
    # The yardstick's measure over this game: each side's positions where a move could lose the
    # value, as a suite holds them, and how many of them its move kept.
    measured = [Tally(), Tally()]
    try:
        for index, move in enumerate(moves):
            positions.append(_position(game, solution, state))
            mover = game.to_move(state)
            graded = graded_position(game, solution, state)
            if graded is not None:
                measured[mover] += judge(graded, move)
            best = solution.best_moves(state)
            plies.append(
                {
                    "ply": index + 1,
                    "side": mover,
                    "move": move,
                    "squares": move_squares(game, move),
                    "grade": str(solution.grade(state, move)),
                    "best": best,
                    "best_squares": move_squares(game, best[0]) if best else [],
                }
            )
            state = game.play(state, move)
        positions.append(_position(game, solution, state))
    except Exception as error:  # a kept game the rules or the table refuse: say so, not a 500
        return base | {"available": False, "reason": public_message(f"cannot review: {error}")}
    counts = {side: {g: 0 for g in ("best", "keeps", "mistake", "blunder")} for side in (0, 1)}
    for ply in plies:
        counts[ply["side"]][ply["grade"]] += 1
    measure = [{"positions": t.positions, "keeps": t.keeps, "best": t.best, "blunders": t.blunders} for t in measured]
    return base | {"positions": positions, "plies": plies, "grades": [counts[0], counts[1]], "measure": measure}


def _position(game: Game, solution: Any, state: Any) -> dict[str, Any]:
    value, distance = solution.outcome(state)
    mover = game.to_move(state)
    return {
        "board": game.board(state),
        "to_move": mover,
        # From the first player's side, so the bar does not flip with the side to move.
        "value": int(value if mover == 0 else -value),
        "distance": distance,
        "over": game.is_over(state),
        # the line (or square, or pawn) a win ended on, for the board to light as the game's end does
        "winning_squares": list(game.winning_squares(state)) if game.winner(state) is not None else [],
    }
