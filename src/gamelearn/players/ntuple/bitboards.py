"""The rules of the ``ntuple`` learner's compiled games on bitboards (numba, ``cache=True``): the
positions a side can move into, with their result codes, for tic-tac-toe, hexapawn and Teeko.

A position is two bitboards, ``a`` the first player's pieces and ``b`` the second's (square ``i``
is bit ``i``).  This module imports nothing of gamelearn: the players layer builds its inputs
(:mod:`.layout`'s ``win_masks`` and ``neighbours``).
"""

from __future__ import annotations

import numpy as np

from ...jit import njit

#: An afterstate's result code: the game goes on, the mover has won, it is drawn.
ONGOING, WON, DRAWN = -1, 1, 2
TICTACTOE, HEXAPAWN, TEEKO = 0, 1, 2
MAX_CHILDREN = 32


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def covers(bits: int, masks: np.ndarray) -> bool:
    for mask in masks:
        if bits & mask == mask:
            return True
    return False


@njit(cache=True)
def hexapawn_can_move(own: int, other: int, mover: int) -> bool:
    """Whether ``mover``'s pawns ``own`` have a move against ``other`` (White, 0, runs up)."""
    occupied = own | other
    for square in range(9):
        if not (own >> square) & 1:
            continue
        to = square - 3 if mover == 0 else square + 3
        if to < 0 or to > 8:
            continue
        if not (occupied >> to) & 1:
            return True
        column = square % 3
        if column > 0 and (other >> (to - 1)) & 1:
            return True
        if column < 2 and (other >> (to + 1)) & 1:
            return True
    return False


@njit(cache=True, inline="always")
def store_afterstate(
    mine: int,
    theirs: int,
    mover: int,
    result: int,
    count: int,
    out_a: np.ndarray,
    out_b: np.ndarray,
    out_result: np.ndarray,
) -> int:
    """Write the afterstate where ``mover`` holds ``mine`` and the other side ``theirs`` at ``count``;
    the next free slot."""
    out_result[count] = result
    out_a[count] = mine if mover == 0 else theirs
    out_b[count] = theirs if mover == 0 else mine
    return count + 1


@njit(cache=True, inline="always")
def hexapawn_step_allowed(target: int, to: int, column: int, other: int, occupied: int) -> bool:
    """Whether a pawn in ``column`` may go to ``target``: straight ahead (``to``) onto a free square,
    or diagonally onto an enemy pawn, never off the board's side."""
    if target == to:
        return not (occupied >> to) & 1
    if target == to - 1 and column == 0:
        return False
    if target == to + 1 and column == 2:
        return False
    return bool((other >> target) & 1)


@njit(cache=True)
def hexapawn_afterstates(
    own: int, other: int, mover: int, out_a: np.ndarray, out_b: np.ndarray, out_result: np.ndarray
) -> int:
    """Hexapawn (Gardner 1962): each pawn steps ahead onto a free square or takes diagonally; the
    mover wins by reaching the far row, taking the last enemy pawn, or leaving the other side no move."""
    occupied = own | other
    far = 0b111 if mover == 0 else 0b111000000
    count = 0
    for square in range(9):
        if not (own >> square) & 1:
            continue
        to = square - 3 if mover == 0 else square + 3
        if to < 0 or to > 8:
            continue
        column = square % 3
        for target in (to - 1, to, to + 1):
            if not hexapawn_step_allowed(target, to, column, other, occupied):
                continue
            mine = own ^ (1 << square) | (1 << target)
            theirs = other & ~(1 << target)
            won = (mine & far) != 0 or theirs == 0 or not hexapawn_can_move(theirs, mine, 1 - mover)
            count = store_afterstate(mine, theirs, mover, WON if won else ONGOING, count, out_a, out_b, out_result)
    return count


@njit(cache=True)
def drop_afterstates(
    game: int,
    own: int,
    other: int,
    mover: int,
    masks: np.ndarray,
    out_a: np.ndarray,
    out_b: np.ndarray,
    out_result: np.ndarray,
) -> int:
    """A piece dropped on each free square: tic-tac-toe's every move, Teeko's first eight; a
    tic-tac-toe drop that fills the board without a line is drawn."""
    occupied = own | other
    squares = 9 if game == TICTACTOE else 25
    fills_board = game == TICTACTOE and popcount(occupied) == 8
    count = 0
    for square in range(squares):
        if (occupied >> square) & 1:
            continue
        mine = own | (1 << square)
        if covers(mine, masks):
            result = WON
        elif fills_board:
            result = DRAWN
        else:
            result = ONGOING
        count = store_afterstate(mine, other, mover, result, count, out_a, out_b, out_result)
    return count


@njit(cache=True)
def teeko_step_afterstates(
    own: int,
    other: int,
    mover: int,
    masks: np.ndarray,
    neighbours: np.ndarray,
    out_a: np.ndarray,
    out_b: np.ndarray,
    out_result: np.ndarray,
) -> int:
    """Teeko's moving phase: each pawn steps to a free neighbouring square."""
    occupied = own | other
    count = 0
    for square in range(25):
        if not (own >> square) & 1:
            continue
        targets = neighbours[square] & ~occupied
        for target in range(25):
            if not (targets >> target) & 1:
                continue
            mine = own ^ (1 << square) | (1 << target)
            result = WON if covers(mine, masks) else ONGOING
            count = store_afterstate(mine, other, mover, result, count, out_a, out_b, out_result)
    return count


@njit(cache=True)
def afterstates(
    game: int,
    a: int,
    b: int,
    mover: int,
    masks: np.ndarray,
    neighbours: np.ndarray,
    out_a: np.ndarray,
    out_b: np.ndarray,
    out_result: np.ndarray,
) -> int:
    """The positions ``mover`` can move into from (a, b), in the rules' move order, with their result
    codes; how many.  (a, b) is an unfinished position with ``mover`` to move."""
    own = a if mover == 0 else b
    other = b if mover == 0 else a
    if game == HEXAPAWN:
        return hexapawn_afterstates(own, other, mover, out_a, out_b, out_result)
    if game == TICTACTOE or popcount(a | b) < 8:
        return drop_afterstates(game, own, other, mover, masks, out_a, out_b, out_result)
    return teeko_step_afterstates(own, other, mover, masks, neighbours, out_a, out_b, out_result)
