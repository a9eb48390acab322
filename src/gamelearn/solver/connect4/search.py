"""The exact search of a Connect Four position: negamax with alpha-beta over bitboards, compiled by
numba, in the manner Pascal Pons describes for his solver ("Solving Connect 4: how to build a
perfect AI", 2019) and John Tromp's Fhourstones (1996-2008) before it.  Written for gamelearn.

A position is ``(own, both, discs)``: the side to move's discs, every disc, and how many are down,
on the rules' layout (gamelearn.games.connect4: ``rows + 1`` bits a column, bottom first, the top
bit of each column always empty).

Scores (Pons' convention): a position's score is 0 for a draw; a side that wins with its k-th own
disc from now scores ``(columns * rows + 1 - discs_down_then) // 2``, the sooner the larger, and
the loser the negative of that.  A score therefore says who wins and at which ply exactly
(:func:`gamelearn.solver.connect4.outcome_of_score`), so perfect play can win fastest and lose
slowest.

The search:

* **alpha-beta negamax** over the moves that do not hand the opponent a four at once (a forced
  block when the opponent threatens one square, a loss when it threatens two, and never a disc
  under an opponent's winning square);
* a **transposition table** keyed by the position (``own + both``, unique), keeping a lower and an
  upper bound of each score it has proved;
* **move ordering**: the moves that make the most new winning squares for the mover first, ties
  broken towards the centre;
* the exact score by **null-window searches** that halve the interval the score can lie in, each
  on the table the earlier ones filled (the iterative deepening of the score's bounds).
"""

from __future__ import annotations

import numpy as np

from ...jit import njit

#: The transposition table's slots (a power of two): 2^22 slots of 10 bytes, 42 MB.
TABLE_BITS = 22
#: A slot's bounds when nothing is known (every score lies within +-64).
NO_LOWER, NO_UPPER = -100, 100


def new_table(bits: int = TABLE_BITS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table: keys (0: empty slot), lower bounds, upper bounds."""
    size = 1 << bits
    return (
        np.zeros(size, np.int64),
        np.full(size, NO_LOWER, np.int8),
        np.full(size, NO_UPPER, np.int8),
    )


@njit(cache=True)
def winning_squares(own: int, both: int, height: int, board: int) -> int:
    """The empty squares where a disc of ``own`` would complete four: in a column (three below),
    and across and on both diagonals (three of the four squares of a line, this one the fourth).
    ``board`` is every square of the board, so separator bits and shifted-out bits drop out."""
    found = (own << 1) & (own << 2) & (own << 3)
    for step in (height, height - 1, height + 1):
        pair = (own << step) & (own << 2 * step)
        found |= pair & (own << 3 * step)
        found |= pair & (own >> step)
        pair = (own >> step) & (own >> 2 * step)
        found |= pair & (own << step)
        found |= pair & (own >> 3 * step)
    return found & (board ^ both)


@njit(cache=True)
def popcount(bits: int) -> int:
    """The number of bits set (of a non-negative 63-bit number), by adding neighbouring counts."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def slot_of(key: int, mask: int) -> int:
    """The table slot of a key: a multiplicative hash (Knuth), high bits folded in."""
    mixed = key * -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit number
    mixed ^= (mixed >> 31) & 0x1FFFFFFFF
    return mixed & mask


@njit(cache=True)
def safe_moves(own: int, both: int, height: int, board: int, bottom: int) -> int:
    """The discs the side to move may drop without handing the opponent a four at its next move
    (0: every move loses so).  The side to move is known not to have a four of its own at hand."""
    playable = (both + bottom) & board
    threats = winning_squares(own ^ both, both, height, board)
    forced = playable & threats
    if forced:
        if forced & (forced - 1):
            return 0  # two squares to block: the opponent completes the other
        playable = forced
    return playable & ~(threats >> 1)  # never under a square where the opponent would complete four


@njit(cache=True)
def negamax(
    own: int,
    both: int,
    discs: int,
    alpha: int,
    beta: int,
    columns: int,
    height: int,
    board: int,
    bottom: int,
    order: np.ndarray,
    keys: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    work: np.ndarray,
) -> int:
    """The score of the position if it lies in (alpha, beta); else a bound beyond the window on
    the side it fails.  The side to move has no four at hand (its caller made sure).  ``work``:
    one row a ply for the ordered moves and their scores (no allocation in the search); its last
    row counts the positions searched."""
    work[-1, 0] += 1
    squares = columns * (height - 1)
    safe = safe_moves(own, both, height, board, bottom)
    if safe == 0:
        return -((squares - discs) // 2)  # the opponent completes four with its next disc
    if discs >= squares - 2:
        return 0  # a safe disc, then at most the last square, which cannot make four for either
    least = -((squares - 2 - discs) // 2)  # the opponent cannot win with its next disc
    if alpha < least:
        alpha = least
        if alpha >= beta:
            return alpha
    most = (squares - 1 - discs) // 2  # nor can the side to move with this one
    key = own + both
    mask = keys.shape[0] - 1
    slot = slot_of(key, mask)
    if keys[slot] == key:
        if upper[slot] < most:
            most = upper[slot]
        if lower[slot] > alpha:
            alpha = lower[slot]
    if beta > most:
        beta = most
        if alpha >= beta:
            return beta
    if alpha >= beta:
        return alpha
    # Order: the moves that leave the mover the most squares to complete four first, the centre
    # first among equals (an insertion sort, stable, of at most 9 moves).
    moves = work[discs, :columns]
    scores = work[discs, columns:]
    count = 0
    for index in range(columns):
        column = order[index]
        disc = safe & (((1 << (height - 1)) - 1) << (column * height))
        if disc:
            value = popcount(winning_squares(own | disc, both | disc, height, board))
            place = count
            while place > 0 and scores[place - 1] < value:
                moves[place] = moves[place - 1]
                scores[place] = scores[place - 1]
                place -= 1
            moves[place] = disc
            scores[place] = value
            count += 1
    for index in range(count):
        disc = moves[index]
        score = -negamax(
            own ^ both, both | disc, discs + 1, -beta, -alpha,
            columns, height, board, bottom, order, keys, lower, upper, work,
        )  # fmt: skip
        if score >= beta:
            _keep(keys, lower, upper, slot, key, score, NO_UPPER)
            return score
        if score > alpha:
            alpha = score
    _keep(keys, lower, upper, slot, key, NO_LOWER, alpha)
    return alpha


@njit(cache=True)
def _keep(keys: np.ndarray, lower: np.ndarray, upper: np.ndarray, slot: int, key: int, low: int, high: int) -> None:
    """Keep a proved bound in the slot, tightening what the slot knew of the same position."""
    if keys[slot] != key:
        keys[slot] = key
        lower[slot] = NO_LOWER
        upper[slot] = NO_UPPER
    if low > lower[slot]:
        lower[slot] = low
    if high < upper[slot]:
        upper[slot] = high


@njit(cache=True)
def exact_score(
    own: int,
    both: int,
    discs: int,
    columns: int,
    height: int,
    board: int,
    bottom: int,
    order: np.ndarray,
    keys: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    work: np.ndarray,
) -> int:
    """The exact score of an unfinished position (module docstring): null-window searches, each
    halving the interval the score can lie in, the first ones aimed near 0 where most scores are."""
    squares = columns * (height - 1)
    if winning_squares(own, both, height, board) & (both + bottom) & board:
        return (squares + 1 - discs) // 2  # a four at hand
    if discs >= squares:
        return 0
    low = -((squares - discs) // 2)
    high = (squares + 1 - discs) // 2
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and low // 2 < middle:
            middle = low // 2
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
        found = negamax(
            own, both, discs, middle, middle + 1,
            columns, height, board, bottom, order, keys, lower, upper, work,
        )  # fmt: skip
        if found <= middle:
            high = found
        else:
            low = found
    return low
