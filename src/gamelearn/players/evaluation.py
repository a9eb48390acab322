"""Named static evaluation functions, per game, each from the view of player 0 (X or White).

A search negates the value for player 1.  Terminal positions are scored by the search, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games import Game
from ..games.hexapawn import pawn_moves
from ..games.teeko import BLOCK_MASKS, LINE_MASKS, has_four
from ..games.tictactoe import LINES

Evaluation = Callable[[Any], float]

#: "MaxInt" of Russell & Norvig's slides: what the better evaluation returns for a won tic-tac-toe board.
WIN = 1_000_000


# Tic-tac-toe: Russell & Norvig ------------------------------------------------------------------------


def tictactoe_simple(state: Any) -> float:
    """Russell & Norvig's simple evaluation: lines where X can still win minus lines where O can."""
    x_open = sum(1 for line in LINES if not state.o & line)
    o_open = sum(1 for line in LINES if not state.x & line)
    return x_open - o_open


def tictactoe_better(state: Any) -> float:
    """Russell & Norvig's better evaluation: 3*X2 + X1 - (3*O2 + O1); +/-MaxInt for a won board.

    X2 counts lines with two X and a blank, X1 lines with one X and two blanks; O likewise.
    """
    x2 = x1 = o2 = o1 = 0
    for line in LINES:
        xs, os_ = (state.x & line).bit_count(), (state.o & line).bit_count()
        if xs == 3:
            return WIN
        if os_ == 3:
            return -WIN
        if os_ == 0:
            if xs == 2:
                x2 += 1
            elif xs == 1:
                x1 += 1
        if xs == 0:
            if os_ == 2:
                o2 += 1
            elif os_ == 1:
                o1 += 1
    return 3 * x2 + x1 - (3 * o2 + o1)


# Hexapawn --------------------------------------------------------------------------------------


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


# Teeko: the 1999 thesis program (Despotović) -------------------------------------------------

MIDDLE = 1 << 12
RING = sum(1 << (r * 5 + c) for r in (1, 2, 3) for c in (1, 2, 3)) & ~MIDDLE


def _three_windows() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    rows_cols: list[int] = []
    diagonals: list[int] = []
    for r in range(5):
        rows_cols.append(sum(1 << (r * 5 + c) for c in range(5)))
    for c in range(5):
        rows_cols.append(sum(1 << (r * 5 + c) for r in range(5)))
    # the diagonals of length >= 4, as cell lists
    diagonal_lines = [
        [(k, k) for k in range(5)],
        [(k, 4 - k) for k in range(5)],
        [(k, k + 1) for k in range(4)],
        [(k + 1, k) for k in range(4)],
        [(k, 3 - k) for k in range(4)],
        [(k + 1, 4 - k) for k in range(4)],
    ]
    for cells in diagonal_lines:
        for start in range(len(cells) - 2):
            diagonals.append(sum(1 << (r * 5 + c) for r, c in cells[start : start + 3]))
    return tuple(rows_cols), tuple(diagonals), BLOCK_MASKS


_FULL_LINES, _DIAGONAL_WINDOWS, _BLOCKS = _three_windows()
_CONTIGUOUS_THREES = frozenset(0b111 << k for k in range(3))


def _line_bits(bits: int, line_index: int) -> int:
    """The 5 cells of row (0-4) or column (5-9) ``line_index`` packed into 5 bits."""
    if line_index < 5:
        return bits >> (5 * line_index) & 0b11111
    c = line_index - 5
    return sum(((bits >> (r * 5 + c)) & 1) << r for r in range(5))


def teeko_has_three(bits: int) -> bool:
    """A three of the thesis's evaluation; the opponent's pawns are ignored (a blocked three counts)."""
    for index in range(10):
        if _line_bits(bits, index) in _CONTIGUOUS_THREES:
            return True
    for window in _DIAGONAL_WINDOWS:
        if bits & window == window:
            return True
    for block in _BLOCKS:
        if (bits & block).bit_count() == 3:
            return True
    return False


def teeko_thesis_value(own: int, other: int) -> int:
    """The thesis program's evaluation for the side holding ``own``: 1000 F + 15 T + 6 C + 3 R."""
    four = -1 if has_four(other) else 1 if has_four(own) else 0
    three = int(teeko_has_three(own)) - int(teeko_has_three(other))
    middle = 1 if own & MIDDLE else -1 if other & MIDDLE else 0
    ring = (own & RING).bit_count() - (other & RING).bit_count()
    return 1000 * four + 15 * three + 6 * middle + 3 * ring


def teeko_thesis(state: Any) -> float:
    return teeko_thesis_value(state.x, state.o)


def teeko_lines_over(goals: tuple[int, ...]) -> Evaluation:
    """Open winning sets of a Teeko form: for each goal free of the enemy, 4**(own pawns in it); X
    minus O.  Standard Teeko has 44 goals, Advanced Teeko 58 (Scarne's larger squares too), so the
    evaluation sees the threats of the form being played."""

    def teeko_lines(state: Any) -> float:
        score = 0
        for mask in goals:
            if not state.o & mask:
                score += 4 ** (state.x & mask).bit_count()
            if not state.x & mask:
                score -= 4 ** (state.o & mask).bit_count()
        return score

    return teeko_lines


teeko_lines = teeko_lines_over(LINE_MASKS + BLOCK_MASKS)

EVALUATIONS: dict[str, dict[str, Evaluation]] = {
    "tictactoe": {"better": tictactoe_better, "simple": tictactoe_simple},
    "hexapawn": {"material": hexapawn_material},
    "teeko": {"thesis": teeko_thesis, "lines": teeko_lines},
}


def _goals(game: Game[Any]) -> tuple[int, ...] | None:
    """A Teeko form's goals when they are not the standard 44 (None otherwise)."""
    masks = getattr(game, "win_masks", None)
    if game.name != "teeko" or masks is None or set(masks) == set(LINE_MASKS + BLOCK_MASKS):
        return None
    return tuple(masks)


def evaluation(game: Game[Any], name: str) -> Evaluation:
    """The evaluation ``name`` for ``game``; Teeko's ``lines`` counts the goals of the form played."""
    table = EVALUATIONS[game.name]
    if name not in table:
        raise ValueError(f"unknown evaluation {name!r} for {game.name}; valid: {', '.join(table)}")
    goals = _goals(game)
    if name == "lines" and goals is not None:
        return teeko_lines_over(goals)
    return table[name]


def default_evaluation(game: Game[Any]) -> str:
    """The game's first evaluation; for a Teeko form with other goals than the standard 44,
    ``lines``, which counts that form's goals (the thesis program's knows only the standard ones)."""
    if _goals(game) is not None:
        return "lines"
    return next(iter(EVALUATIONS[game.name]))
