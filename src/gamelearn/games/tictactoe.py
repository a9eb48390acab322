"""Tic-tac-toe (noughts and crosses) on bitboards, as seed 001 states it.

Squares 0-8 along the rows from the top; square i is bit i.  X (player 0) always goes first;
players alternate; three in a row across, down or diagonally wins; a full board with no three is
a draw.  A move is the square's digit.
"""

from __future__ import annotations

from typing import NamedTuple

from .base import Game, GameFacts, IllegalMove, square_symmetries

FULL = (1 << 9) - 1
#: The 8 winning lines: 3 rows, 3 columns, 2 diagonals.
LINES: tuple[int, ...] = tuple(
    sum(1 << sq for sq in line)
    for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
)

SYMMETRY_NAMES, SYMMETRIES = square_symmetries(3)


def _has_line_slow(bits: int) -> bool:
    return any(bits & line == line for line in LINES)


#: HAS_LINE[bits]: whether the marks ``bits`` hold three in a row; 512 entries, so every rule
#: question on the hot path is a table lookup.
HAS_LINE: tuple[bool, ...] = tuple(_has_line_slow(bits) for bits in range(1 << 9))
#: EMPTY_SQUARES[occupied]: the legal moves' text for that set of occupied squares, in order.
EMPTY_SQUARES: tuple[tuple[str, ...], ...] = tuple(
    tuple(str(sq) for sq in range(9) if not occupied >> sq & 1) for occupied in range(1 << 9)
)
_MOVE_SQUARES = {str(sq): sq for sq in range(9)}


def has_line(bits: int) -> bool:
    """True if the marks in ``bits`` (9-bit mask) hold three in a row."""
    return HAS_LINE[bits]


class TicTacToeState(NamedTuple):
    """A tic-tac-toe position: X's squares and O's squares as 9-bit masks.  X moves when counts are equal."""

    x: int
    o: int


class TicTacToe(Game[TicTacToeState]):
    facts = GameFacts(
        name="tictactoe",
        players=2,
        rows=3,
        columns=3,
        symbols=("X", "O"),
        symmetry_names=SYMMETRY_NAMES,
        can_cycle=False,
        value_of_start=0,
    )
    symmetries = SYMMETRIES

    def initial(self) -> TicTacToeState:
        return TicTacToeState(0, 0)

    def to_move(self, state: TicTacToeState) -> int:
        return 0 if state[0].bit_count() == state[1].bit_count() else 1

    def legal_moves(self, state: TicTacToeState) -> list[str]:
        x, o = state
        if HAS_LINE[x] or HAS_LINE[o]:
            return []
        return list(EMPTY_SQUARES[x | o])  # a new list each call: callers may change it

    def play(self, state: TicTacToeState, move: str) -> TicTacToeState:
        x, o = state
        sq = _MOVE_SQUARES.get(move) if isinstance(move, str) else None
        if sq is None:
            if isinstance(move, str) and len(move) == 1 and move.isascii() and move.isdigit():
                raise IllegalMove(move, "off the board: squares run from 0 to 8")
            raise IllegalMove(move, "not a tic-tac-toe move: write one square 0-8")
        if HAS_LINE[x] or HAS_LINE[o] or (x | o) == FULL:
            raise IllegalMove(move, "the game is over")
        if (x | o) >> sq & 1:
            raise IllegalMove(move, f"square {sq} is occupied")
        if x.bit_count() == o.bit_count():
            return TicTacToeState(x | 1 << sq, o)
        return TicTacToeState(x, o | 1 << sq)

    def winner(self, state: TicTacToeState) -> int | None:
        if HAS_LINE[state[0]]:
            return 0
        if HAS_LINE[state[1]]:
            return 1
        return None

    def is_over(self, state: TicTacToeState) -> bool:
        x, o = state
        return HAS_LINE[x] or HAS_LINE[o] or (x | o) == FULL

    def end_reason(self, state: TicTacToeState) -> str:
        if not self.is_over(state):
            return ""
        winner = self.winner(state)
        return "the board is full" if winner is None else f"{self.symbols[winner]} has three in a row"

    def board(self, state: TicTacToeState) -> str:
        return "".join("X" if state.x >> sq & 1 else "O" if state.o >> sq & 1 else "." for sq in range(9))

    def from_board(self, board: str, to_move: int) -> TicTacToeState:
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 (X) or 1 (O), not {to_move!r}")
        if not isinstance(board, str) or len(board) != 9 or set(board) - set(".XO"):
            raise ValueError(f"a tic-tac-toe board is 9 characters of '.', 'X' and 'O', not {board!r}")
        x = sum(1 << sq for sq, ch in enumerate(board) if ch == "X")
        o = sum(1 << sq for sq, ch in enumerate(board) if ch == "O")
        nx, no = x.bit_count(), o.bit_count()
        if nx not in (no, no + 1):
            raise ValueError(f"X goes first and players alternate: {nx} X and {no} O cannot happen")
        state = TicTacToeState(x, o)
        if self.to_move(state) != to_move:
            raise ValueError(f"with {nx} X and {no} O on the board it is {self.symbols[self.to_move(state)]} to move")
        x_line, o_line = has_line(x), has_line(o)
        if x_line and o_line:
            raise ValueError("both sides have three in a row: no game reaches this board")
        if x_line and nx != no + 1 or o_line and nx != no:
            raise ValueError("the game ended with the winner's move: no game reaches this board")
        return state

    def transform(self, state: TicTacToeState, symmetry: int) -> TicTacToeState:
        perm = self.symmetries[symmetry]
        x = sum(1 << perm[sq] for sq in range(9) if state.x >> sq & 1)
        o = sum(1 << perm[sq] for sq in range(9) if state.o >> sq & 1)
        return TicTacToeState(x, o)

    def transform_move(self, move: str, symmetry: int) -> str:
        return str(self.symmetries[symmetry][int(move)])

    def rules_text(self) -> str:
        return (
            "Tic-tac-toe (noughts and crosses)\n"
            "X goes first; players alternate putting their mark on an empty square of the 3x3 board.\n"
            "Three in a row across, down or diagonally wins; a full board with no three is a draw.\n"
            "Notation: squares 0-8 along the rows from the top, e.g. 4 is the middle."
        )
