"""The compiled hot loops of the Teeko solver (numba, ``cache=True``): move counting, retrograde
analysis level by level, and the placing phase layer by layer.

A position is (a, b): the side to move's pawns a and the other side's pawns b, bitboards over
n squares.  Its *code* is one byte (codes.py): 0 a draw (or not yet resolved), ``d + 1`` decided
at distance d (odd d a win for the side to move, even d a loss), 255 impossible.  Retrograde analysis (Thompson's method; as Steele 1998 did):

* level 0: every position whose *other* side has four is lost for the side to move;
* from each loss at distance d, every predecessor is a win at d + 1 (unless resolved earlier,
  with a shorter win);
* from each win at distance d, every predecessor loses one unresolved successor; the one whose
  last successor this was is lost at d + 1, the longest its opponent can hold out;
* what is never resolved can be played for ever without losing: a draw.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .codes import DRAW, INVALID


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, inline="always")
def rank_bits(bits: int, binom: np.ndarray) -> int:
    rank = 0
    index = 1
    while bits:
        low = bits & -bits
        rank += binom[popcount(low - 1), index]
        index += 1
        bits ^= low
    return rank


@njit(cache=True, inline="always")
def rank_among_free(bits: int, blocked: int, binom: np.ndarray) -> int:
    rank = 0
    index = 1
    while bits:
        low = bits & -bits
        below = low - 1
        rank += binom[popcount(below) - popcount(blocked & below), index]
        index += 1
        bits ^= low
    return rank


@njit(cache=True, inline="always")
def permute(bits: int, perm: np.ndarray) -> int:
    """The set of squares ``perm[j]`` for the bits j of ``bits``: a symmetry of the board, or, with a
    row of free squares, a set compressed to the free squares expanded back onto the board."""
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[popcount(low - 1)]
        bits ^= low
    return out


@njit(cache=True, inline="always")
def is_win(bits: int, win_masks: np.ndarray) -> bool:
    for mask in win_masks:
        if bits & mask == mask:
            return True
    return False


@njit(cache=True)
def init_moving(
    code: np.ndarray,
    count: np.ndarray,
    movers: np.ndarray,
    others: np.ndarray,
    free: np.ndarray,
    neighbours: np.ndarray,
    win_masks: np.ndarray,
    binom: np.ndarray,
    full: int,
) -> int:
    """Level 0 of the moving phase: codes of finished and impossible positions, and every other
    position's number of moves.  Returns how many positions have no move at all (they stay draws)."""
    row = others.shape[0]
    stuck = 0
    for i in range(movers.shape[0]):
        a = movers[i]
        base = i * row
        if is_win(a, win_masks):
            for j in range(row):
                code[base + j] = INVALID
                count[base + j] = 0
            continue
        for j in range(row):
            b = permute(others[j], free[i])
            empty = full & ~(a | b)
            moves = 0
            rest = a
            while rest:
                low = rest & -rest
                moves += popcount(neighbours[popcount(low - 1)] & empty)
                rest ^= low
            code[base + j] = DRAW
            count[base + j] = moves
            if moves == 0:
                stuck += 1
        # the positions where the other side has four: lost, at distance 0
        for mask in win_masks:
            if mask & a == 0:
                j = rank_among_free(mask, a, binom)
                if count[base + j] == 0:
                    stuck -= 1
                code[base + j] = 1
    return stuck


@njit(cache=True)
def retrograde_level(
    code: np.ndarray,
    count: np.ndarray,
    distance: int,
    movers: np.ndarray,
    others: np.ndarray,
    free: np.ndarray,
    neighbours: np.ndarray,
    binom: np.ndarray,
    full: int,
) -> int:
    """Resolve the predecessors of every position at ``distance``; returns how many were resolved
    (all at distance + 1)."""
    row = others.shape[0]
    target = distance + 1
    new_code = distance + 2
    losing_level = distance % 2 == 0  # the positions at this level are losses for their mover
    resolved = 0
    for idx in range(code.shape[0]):
        if code[idx] != target:
            continue
        i = idx // row
        a = movers[i]
        b = permute(others[idx - i * row], free[i])
        empty = full & ~(a | b)
        # un-move one of b's pawns: the predecessor is (b', a) with b' to move
        rest = b
        while rest:
            low = rest & -rest
            rest ^= low
            targets = neighbours[popcount(low - 1)] & empty
            while targets:
                to = targets & -targets
                targets ^= to
                before = (b ^ low) | to
                p = rank_bits(before, binom) * row + rank_among_free(a, before, binom)
                if code[p] != DRAW:
                    continue
                if losing_level:
                    code[p] = new_code
                    resolved += 1
                else:
                    count[p] -= 1
                    if count[p] == 0:
                        code[p] = new_code
                        resolved += 1
    return resolved


@njit(cache=True)
def histogram(code: np.ndarray) -> np.ndarray:
    """How many positions hold each code (np.bincount would first widen the bytes to 8 each)."""
    counts = np.zeros(256, dtype=np.int64)
    for value in code:
        counts[value] += 1
    return counts


@njit(cache=True)
def gather_rows(code: np.ndarray, row: int, rep_ranks: np.ndarray) -> np.ndarray:
    """The rows of the representatives' mover sets, back to back (the stored moving phase)."""
    out = np.empty(rep_ranks.shape[0] * row, dtype=np.uint8)
    for c in range(rep_ranks.shape[0]):
        start = rep_ranks[c] * row
        out[c * row : (c + 1) * row] = code[start : start + row]
    return out


@njit(cache=True, inline="always")
def move_score(child_code: int) -> int:
    """How good a move is for its player, from the code of the position it leads to: larger is
    better; wins (fastest first) > draws > losses (slowest first)."""
    if child_code == DRAW:
        return 0
    mine = child_code + 1  # the code of this move's outcome for its player
    if (mine - 1) % 2 == 1:
        return 1000 - mine
    return -1000 + mine


@njit(cache=True)
def placing_layer(
    out: np.ndarray,
    reps: np.ndarray,
    others: np.ndarray,
    free: np.ndarray,
    child_rows: np.ndarray,
    child_row: int,
    child_class_of: np.ndarray,
    child_sym_of: np.ndarray,
    child_reps: np.ndarray,
    perms: np.ndarray,
    win_masks: np.ndarray,
    binom: np.ndarray,
    full: int,
    other_complete: bool,
    owner_chooses: bool,
    forbidden: int,
) -> None:
    """One layer of the placing phase, stored rows only: each position (a, b), a a representative
    and the side whose pawn goes down next (its *owner*), is valued for the owner over its
    placements, each looked up in the (already solved) next layer, where b's pawn goes down next
    and a has one pawn more.  With ``owner_chooses`` the owner takes the best placement; otherwise
    (a round of Scarne's Alternate Game) the opponent chooses, the worst for the owner: the fastest
    loss, else a draw, else the slowest win.  ``forbidden`` squares may not be taken (the centre
    rule, for the first pawn)."""
    row = others.shape[0]
    for c in range(reps.shape[0]):
        a = reps[c]
        for j in range(row):
            b = permute(others[j], free[c])
            idx = c * row + j
            if other_complete and is_win(b, win_masks):
                out[idx] = 1  # the other side made four with its last pawn: lost
                continue
            rank = rank_bits(b, binom)
            child_class = child_class_of[rank]
            perm = perms[child_sym_of[rank]]
            child_rep = child_reps[child_class]
            base = child_class * child_row
            a_image = permute(a, perm)
            best_score = -100000 if owner_chooses else 100000
            best_code = 0
            empty = full & ~(a | b | forbidden)
            while empty:
                low = empty & -empty
                empty ^= low
                placed = a_image | (1 << perm[popcount(low - 1)])
                child = child_rows[base + rank_among_free(placed, child_rep, binom)]
                score = move_score(child)
                if score > best_score if owner_chooses else score < best_score:
                    best_score = score
                    best_code = 0 if child == DRAW else child + 1
            out[idx] = best_code


@njit(cache=True)
def check_moving_layer(
    rows: np.ndarray,
    reps: np.ndarray,
    others: np.ndarray,
    free: np.ndarray,
    class_of: np.ndarray,
    sym_of: np.ndarray,
    perms: np.ndarray,
    neighbours: np.ndarray,
    win_masks: np.ndarray,
    binom: np.ndarray,
    full: int,
) -> int:
    """Check the stored moving phase forwards, independently of how it was built: every stored
    position's code must be the best of its moves' codes (looked up, through the symmetries, in the
    same table), a win at the shortest distance, a loss at the longest, a draw where the best move
    draws.  Returns the number of positions that break the rule."""
    row = others.shape[0]
    wrong = 0
    for c in range(reps.shape[0]):
        a = reps[c]
        a_four = is_win(a, win_masks)
        for j in range(row):
            stored = rows[c * row + j]
            if a_four:
                if stored != INVALID:
                    wrong += 1
                continue
            b = permute(others[j], free[c])
            if is_win(b, win_masks):
                if stored != 1:
                    wrong += 1
                continue
            rank = rank_bits(b, binom)
            child_class = class_of[rank]
            perm = perms[sym_of[rank]]
            child_rep = reps[child_class]
            empty = full & ~(a | b)
            best_score = -100000
            best_code = 0
            rest = a
            while rest:
                low = rest & -rest
                rest ^= low
                targets = neighbours[popcount(low - 1)] & empty
                while targets:
                    to = targets & -targets
                    targets ^= to
                    moved = permute((a ^ low) | to, perm)
                    child = rows[child_class * row + rank_among_free(moved, child_rep, binom)]
                    score = move_score(child)
                    if score > best_score:
                        best_score = score
                        best_code = 0 if child == DRAW else child + 1
            if stored != best_code:
                wrong += 1
    return wrong
