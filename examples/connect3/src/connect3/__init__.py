"""Connect Three on a 4x4 board with gravity, written against ``gamelearn.Game`` alone.

X moves first; players alternate dropping a disc into a column that is not full, and it falls to
the lowest empty square of that column.  Three of one's own discs in a row, across, down or
diagonally, wins; a full board without one is a draw.

Squares are numbered 0-15 along the rows from the top (row ``r``, column ``c`` is ``4 * r + c``),
so 12-15 is the bottom row, and written with two digits ("00" to "15"), as gamelearn names the
squares of a board of more than ten.  A move is the square where the disc lands: from the empty
board the legal moves are "12", "13", "14" and "15".

A state is a tuple of 16 cells, 0 empty, 1 X, 2 O: immutable, hashable and picklable.
"""

from __future__ import annotations

from gamelearn import Game, GameFacts, IllegalMove

ROWS = COLUMNS = 4
SQUARES = ROWS * COLUMNS
CHARS = ".XO"


def _lines() -> tuple[tuple[int, int, int], ...]:
    """Every three squares in a row: across, down and along both diagonals."""
    found = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + k * dr, column + k * dc) for k in range(3)]
                if all(0 <= r < ROWS and 0 <= c < COLUMNS for r, c in cells):
                    found.append(tuple(r * COLUMNS + c for r, c in cells))
    return tuple(found)  # type: ignore[arg-type]


LINES = _lines()
#: Left and right swapped: the only symmetry gravity leaves (upside down, discs would fall up).
MIRROR = tuple(row * COLUMNS + (COLUMNS - 1 - column) for row in range(ROWS) for column in range(COLUMNS))

State = tuple[int, ...]


class ConnectThree(Game[State]):
    """Connect Three: 4 columns, 4 rows, discs fall, three in a row wins."""

    facts = GameFacts(
        name="connect3",
        players=2,
        rows=ROWS,
        columns=COLUMNS,
        symbols=("X", "O"),
        symmetry_names=("identity", "mirror"),
        can_cycle=False,
        value_of_start=None,  # not published: `gamelearn solve connect3` works it out
    )
    symmetries = (tuple(range(SQUARES)), MIRROR)

    def initial(self) -> State:
        return (0,) * SQUARES

    def to_move(self, state: State) -> int:
        return 0 if state.count(1) == state.count(2) else 1

    def winner(self, state: State) -> int | None:
        for a, b, c in LINES:
            if state[a] and state[a] == state[b] == state[c]:
                return state[a] - 1
        return None

    def is_over(self, state: State) -> bool:
        return self.winner(state) is not None or 0 not in state

    def legal_moves(self, state: State) -> list[str]:
        if self.is_over(state):
            return []
        moves = []
        for column in range(COLUMNS):
            empty = [r * COLUMNS + column for r in range(ROWS) if state[r * COLUMNS + column] == 0]
            if empty:
                moves.append(f"{empty[-1]:02d}")  # the lowest empty square of the column
        return sorted(moves)

    def play(self, state: State, move: str) -> State:
        legal = self.legal_moves(state)
        if move not in legal:
            if not legal:
                raise IllegalMove(move, "the game is over")
            raise IllegalMove(move, f"a disc lands on one of {', '.join(legal)}")
        cells = list(state)
        cells[int(move)] = 1 + self.to_move(state)
        return tuple(cells)

    def board(self, state: State) -> str:
        return "".join(CHARS[cell] for cell in state)

    def from_board(self, board: str, to_move: int) -> State:
        if not isinstance(board, str) or len(board) != SQUARES or set(board) - set(CHARS):
            raise ValueError(f"a connect3 board is {SQUARES} characters of '.', 'X' and 'O', not {board!r}")
        state = tuple(CHARS.index(ch) for ch in board)
        for square in range(SQUARES - COLUMNS):
            if state[square] and not state[square + COLUMNS]:
                raise ValueError(f"the disc on square {square} would fall: the square below it is empty")
        if state.count(1) - state.count(2) not in (0, 1):
            raise ValueError("X moves first and players alternate: the counts of X and O cannot happen")
        if to_move != self.to_move(state):
            raise ValueError(f"on this board it is {self.symbols[self.to_move(state)]} to move, not player {to_move}")
        return state

    def transform(self, state: State, symmetry: int) -> State:
        perm = self.symmetries[symmetry]
        cells = [0] * SQUARES
        for square, image in enumerate(perm):
            cells[image] = state[square]
        return tuple(cells)

    def transform_move(self, move: str, symmetry: int) -> str:
        return f"{self.symmetries[symmetry][int(move)]:02d}"

    def winning_squares(self, state: State) -> tuple[int, ...]:
        for line in LINES:
            if state[line[0]] and state[line[0]] == state[line[1]] == state[line[2]]:
                return line
        return ()

    def rules_text(self) -> str:
        return (
            "Connect Three on a 4x4 board\n"
            "X goes first; players alternate dropping a disc into a column that is not full, and it "
            "falls to the lowest empty square of that column.\n"
            "Three of your discs in a row, across, down or diagonally, wins; a full board without one is a draw.\n"
            "Notation: squares 00-15 along the rows from the top; a move is the square where the disc "
            "lands (from the empty board: 12, 13, 14 or 15; 08 is the left square of the third row)."
        )
