"""The thesis's two-ply minimax search (Despotović 1999), as a numba kernel.

The original writes every move of the side to move to level1.s (pawns row-major, directions in
scan order), every reply to each of them to level2.s, gives each first-level move the value of
its worst reply (evaluated from the mover's side) and takes the best of those values, ``smax``.
Then the two modes part:

* fixed: the first first-level move, in generation order, whose worst-reply value is ``smax``;
* original: ``si``, the first move whose own one-ply evaluation equals ``smax`` (``k`` if none),
  and it plays move ``si`` when ``si <= 1``, move ``si - 2`` when ``2 <= si < k``, and move
  ``k - 2`` (move 0 when ``k == 1``) when no move matched: it reads level1.s back one or two
  moves short of where it stopped.

A first-level move after which the opponent cannot move has no replies; the original's value for
it is undefined (a stale array slot).  Both modes here give it its own one-ply evaluation: the
opponent is stuck, so the position stands as it is.  (No game of the reference traces reaches
such a position.)

``two_ply(own, opp, moves)`` fills ``moves`` (shape (>=32, 2): source and target squares of the
level-1 moves in generation order) and returns ``(k, smax, si, fixed_index, original_index)``;
``k == 0`` when the mover has no move.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .board import FULL, NEIGHBOUR_TABLE
from .evaluation import evaluate

MAX_MOVES = 32  # 4 pawns x 8 directions


@njit(cache=True)
def generate(own: int, opp: int, moves: np.ndarray) -> int:
    """level1.s: every step of ``own`` in generation order into ``moves``; returns how many."""
    empty = FULL & ~(own | opp)
    k = 0
    for src in range(25):
        if own >> src & 1:
            for n in range(8):
                dst = NEIGHBOUR_TABLE[src, n]
                if dst < 0:
                    break
                if empty >> dst & 1:
                    moves[k, 0] = src
                    moves[k, 1] = dst
                    k += 1
    return k


@njit(cache=True)
def two_ply(own: int, opp: int, moves: np.ndarray) -> tuple[int, int, int, int, int]:
    k = generate(own, opp, moves)
    if k == 0:
        return 0, 0, 0, -1, -1
    replies = np.empty((MAX_MOVES, 2), dtype=np.int64)
    smax = 0
    fixed_index = -1
    for i in range(k):
        mine = (own & ~(1 << moves[i, 0])) | (1 << moves[i, 1])
        r = generate(opp, mine, replies)
        if r == 0:
            worst = evaluate(mine, opp)
        else:
            worst = 1 << 30
            for j in range(r):
                theirs = (opp & ~(1 << replies[j, 0])) | (1 << replies[j, 1])
                value = evaluate(mine, theirs)
                if value < worst:
                    worst = value
        if fixed_index < 0 or worst > smax:
            smax = worst
            fixed_index = i
    si = k
    for i in range(k):
        mine = (own & ~(1 << moves[i, 0])) | (1 << moves[i, 1])
        if evaluate(mine, opp) == smax:
            si = i
            break
    if si <= 1:
        original_index = si if si < k else 0
    elif si < k:
        original_index = si - 2
    else:
        original_index = k - 2
    return k, smax, si, fixed_index, original_index


def new_move_buffer() -> np.ndarray:
    return np.zeros((MAX_MOVES, 2), dtype=np.int64)
