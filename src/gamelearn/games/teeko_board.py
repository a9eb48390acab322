"""Teeko's board (John Scarne, 1937) as bitboards: the squares, the 44 winning sets, the steps, the
symmetries and the state, with the tables the rules look up on their hot path.

Square ``rc`` (row r, column c, 0..4 from the top left) is bit ``5*r + c`` of a 25-bit integer, one
integer a side; four in a row (across, down, diagonal) or on the four squares of a 2x2 block wins:
28 lines + 16 blocks = 44 winning sets (Despotović 1999).  The rules themselves, which read these
tables, are :class:`gamelearn.games.teeko.Teeko`; every name here can be imported from there too.
"""

from __future__ import annotations

from functools import cache, partial
from typing import NamedTuple

from . import get_game
from .base import BitTables, Permutation, bit_tables, board_order_tables, square_symmetries
from .svg import position_svg

SIZE = 5
SQUARES = 25
PAWNS = 4
FULL = (1 << SQUARES) - 1


def square_name(square: int) -> str:
    return f"{square // SIZE}{square % SIZE}"


def _winning_sets() -> tuple[int, ...]:
    masks: list[int] = []

    def cells(r: int, c: int, dr: int, dc: int) -> int:
        mask = 0
        for k in range(4):
            mask |= 1 << ((r + k * dr) * SIZE + (c + k * dc))
        return mask

    for r in range(SIZE):  # 10 horizontal lines
        for c in range(2):
            masks.append(cells(r, c, 0, 1))
    for c in range(SIZE):  # 10 vertical lines
        for r in range(2):
            masks.append(cells(r, c, 1, 0))
    for r in range(2):  # 4 diagonals down-right
        for c in range(2):
            masks.append(cells(r, c, 1, 1))
    for r in range(2):  # 4 diagonals down-left
        for c in range(3, 5):
            masks.append(cells(r, c, 1, -1))
    for r in range(4):  # 16 two-by-two blocks
        for c in range(4):
            sq = r * SIZE + c
            masks.append((1 << sq) | (1 << (sq + 1)) | (1 << (sq + SIZE)) | (1 << (sq + SIZE + 1)))
    return tuple(masks)


#: The 44 winning sets: 28 lines of four, then 16 two-by-two blocks.
WIN_MASKS: tuple[int, ...] = _winning_sets()
LINE_MASKS = WIN_MASKS[:28]
BLOCK_MASKS = WIN_MASKS[28:]


def _neighbours() -> tuple[int, ...]:
    result = []
    for sq in range(SQUARES):
        r, c = divmod(sq, SIZE)
        mask = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                    mask |= 1 << ((r + dr) * SIZE + c + dc)
        result.append(mask)
    return tuple(result)


#: NEIGHBOURS[sq]: the mask of the (up to 8) squares one king step from ``sq``.
NEIGHBOURS: tuple[int, ...] = _neighbours()

SYMMETRY_NAMES, SYMMETRIES = square_symmetries(SIZE)


#: The winning sets as a set: a side has at most 4 pawns, so it has won exactly when its pawns *are*
#: one of the 44 sets, one hash lookup instead of 44 mask tests (this is the hot path).
WIN_SET: frozenset[int] = frozenset(WIN_MASKS)

#: SQUARE_NAMES[sq]: the notation of square ``sq`` ("00" .. "44").
SQUARE_NAMES: tuple[str, ...] = tuple(square_name(sq) for sq in range(SQUARES))
#: Every placement's text to its square.
PLACEMENTS: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
#: NEIGHBOUR_WINDOWS[sq]: NEIGHBOURS[sq] seen through ``(bits << 6) >> sq``, the 13-bit window around
#: ``sq``; ``(occupied << 6 >> sq) & NEIGHBOUR_WINDOWS[sq]`` says which neighbours are taken.
NEIGHBOUR_WINDOWS: tuple[int, ...] = tuple((NEIGHBOURS[sq] << 6) >> sq for sq in range(SQUARES))


class StepTables:
    """The step tables of one way of stepping (king or knight): for each square, its targets and
    the text of each step, and a cache of the free steps by which targets are taken.

    A square's targets are read through a window: ``(occupied << pad) >> sq`` puts square ``sq``
    at bit ``pad``, and ``window[sq]`` picks its targets there (pad 6 reaches a king's 8 targets,
    12 a knight's)."""

    def __init__(self, targets: tuple[int, ...]) -> None:
        self.targets = targets
        self.pad = 6 if all(abs(dst - src) <= 6 for src in range(SQUARES) for dst in _bits(targets[src])) else 12
        self.window = tuple((targets[sq] << self.pad) >> sq for sq in range(SQUARES))
        self.step_targets: tuple[tuple[tuple[int, str], ...], ...] = tuple(
            tuple((1 << dst, SQUARE_NAMES[src] + SQUARE_NAMES[dst]) for dst in _bits(targets[src]))
            for src in range(SQUARES)
        )
        #: Every step's text (to a target) to its (source, target) squares.
        self.steps: dict[str, tuple[int, int]] = {
            SQUARE_NAMES[src] + SQUARE_NAMES[dst]: (src, dst) for src in range(SQUARES) for dst in _bits(targets[src])
        }
        #: free[sq][taken]: the steps from ``sq`` when the targets ``taken`` (a window) are occupied;
        #: filled on first use, at most 256 entries a square.
        self.free: tuple[dict[int, tuple[str, ...]], ...] = tuple({} for _ in range(SQUARES))

    def free_steps(self, src: int, taken: int) -> tuple[str, ...]:
        pad = self.pad
        steps = tuple(name for bit, name in self.step_targets[src] if not ((bit << pad) >> src) & taken)
        self.free[src][taken] = steps
        return steps


def _bits(mask: int) -> list[int]:
    return [sq for sq in range(SQUARES) if mask >> sq & 1]


KING_STEPS = StepTables(NEIGHBOURS)
#: STEP_TARGETS[sq]: the (target bit, move text) of each king step from ``sq``, in increasing target order.
STEP_TARGETS = KING_STEPS.step_targets
#: Every legal-looking king step's text (to a neighbour) to its (source, target) squares.
STEPS = KING_STEPS.steps


def has_four(bits: int) -> bool:
    """True if the pawns in ``bits`` cover one of the 44 winning sets."""
    count = bits.bit_count()
    if count == PAWNS:
        return bits in WIN_SET
    if count < PAWNS:
        return False
    return any(bits & mask == mask for mask in WIN_MASKS)


def permute_bits(bits: int, perm: Permutation) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return out


@cache
def symmetry_tables() -> tuple[tuple[BitTables, ...], tuple[BitTables, ...]]:
    """(``images[k]``, ``order[k]``): symmetry ``k`` as 5 tables of 32 entries, one a row of the
    board (:func:`~gamelearn.games.base.bit_tables`), and the images' weights in the order of
    boards (:func:`~gamelearn.games.base.board_order_tables`); made on first use."""
    images = tuple(bit_tables(perm, SIZE) for perm in SYMMETRIES)
    order = tuple(board_order_tables(perm, SIZE) for perm in SYMMETRIES)
    return images, order


def _by_rows(bits: int, tables: BitTables) -> int:
    r0, r1, r2, r3, r4 = tables
    return r0[bits & 31] + r1[bits >> 5 & 31] + r2[bits >> 10 & 31] + r3[bits >> 15 & 31] + r4[bits >> 20 & 31]


class TeekoState(NamedTuple):
    """A Teeko position: X's pawns, O's pawns (bitboards) and the side to move (0 = X)."""

    x: int
    o: int
    to_move: int

    def pawns(self, player: int) -> int:
        return self.o if player else self.x

    def __repr__(self) -> str:
        """What a person reads: the board (``game.board``, 25 squares row by row) and the side to move."""
        board = "".join("X" if self.x >> sq & 1 else "O" if self.o >> sq & 1 else "." for sq in range(SQUARES))
        return f"TeekoState({board!r}, to_move={'O' if self.to_move else 'X'})"

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter (gamelearn.games.svg).  A state does not know its
        form: the goals ringed are those of Standard Teeko, which every form's goals include."""
        return position_svg(get_game("teeko"), self)


#: TeekoState(x, o, to_move) without the Python-level __new__ of a NamedTuple: the hot path makes one
#: state a ply, so it calls tuple.__new__ directly (the same object, made faster).
_new_state = partial(tuple.__new__, TeekoState)

#: The free squares' names, by halves of the board: _FREE_LOW[occupied & LOW_MASK] for squares
#: 0-12, _FREE_HIGH[occupied >> LOW_BITS] for 13-24, filled on first use (8,192 and 4,096 entries
#: at most), so the placements of a position are two look-ups instead of a loop over 25 squares.
LOW_BITS = 13
LOW_MASK = (1 << LOW_BITS) - 1
_FREE_LOW: dict[int, tuple[str, ...]] = {}
_FREE_HIGH: dict[int, tuple[str, ...]] = {}


def _free_squares(occupied: int) -> list[str]:
    low, high = occupied & LOW_MASK, occupied >> LOW_BITS
    first = _FREE_LOW.get(low)
    if first is None:
        first = _FREE_LOW[low] = tuple(SQUARE_NAMES[sq] for sq in range(LOW_BITS) if not low >> sq & 1)
    second = _FREE_HIGH.get(high)
    if second is None:
        second = _FREE_HIGH[high] = tuple(
            SQUARE_NAMES[sq] for sq in range(LOW_BITS, SQUARES) if not high >> (sq - LOW_BITS) & 1
        )
    return [*first, *second]


#: _PAWN_SQUARES[pawns]: the squares of a side's pawns in increasing order, filled on first use (in
#: the moving phase a side has 4 pawns: C(25, 4) = 12,650 sets at most).
_PAWN_SQUARES: dict[int, tuple[int, ...]] = {}


def _pawn_squares(pawns: int) -> tuple[int, ...]:
    squares = _PAWN_SQUARES[pawns] = tuple(sq for sq in range(SQUARES) if pawns >> sq & 1)
    return squares
