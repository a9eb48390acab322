"""Connect Four's search at play time for the ``ntuple`` learner (numba, ``cache=True``): negamax
with alpha-beta (Knuth & Moore 1975), fail-soft, over the rules and the learnt values of
:mod:`.connect4`, the columns tried from the middle outwards (:func:`centre_first`); a side that can
make a four scores the win (``WIN - k``, ``k`` plies from the root), a full board 0, and a leaf
``2 V - 1``, ``V`` the learnt value of the position for the side to move.

A search takes what it reads and writes as one :class:`Connect4Search`.

This module imports nothing of gamelearn but the kernels: the players layer builds its inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...jit import njit
from .connect4 import Grid, landing, makes_four, read_features
from .kernels import value_of

if TYPE_CHECKING:
    from .layout import Features

#: A forced win's score, less the plies to it; learnt scores lie in -1..1.
WIN = 1000.0


def centre_first(columns: int) -> np.ndarray:
    """The columns from the middle outwards (the search's move order): 3 2 4 1 5 0 6 on 7 columns."""
    return np.array(sorted(range(columns), key=lambda c: (abs(2 * c - (columns - 1)), c)), np.int64)


# Search ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _full(both: int, board: int) -> bool:
    return both == (np.int64(1) << board) - 1


#: The deepest line the search follows (the board's squares, and a margin).
MAX_PLY = 80


class Connect4Search(NamedTuple):
    """What a search reads (the network, the board, the move order) and writes (each root
    column's score, the positions visited, the features of the leaf read last)."""

    weights: np.ndarray
    features: Features
    grid: Grid
    order: np.ndarray  # int64 (columns,): the columns in the order tried (:func:`centre_first`)
    scores: np.ndarray  # float (columns,): each root column's score, -inf for a full one
    stats: np.ndarray  # int64 (1,): the positions visited
    indices: np.ndarray  # int64 (features,): scratch for a leaf's features


@njit(cache=True)
def _enter(x: int, o: int, side: int, depth: int, ply: int, search: Connect4Search) -> float:
    """A position's score when it needs no search below it, else NaN: 0 for a full board, ``WIN -
    (ply + 1)`` when ``side`` (to move) has a four to make, and at ``depth`` 0 ``2 V - 1``, ``V``
    the learnt value of the position for ``side``."""
    columns, rows, lines, counts = search.grid.columns, search.grid.rows, search.grid.lines, search.grid.counts
    order = search.order
    both = x | o
    board = columns * rows
    if _full(both, board):
        return 0.0
    own = x if side == 0 else o
    for c in range(columns):
        square = landing(both, order[c], columns, rows)
        if square >= 0 and makes_four(own | (np.int64(1) << square), square, lines, counts):
            return WIN - (ply + 1)
    if depth <= 0:
        read_features(x, o, search.features, columns, board, search.indices)
        first = value_of(search.weights, search.indices)
        return 2.0 * (first if side == 0 else 1.0 - first) - 1.0
    return np.nan


@njit(cache=True)
def negamax(
    x: int, o: int, side: int, depth: int, alpha: float, beta: float, ply: int, search: Connect4Search
) -> float:
    """The score of (x, o) for ``side``, to move, ``depth`` plies deep, by negamax with alpha-beta
    (fail-soft): ``WIN - k`` for a four in ``k`` plies from the root, ``-(WIN - k)`` for one
    against, 0 a full board, the learnt ``2 V - 1`` at the leaves (:func:`_enter`).  Written with
    a stack of frames, not by recursion: numba's cache cannot keep a recursive kernel (numba
    issue 6061)."""
    columns, rows, order, stats = search.grid.columns, search.grid.rows, search.order, search.stats
    fx = np.zeros(MAX_PLY, np.int64)
    fo = np.zeros(MAX_PLY, np.int64)
    fside = np.zeros(MAX_PLY, np.int64)
    fdepth = np.zeros(MAX_PLY, np.int64)
    fnext = np.zeros(MAX_PLY, np.int64)
    falpha = np.zeros(MAX_PLY)
    fbeta = np.zeros(MAX_PLY)
    fbest = np.zeros(MAX_PLY)
    stats[0] += 1
    value = _enter(x, o, side, depth, ply, search)
    if not np.isnan(value):
        return value
    top = 0
    fx[0], fo[0], fside[0], fdepth[0], fnext[0] = x, o, side, depth, 0
    falpha[0], fbeta[0], fbest[0] = alpha, beta, -2.0 * WIN
    while True:
        # the next column of the frame on top, or its end
        both = fx[top] | fo[top]
        square = -1
        while fnext[top] < columns and falpha[top] < fbeta[top]:
            square = landing(both, order[fnext[top]], columns, rows)
            fnext[top] += 1
            if square >= 0:
                break
        if square < 0:
            result = fbest[top]  # every column searched (or cut off); a full board never gets here
            while True:
                if top == 0:
                    return result
                top -= 1
                score = -result
                if score > fbest[top]:
                    fbest[top] = score
                if score > falpha[top]:
                    falpha[top] = score
                if falpha[top] < fbeta[top]:
                    break
                result = fbest[top]  # a cut-off: this frame is done too
            continue
        disc = np.int64(1) << square
        s = fside[top]
        cx, co = (fx[top] | disc, fo[top]) if s == 0 else (fx[top], fo[top] | disc)
        child_ply = ply + top + 1
        stats[0] += 1
        value = _enter(cx, co, 1 - s, fdepth[top] - 1, child_ply, search)
        if not np.isnan(value):
            score = -value
            if score > fbest[top]:
                fbest[top] = score
            if score > falpha[top]:
                falpha[top] = score
            continue
        top += 1
        fx[top], fo[top], fside[top], fdepth[top], fnext[top] = cx, co, 1 - s, fdepth[top - 1] - 1, 0
        falpha[top], fbeta[top], fbest[top] = -fbeta[top - 1], -falpha[top - 1], -2.0 * WIN


@njit(cache=True)
def search_root(x: int, o: int, side: int, depth: int, search: Connect4Search) -> int:
    """Search (x, o), ``side`` to move and the game not over, ``depth`` plies (1: the learnt values
    of the children); the column chosen: the first in centre-first order of the best score.
    ``search.scores[c]`` gets each column's score, exact for the best, an upper bound for the
    others (-inf for a full column); ``search.stats[0]`` the positions visited."""
    columns, rows, lines, counts = search.grid.columns, search.grid.rows, search.grid.lines, search.grid.counts
    order, scores, stats = search.order, search.scores, search.stats
    both = x | o
    board = columns * rows
    scores[:] = -np.inf
    stats[0] = 0
    alpha = -2.0 * WIN
    chosen = -1
    for c in range(columns):
        column = order[c]
        square = landing(both, column, columns, rows)
        if square < 0:
            continue
        disc = np.int64(1) << square
        nx, no = (x | disc, o) if side == 0 else (x, o | disc)
        if makes_four(nx if side == 0 else no, square, lines, counts):
            score = WIN - 1.0
        elif _full(nx | no, board):
            score = 0.0
        else:
            score = -negamax(nx, no, 1 - side, depth - 1, -2.0 * WIN, -alpha, 1, search)
        scores[column] = score
        if score > alpha:
            alpha, chosen = score, column
    return chosen
