"""Connect Four's search at play time for the ``ntuple`` learner (numba, ``cache=True``): negamax
with alpha-beta (Knuth & Moore 1975), fail-soft, over the rules and the learnt values of
:mod:`.connect4`; a side that can make a four scores the win (``WIN - k``, ``k`` plies from the
root), a full board 0, and a leaf ``2 V - 1``, ``V`` the learnt value of the position for the side
to move.

A search of ``D`` plies deepens one ply at a time (iterative deepening: Slate & Atkin 1977) over a
transposition table (Greenblatt et al. 1967): each position searched keeps its score, whether the
score is exact or a bound, and the column that refuted it or was best, so the next, deeper pass
tries that column first and a position reached again by another order of the same moves is not
searched twice.  A position's score depends only on the position and the plies left (a Connect
Four position is always the same number of plies from the root: its discs), so a kept score cuts
a search only at the plies it was searched to, and the ``D``-ply score is the plain negamax's; the
columns are otherwise tried from the middle outwards (:func:`centre_first`).  The table is emptied
at each root, so a position gets the same move whatever was searched before.

A search takes what it reads and writes as one :class:`Connect4Search`.

This module imports nothing of gamelearn but the kernels: the players layer builds its inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...jit import njit
from .connect4 import Grid, child_features, landing, makes_four, read_features
from .kernels import value_of

if TYPE_CHECKING:
    from .layout import Features

#: A forced win's score, less the plies to it; learnt scores lie in -1..1.
WIN = 1000.0
#: What a kept score is: the score itself, at least it (a cut-off), at most it (every column failed low).
EXACT, LOWER, UPPER = 0, 1, 2
#: The transposition table's slots (a power of two; about 40 bytes each).
TABLE_SLOTS = 1 << 18


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
    column's score, the positions visited, the transposition table: :func:`new_table`)."""

    weights: np.ndarray
    features: Features
    grid: Grid
    order: np.ndarray  # int64 (columns,): the columns in the order tried (:func:`centre_first`)
    scores: np.ndarray  # float (columns,): each root column's score, -inf for a full one
    stats: np.ndarray  # int64 (1,): the positions visited
    table: Table


class Table(NamedTuple):
    """The transposition table: slot ``i`` keeps the position (x, o), the plies it was searched
    to (-1: empty), its score, what the score is (:data:`EXACT`, :data:`LOWER`, :data:`UPPER`)
    and its best or refuting column (-1: none)."""

    x: np.ndarray  # int64 (slots,)
    o: np.ndarray  # int64 (slots,)
    depth: np.ndarray  # int64 (slots,)
    score: np.ndarray  # float (slots,)
    bound: np.ndarray  # int64 (slots,)
    move: np.ndarray  # int64 (slots,)


def new_table(slots: int = TABLE_SLOTS) -> Table:
    """An empty :class:`Table` of ``slots`` slots (a power of two)."""
    return Table(
        np.zeros(slots, np.int64),
        np.zeros(slots, np.int64),
        np.full(slots, -1, np.int64),
        np.zeros(slots),
        np.zeros(slots, np.int64),
        np.full(slots, -1, np.int64),
    )


@njit(cache=True, inline="always")
def _slot(x: int, o: int, slots: int) -> int:
    """The table slot of (x, o): a multiplicative hash of both bitboards."""
    h = np.uint64(x) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(o) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    return int(h & np.uint64(slots - 1))


@njit(cache=True, inline="always")
def _kept(table: Table, slot: int, x: int, o: int) -> bool:
    return table.depth[slot] >= 0 and table.x[slot] == x and table.o[slot] == o


@njit(cache=True)
def _ends(x: int, o: int, side: int, ply: int, search: Connect4Search) -> float:
    """A position's score when the game decides it at once, else NaN: 0 for a full board, ``WIN -
    (ply + 1)`` when ``side`` (to move) has a four to make."""
    columns, rows, lines, counts = search.grid.columns, search.grid.rows, search.grid.lines, search.grid.counts
    order = search.order
    both = x | o
    if _full(both, columns * rows):
        return 0.0
    own = x if side == 0 else o
    for c in range(columns):
        square = landing(both, order[c], columns, rows)
        if square >= 0 and makes_four(own | (np.int64(1) << square), square, lines, counts):
            return WIN - (ply + 1)
    return np.nan


@njit(cache=True, inline="always")
def _learnt(weights: np.ndarray, indices: np.ndarray, side: int) -> float:
    """A leaf's score, ``2 V - 1``, ``V`` the learnt value (the weights ``indices`` reads) for ``side``."""
    first = value_of(weights, indices)
    return 2.0 * (first if side == 0 else 1.0 - first) - 1.0


@njit(cache=True)
def _probe(table: Table, x: int, o: int, depth: int, alpha: float, beta: float) -> tuple[float, int]:
    """What the table knows of (x, o) searched ``depth`` plies: its score where a kept score
    settles the window (alpha, beta), else NaN; and its kept column to try first, or -1."""
    slot = _slot(x, o, table.depth.shape[0])
    if not _kept(table, slot, x, o):
        return np.nan, -1
    if table.depth[slot] == depth:
        score, bound = table.score[slot], table.bound[slot]
        if bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha):
            return score, table.move[slot]
    return np.nan, table.move[slot]


@njit(cache=True)
def _keep(table: Table, x: int, o: int, depth: int, score: float, alpha: float, beta: float, move: int) -> None:
    """Keep (x, o)'s score searched ``depth`` plies in the window (alpha, beta), with its best or
    refuting column; the slot's earlier position gives way."""
    slot = _slot(x, o, table.depth.shape[0])
    table.x[slot], table.o[slot], table.depth[slot], table.score[slot], table.move[slot] = x, o, depth, score, move
    table.bound[slot] = LOWER if score >= beta else UPPER if score <= alpha else EXACT


@njit(cache=True)
def negamax(
    x: int, o: int, side: int, depth: int, alpha: float, beta: float, ply: int, search: Connect4Search
) -> float:
    """The score of (x, o) for ``side``, to move, ``depth`` plies deep, by negamax with alpha-beta
    (fail-soft): ``WIN - k`` for a four in ``k`` plies from the root, ``-(WIN - k)`` for one
    against, 0 a full board, the learnt ``2 V - 1`` at the leaves (:func:`_learnt`).  Each position
    searched is kept in the table; one kept at the same plies whose score settles the window is
    not searched again, and a kept column is tried first.  Written with a stack of frames, not by
    recursion: numba's cache cannot keep a recursive kernel (numba issue 6061)."""
    columns, rows, order, stats, table = search.grid.columns, search.grid.rows, search.order, search.stats, search.table
    fx = np.zeros(MAX_PLY, np.int64)
    fo = np.zeros(MAX_PLY, np.int64)
    fside = np.zeros(MAX_PLY, np.int64)
    fdepth = np.zeros(MAX_PLY, np.int64)
    fnext = np.zeros(MAX_PLY, np.int64)  # -1: the kept column next, then order[0], order[1], ...
    ffirst = np.zeros(MAX_PLY, np.int64)  # the kept column, tried first, or -1
    fcolumn = np.zeros(MAX_PLY, np.int64)  # the column searched last
    fmove = np.zeros(MAX_PLY, np.int64)  # the best column so far, or -1
    fopen = np.zeros(MAX_PLY)  # alpha as the frame began
    falpha = np.zeros(MAX_PLY)
    fbeta = np.zeros(MAX_PLY)
    fbest = np.zeros(MAX_PLY)
    # each frame's features, a child's worked out from its parent's (only two squares change)
    features, board = search.features, columns * rows
    ffeatures = np.empty((MAX_PLY, features.lengths.shape[0]), np.int64)
    stats[0] += 1
    value = _ends(x, o, side, ply, search)
    if not np.isnan(value):
        return value
    read_features(x, o, features, columns, board, ffeatures[0])
    if depth <= 0:
        return _learnt(search.weights, ffeatures[0], side)
    settled, first = _probe(table, x, o, depth, alpha, beta)
    if not np.isnan(settled):
        return settled
    top = 0
    fx[0], fo[0], fside[0], fdepth[0], fnext[0], ffirst[0], fmove[0] = x, o, side, depth, -1, first, -1
    fopen[0], falpha[0], fbeta[0], fbest[0] = alpha, alpha, beta, -2.0 * WIN
    while True:
        # the next column of the frame on top, or its end
        both = fx[top] | fo[top]
        square = -1
        column = -1
        while fnext[top] < columns and falpha[top] < fbeta[top]:
            column = ffirst[top] if fnext[top] < 0 else order[fnext[top]]
            fnext[top] += 1
            if column >= 0 and (fnext[top] == 0 or column != ffirst[top]):  # the kept column once
                square = landing(both, column, columns, rows)
                if square >= 0:
                    break
        if square < 0:
            result = fbest[top]  # every column searched (or cut off); a full board never gets here
            while True:
                _keep(table, fx[top], fo[top], fdepth[top], result, fopen[top], fbeta[top], fmove[top])
                if top == 0:
                    return result
                top -= 1
                score = -result
                if score > fbest[top]:
                    fbest[top], fmove[top] = score, fcolumn[top]
                if score > falpha[top]:
                    falpha[top] = score
                if falpha[top] < fbeta[top]:
                    break
                result = fbest[top]  # a cut-off: this frame is done too
            continue
        fcolumn[top] = column
        disc = np.int64(1) << square
        s = fside[top]
        cx, co = (fx[top] | disc, fo[top]) if s == 0 else (fx[top], fo[top] | disc)
        child_ply = ply + top + 1
        stats[0] += 1
        value = _ends(cx, co, 1 - s, child_ply, search)
        if np.isnan(value):
            child_features(
                fx[top], fo[top], cx, co, square, ffeatures[top], features, columns, board, ffeatures[top + 1]
            )
            if fdepth[top] <= 1:
                value = _learnt(search.weights, ffeatures[top + 1], 1 - s)
            else:
                value, first = _probe(table, cx, co, fdepth[top] - 1, -fbeta[top], -falpha[top])
        if not np.isnan(value):  # a leaf, or a position the table settles
            score = -value
            if score > fbest[top]:
                fbest[top], fmove[top] = score, column
            if score > falpha[top]:
                falpha[top] = score
            continue
        top += 1
        fx[top], fo[top], fside[top], fdepth[top], fnext[top], ffirst[top], fmove[top] = (
            cx,
            co,
            1 - s,
            fdepth[top - 1] - 1,
            -1,
            first,
            -1,
        )
        fopen[top], falpha[top], fbeta[top], fbest[top] = -fbeta[top - 1], -fbeta[top - 1], -falpha[top - 1], -2.0 * WIN


@njit(cache=True)
def search_root(x: int, o: int, side: int, depth: int, search: Connect4Search) -> int:
    """Search (x, o), ``side`` to move and the game not over, ``depth`` plies (1: the learnt values
    of the children), deepening from 2 plies on an emptied table; the column chosen: the first in
    centre-first order of the best score.  ``search.scores[c]`` gets each column's score of the
    deepest pass, exact for the best, an upper bound for the others (-inf for a full column);
    ``search.stats[0]`` the positions visited in all passes."""
    search.table.depth[:] = -1
    search.stats[0] = 0
    chosen = -1
    for plies in range(min(depth, 2), depth + 1):
        chosen = _root_pass(x, o, side, plies, search)
    return chosen


@njit(cache=True)
def _root_pass(x: int, o: int, side: int, depth: int, search: Connect4Search) -> int:
    """One pass of :func:`search_root` at ``depth`` plies."""
    columns, rows, lines, counts = search.grid.columns, search.grid.rows, search.grid.lines, search.grid.counts
    order, scores = search.order, search.scores
    both = x | o
    board = columns * rows
    scores[:] = -np.inf
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
