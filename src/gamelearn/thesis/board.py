"""The board of the 1999 thesis program, as bitboards.

The thesis's C keeps the board as ``int X[5][5]`` with +1, -1 and 0 (Despotović 1999;
conventions).  Here a position is two 25-bit integers: ``plus`` (side +1's pawns: player I, X,
written '1' in memory.m) and ``minus`` (side -1, O, written '2'); square ``rc`` is bit ``5*r + c``,
as in :mod:`gamelearn.games.teeko`.

Everything here is plain Python data that the numba kernels (:mod:`.evaluation`, :mod:`.search`,
:mod:`.heuristics`) read as constants:

* ``SCAN_OFFSETS``: the C's neighbour scan order ``for(i=-1..1) for(j=-1..1)``; since it runs
  rows then columns it visits neighbours in increasing square number.
* ``NEIGHBOUR_TABLE[sq]``: the neighbours of ``sq`` in that order, padded with -1.  Row 25 is the
  one off-board cell the original reads, (5,4) (makedouble3's column guard): its on-board
  neighbours are 43 and 44.  Cell 25 always reads empty, as in the build
  that made the reference traces (gcc's padding after ``X``).
* ``key``: one int per position, ``plus | minus << 25``; ``swap_key`` exchanges the sides (one
  memory entry covers a position and its swap).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

SIZE = 5
SQUARES = 25
#: The off-board cell (5,4) that the original's makedouble3 reads; always empty here.
OFF_BOARD = 25
FULL = (1 << SQUARES) - 1
CENTER = 12  # 22
#: The eight fields around the middle (11 12 13 21 23 31 32 33): weight 3 in the evaluation.
RING = sum(1 << (5 * r + c) for r in (1, 2, 3) for c in (1, 2, 3) if (r, c) != (2, 2))

SCAN_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def sq(r: int, c: int) -> int:
    """Square number of field rc; (5,4) is the off-board cell."""
    if (r, c) == (5, 4):
        return OFF_BOARD
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise ValueError(f"field {r}{c} is off the board")
    return SIZE * r + c


def name(square: int) -> str:
    return "54" if square == OFF_BOARD else f"{square // SIZE}{square % SIZE}"


def _neighbour_table() -> np.ndarray:
    table = np.full((SQUARES + 1, 8), -1, dtype=np.int64)
    for cell in range(SQUARES + 1):
        r, c = (5, 4) if cell == OFF_BOARD else divmod(cell, SIZE)
        k = 0
        for dr, dc in SCAN_OFFSETS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE:
                table[cell, k] = SIZE * rr + cc
                k += 1
    return table


NEIGHBOUR_TABLE = _neighbour_table()
#: NEIGHBOUR_LISTS[sq]: the same, as tuples, for pure-Python callers.
NEIGHBOUR_LISTS: tuple[tuple[int, ...], ...] = tuple(tuple(int(v) for v in row if v >= 0) for row in NEIGHBOUR_TABLE)
NEIGHBOUR_MASKS: tuple[int, ...] = tuple(sum(1 << n for n in row) for row in NEIGHBOUR_LISTS[:SQUARES])


def key(plus: int, minus: int) -> int:
    """One int for a position: side +1's bits, then side -1's shifted by 25."""
    return plus | (minus << SQUARES)


def split_key(k: int) -> tuple[int, int]:
    return k & FULL, k >> SQUARES


def swap_key(k: int) -> int:
    """The key of the same position with sides +1 and -1 exchanged."""
    return (k >> SQUARES) | ((k & FULL) << SQUARES)


def digits(plus: int, minus: int) -> str:
    """The 25-digit board of memory.m: '0' empty, '1' side +1, '2' side -1, row by row.

    Each side's bits, square 0 first, read as a decimal number of 0s and 1s; the sides never share
    a square, so ``ones + 2 * twos`` has a digit 0, 1 or 2 per square and no carry."""
    ones = int(format(plus, "025b")[::-1])
    twos = int(format(minus, "025b")[::-1])
    return f"{ones + 2 * twos:025d}"


@lru_cache(maxsize=1 << 16)
def key_digits(k: int) -> str:
    """The 25-digit board of a key, remembered: a kept thesis memory is turned into its records
    after every game it learns from (the keeper's ``knowledge()``), the same boards each time."""
    return digits(*split_key(k))


def from_digits(board: str) -> tuple[int, int]:
    """(plus, minus) of a 25-digit board; ValueError naming the first bad character."""
    if len(board) != SQUARES:
        raise ValueError(f"a board is 25 digits, not {len(board)}: {board!r}")
    plus = minus = 0
    for s, ch in enumerate(board):
        if ch == "1":
            plus |= 1 << s
        elif ch == "2":
            minus |= 1 << s
        elif ch != "0":
            raise ValueError(f"board character {s + 1} is {ch!r}, not 0, 1 or 2")
    return plus, minus


def digits_key(board: str) -> int:
    return key(*from_digits(board))


def apply(own: int, src: int | None, dst: int) -> int:
    """The mover's bits after a placement (src None) or a step."""
    if src is not None:
        own &= ~(1 << src)
    return own | (1 << dst)


def successors(own: int, opp: int) -> list[tuple[int, int]]:
    """level1.s: every step of ``own``, pawns row-major, directions in scan order."""
    empty = FULL & ~(own | opp)
    moves = []
    bits = own
    while bits:
        low = bits & -bits
        src = low.bit_length() - 1
        bits ^= low
        for dst in NEIGHBOUR_LISTS[src]:
            if empty >> dst & 1:
                moves.append((src, dst))
    return moves


def popcount(bits: int) -> int:
    return bits.bit_count()
