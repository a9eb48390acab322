"""Hexapawn on a 3x3 board, as Martin Gardner described it ("A Matchbox Game-Learning Machine", 1962).

The board is a string of 9 characters, squares 0-8 along the rows from the top: ``'B'`` a black
pawn, ``'W'`` a white pawn, ``'.'`` empty; the start is ``'BBB...WWW'``.  White (player 0, bottom)
moves first.  A pawn steps straight ahead to an empty square or diagonally ahead onto an enemy
pawn, which it takes.  A side wins with a pawn on the far row, by taking every enemy pawn, or when
the enemy is to move and has no move.  A move is ``"ab"``, from square a to square b.

States are interned, as tic-tac-toe's are: each position is made once and keeps the rules' answers
about it (winner, legal moves, each successor once played), so the hot path is a look-up.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from .base import GameFacts, IllegalMove, InternedGame, InternedState
from .svg import Pictured

START = "BBB...WWW"
WHITE, BLACK = "W", "B"
#: The mirror image: each row of three read back to front (the classroom page's ``mirror``).
MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)
#: _GATHER[k](board): the board's characters under symmetry k (identity, mirror), as a tuple: the
#: square each new square takes its character from (the inverse permutation; the mirror is its own).
_GATHER = (itemgetter(*range(9)), itemgetter(*MIRROR))


def pawn_moves(board: str, side: str) -> list[tuple[int, int]]:
    """(from, to) pairs for ``side`` in the classroom page's order: square by square, straight, left, right."""
    step, enemy = (-3, BLACK) if side == WHITE else (3, WHITE)
    found = []
    for sq in range(9):
        if board[sq] == side and 0 <= sq + step <= 8:
            to = sq + step
            if board[to] == ".":
                found.append((sq, to))
            if sq % 3 > 0 and board[to - 1] == enemy:
                found.append((sq, to - 1))
            if sq % 3 < 2 and board[to + 1] == enemy:
                found.append((sq, to + 1))
    return found


def apply_move(board: str, src: int, dst: int) -> str:
    squares = list(board)
    squares[dst] = squares[src]
    squares[src] = "."
    return "".join(squares)


@lru_cache(maxsize=1 << 16)
def _analyse(board: str, to_move: int) -> tuple[int | None, tuple[str, ...]]:
    """(winner, sorted legal moves) of a position.  Hexapawn has a few thousand boards at most,
    so each is worked out once and then looked up: the rules' hot path is a dictionary hit."""
    if WHITE in board[0:3] or BLACK not in board:
        return 0, ()
    if BLACK in board[6:9] or WHITE not in board:
        return 1, ()
    found = pawn_moves(board, BLACK if to_move else WHITE)
    if not found:
        return 1 - to_move, ()
    return None, tuple(sorted(f"{a}{b}" for a, b in found))


@lru_cache(maxsize=1)
def reachable_positions() -> frozenset[tuple[str, int]]:
    """Every (board, side to move) some game reaches from the start, finished ones included:
    135 of them.  Worked out once, on first use, by playing every legal move from every
    unfinished position; ``from_board`` accepts exactly these (the public API: a ValueError for a
    board no game can reach)."""
    start = (START, 0)
    found = {start}
    frontier = [start]
    while frontier:
        board, to_move = frontier.pop()
        for move in _analyse(board, to_move)[1]:  # none from a finished position
            after = (apply_move(board, int(move[0]), int(move[1])), 1 - to_move)
            if after not in found:
                found.add(after)
                frontier.append(after)
    return frozenset(found)


class HexapawnState(InternedState, Pictured, tuple[str, int]):
    """A hexapawn position: the 9-character board and the side to move (0 = White).

    Immutable, hashable, picklable and interned: ``HexapawnState(board, to_move)`` gives back the
    one object for that position, which carries what the rules worked out about it (private; the
    game object hands it out).
    """

    game_name = "hexapawn"
    game_words = "hexapawn"

    def __new__(cls, board: str, to_move: int) -> HexapawnState:
        state = _STATES.get((board, to_move))
        return state if state is not None else _intern(board, to_move)

    board = property(itemgetter(0), doc="The 9-character board.")
    to_move = property(itemgetter(1), doc="The side to move: 0 White, 1 Black.")

    def __repr__(self) -> str:
        """What a person reads: the board (``game.board``) and the side to move."""
        return f"HexapawnState({self[0]!r}, to_move={'B' if self[1] else 'W'})"


_STATES: dict[tuple[str, int], HexapawnState] = {}


def _intern(board: str, to_move: int) -> HexapawnState:
    """Make the one state of (board, to_move), with the rules' answers about it."""
    if not isinstance(board, str) or to_move not in (0, 1):
        raise TypeError(f"a hexapawn state is a board string and a side 0 or 1, not {board!r}, {to_move!r}")
    state = tuple.__new__(HexapawnState, (board, to_move))
    answers = state.__dict__
    answers["_winner"], answers["_moves"] = _analyse(board, to_move)
    answers["_next"] = {}
    _STATES[(board, to_move)] = state
    return state


class Hexapawn(InternedGame[HexapawnState]):
    facts = GameFacts(
        name="hexapawn",
        players=2,
        rows=3,
        columns=3,
        symbols=(WHITE, BLACK),
        symmetry_names=("identity", "mirror"),
        can_cycle=False,
        value_of_start=-1,  # Black, the second player, wins with best play (Gardner 1962)
    )
    symmetries = (tuple(range(9)), MIRROR)
    state_class = HexapawnState

    def initial(self) -> HexapawnState:
        return _INITIAL

    def to_move(self, state: HexapawnState) -> int:
        return state[1]

    def play(self, state: HexapawnState, move: str) -> HexapawnState:
        try:
            return state._next[move]  # played before from this position: the successor is kept
        except (AttributeError, KeyError, TypeError):
            pass
        after = self._play_by_the_rules(state, move)
        if type(state) is HexapawnState:
            state._next[move] = after  # only legal moves get here; an illegal one has raised
        return after

    def _play_by_the_rules(self, state: HexapawnState, move: str) -> HexapawnState:
        board, to_move = state
        winner, legal = _analyse(board, to_move)
        if move in legal:  # the fast path; anything else is illegal, and the checks below say why
            return HexapawnState(apply_move(board, int(move[0]), int(move[1])), 1 - to_move)
        if not isinstance(move, str) or len(move) != 2 or not move.isascii() or not move.isdigit():
            raise IllegalMove(move, "not a hexapawn move: write two squares 0-8, from and to (e.g. 63)")
        src, dst = int(move[0]), int(move[1])
        if src > 8 or dst > 8:
            raise IllegalMove(move, "off the board: squares run from 0 to 8")
        if winner is not None:
            raise IllegalMove(move, "the game is over")
        side = self.symbols[to_move]
        if board[src] != side:
            raise IllegalMove(move, f"no {side} pawn on square {src}")
        direction = "up" if side == WHITE else "down"
        raise IllegalMove(
            move, f"a pawn steps one square {direction} to an empty square, or diagonally onto an enemy pawn"
        )

    def winning_squares(self, state: HexapawnState) -> tuple[int, ...]:
        """The winner's pawn on the far row; () for a win by taking every pawn or by blocking."""
        board = state[0]
        winner = self.winner(state)
        if winner is None:
            return ()
        side = self.symbols[winner]
        far = range(0, 3) if winner == 0 else range(6, 9)
        return tuple(sq for sq in far if board[sq] == side)

    def end_reason(self, state: HexapawnState) -> str:
        board, to_move = state[0], state[1]
        winner = _analyse(board, to_move)[0]
        if winner is None:
            return ""
        side, other = self.symbols[winner], self.symbols[1 - winner]
        if side in (board[0:3] if winner == 0 else board[6:9]):
            return f"{side} reached the far row"
        if other not in board:
            return f"{side} took every {other} pawn"
        return f"{other} has no move left"

    def board(self, state: HexapawnState) -> str:
        return state[0]

    def from_board(self, board: str, to_move: int) -> HexapawnState:
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 (W) or 1 (B), not {to_move!r}")
        if not isinstance(board, str) or len(board) != 9 or set(board) - set(".WB"):
            raise ValueError(f"a hexapawn board is 9 characters of '.', 'W' and 'B', not {board!r}")
        if board.count(WHITE) > 3 or board.count(BLACK) > 3:
            raise ValueError("each side has at most 3 pawns")
        if not board.count(WHITE) and not board.count(BLACK):
            raise ValueError("an empty board cannot happen")
        white_home = WHITE in board[0:3] or BLACK not in board
        black_home = BLACK in board[6:9] or WHITE not in board
        if white_home and black_home:
            raise ValueError("both sides have won: no game reaches this board")
        if (white_home and to_move == 0) or (black_home and to_move == 1):
            raise ValueError("the side that has just won cannot be the side to move")
        if (board, to_move) not in reachable_positions():
            side = self.symbols[to_move]
            raise ValueError(f"board {board!r} with {side} to move cannot arise from the start: no game reaches it")
        return HexapawnState(board, to_move)

    def transform(self, state: HexapawnState, symmetry: int) -> HexapawnState:
        return HexapawnState("".join(_GATHER[symmetry](state[0])), state[1])

    def canonical(self, state: HexapawnState) -> tuple[HexapawnState, int]:
        """As :meth:`Game.canonical` (the board or its mirror image, whichever is less, the board
        on a tie), kept on the interned state."""
        try:
            return state._canonical
        except AttributeError:
            pass
        board, to_move = state
        mirrored = "".join(_GATHER[1](board))
        answer = (HexapawnState(mirrored, to_move), 1) if mirrored < board else (HexapawnState(board, to_move), 0)
        if type(state) is HexapawnState:
            state.__dict__["_canonical"] = answer
        return answer

    def transform_move(self, move: str, symmetry: int) -> str:
        perm = self.symmetries[symmetry]
        return f"{perm[int(move[0])]}{perm[int(move[1])]}"

    def rules_text(self) -> str:
        return (
            "Hexapawn (Martin Gardner, 1962)\n"
            "Three white pawns (W, bottom row) against three black pawns (B, top row) on a 3x3 board.\n"
            "White moves first. A pawn steps one square straight ahead to an empty square, or one "
            "square diagonally ahead onto an enemy pawn, which it takes. There is no double step.\n"
            "A side wins by reaching the far row, by taking every enemy pawn, or when the enemy is to "
            "move and has no move.\n"
            "Notation: squares 0-8 along the rows from the top; a move is from and to, e.g. 63."
        )


_INITIAL = HexapawnState(START, 0)
