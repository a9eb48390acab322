"""Teeko's evaluations for a depth-limited search, from X's view: the 1999 thesis program's
(Despotović) and the open winning sets of the form played (gamelearn.players.evaluation names them
and imports this module when a Teeko search first asks for one)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ..games.teeko import BLOCK_MASKS, LINE_MASKS, has_four

if TYPE_CHECKING:
    from typing import Any

    from .base import Evaluation


MIDDLE = 1 << 12
RING = sum(1 << (r * 5 + c) for r in (1, 2, 3) for c in (1, 2, 3)) & ~MIDDLE


def _three_windows() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    rows_cols: list[int] = []
    diagonals: list[int] = []
    for r in range(5):
        rows_cols.append(sum(1 << (r * 5 + c) for c in range(5)))
    for c in range(5):
        rows_cols.append(sum(1 << (r * 5 + c) for r in range(5)))
    # the diagonals of length >= 4, as cell lists
    diagonal_lines = [
        [(k, k) for k in range(5)],
        [(k, 4 - k) for k in range(5)],
        [(k, k + 1) for k in range(4)],
        [(k + 1, k) for k in range(4)],
        [(k, 3 - k) for k in range(4)],
        [(k + 1, 4 - k) for k in range(4)],
    ]
    for cells in diagonal_lines:
        for start in range(len(cells) - 2):
            diagonals.append(sum(1 << (r * 5 + c) for r, c in cells[start : start + 3]))
    return tuple(rows_cols), tuple(diagonals), BLOCK_MASKS


_FULL_LINES, _DIAGONAL_WINDOWS, _BLOCKS = _three_windows()
_CONTIGUOUS_THREES = frozenset(0b111 << k for k in range(3))


def _line_bits(bits: int, line_index: int) -> int:
    """The 5 cells of row (0-4) or column (5-9) ``line_index`` packed into 5 bits."""
    if line_index < 5:
        return bits >> (5 * line_index) & 0b11111
    c = line_index - 5
    return sum(((bits >> (r * 5 + c)) & 1) << r for r in range(5))


@lru_cache(maxsize=1 << 16)  # a search asks it of every leaf; there are 15,276 sets of four pawns or fewer
def teeko_has_three(bits: int) -> bool:
    """A three of the thesis's evaluation; the opponent's pawns are ignored (a blocked three counts)."""
    for index in range(10):
        if _line_bits(bits, index) in _CONTIGUOUS_THREES:
            return True
    for window in _DIAGONAL_WINDOWS:
        if bits & window == window:
            return True
    for block in _BLOCKS:
        if (bits & block).bit_count() == 3:
            return True
    return False


def teeko_thesis_value(own: int, other: int) -> int:
    """The thesis program's evaluation for the side holding ``own``: 1000 F + 15 T + 6 C + 3 R."""
    four = -1 if has_four(other) else 1 if has_four(own) else 0
    three = int(teeko_has_three(own)) - int(teeko_has_three(other))
    middle = 1 if own & MIDDLE else -1 if other & MIDDLE else 0
    ring = (own & RING).bit_count() - (other & RING).bit_count()
    return 1000 * four + 15 * three + 6 * middle + 3 * ring


def teeko_thesis(state: Any) -> float:
    return teeko_thesis_value(state.x, state.o)


#: The width of one goal's field in :func:`teeko_lines_over`'s packed integers: a goal weighs at
#: most 4**4 and the 58 goals of Advanced Teeko at most 58 * 256 < 2**16 together.
_FIELD = 16
_FIELD_ONES = (1 << _FIELD) - 1


def teeko_lines_over(goals: tuple[int, ...]) -> Evaluation:
    """Open winning sets of a Teeko form: for each goal free of the enemy, 4**(own pawns in it); X
    minus O.  Standard Teeko has 44 goals, Advanced Teeko 58 (Scarne's larger squares too), so the
    evaluation sees the threats of the form being played.

    A search calls it at every leaf, so it is no loop over the goals: one side's pawns give a packed
    integer of every goal's weight (a field of ``_FIELD`` bits a goal) and one of the goals they
    leave free (all ones where free), worked out once for a set of pawns (there are 15,276 sets of
    four pawns or fewer); a side's sum is then one AND and the fields' total, which a multiply by a
    one in every field carries into the top field."""
    ones = sum(1 << (_FIELD * index) for index in range(len(goals)))
    top = _FIELD * (len(goals) - 1)

    @lru_cache(maxsize=1 << 16)
    def packed(bits: int) -> tuple[int, int]:
        weights = free = 0
        for index, mask in enumerate(goals):
            weights |= 4 ** (bits & mask).bit_count() << (_FIELD * index)
            if not bits & mask:
                free |= _FIELD_ONES << (_FIELD * index)
        return weights, free

    def teeko_lines(state: Any) -> float:
        x_weights, x_free = packed(state.x)
        o_weights, o_free = packed(state.o)
        return ((x_weights & o_free) * ones >> top & _FIELD_ONES) - ((o_weights & x_free) * ones >> top & _FIELD_ONES)

    return teeko_lines


teeko_lines = teeko_lines_over(LINE_MASKS + BLOCK_MASKS)

EVALUATIONS: dict[str, Evaluation] = {"thesis": teeko_thesis, "lines": teeko_lines}


def goals_if_not_standard(masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A Teeko form's goals when they are not the standard 44 (None otherwise)."""
    if set(masks) == set(LINE_MASKS + BLOCK_MASKS):
        return None
    return tuple(masks)
