"""The thesis's evaluation function (Despotović 1999), as numba kernels.

``evaluate(own, opp)`` is eval(p, t, e) of the original: for side ``own`` against ``opp``,

    1000*F + 15*T + 6*C + 3*R

* F: +1 if ``own`` has a four, -1 if ``opp`` has one (the opponent's overrides);
* T: [own has any three] - [opp has any three], so at most +-15 however many threes;
* C: +1 / -1 for who holds 22;
* R: own pawns minus opponent pawns on 11 12 13 21 23 31 32 33 (the outer ring weighs 0).

A four (also the win test): the 28 lines of four and the 16 2x2 squares.  A three ignores the
opponent's pawns (a blocked three counts): exactly three own pawns in a row or column, contiguous;
all three cells of one of the 14 three-cell windows of the diagonals of length >= 4; or exactly
three own pawns in a 2x2 square.

The kernels take bitboards (``int``) and are compiled with ``cache=True``.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .board import CENTER, RING, SIZE


def _bits(cells: list[tuple[int, int]]) -> int:
    return sum(1 << (SIZE * r + c) for r, c in cells)


def _four_masks() -> np.ndarray:
    masks = []
    for r in range(5):
        for c0 in range(2):
            masks.append(_bits([(r, c0 + k) for k in range(4)]))
    for c in range(5):
        for r0 in range(2):
            masks.append(_bits([(r0 + k, c) for k in range(4)]))
    for r0 in range(2):
        for c0 in range(2):
            masks.append(_bits([(r0 + k, c0 + k) for k in range(4)]))
        for c0 in (3, 4):
            masks.append(_bits([(r0 + k, c0 - k) for k in range(4)]))
    for r in range(4):
        for c in range(4):
            masks.append(_bits([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]))
    return np.array(masks, dtype=np.int64)


def _diagonal_lines() -> list[list[tuple[int, int]]]:
    """The six diagonals of length >= 4."""
    return [
        [(0, 1), (1, 2), (2, 3), (3, 4)],
        [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
        [(1, 0), (2, 1), (3, 2), (4, 3)],
        [(0, 3), (1, 2), (2, 1), (3, 0)],
        [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)],
        [(1, 4), (2, 3), (3, 2), (4, 1)],
    ]


FOUR_MASKS = _four_masks()
#: Rows then columns, whole lines of five.
LINE_MASKS = np.array(
    [_bits([(r, c) for c in range(5)]) for r in range(5)] + [_bits([(r, c) for r in range(5)]) for c in range(5)],
    dtype=np.int64,
)
#: For each row/column, its three contiguous windows of three cells.
LINE_WINDOWS = np.array(
    [[_bits([(r, c0 + k) for k in range(3)]) for c0 in range(3)] for r in range(5)]
    + [[_bits([(r0 + k, c) for k in range(3)]) for r0 in range(3)] for c in range(5)],
    dtype=np.int64,
)
#: The 14 three-cell windows of the diagonals.
DIAGONAL_WINDOWS = np.array(
    [_bits(line[k : k + 3]) for line in _diagonal_lines() for k in range(len(line) - 2)], dtype=np.int64
)
SQUARE_MASKS = FOUR_MASKS[28:].copy()
RING_MASK = RING
CENTER_BIT = 1 << CENTER


@njit(cache=True)
def popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def has_four(bits: int) -> bool:
    for mask in FOUR_MASKS:
        if bits & mask == mask:
            return True
    return False


@njit(cache=True)
def has_three(bits: int) -> bool:
    for line in range(10):
        in_line = bits & LINE_MASKS[line]
        for w in range(3):
            if in_line == LINE_WINDOWS[line, w]:
                return True
    for mask in DIAGONAL_WINDOWS:
        if bits & mask == mask:
            return True
    for mask in SQUARE_MASKS:
        if popcount(bits & mask) == 3:
            return True
    return False


@njit(cache=True)
def evaluate(own: int, opp: int) -> int:
    """eval(p, t, e) of the C for the side whose pawns are ``own``."""
    four = 0
    if has_four(own):
        four = 1
    if has_four(opp):
        four = -1
    three = 0
    if has_three(own):
        three += 1
    if has_three(opp):
        three -= 1
    centre = 0
    if own & CENTER_BIT:
        centre = 1
    elif opp & CENTER_BIT:
        centre = -1
    ring = popcount(own & RING_MASK) - popcount(opp & RING_MASK)
    return int(1000 * four + 15 * three + 6 * centre + 3 * ring)


#: "No candidate" in the combination of advisers (MAXEVAL of the original).
NO_CANDIDATE = -2000
