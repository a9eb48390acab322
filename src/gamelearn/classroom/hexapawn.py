"""The game file of the classroom page "Can a Machine Learn a Game by Itself?": hexapawn for its programs.

The page's programs import ``START, moves, play, has_lost, mirror, show, can_win, random_white,
sharp_white`` from a file ``hexapawn.py``; with ``from gamelearn.classroom.hexapawn import ...``
they run unchanged and print exactly what the page prints (tests/classroom/test_classroom.py checks Steps 1,
2 and 3 and the fifty-HERs table).  What that takes, found by running them:

* ``moves`` lists a side's moves in the page's order (square by square; straight, then left, then
  right), since HER's beads are that list and ``random.choice`` picks by position;
* Random and Sharp draw with ``random.choice`` from the module ``random`` (the global generator the
  programs seed with ``random.seed``), one draw per move, Sharp among its winning moves when it has
  any, else among all its moves;
* ``can_win(board, side)`` is False for a side that has already lost (otherwise a bead with which
  Black reaches the far row would count as bad, and the page's "17 of them bad" becomes 28).

A board is a string of 9 characters, squares 0-8 along the rows from the top: ``'B'`` black,
``'W'`` white, ``'.'`` empty.  A side is ``'W'`` or ``'B'``; a move is a ``(from, to)`` tuple.
"""

from __future__ import annotations

import random
from functools import cache

from ..games.hexapawn import MIRROR as _MIRROR
from ..games.hexapawn import START, apply_move, pawn_moves

Move = tuple[int, int]

__all__ = ["START", "can_win", "has_lost", "mirror", "moves", "play", "random_white", "sharp_white", "show"]


def moves(board: str, side: str) -> list[Move]:
    """The moves of ``side`` on ``board``, in the page's order (its ``moves``)."""
    return pawn_moves(board, side)


def play(board: str, move: Move) -> str:
    """The board after ``move`` (from, to): the pawn on ``from`` goes to ``to``, taking what was there."""
    source, target = move
    return apply_move(board, source, target)


def has_lost(board: str, side: str) -> bool:
    """True if ``side``, to move on ``board``, has lost: an enemy pawn on its home row, or no move
    (which covers having no pawn left), as the page's ``has_lost``."""
    if side == "W" and "B" in board[6:9]:
        return True
    if side == "B" and "W" in board[0:3]:
        return True
    return len(pawn_moves(board, side)) == 0


def mirror(board: str) -> str:
    """The board seen in a mirror: each row of three back to front."""
    return "".join(board[square] for square in _MIRROR)


def show(board: str) -> None:
    """Print the board as three rows of three (the page's "BBB", "W..", ".WW")."""
    for row in range(3):
        print(board[3 * row : 3 * row + 3])


def _other(side: str) -> str:
    return "B" if side == "W" else "W"


def _wins_with(board: str, side: str, move: Move) -> bool:
    """True if ``move`` wins for ``side`` however the other side answers."""
    after = play(board, move)
    enemy = _other(side)
    if has_lost(after, enemy):
        return True
    return all(
        not has_lost(reply, side) and can_win(reply, side) for reply in (play(after, m) for m in moves(after, enemy))
    )


@cache
def can_win(board: str, side: str) -> bool:
    """True if ``side``, to move on ``board``, can win however the other side plays (Sharp's look-ahead).

    Hexapawn has no draws, so this is the exact value of the position; a side that has already
    lost cannot win.  Cached: boards and sides are strings, and the answer never changes.
    """
    if has_lost(board, side):
        return False
    return any(_wins_with(board, side, move) for move in moves(board, side))


def random_white(board: str) -> Move:
    """Random: any of White's moves, drawn with ``random.choice`` (the page seeds ``random``)."""
    return random.choice(moves(board, "W"))


def sharp_white(board: str) -> Move:
    """Sharp: a move that wins however Black answers, drawn with ``random.choice`` among those when
    there is one; otherwise any move, drawn the same way."""
    options = moves(board, "W")
    winning = [move for move in options if _wins_with(board, "W", move)]
    return random.choice(winning or options)
