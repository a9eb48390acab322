"""Connect Four's evaluations for a depth-limited search, from X's view, on a board of any size
(gamelearn.players.evaluation names them and imports this module when a Connect Four search first
asks for one).

``lines`` counts the open windows: the four-square lines of the board (every place a four can be
made, across, down and on both diagonals: 69 on the standard board) that hold some of one side's
discs and none of the other's, each weighted by how many discs it holds.  It is the static
evaluation of the Connect Four programs that came before the solvers (a window a side can still
fill is worth more the fuller it is; Allis 1988, "A knowledge-based approach of Connect-Four", ch. 3
on why the count alone misjudges: it knows nothing of the squares' parity).

``threats`` adds what Allis' rules of zugzwang say of the squares that would complete a four (a
"threat": a window holding three of one side's discs and an empty square): when the board fills up
column by column, the first player (X) gets the squares of the odd rows (counted from 1 at the
bottom) and the second player (O) those of the even rows, so an odd threat of X's and an even threat
of O's are the ones that tend to pay at the end of the game (Allis 1988, section 3.3).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..games.connect4 import geometry

if TYPE_CHECKING:
    from typing import Any

    from .base import Evaluation

#: What an open window is worth by the discs it holds (0 to 4): chosen on the validation suite
#: connect4-val-v1 (docs/connect4.md).  A full window is four in a row: the search scores a
#: finished game itself, so that weight only keeps the table whole.
LINE_WEIGHTS = (0, 1, 3, 9, 1000)
#: What a threat is worth beyond its window: one on the side's own kind of row (X odd, O even),
#: and one on the other kind; chosen with LINE_WEIGHTS on connect4-val-v1.
GOOD_THREAT, OTHER_THREAT = 10, 0


@functools.cache
def windows(columns: int, rows: int) -> tuple[int, ...]:
    """The bitboard masks of every four-square line of a board of that size (the rules' lines)."""
    return tuple(mask for mask, _squares in geometry(columns, rows)[1])


@functools.cache
def odd_rows(columns: int, rows: int) -> int:
    """The squares of the odd rows counted from 1 at the bottom (bits 0, 2, ... of each column)."""
    height = rows + 1
    column = sum(1 << r for r in range(0, rows, 2))
    return sum(column << (c * height) for c in range(columns))


def lines_over(weights: tuple[int, ...]) -> Evaluation:
    """The open-windows count with ``weights`` (five: a window of 0 to 4 discs), X minus O."""
    w = tuple(weights)
    if len(w) != 5:
        raise ValueError(f"five weights, for windows of 0 to 4 discs, not {len(w)}")

    def connect4_lines(state: Any) -> float:
        x, o = state[0], state[1]
        score = 0
        for mask in windows(state[2], state[3]):
            if not o & mask:
                score += w[(x & mask).bit_count()]
            if not x & mask:
                score -= w[(o & mask).bit_count()]
        return score

    return connect4_lines


def threat_squares(own: int, other: int, columns: int, rows: int) -> int:
    """The empty squares that would complete a four of ``own``'s (a bitboard)."""
    empty_of = ~(own | other)
    squares = 0
    for mask in windows(columns, rows):
        if not other & mask and (own & mask).bit_count() == 3:
            squares |= mask & empty_of
    return squares


def threats_over(weights: tuple[int, ...], good: int, other: int) -> Evaluation:
    """``lines`` with ``weights``, plus ``good`` for each threat square on the side's own kind of
    row (X odd, O even) and ``other`` for one on the other kind, X minus O."""
    lines = lines_over(weights)

    def connect4_threats(state: Any) -> float:
        x, o, columns, rows = state[0], state[1], state[2], state[3]
        odd = odd_rows(columns, rows)
        x_threats = threat_squares(x, o, columns, rows)
        o_threats = threat_squares(o, x, columns, rows)
        x_odd, x_even = (x_threats & odd).bit_count(), (x_threats & ~odd).bit_count()
        o_odd, o_even = (o_threats & odd).bit_count(), (o_threats & ~odd).bit_count()
        return lines(state) + good * (x_odd - o_even) + other * (x_even - o_odd)

    return connect4_threats


def connect4_none(state: Any) -> float:
    """Every unfinished position alike: the search sees only the fours within its depth."""
    return 0.0


connect4_lines = lines_over(LINE_WEIGHTS)
connect4_threats = threats_over(LINE_WEIGHTS, GOOD_THREAT, OTHER_THREAT)

EVALUATIONS: dict[str, Evaluation] = {"lines": connect4_lines, "threats": connect4_threats, "none": connect4_none}
