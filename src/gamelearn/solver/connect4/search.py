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
  under an opponent's winning square), one loop over an explicit stack of frames, a ply a frame
  (no call a position, and numba keeps no recursive kernel on disk);
* a **transposition table** keyed by the position (``own + both``, unique), keeping a lower and an
  upper bound of each score it has proved and the move that last refuted it in one 64-bit word,
  two slots a key (the larger subtree kept in the first, the latest in the second), and probed for
  every child before any is searched where 12 or more squares are empty (the enhanced
  transposition cutoff of Plaat et al. 1996).  It is small, 2^18 slots (2 MB), so that most probes
  are answered from the processor's caches: a table of 2^22 slots spares a fifth of the positions
  and takes twice as long over each.  Where the search can meet a position and its mirror image
  both (from a root whose two sides' discs do not clash with its mirror's: the first plies), the
  key is the lesser of the two, so each pair is searched once;
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
from numba import types
from numba.extending import intrinsic

from ...jit import njit

#: The transposition table's slots (a power of two): 2^18 slots of 8 bytes, 2 MB, most of it in the
#: processor's caches (a larger table saves few positions and waits on memory for each).
TABLE_BITS = 18
#: The enhanced transposition cutoff probes the children's slots where more than this many squares
#: are empty (nearer the end a child's search costs less than the probes).
ETC_LEFT = 12
#: A slot is one 64-bit word.  A key of K bits (the board's bitboard) is first mixed by a bijection
#: of the K-bit numbers (a multiplication by an odd number, modulo 2^K); the mix's top bits choose
#: the pair of slots and its other bits (at most KEY_BITS) are kept in the slot, above the discs
#: down (6 bits), the refuting column plus one (4 bits, 0: none), and the upper and the lower
#: bound (6 bits each, stored plus BIAS).  The pair and the kept bits make the whole mix, so no two
#: keys are taken for one another (Pons' partial keys, by a bijection where he takes a prime).
KEY_BITS = 41
KEY_SHIFT = 22  # KEY_BITS + KEY_SHIFT = 63: a slot is never negative
MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 (odd) as a signed 64-bit number
BIAS = 32
#: A slot's bounds when nothing is known (every score lies within +-28 on a board of 63 bits).
NO_LOWER, NO_UPPER = -32, 31
#: The most columns a board has (the moves of a frame of the search).
MOST_COLUMNS = 9


def table_size(bits: int, key_bits: int) -> int:
    """The slots of a table of about ``2 ** bits`` for keys of ``key_bits`` bits: at least the
    pairs that leave KEY_BITS to keep, at most a pair a key."""
    bits = max(bits, key_bits - KEY_BITS + 1)
    return 1 << min(bits, key_bits + 1)


def new_table(bits: int = TABLE_BITS, key_bits: int = 63) -> np.ndarray:
    """An empty transposition table (every slot 0: empty) for keys of ``key_bits`` bits."""
    return np.zeros(table_size(bits, key_bits), np.int64)


def clear_table(table: np.ndarray) -> None:
    """Forget everything the table knows."""
    table.fill(0)


@intrinsic
def _ctpop(typingctx, bits):
    """The processor's population count of a 64-bit integer."""
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@njit(cache=True)
def popcount(bits: int) -> int:
    """The number of bits set."""
    return _ctpop(bits)  # type: ignore[call-arg]  # numba's intrinsic takes its typing context itself


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
def table_key(key: int, columns: int, height: int, mirrored: bool) -> int:
    """The key the table holds a position by: its own, or with ``mirrored`` the lesser of its own
    and its mirror image's (``own + both`` mirrors column by column: no column's sum carries)."""
    if mirrored:
        image = mirror(key, columns, height)
        if image < key:
            return image
    return key


@njit(cache=True)
def column_of(disc: int, height: int) -> int:
    """The column of a single disc."""
    column = 0
    while disc >> ((column + 1) * height):
        column += 1
    return column


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
def shift_of(table: np.ndarray, key_bits: int) -> int:
    """How many low bits of a key's mix a slot keeps: those the pair's number does not say."""
    pairs_bits = 0
    while (2 << pairs_bits) < table.shape[0]:
        pairs_bits += 1
    return key_bits - pairs_bits


@njit(cache=True)
def pair_of(key: int, key_bits: int, shift: int) -> tuple[int, int]:
    """The first slot of the key's pair, and the bits of the key's mix a slot keeps."""
    mixed = (key * MIX) & ((1 << key_bits) - 1)
    return (mixed >> shift) << 1, mixed & ((1 << shift) - 1)


@njit(cache=True)
def probe(table: np.ndarray, key: int, key_bits: int, shift: int) -> int:
    """The slot (the whole word) that holds ``key``, or 0."""
    pair, tag = pair_of(key, key_bits, shift)
    word = table[pair]
    if word != 0 and word >> KEY_SHIFT == tag:
        return word
    word = table[pair + 1]
    if word != 0 and word >> KEY_SHIFT == tag:
        return word
    return 0


@njit(cache=True)
def lower_of(word: int) -> int:
    """A slot's lower bound (NO_LOWER for an empty slot's 0 is never read: probe says 0 first)."""
    return (word & 63) - BIAS


@njit(cache=True)
def upper_of(word: int) -> int:
    return ((word >> 6) & 63) - BIAS


@njit(cache=True)
def best_of(word: int) -> int:
    """The column that last refuted the slot's position, -1 for none."""
    return ((word >> 12) & 15) - 1


@njit(cache=True)
def keep(table: np.ndarray, key: int, key_bits: int, shift: int, discs: int, low: int, high: int, best: int) -> None:
    """Keep a proved bound, tightening what the table knew of the same position.  A new position
    takes the first slot of its pair where its subtree is at least as large (as few discs or fewer)
    as the one there, else the second (the latest)."""
    pair, tag = pair_of(key, key_bits, shift)
    first = table[pair]
    second = table[pair + 1]
    if first != 0 and first >> KEY_SHIFT == tag:
        slot, word = pair, first
    elif second != 0 and second >> KEY_SHIFT == tag:
        slot, word = pair + 1, second
    else:
        slot = pair if first == 0 or discs <= (first >> 16) & 63 else pair + 1
        word = (tag << KEY_SHIFT) | (discs << 16) | ((NO_UPPER + BIAS) << 6) | (NO_LOWER + BIAS)
    lower, upper = lower_of(word), upper_of(word)
    if low > lower:
        lower = low
    if high < upper:
        upper = high
    if best >= 0:
        word = (word & ~(15 << 12)) | ((best + 1) << 12)
    table[slot] = (word & ~4095) | ((upper + BIAS) << 6) | (lower + BIAS)


@njit(cache=True)
def negamax(  # noqa: C901 (one loop over an explicit stack: a kernel, not split to keep it one frame)
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
    table: np.ndarray,
    counter: np.ndarray,
    mirrored: bool,
) -> int:
    """The score of the position if it lies in (alpha, beta); else a bound beyond the window on
    the side it fails.  The side to move has no four at hand (its caller made sure).  An explicit
    stack of frames, one a ply, where a recursive kernel would pay a call a position (and numba
    keeps no recursive kernel on disk); ``counter[0]`` counts the positions searched."""
    squares = columns * (height - 1)
    levels = squares - discs + 2
    stack_own = np.empty(levels, np.int64)
    stack_both = np.empty(levels, np.int64)
    stack_alpha = np.empty(levels, np.int64)
    stack_beta = np.empty(levels, np.int64)
    stack_key = np.empty(levels, np.int64)
    stack_flipped = np.empty(levels, np.bool_)
    stack_count = np.empty(levels, np.int64)
    stack_next = np.empty(levels, np.int64)
    stack_moves = np.empty(levels * MOST_COLUMNS, np.int64)
    values = np.empty(MOST_COLUMNS, np.int64)
    column_mask = (1 << (height - 1)) - 1
    key_bits = columns * height
    shift = shift_of(table, key_bits)
    odd_rows = 0  # the first player's kind of rows (1, 3, 5 counted from 1 at the bottom)
    for row in range(0, height - 1, 2):
        odd_rows |= bottom << row
    even_rows = board & ~odd_rows
    nodes = 0
    level = 0
    stack_own[0], stack_both[0], stack_alpha[0], stack_beta[0] = own, both, alpha, beta
    entering = True
    score = 0
    while True:
        if entering:
            nodes += 1
            own, both = stack_own[level], stack_both[level]
            alpha, beta = stack_alpha[level], stack_beta[level]
            down = discs + level
            entering = False
            safe = safe_moves(own, both, height, board, bottom)
            if safe == 0:
                score = -((squares - down) // 2)  # the opponent completes four with its next disc
                continue
            if down >= squares - 2:
                score = 0  # a safe disc, then at most the last square: no four for either
                continue
            least = -((squares - 2 - down) // 2)  # the opponent cannot win with its next disc
            if alpha < least:
                alpha = least
                if alpha >= beta:
                    score = alpha
                    continue
            most = (squares - 1 - down) // 2  # nor can the side to move with this one
            if most > 0 and not has_line(board & ~(own ^ both), height):
                most = 0  # no line of four is free of the opponent's discs: the side to move cannot win
            if alpha < 0 and not has_line(board & ~own, height):
                alpha = 0  # nor the opponent
                if alpha >= beta:
                    score = alpha
                    continue
            key = table_key(own + both, columns, height, mirrored)
            flipped = key != own + both  # the table holds this position as its mirror image
            word = probe(table, key, key_bits, shift)
            best = -1
            if word != 0:
                if upper_of(word) < most:
                    most = upper_of(word)
                if lower_of(word) > alpha:
                    alpha = lower_of(word)
                best = best_of(word)
            if beta > most:
                beta = most
                if alpha >= beta:
                    score = beta
                    continue
            if alpha >= beta:
                score = alpha
                continue
            # The safe moves, those that leave the mover the most squares to complete four first, a
            # square on the mover's own kind of row counting double (Allis' zugzwang rule: the first
            # player's threats pay on odd rows, the second player's on even rows), the centre first
            # among equals (an insertion sort, stable).
            good = odd_rows if down % 2 == 0 else even_rows
            base = level * MOST_COLUMNS
            count = 0
            for index in range(columns):
                disc = safe & (column_mask << (order[index] * height))
                if disc:
                    spots = winning_squares(own | disc, both | disc, height, board)
                    value = popcount(spots) + popcount(spots & good)
                    place = count
                    while place > 0 and values[place - 1] < value:
                        stack_moves[base + place] = stack_moves[base + place - 1]
                        values[place] = values[place - 1]
                        place -= 1
                    stack_moves[base + place] = disc
                    values[place] = value
                    count += 1
            if best >= 0:
                # The move that refuted this position before (a null window away) first: it most
                # often refutes it again.
                bits = column_mask << ((columns - 1 - best if flipped else best) * height)
                for index in range(count):
                    if stack_moves[base + index] & bits:
                        disc = stack_moves[base + index]
                        while index > 0:
                            stack_moves[base + index] = stack_moves[base + index - 1]
                            index -= 1
                        stack_moves[base] = disc
                        break
            if down < squares - ETC_LEFT:
                # Enhanced transposition cutoff: a child the table already bounds low enough for
                # the opponent refutes this position without a search.
                refuted = NO_LOWER
                for index in range(count):
                    child_key = table_key((own ^ both) + (both | stack_moves[base + index]), columns, height, mirrored)
                    child = probe(table, child_key, key_bits, shift)
                    if child != 0 and -upper_of(child) >= beta:
                        refuted = -upper_of(child)
                        break
                if refuted >= beta:
                    score = refuted
                    continue
            stack_alpha[level], stack_beta[level] = alpha, beta
            stack_key[level], stack_flipped[level] = key, flipped
            stack_count[level], stack_next[level] = count, 0
            disc = stack_moves[base]
        else:
            # The frame at ``level`` is done with ``score``: its parent takes it.
            if level == 0:
                break
            level -= 1
            value = -score
            beta = stack_beta[level]
            if value >= beta:
                column = column_of(stack_moves[level * MOST_COLUMNS + stack_next[level]], height)
                keep(table, stack_key[level], key_bits, shift, discs + level, value, NO_UPPER,
                     columns - 1 - column if stack_flipped[level] else column)  # fmt: skip
                score = value
                continue
            alpha = stack_alpha[level]
            if value > alpha:
                alpha = value
                stack_alpha[level] = alpha
            following = stack_next[level] + 1
            if following >= stack_count[level]:
                keep(table, stack_key[level], key_bits, shift, discs + level, NO_LOWER, alpha, -1)
                score = alpha
                continue
            stack_next[level] = following
            disc = stack_moves[level * MOST_COLUMNS + following]
            own, both = stack_own[level], stack_both[level]
        # Into the child that drops ``disc``.
        stack_own[level + 1] = own ^ both
        stack_both[level + 1] = both | disc
        stack_alpha[level + 1] = -beta
        stack_beta[level + 1] = -alpha
        level += 1
        entering = True
    counter[0] += nodes
    return score


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
    table: np.ndarray,
    counter: np.ndarray,
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
            columns, height, board, bottom, order, table, counter, mirrored,
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
    table: np.ndarray,
    counter: np.ndarray,
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
        columns, height, board, bottom, order, table, counter, may_meet_its_mirror(own, both, columns, height),
    )  # fmt: skip
    return found <= value
