"""The review of a game, move by move, against the perfect player: each position's exact value
(from the first player's side, as an evaluation bar reads) and each move's grade (best, keeps,
mistake, blunder) with the best moves there, like an analysis board with exact values instead of
an engine's guess."""

from __future__ import annotations

from typing import Any

from ..experiments.review import GameReview, review_moves
from ..games import Game
from .guards import public_message
from .tables import table_ready
from .views import played_squares, square_names


def review(game: Game, moves: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Every position and move of a game, graded; ``available`` False (and why) when the game's
    solution cannot be read here (Teeko without its table)."""
    ready, reason = table_ready(game.spec)  # each form of Teeko has its own table
    base: dict[str, Any] = {
        "game": game.name,
        "spec": game.spec,
        "moves": list(moves),
        # the board of this form (connect4:columns=5,rows=4 is smaller than the game's own)
        "rows": game.facts.rows,
        "columns": game.facts.columns,
        "square_names": square_names(game),
        "available": ready,
        "reason": reason,
    }
    if not ready:
        return base | {"positions": [], "plies": []}
    try:
        reviewed = review_moves(game, moves)
    except Exception as error:  # a kept game the rules or the table refuse: say so, not a 500
        return base | {"available": False, "reason": public_message(f"cannot review: {error}")}
    return base | page_review(game, reviewed)


def page_review(game: Game, reviewed: GameReview) -> dict[str, Any]:
    """The review as the page reads it: boards, the squares each move and best move names, and
    the line a win ended on."""
    positions = [
        {
            "board": game.board(position.state),
            "to_move": position.to_move,
            "value": position.value,
            "distance": position.distance,
            "over": position.over,
            # the line (or square, or pawn) a win ended on, for the board to light as the game's end does
            "winning_squares": list(game.winning_squares(position.state))
            if game.winner(position.state) is not None
            else [],
        }
        for position in reviewed.positions
    ]
    # The squares a move takes are read in the position it was played from: a column game's disc
    # lands where that position lets it fall.
    plies = [
        {
            "ply": ply.ply,
            "side": ply.side,
            "move": ply.move,
            "squares": played_squares(game, before.state, ply.move),
            "grade": ply.grade,
            "best": list(ply.best),
            "best_squares": played_squares(game, before.state, ply.best[0]) if ply.best else [],
        }
        for ply, before in zip(reviewed.plies, reviewed.positions, strict=False)
    ]
    measure = [
        {"positions": t.positions, "keeps": t.keeps, "best": t.best, "blunders": t.blunders} for t in reviewed.measure
    ]
    return {"positions": positions, "plies": plies, "grades": list(reviewed.grades), "measure": measure}
