"""Tic-tac-toe (noughts and crosses) on bitboards, as Russell & Norvig state it.

Squares 0-8 along the rows from the top; square i is bit i.  X (player 0) always goes first;
players alternate; three in a row across, down or diagonally wins; a full board with no three is
a draw.  A move is the square's digit.

States are interned: tic-tac-toe has 5,478 positions, so each is made once, and the rules' answers
about it (side to move, winner, legal moves, and each successor once it has been played) are worked
out once and kept on it.  The plain loop of ``is_over``, ``legal_moves`` and ``play`` is then a few
attribute and dictionary look-ups a ply.
"""

from __future__ import annotations

import functools

from .base import GameFacts, IllegalMove, InternedGame, InternedState, bit_tables, board_order_tables, square_symmetries
from .svg import Pictured

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
#: ROW_TEXT[x_row | o_row << 3]: a row's three characters from its X and O bits (3 bits each), so
#: that ``board`` is three look-ups (the environments read the board of every position).
ROW_TEXT: tuple[str, ...] = tuple(
    "".join("X" if x_row >> sq & 1 else "O" if o_row >> sq & 1 else "." for sq in range(3))
    for o_row in range(8)
    for x_row in range(8)
)


@functools.cache
def symmetry_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """(``images[k][bits]``, ``order[k][bits]``), 8 x 512 entries each, made on first use:
    the marks ``bits`` under symmetry ``k``, and the weight of that image in the order of boards
    (:func:`~gamelearn.games.base.board_order_tables`)."""
    images = tuple(bit_tables(perm, 9)[0] for perm in SYMMETRIES)
    order = tuple(board_order_tables(perm, 9)[0] for perm in SYMMETRIES)
    return images, order


def has_line(bits: int) -> bool:
    """True if the marks in ``bits`` (9-bit mask) hold three in a row."""
    return HAS_LINE[bits]


class TicTacToeState(InternedState, Pictured, tuple[int, int]):
    """A tic-tac-toe position: X's squares and O's squares as 9-bit masks.  X moves when counts are equal.

    Immutable, hashable and picklable, and interned: ``TicTacToeState(x, o)`` gives back the one
    object for that position (unpickling and copying too), which carries what the rules worked out
    about it.  Those answers are private; the game object hands them out.
    """

    game_name = "tictactoe"
    game_words = "tic-tac-toe"
    _mover: int  # and the answers every interned state keeps (InternedState)

    def __new__(cls, x: int, o: int) -> TicTacToeState:
        state = _STATES.get((x, o))
        return state if state is not None else _intern(x, o)

    @property
    def x(self) -> int:
        return self[0]

    @property
    def o(self) -> int:
        return self[1]

    def __repr__(self) -> str:
        """What a person reads: the board (``game.board``) and the side to move."""
        x, o = self[0], self[1]
        board = "".join("X" if x >> sq & 1 else "O" if o >> sq & 1 else "." for sq in range(9))
        return f"TicTacToeState({board!r}, to_move={'X' if x.bit_count() == o.bit_count() else 'O'})"


_STATES: dict[tuple[int, int], TicTacToeState] = {}


def _intern(x: int, o: int) -> TicTacToeState:
    """Make the one state of position (x, o), with the rules' answers about it."""
    state = _STATES[(x, o)] = _new_tuple(TicTacToeState, (x, o))
    winner = 0 if HAS_LINE[x] else 1 if HAS_LINE[o] else None
    state.__dict__.update(
        _mover=0 if x.bit_count() == o.bit_count() else 1,
        _winner=winner,
        _moves=EMPTY_SQUARES[x | o] if winner is None else (),
    )
    return state


_new_tuple = tuple.__new__


def _intern_every_position() -> None:
    """Every position reachable from the empty board, each with its successors, in one pass by
    number of marks (5,478 positions; run the first time a move is played).  In a fresh process
    this costs less than working them out one by one as play first meets them, and the loop of
    play never meets a position without its answers.

    The side to move is the same for a whole level, and a position is new exactly once, so each
    new one is made here with its answers in place (no call a position, no check that it is new to
    the next level)."""
    states, make = _STATES, _new_tuple
    # Positions made before this pass (by from_board, unpickling, the class itself) are not new
    # when the pass meets them, but still need their successors: each joins the level it is met in.
    earlier = dict.fromkeys(state for state in states.values() if state is not _INITIAL)
    level = [_INITIAL]
    mover = 0  # the side to move in every position of this level
    while level:
        following: list[TicTacToeState] = []
        for state in level:
            moves = state._moves
            if not moves:
                continue
            x, o = state
            occupied = x | o
            after: dict[str, TicTacToeState] = {}
            for move in moves:
                bit = 1 << _MOVE_SQUARES[move]
                key = (x | bit, o) if mover == 0 else (x, o | bit)
                child = states.get(key)
                if child is None:
                    child = states[key] = make(TicTacToeState, key)
                    kept = child.__dict__
                    kept["_mover"] = 1 - mover
                    if HAS_LINE[key[mover]]:  # the move made three in a row
                        kept["_winner"], kept["_moves"] = mover, ()
                    else:
                        kept["_winner"], kept["_moves"] = None, EMPTY_SQUARES[occupied | bit]
                    following.append(child)
                elif earlier and child in earlier:
                    del earlier[child]
                    following.append(child)
                after[move] = child
            state.__dict__["_next"] = after
        level = following
        mover = 1 - mover


class TicTacToe(InternedGame[TicTacToeState]):
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
    state_class = TicTacToeState

    def initial(self) -> TicTacToeState:
        return _INITIAL

    def to_move(self, state: TicTacToeState) -> int:
        try:
            return state._mover
        except AttributeError:  # a plain (x, o) tuple: its interned state answers
            return TicTacToeState(*state)._mover

    def play(self, state: TicTacToeState, move: str) -> TicTacToeState:
        try:
            return state._next[move]  # the successors are worked out once a position
        except (AttributeError, KeyError, TypeError):
            pass
        if type(state) is TicTacToeState and "_next" not in state.__dict__:
            self.successors(state)
            after = state._next.get(move) if isinstance(move, str) else None
            if after is not None:
                return after
        return self._play_by_the_rules(state, move)  # an illegal move (it raises), or a plain tuple

    def _successors_of(self, state: TicTacToeState) -> tuple[tuple[str, TicTacToeState], ...]:
        if "_next" not in _INITIAL.__dict__:
            _intern_every_position()  # the first move of the process
        if "_next" in state.__dict__:  # interned with every position: its successors are known
            return tuple(state._next.items())
        x, o = state
        mark_x = state._mover == 0
        found = []
        for move in state._moves:
            bit = 1 << _MOVE_SQUARES[move]
            key = (x | bit, o) if mark_x else (x, o | bit)
            found.append((move, _STATES.get(key) or _intern(*key)))
        answer = tuple(found)
        state.__dict__["_next"] = dict(answer)
        return answer

    def _play_by_the_rules(self, state: TicTacToeState, move: str) -> TicTacToeState:
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

    def winning_squares(self, state: TicTacToeState) -> tuple[int, ...]:
        """The winner's line of three."""
        winner = self.winner(state)
        if winner is None:
            return ()
        marks = state[winner]
        line = next((line for line in LINES if marks & line == line), 0)
        return tuple(sq for sq in range(9) if line >> sq & 1)

    def end_reason(self, state: TicTacToeState) -> str:
        if not self.is_over(state):
            return ""
        winner = self.winner(state)
        return "the board is full" if winner is None else f"{self.symbols[winner]} has three in a row"

    def board(self, state: TicTacToeState) -> str:
        x, o = state
        return (
            ROW_TEXT[x & 7 | (o & 7) << 3] + ROW_TEXT[x >> 3 & 7 | (o >> 3 & 7) << 3] + ROW_TEXT[x >> 6 | (o >> 6) << 3]
        )

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
        images = symmetry_tables()[0][symmetry]
        return TicTacToeState(images[state[0]], images[state[1]])

    def canonical(self, state: TicTacToeState) -> tuple[TicTacToeState, int]:
        """As :meth:`Game.canonical` (the least image by board, the first symmetry giving it), by
        table look-ups, and kept on the interned state."""
        try:
            return state._canonical
        except AttributeError:
            pass
        x, o = state
        images, order = symmetry_tables()
        best_key = 2 * order[0][x] + order[0][o]
        best_index = 0
        for index in range(1, 8):
            key = 2 * order[index][x] + order[index][o]
            if key < best_key:
                best_key, best_index = key, index
        answer = (TicTacToeState(images[best_index][x], images[best_index][o]), best_index)
        if type(state) is TicTacToeState:
            state.__dict__["_canonical"] = answer
        return answer

    def transform_move(self, move: str, symmetry: int) -> str:
        return str(self.symmetries[symmetry][int(move)])

    def rules_text(self) -> str:
        return (
            "Tic-tac-toe (noughts and crosses)\n"
            "X goes first; players alternate putting their mark on an empty square of the 3x3 board.\n"
            "Three in a row across, down or diagonally wins; a full board with no three is a draw.\n"
            "Notation: squares 0-8 along the rows from the top, e.g. 4 is the middle."
        )


_INITIAL = TicTacToeState(0, 0)
