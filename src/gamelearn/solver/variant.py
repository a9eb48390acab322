"""Teeko-like games as data, for the solver: a board, a number of pawns, winning sets, neighbours and
symmetries.  Real Teeko takes its masks from the rules (gamelearn.games.teeko); the small variants
(e.g. 4x4 with three pawns and three in a row) exist so tests can solve a whole game in a second and
check it against a plain search.

And the indexing both the builder and the reader share: a position is *(mover's pawns, other's
pawns)*, "side to move's set first", so one table serves both sides.  The mover's set is ranked
among the C(n, m) sets of n squares, the other's among the C(n - m, o) sets of the squares the mover
leaves free (combinatorial number system, colex order).  Under the board's symmetries only one
mover set per class is stored: its *representative*, the smallest image as an integer.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np

from ..games.base import square_symmetries
from ..games.teeko import NEIGHBOURS as TEEKO_NEIGHBOURS
from ..games.teeko import SYMMETRIES as TEEKO_SYMMETRIES
from ..games.teeko import WIN_MASKS as TEEKO_WIN_MASKS
from ..games.teeko import Teeko


@dataclass(frozen=True)
class Variant:
    """A Teeko-like game: ``pawns`` each, placed one at a time, then stepped to a free neighbour.

    ``drops`` has a letter a drop round (round r: each side's r-th pawn): ``s``, the pawn's owner
    chooses its square, ``a``, the opponent does (Scarne's Alternate Game); empty means all ``s``.
    ``first_forbidden`` is the mask of squares the first pawn may not take (the centre rule)."""

    name: str
    rows: int
    columns: int
    pawns: int
    win_masks: tuple[int, ...]
    neighbours: tuple[int, ...]
    symmetries: tuple[tuple[int, ...], ...]
    drops: str = ""
    first_forbidden: int = 0

    @property
    def squares(self) -> int:
        return self.rows * self.columns

    @property
    def drop_pattern(self) -> str:
        return self.drops or "s" * self.pawns

    def owner_chooses(self, placed: int) -> bool:
        """Whether the owner of the pawn dropped when ``placed`` pawns are down chooses its square."""
        return self.drop_pattern[placed // 2] == "s"

    def moving_signature(self) -> str:
        """A digest of what defines the moving phase (board, pawns, goals, steps, symmetries): forms
        that differ only in their drops share it, and so their moving phase."""
        text = repr((self.rows, self.columns, self.pawns, self.win_masks, self.neighbours, self.symmetries))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def signature(self) -> str:
        """A digest of everything that defines the game, written into the table's header.  For
        standard drops and no centre rule it is the moving signature, the signature of a table
        built with no drop options named, so such a table serves the form."""
        if self.drop_pattern == "s" * self.pawns and not self.first_forbidden:
            return self.moving_signature()
        text = repr((self.moving_signature(), self.drop_pattern, self.first_forbidden))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @cached_property
    def _goal_set(self) -> tuple[int | None, frozenset[int]]:
        """The size the goals share (None where they differ) and the goals as a set."""
        sizes = {mask.bit_count() for mask in self.win_masks}
        return (sizes.pop() if len(sizes) == 1 else None), frozenset(self.win_masks)

    def has_four(self, bits: int) -> bool:
        # A table's every lookup asks it: as many pawns as a goal's squares cover a goal only by
        # being one, and fewer cover none, so only a larger set is tried against each goal.
        size, goals = self._goal_set
        if size is not None:
            count = bits.bit_count()
            if count <= size:
                return count == size and bits in goals
        return any(bits & mask == mask for mask in self.win_masks)

    def layers(self) -> list[tuple[int, int]]:
        """(mover's pawns, other's pawns) from the start to the moving phase: (0,0), (0,1), (1,1), ..."""
        result = []
        for placed in range(2 * self.pawns + 1):
            first = (placed + 1) // 2  # the first player has put down this many
            second = placed // 2
            # the side to move is the first player when both have put down the same number
            result.append((second, first) if placed % 2 else (first, second))
        return result


def teeko() -> Variant:
    return Variant("teeko", 5, 5, 4, TEEKO_WIN_MASKS, TEEKO_NEIGHBOURS, TEEKO_SYMMETRIES)


def teeko_form(game: Teeko) -> Variant:
    """The solver's view of a form of Teeko, taken from its rules (gamelearn.games.teeko)."""
    return Variant(
        game.spec,
        5,
        5,
        4,
        game.win_masks,
        game.neighbours,
        TEEKO_SYMMETRIES,
        "" if game.form.drops == "ssss" else game.form.drops,
        game.forbidden[0],
    )


def centre_squares(rows: int, columns: int) -> int:
    """The centre of a board as a mask: the middle square, or the middle two or four squares of a
    board with an even side (the small boards' version of the centre rule)."""
    rs = [rows // 2] if rows % 2 else [rows // 2 - 1, rows // 2]
    cs = [columns // 2] if columns % 2 else [columns // 2 - 1, columns // 2]
    return sum(1 << (r * columns + c) for r in rs for c in cs)


def _winning_sets(rows: int, columns: int, pawns: int) -> tuple[int, ...]:
    """``pawns`` in a line across, down or diagonal, and the 2x2 blocks when ``pawns`` is 4."""
    masks: set[int] = set()
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + step * dr, c + step * dc) for step in range(pawns)]
                if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    masks.add(sum(1 << (rr * columns + cc) for rr, cc in cells))
            if pawns == 4 and r + 1 < rows and c + 1 < columns:
                masks.add(sum(1 << ((r + dr) * columns + c + dc) for dr in (0, 1) for dc in (0, 1)))
    return tuple(sorted(masks))


def _king_neighbours(rows: int, columns: int) -> tuple[int, ...]:
    """Each square's up to eight neighbours, as a mask."""
    neighbours = []
    for sq in range(rows * columns):
        r, c = divmod(sq, columns)
        neighbours.append(
            sum(
                1 << ((r + dr) * columns + c + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < columns
            )
        )
    return tuple(neighbours)


def _board_symmetries(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    """A square board's eight symmetries; a rectangle keeps only the identity, the two mirrors and
    the half turn."""
    if rows == columns:
        return square_symmetries(rows)[1]
    transforms = (
        lambda sq: divmod(sq, columns),
        lambda sq: (sq // columns, columns - 1 - sq % columns),
        lambda sq: (rows - 1 - sq // columns, sq % columns),
        lambda sq: (rows - 1 - sq // columns, columns - 1 - sq % columns),
    )
    return tuple(
        tuple(rr * columns + cc for sq in range(rows * columns) for rr, cc in [transform(sq)])
        for transform in transforms
    )


def small_variant(rows: int, columns: int, pawns: int, drops: str = "", centre: bool = True) -> Variant:
    """A smaller Teeko: ``pawns`` in a line (across, down, diagonal) wins, and so do 2x2 blocks when
    ``pawns`` is 4.  ``small_variant(5, 5, 4)`` has exactly real Teeko's 44 winning sets.  ``drops``
    and ``centre=False`` (no first pawn on the centre squares) as in :class:`Variant`."""
    name = f"teeko-{rows}x{columns}-{pawns}" + (f"-{drops}" if drops else "") + ("" if centre else "-nocentre")
    return Variant(
        name,
        rows,
        columns,
        pawns,
        _winning_sets(rows, columns, pawns),
        _king_neighbours(rows, columns),
        _board_symmetries(rows, columns),
        "" if drops == "s" * pawns else drops,
        0 if centre else centre_squares(rows, columns),
    )


def binomials(n: int, k: int) -> np.ndarray:
    """binom[p, i] = C(p, i) for p <= n, i <= k + 1."""
    table = np.zeros((n + 1, k + 2), dtype=np.int64)
    for p in range(n + 1):
        for i in range(k + 2):
            table[p, i] = comb(p, i)
    return table


def colex_subsets(n: int, m: int) -> np.ndarray:
    """Every m-subset of range(n) as a bitmask, in colex order (index = combinatorial rank)."""
    subsets = [sum(1 << p for p in combo) for combo in itertools.combinations(range(n), m)]
    # colex order is the numeric order of the bitmasks
    return np.array(sorted(subsets), dtype=np.int64)


def rank_bits(bits: int, binom: np.ndarray | list[list[int]]) -> int:
    """Colex rank of a set of squares: sum of C(p_i, i) over its squares p_1 < p_2 < ..."""
    rank = 0
    index = 1
    while bits:
        low = bits & -bits
        rank += int(binom[low.bit_length() - 1][index])
        index += 1
        bits ^= low
    return rank


def rank_among_free(bits: int, blocked: int, binom: np.ndarray | list[list[int]]) -> int:
    """Colex rank of ``bits`` among the squares not in ``blocked``."""
    rank = 0
    index = 1
    while bits:
        low = bits & -bits
        position = low.bit_length() - 1 - (blocked & (low - 1)).bit_count()
        rank += int(binom[position][index])
        index += 1
        bits ^= low
    return rank


def permute(bits: int, perm: tuple[int, ...] | np.ndarray) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << int(perm[low.bit_length() - 1])
        bits ^= low
    return out


@dataclass(frozen=True)
class MoverClasses:
    """The m-subsets of the board under its symmetries.

    ``class_of[r]`` is the class of the set of rank r, ``sym_of[r]`` a symmetry taking it onto the
    class's representative, ``reps[c]`` the representative of class c (the least image), and
    ``members[c]`` how many sets the class holds.
    """

    class_of: np.ndarray
    sym_of: np.ndarray
    reps: np.ndarray
    members: np.ndarray


class Indexing:
    """The arrays the kernels and the reader index positions with, for one variant."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        n, k = variant.squares, variant.pawns
        self.n, self.k = n, k
        self.binom = binomials(n, k)
        self.binom_rows: list[list[int]] = self.binom.tolist()
        self.perms = np.array(variant.symmetries, dtype=np.int64)
        self.neighbours = np.array(variant.neighbours, dtype=np.int64)
        self.win_masks = np.array(variant.win_masks, dtype=np.int64)
        self._subsets: dict[tuple[int, int], np.ndarray] = {}

    def subsets(self, n: int, m: int) -> np.ndarray:
        """Every m-subset of range(n) in colex order (cached: the kernels index rows by it)."""
        if (n, m) not in self._subsets:
            self._subsets[(n, m)] = colex_subsets(n, m)
        return self._subsets[(n, m)]

    @cached_property
    def classes(self) -> dict[int, MoverClasses]:
        return {m: self._classes(m) for m in range(self.k + 1)}

    def _classes(self, m: int) -> MoverClasses:
        sets = self.subsets(self.n, m)
        images = np.zeros((len(self.perms), len(sets)), dtype=np.int64)
        for g, perm in enumerate(self.perms):
            for square in range(self.n):
                present = (sets >> square) & 1
                images[g] |= present << int(perm[square])
        sym_of = np.argmin(images, axis=0).astype(np.int8)
        least = images[sym_of, np.arange(len(sets))]
        reps, class_of, members = np.unique(least, return_inverse=True, return_counts=True)
        return MoverClasses(class_of.astype(np.int32), sym_of, reps.astype(np.int64), members.astype(np.int64))

    def free_squares(self, movers: np.ndarray) -> np.ndarray:
        """free[i, j]: the j-th square not in movers[i], in increasing order (all sets the same size)."""
        n = self.n
        m = int(movers[0]).bit_count() if len(movers) else 0
        free = np.zeros((len(movers), n - m), dtype=np.int8)
        for i, bits in enumerate(movers.tolist()):
            free[i] = [sq for sq in range(n) if not bits >> sq & 1]
        return free

    def layer_shape(self, m: int, o: int) -> tuple[int, int]:
        """(classes of mover sets, row length) of the stored layer (m, o)."""
        return len(self.classes[m].reps), comb(self.n - m, o)

    def locate(self, mover: int, other: int) -> tuple[int, int]:
        """(class, offset in the class's row) of the position (mover's pawns, other's pawns)."""
        m = mover.bit_count()
        classes = self.classes[m]
        rank = rank_bits(mover, self.binom_rows)
        cls = int(classes.class_of[rank])
        perm = self.perms[int(classes.sym_of[rank])]
        rep = int(classes.reps[cls])
        return cls, rank_among_free(permute(other, perm), rep, self.binom_rows)
