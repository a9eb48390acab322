"""Hexapawn's evaluation for a depth-limited search, from White's view (gamelearn.players.evaluation
names it and imports this module when a hexapawn search first asks for it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games.hexapawn import pawn_moves

if TYPE_CHECKING:
    from typing import Any

    from .base import Evaluation


def hexapawn_material(state: Any) -> float:
    """Material (10 a pawn), advancement (3 a row gained) and mobility (1 a move), White minus Black."""
    board = state.board
    score = 0
    for sq, ch in enumerate(board):
        row = sq // 3
        if ch == "W":
            score += 10 + 3 * (2 - row)
        elif ch == "B":
            score -= 10 + 3 * row
    score += len(pawn_moves(board, "W")) - len(pawn_moves(board, "B"))
    return score


EVALUATIONS: dict[str, Evaluation] = {"material": hexapawn_material}
