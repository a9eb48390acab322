"""The review of a game, move by move, against the perfect player: each position's exact value
(from the first player's side, as an evaluation bar reads) and each move's grade (best, keeps,
mistake, blunder) with the best moves there, like an analysis board with exact values instead of
an engine's guess."""

from __future__ import annotations

from ..experiments.review import GameReview, review_moves
from ..games import Game
from .guards import public_message
from .models import GradedPly, Measure, PositionValue, Review
from .tables import table_ready
from .views import played_squares, square_names


def review(game: Game, moves: list[str] | tuple[str, ...]) -> Review:
    """Every position and move of a game, graded; ``available`` False (and why) when the game's
    solution cannot be read here (Teeko without its table).  The routes add whose game it is."""
    ready, reason = table_ready(game.spec)  # each form of Teeko has its own table
    answer = Review(
        game=game.name,
        spec=game.spec,
        moves=list(moves),
        # the board of this form (connect4:columns=5,rows=4 is smaller than the game's own)
        rows=game.facts.rows,
        columns=game.facts.columns,
        square_names=square_names(game),
        available=ready,
        reason=reason,
    )
    if not ready:
        answer.positions, answer.plies = [], []
        return answer
    try:
        reviewed = review_moves(game, moves)
    except Exception as error:  # a kept game the rules or the table refuse: say so, not a 500
        answer.available, answer.reason = False, public_message(f"cannot review: {error}")
        return answer
    answer.positions, answer.plies = page_positions(game, reviewed), page_plies(game, reviewed)
    answer.grades = list(reviewed.grades)
    answer.measure = [
        Measure(positions=t.positions, keeps=t.keeps, best=t.best, blunders=t.blunders) for t in reviewed.measure
    ]
    return answer


def page_positions(game: Game, reviewed: GameReview) -> list[PositionValue]:
    """Each position's board and exact value, and the line a win ended on."""
    return [
        PositionValue(
            board=game.board(position.state),
            to_move=position.to_move,
            value=position.value,
            distance=position.distance,
            over=position.over,
            # the line (or square, or pawn) a win ended on, for the board to light as the game's end does
            winning_squares=list(game.winning_squares(position.state))
            if game.winner(position.state) is not None
            else [],
        )
        for position in reviewed.positions
    ]


def page_plies(game: Game, reviewed: GameReview) -> list[GradedPly]:
    """Each move's grade, with the squares it and the first best move name."""
    # The squares a move takes are read in the position it was played from: a column game's disc
    # lands where that position lets it fall.
    return [
        GradedPly(
            ply=ply.ply,
            side=ply.side,
            move=ply.move,
            squares=played_squares(game, before.state, ply.move),
            grade=ply.grade,
            best=list(ply.best),
            best_squares=played_squares(game, before.state, ply.best[0]) if ply.best else [],
        )
        for ply, before in zip(reviewed.plies, reviewed.positions, strict=False)
    ]
