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
  upper bound of each score it has proved and the move that last refuted it, two slots a key (the
  larger subtree kept in the first, the latest in the second), and probed for every child before
  any is searched (the enhanced transposition cutoff of Plaat et al. 1996).  Where the search can
  meet a position and its mirror image both (from a root whose two sides' discs do not clash with
  its mirror's: the first plies), the key is the lesser of the two, so each pair is searched once;
* **move ordering**: the move that refuted the position before first, then the moves that make
  the most new winning squares for the mover, a square on the mover's own kind of row counting
  double (Allis 1988: the first player's threats pay on odd rows, the second's on even rows), ties
  broken towards the centre;
* a **bound from the lines still open**: a side none of whose lines of four is free of the other
  side's discs cannot win;
* the exact score by **null-window searches**: first the sign (a win? a loss?), then each halving
  the interval the score can lie in, aimed near the draw where most scores are, each on the table
  the earlier ones filled (the iterative deepening of the score's bounds).
"""

from __future__ import annotations

import numpy as np

from ...jit import njit

#: The transposition table's slots (a power of two): 2^22 slots of 12 bytes, 50 MB.
TABLE_BITS = 22
#: The enhanced transposition cutoff probes the children's slots where more than this many squares
#: are empty (nearer the end a child's search costs less than the probes).
ETC_LEFT = 8
#: The columns of a slot's bounds.
LOWER, UPPER, DISCS, BEST = 0, 1, 2, 3
#: A slot's bounds when nothing is known (every score lies within +-64).
NO_LOWER, NO_UPPER = -100, 100


def new_table(bits: int = TABLE_BITS) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table: the keys (0: an empty slot), and a slot's lower bound, upper
    bound and the discs down in its position."""
    keys = np.zeros(1 << bits, np.int64)
    bounds = np.empty((1 << bits, 4), np.int8)
    clear_table(keys, bounds)
    return keys, bounds


def clear_table(keys: np.ndarray, bounds: np.ndarray) -> None:
    """Forget everything the table knows."""
    keys.fill(0)
    bounds[:, LOWER] = NO_LOWER
    bounds[:, UPPER] = NO_UPPER
    bounds[:, DISCS] = 127
    bounds[:, BEST] = -1


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
def has_line(bits: int, height: int) -> bool:
    """Whether ``bits`` hold four squares in a row (across, down or on a diagonal)."""
    for step in (1, height, height - 1, height + 1):
        pairs = bits & (bits >> step)
        if pairs & (pairs >> 2 * step):
            return True
    return False


@njit(cache=True)
def mirror(bits: int, columns: int, height: int) -> int:
    """The bitboard (or key) of the mirror image: the columns in the reverse order."""
    column = (1 << height) - 1
    image = 0
    for index in range(columns):
        image |= ((bits >> (index * height)) & column) << ((columns - 1 - index) * height)
    return image


@njit(cache=True)
def may_meet_its_mirror(own: int, both: int, columns: int, height: int) -> bool:
    """Whether a position searched from this one can meet its own mirror image in the same search:
    only if no square holds one side's disc here and the other side's in the mirror image (else
    keying the table by the lesser of a position's key and its mirror's buys nothing and costs the
    mirroring)."""
    other = own ^ both
    return (own & mirror(other, columns, height)) == 0 and (other & mirror(own, columns, height)) == 0


@njit(cache=True)
def slot_of(key: int, mask: int) -> int:
    """The first of the two table slots of a key (an even slot): a multiplicative hash (Knuth),
    high bits folded in.  The first slot keeps the position with the larger subtree, the second the
    latest."""
    mixed = key * -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit number
    mixed ^= (mixed >> 31) & 0x1FFFFFFFF
    return mixed & mask & ~1


@njit(cache=True)
def find(keys: np.ndarray, key: int) -> int:
    """The slot that holds ``key``, or -1."""
    slot = slot_of(key, keys.shape[0] - 1)
    if keys[slot] == key:
        return slot
    if keys[slot + 1] == key:
        return slot + 1
    return -1


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
    bounds: np.ndarray,
    work: np.ndarray,
    mirrored: bool,
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
    if most > 0 and not has_line(board & ~(own ^ both), height):
        most = 0  # no line of four is free of the opponent's discs: the side to move cannot win
    if alpha < 0 and not has_line(board & ~own, height):
        alpha = 0  # nor the opponent
        if alpha >= beta:
            return alpha
    key = table_key(own + both, columns, height, mirrored)
    flipped = key != own + both  # the table holds this position as its mirror image
    slot = find(keys, key)
    if slot >= 0:
        if bounds[slot, UPPER] < most:
            most = bounds[slot, UPPER]
        if bounds[slot, LOWER] > alpha:
            alpha = bounds[slot, LOWER]
    if beta > most:
        beta = most
        if alpha >= beta:
            return beta
    if alpha >= beta:
        return alpha
    moves = work[discs, :columns]
    count = order_moves(own, both, discs, safe, columns, height, board, bottom, order, moves, work[discs, columns:])
    if slot >= 0 and bounds[slot, BEST] >= 0:
        # The move that refuted this position before (a null window away) first: it most often
        # refutes it again.
        best = bounds[slot, BEST]
        _to_front(moves, count, ((1 << (height - 1)) - 1) << ((columns - 1 - best if flipped else best) * height))
    if discs < squares - ETC_LEFT:
        # Enhanced transposition cutoff: a child the table already bounds low enough for the
        # opponent refutes this position without a search.
        refuted = _refuted(own, both, moves, count, beta, columns, height, keys, bounds, mirrored)
        if refuted >= beta:
            return refuted
    for index in range(count):
        disc = moves[index]
        score = -negamax(
            own ^ both, both | disc, discs + 1, -beta, -alpha,
            columns, height, board, bottom, order, keys, bounds, work, mirrored,
        )  # fmt: skip
        if score >= beta:
            column = column_of(disc, height)
            _keep(keys, bounds, key, discs, score, NO_UPPER, columns - 1 - column if flipped else column)
            return score
        if score > alpha:
            alpha = score
    _keep(keys, bounds, key, discs, NO_LOWER, alpha, -1)
    return alpha


@njit(cache=True)
def table_key(key: int, columns: int, height: int, mirrored: bool) -> int:
    """The key the table holds a position by: its own, or with ``mirrored`` the lesser of its own
    and its mirror image's (``own + both`` mirrors column by column: no column's sum carries)."""
    if mirrored:
        image = mirror(key, columns, height)
        if image < key:
            return image
    return key


@njit(cache=True)
def _refuted(
    own: int,
    both: int,
    moves: np.ndarray,
    count: int,
    beta: int,
    columns: int,
    height: int,
    keys: np.ndarray,
    bounds: np.ndarray,
    mirrored: bool,
) -> int:
    """The score (at least ``beta``) that a child's bound in the table proves, else NO_LOWER."""
    for index in range(count):
        child = find(keys, table_key((own ^ both) + (both | moves[index]), columns, height, mirrored))
        if child >= 0 and -bounds[child, UPPER] >= beta:
            return -bounds[child, UPPER]
    return NO_LOWER


@njit(cache=True)
def column_of(disc: int, height: int) -> int:
    """The column of a single disc."""
    column = 0
    while disc >> ((column + 1) * height):
        column += 1
    return column


@njit(cache=True)
def _to_front(moves: np.ndarray, count: int, column_bits: int) -> None:
    """Move the disc in ``column_bits`` (if among the moves) to the front, the others keeping their order."""
    for index in range(count):
        if moves[index] & column_bits:
            disc = moves[index]
            while index > 0:
                moves[index] = moves[index - 1]
                index -= 1
            moves[0] = disc
            return


@njit(cache=True)
def order_moves(
    own: int,
    both: int,
    discs: int,
    safe: int,
    columns: int,
    height: int,
    board: int,
    bottom: int,
    order: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Put the discs of ``safe`` into ``moves``, best first, and return how many: the moves that
    leave the mover the most squares to complete four first, the centre first among equals (an
    insertion sort, stable, of at most 9 moves).  Allis' zugzwang rule: the first player's threats
    pay on odd rows (1, 3, 5 from the bottom), the second player's on even rows, so a threat on
    the mover's own kind of row counts double."""
    good = 0
    for row in range(discs % 2, height - 1, 2):
        good |= bottom << row
    count = 0
    for index in range(columns):
        column = order[index]
        disc = safe & (((1 << (height - 1)) - 1) << (column * height))
        if disc:
            spots = winning_squares(own | disc, both | disc, height, board)
            value = popcount(spots) + popcount(spots & good)
            place = count
            while place > 0 and scores[place - 1] < value:
                moves[place] = moves[place - 1]
                scores[place] = scores[place - 1]
                place -= 1
            moves[place] = disc
            scores[place] = value
            count += 1
    return count


@njit(cache=True)
def _keep(keys: np.ndarray, bounds: np.ndarray, key: int, discs: int, low: int, high: int, best: int) -> None:
    """Keep a proved bound, tightening what the table knew of the same position.  A new position
    takes the first slot of its pair where its subtree is at least as large (as few discs or fewer)
    as the one there, else the second."""
    slot = find(keys, key)
    if slot < 0:
        slot = slot_of(key, keys.shape[0] - 1)
        if discs > bounds[slot, DISCS]:
            slot += 1
        keys[slot] = key
        bounds[slot, LOWER] = NO_LOWER
        bounds[slot, UPPER] = NO_UPPER
        bounds[slot, DISCS] = discs
        bounds[slot, BEST] = -1
    if best >= 0:
        bounds[slot, BEST] = best
    if low > bounds[slot, LOWER]:
        bounds[slot, LOWER] = low
    if high < bounds[slot, UPPER]:
        bounds[slot, UPPER] = high


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
    bounds: np.ndarray,
    work: np.ndarray,
) -> int:
    """The exact score of an unfinished position (module docstring): null-window searches, first
    for the sign (won, drawn or lost), then each halving the interval the score can lie in."""
    squares = columns * (height - 1)
    if winning_squares(own, both, height, board) & (both + bottom) & board:
        return (squares + 1 - discs) // 2  # a four at hand
    if discs >= squares:
        return 0
    low = -((squares - discs) // 2)
    high = (squares + 1 - discs) // 2
    mirrored = may_meet_its_mirror(own, both, columns, height)
    while low < high:
        # First the sign (is it a win? then is it a loss?), each null window about 0 the cheapest
        # question; then halve what is left.
        if low < 0 < high:
            middle = 0
        elif low < -1 and high == 0:
            middle = -1
        elif low > 0:  # a win: most come late, their scores near 0
            middle = low + (high - low) // 4
        else:  # a loss: likewise
            middle = high - 1 - (high - low) // 4
        found = negamax(
            own, both, discs, middle, middle + 1,
            columns, height, board, bottom, order, keys, bounds, work, mirrored,
        )  # fmt: skip
        if found <= middle:
            high = found
        else:
            low = found
    return low


@njit(cache=True)
def score_at_most(
    own: int,
    both: int,
    discs: int,
    value: int,
    columns: int,
    height: int,
    board: int,
    bottom: int,
    order: np.ndarray,
    keys: np.ndarray,
    bounds: np.ndarray,
    work: np.ndarray,
) -> bool:
    """Whether the score of an unfinished position is at most ``value``: one null-window search,
    where the exact score takes several."""
    squares = columns * (height - 1)
    if winning_squares(own, both, height, board) & (both + bottom) & board:
        return (squares + 1 - discs) // 2 <= value
    if discs >= squares:
        return value >= 0
    found = negamax(
        own, both, discs, value, value + 1,
        columns, height, board, bottom, order, keys, bounds, work, may_meet_its_mirror(own, both, columns, height),
    )  # fmt: skip
    return found <= value
