"""Connect Four (Milton Bradley, 1974) on bitboards, on any board from 4x4 up to 9 columns by 8 rows.

Two players, X (player 0, moving first) and O, drop discs in turn into a column that is not full; a
disc falls to the lowest empty square of its column.  Four of one's own discs in a row across, down
or diagonally wins; a full board without four is a draw.  The standard board has 7 columns and 6
rows; with best play the first player wins, by starting in the middle column (Allis 1988, Allen
1988).

A move is its column, numbered from the left from 1, as Connect Four's solvers and databases write
games (Pascal Pons' solver, John Tromp's databases): ``"4"`` is the middle column of the standard
board, and a game is the string of its columns, ``"4453"``.

A state is a tuple ``(x, o, columns, rows)``: X's and O's discs as bitboards laid out as John Tromp's
Fhourstones lays them: column ``c`` holds bits ``c * (rows + 1)`` up to ``c * (rows + 1) + rows - 1``,
bottom first, and one more bit a column stays empty, so that a line shifted by whole columns never
runs from the top of one column into the next.  The side to move is X when both sides have as many
discs down.  States are plain (immutable, hashable, picklable) and never interned: the standard board
has 4.5 x 10^12 positions (Edelkamp and Kissmann 2008).
"""

from __future__ import annotations

import functools

from .base import Game, GameFacts, GameOption, IllegalMove, shown_text
from .registry import get_game
from .svg import position_svg

#: The sizes the rules take (the solver takes those whose bitboard fits in 63 bits).
MIN_COLUMNS, MAX_COLUMNS = 4, 9
MIN_ROWS, MAX_ROWS = 4, 8

CONNECT4_OPTIONS = (
    GameOption(
        "columns",
        "7",
        tuple(str(n) for n in range(MIN_COLUMNS, MAX_COLUMNS + 1)),
        f"how many columns the board has, {MIN_COLUMNS} to {MAX_COLUMNS} (7 on the standard board)",
    ),
    GameOption(
        "rows",
        "6",
        tuple(str(n) for n in range(MIN_ROWS, MAX_ROWS + 1)),
        f"how many rows the board has, {MIN_ROWS} to {MAX_ROWS} (6 on the standard board)",
    ),
)

#: The value of the empty board for the first player with best play (1 a win, 0 a draw, -1 a loss),
#: by (columns, rows), for every size the table of results of John Tromp gives ("Solving Connect-4
#: on medium board sizes", ICGA Journal 31, 2008, and https://tromp.github.io/c4/c4.html; 9x7 and
#: 9x8 are not in it); 7x6 by Allis (1988) and Allen (1988).  A size's ``facts.value_of_start``.
PUBLISHED_VALUES: dict[tuple[int, int], int] = {
    **{(4, rows): 0 for rows in range(4, 9)},
    **{(5, rows): 0 for rows in range(4, 9)},
    (6, 4): -1, (6, 5): 0, (6, 6): -1, (6, 7): 1, (6, 8): -1,
    (7, 4): 0, (7, 5): 0, (7, 6): 1, (7, 7): 0, (7, 8): 1,
    (8, 4): -1, (8, 5): 1, (8, 6): -1, (8, 7): 1, (8, 8): -1,
    (9, 4): -1, (9, 5): 1, (9, 6): -1,
}  # fmt: skip

X_SIDE, O_SIDE = 0, 1
_DEFAULTS = {option.name: option.default for option in CONNECT4_OPTIONS}


class Connect4State(tuple[int, int, int, int]):
    """A Connect Four position: ``(x, o, columns, rows)``, X's and O's discs as bitboards (see the
    module's docstring) and the board's size.  Immutable, hashable and picklable; a plain tuple of
    the same four numbers is the same position to the game."""

    __slots__ = ()

    def __new__(cls, x: int, o: int, columns: int = 7, rows: int = 6) -> Connect4State:
        return tuple.__new__(cls, (x, o, columns, rows))

    def __reduce__(self) -> tuple[type[Connect4State], tuple[int, int, int, int]]:
        return (Connect4State, (self[0], self[1], self[2], self[3]))

    @property
    def x(self) -> int:
        return self[0]

    @property
    def o(self) -> int:
        return self[1]

    def __repr__(self) -> str:
        """What a person reads: the board (``game.board``) and the side to move."""
        game = _game(self[2], self[3])
        mover = game.symbols[game.to_move(self)]
        return f"Connect4State({game.board(self)!r}, to_move={mover})"

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter (gamelearn.games.svg)."""
        return position_svg(_game(self[2], self[3]), self)


def _game(columns: int, rows: int) -> Connect4:
    game = get_game(f"connect4:columns={columns},rows={rows}")
    assert isinstance(game, Connect4)
    return game


@functools.cache
def geometry(columns: int, rows: int) -> tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]:
    """(the bit of each square in board order, rows from the top; every line of four as (its
    bitboard mask, its squares in board order)) for a board of that size."""
    height = rows + 1
    square_bits = tuple(1 << (c * height + rows - 1 - r) for r in range(rows) for c in range(columns))
    lines = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    squares = tuple(sorted(rr * columns + cc for rr, cc in cells))
                    lines.append((sum(square_bits[sq] for sq in squares), squares))
    return square_bits, tuple(lines)


def has_four(bits: int, height: int) -> bool:
    """Whether the discs ``bits`` hold four in a row, on a board whose columns are ``height`` bits
    apart (rows + 1): pairs a step apart, then pairs of pairs two steps apart, in each of the four
    directions (down a column, across, and the two diagonals)."""
    for step in (1, height, height - 1, height + 1):
        pairs = bits & (bits >> step)
        if pairs & (pairs >> 2 * step):
            return True
    return False


def _reachable(x: int, o: int, columns: int, rows: int) -> bool:
    """Whether some game reaches X on ``x`` and O on ``o`` (discs resting on discs, counts as
    turns alternate from X, at most one four, made by the last disc): the discs are taken off
    again from the tops of the columns, the last mover's first, each position met once.  After the
    first disc is taken off no position may hold four, or the game would have ended there."""
    height = rows + 1
    column_bits = [((1 << rows) - 1) << (c * height) for c in range(columns)]
    failed: set[tuple[int, int]] = set()

    def back(x: int, o: int, first: bool) -> bool:
        if not x | o:
            return True
        if (x, o) in failed:
            return False
        last = x if x.bit_count() > o.bit_count() else o  # the side that moved last
        both = x | o
        for column in column_bits:
            discs = both & column
            if not discs:
                continue
            top = 1 << (discs.bit_length() - 1)
            if not last & top:
                continue
            nx, no = (x & ~top, o) if last is x else (x, o & ~top)
            if first and (has_four(nx, height) or has_four(no, height)):
                continue
            if back(nx, no, False):
                return True
        failed.add((x, o))
        return False

    return back(x, o, True)


class Connect4(Game[Connect4State]):
    """Connect Four on a board of ``columns`` x ``rows`` (7 x 6 by default): the module's docstring
    has the rules and the notation."""

    game_options = CONNECT4_OPTIONS

    def __init__(self, columns: str = "7", rows: str = "6") -> None:
        self.columns, self.rows = int(columns), int(rows)
        if not (MIN_COLUMNS <= self.columns <= MAX_COLUMNS and MIN_ROWS <= self.rows <= MAX_ROWS):
            raise ValueError(
                f"a connect4 board has {MIN_COLUMNS}-{MAX_COLUMNS} columns and {MIN_ROWS}-{MAX_ROWS} rows, "
                f"not {columns}x{rows}"
            )
        c, r = self.columns, self.rows
        self.facts = GameFacts(
            name="connect4",
            players=2,
            rows=r,
            columns=c,
            symbols=("X", "O"),
            symmetry_names=("identity", "mirror"),
            can_cycle=False,
            value_of_start=PUBLISHED_VALUES.get((c, r)),
            options=(("columns", str(c)), ("rows", str(r))),
        )
        self.height = h = r + 1
        self.bottom = sum(1 << (k * h) for k in range(c))
        self.full = self.bottom * ((1 << r) - 1)
        #: The top square of each column: a column is full when it holds a disc there.
        self.tops = tuple(1 << (k * h + r - 1) for k in range(c))
        self.column_masks = tuple(((1 << r) - 1) << (k * h) for k in range(c))
        self.move_names = tuple(str(k + 1) for k in range(c))
        self._columns_of = {name: k for k, name in enumerate(self.move_names)}
        self.square_bits, self.lines = geometry(c, r)
        self.symmetries = (
            tuple(range(c * r)),
            tuple(sq - sq % c + (c - 1 - sq % c) for sq in range(c * r)),
        )
        self._initial = Connect4State(0, 0, c, r)

    @property
    def spec(self) -> str:
        changed = [f"{name}={value}" for name, value in self.facts.options if value != _DEFAULTS[name]]
        return "connect4" + (":" + ",".join(changed) if changed else "")

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (Connect4, (str(self.columns), str(self.rows)))

    def initial(self) -> Connect4State:
        return self._initial

    def to_move(self, state: Connect4State) -> int:
        return (state[0] | state[1]).bit_count() & 1

    def _won(self, state: Connect4State) -> int | None:
        """The side with four, where there is one: only the side that moved last can have made it."""
        x, o = state[0], state[1]
        if (x | o).bit_count() & 1:
            return X_SIDE if has_four(x, self.height) else None
        return O_SIDE if has_four(o, self.height) else None

    def winner(self, state: Connect4State) -> int | None:
        return self._won(state)

    def is_over(self, state: Connect4State) -> bool:
        return (state[0] | state[1]) == self.full or self._won(state) is not None

    def action_moves(self) -> tuple[str, ...]:
        """Every move as an action number (:mod:`gamelearn.games.actions`): action ``c`` is column
        ``c + 1``, so a policy over the columns reads left to right."""
        return self.move_names

    def legal_moves(self, state: Connect4State) -> list[str]:
        both = state[0] | state[1]
        if both == self.full or self._won(state) is not None:
            return []
        return [name for name, top in zip(self.move_names, self.tops, strict=True) if not both & top]

    def play(self, state: Connect4State, move: str) -> Connect4State:
        column = self._columns_of.get(move) if isinstance(move, str) else None
        if column is None:
            if isinstance(move, str) and move.isascii() and move.isdigit():
                raise IllegalMove(move, f"off the board: columns run from 1 to {self.columns}")
            raise IllegalMove(move, f"not a Connect Four move: write a column 1-{self.columns}")
        x, o = state[0], state[1]
        both = x | o
        if both == self.full or self._won(state) is not None:
            raise IllegalMove(move, "the game is over")
        if both & self.tops[column]:
            raise IllegalMove(move, f"column {move} is full")
        disc = (both + (1 << column * self.height)) & self.column_masks[column]
        if both.bit_count() & 1:
            return Connect4State(x, o | disc, self.columns, self.rows)
        return Connect4State(x | disc, o, self.columns, self.rows)

    def winning_squares(self, state: Connect4State) -> tuple[int, ...]:
        """Every square of the winner's fours (a disc can make more than one line at once)."""
        winner = self.winner(state)
        if winner is None:
            return ()
        discs = state[winner]
        return tuple(sorted({sq for mask, squares in self.lines if discs & mask == mask for sq in squares}))

    def end_reason(self, state: Connect4State) -> str:
        winner = self.winner(state)
        if winner is not None:
            return f"{self.symbols[winner]} has four in a row"
        return "the board is full" if self.is_over(state) else ""

    def board(self, state: Connect4State) -> str:
        x, o = state[0], state[1]
        return "".join("X" if x & bit else "O" if o & bit else "." for bit in self.square_bits)

    def from_board(self, board: str, to_move: int) -> Connect4State:
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 (X) or 1 (O), not {to_move!r}")
        size = self.columns * self.rows
        if not isinstance(board, str) or len(board) != size or set(board) - set(".XO"):
            raise ValueError(
                f"a {self.columns}x{self.rows} connect4 board is {size} characters of '.', 'X' and 'O', "
                f"not {shown_text(board)}"
            )
        x = sum(bit for bit, ch in zip(self.square_bits, board, strict=True) if ch == "X")
        o = sum(bit for bit, ch in zip(self.square_bits, board, strict=True) if ch == "O")
        both = x | o
        for column, mask in enumerate(self.column_masks):
            discs = (both & mask) >> column * self.height
            if discs & (discs + 1):
                raise ValueError(f"a disc in column {column + 1} floats over an empty square: discs fall")
        nx, no = x.bit_count(), o.bit_count()
        if nx not in (no, no + 1):
            raise ValueError(f"X goes first and players alternate: {nx} X and {no} O cannot happen")
        state = Connect4State(x, o, self.columns, self.rows)
        if self.to_move(state) != to_move:
            raise ValueError(f"with {nx} X and {no} O on the board it is {self.symbols[self.to_move(state)]} to move")
        x_four, o_four = has_four(x, self.height), has_four(o, self.height)
        if x_four and o_four:
            raise ValueError("both sides have four in a row: no game reaches this board")
        if x_four and nx != no + 1 or o_four and nx != no:
            raise ValueError("the game ended with the winner's disc: no game reaches this board")
        if not _reachable(x, o, self.columns, self.rows):
            raise ValueError("no order of moves reaches this board: each side's discs cannot be stacked in turn")
        return state

    def transform(self, state: Connect4State, symmetry: int) -> Connect4State:
        if symmetry == 0:
            return state
        return Connect4State(self._mirror(state[0]), self._mirror(state[1]), self.columns, self.rows)

    def _mirror(self, bits: int) -> int:
        h, last = self.height, self.columns - 1
        image = 0
        for column, mask in enumerate(self.column_masks):
            image |= ((bits & mask) >> column * h) << (last - column) * h
        return image

    def transform_move(self, move: str, symmetry: int) -> str:
        return move if symmetry == 0 else str(self.columns + 1 - int(move))

    def render(self, state: Connect4State) -> str:
        """The board as rows of text, the columns' numbers (the moves) underneath."""
        cells = self.board(state)
        c = self.columns
        lines = [" ".join(cells[r * c : (r + 1) * c]) for r in range(self.rows)]
        lines.append(" ".join(self.move_names))
        return "\n".join(lines)

    def rules_text(self) -> str:
        size = "" if (self.columns, self.rows) == (7, 6) else f" on a {self.columns}x{self.rows} board"
        return (
            f"Connect Four{size}\n"
            f"X goes first; players alternate dropping a disc into one of the {self.columns} columns that is not "
            f"full, and it falls to the lowest empty square of that column ({self.rows} rows).\n"
            "Four of your discs in a row, across, down or diagonally, wins; a full board without four is a draw.\n"
            f"Notation: a move is its column, 1-{self.columns} from the left (as Connect Four solvers write "
            f"games: {'4453' if self.columns >= 5 else '2231'} is four moves)."
        )
