"""The search of one Connect Four board size (:class:`Connect4Searcher`): the bitboard's masks, the
move order and the transposition table the kernels of :mod:`.search` read and keep between
questions."""

from __future__ import annotations

import numpy as np

from .search import TABLE_BITS, clear_table, exact_score, new_table, score_at_most


def fits(columns: int, rows: int) -> bool:
    """Whether the search takes a board of that size: its bitboard (rows + 1 bits a column) fits in
    63 bits, so every key is a non-negative 64-bit integer."""
    return columns * (rows + 1) <= 63


class Connect4Searcher:
    """The search of one board size, with its transposition table (kept between questions, so each
    answer speeds the next) and the count of positions searched."""

    def __init__(self, columns: int, rows: int, table_bits: int | None = None) -> None:
        if not fits(columns, rows):
            raise ValueError(
                f"the Connect Four solver takes boards of columns x (rows + 1) <= 63 squares; "
                f"{columns}x{rows} needs {columns * (rows + 1)}"
            )
        self.columns, self.rows = columns, rows
        self.height = rows + 1
        self.squares = columns * rows
        self.bottom = sum(1 << (k * self.height) for k in range(columns))
        self.board = self.bottom * ((1 << rows) - 1)
        centre = columns // 2
        # The centre first, then outwards, left before right (Allis: the centre is worth most).
        self.order = np.array([centre + (1 - 2 * (k % 2)) * ((k + 1) // 2) for k in range(columns)], np.int64)
        self.table = new_table(table_bits or TABLE_BITS, columns * self.height)
        self.counter = np.zeros(1, np.int64)

    @property
    def searched(self) -> int:
        """How many positions the search has visited so far (all questions together)."""
        return int(self.counter[0])

    def clear(self) -> None:
        """Forget what the transposition table knows (the next question starts cold)."""
        clear_table(self.table)

    def score(self, own: int, both: int, discs: int) -> int:
        """The exact score (:mod:`.search`) of an unfinished position."""
        return int(
            exact_score(
                own,
                both,
                discs,
                self.columns,
                self.height,
                self.board,
                self.bottom,
                self.order,
                self.table,
                self.counter,
            )  # fmt: skip
        )

    def at_most(self, own: int, both: int, discs: int, value: int) -> bool:
        """Whether the score of an unfinished position is at most ``value`` (one null window)."""
        return bool(
            score_at_most(
                own,
                both,
                discs,
                value,
                self.columns,
                self.height,
                self.board,
                self.bottom,
                self.order,
                self.table,
                self.counter,
            )  # fmt: skip
        )

    def mirror(self, bits: int) -> int:
        h, last = self.height, self.columns - 1
        column = (1 << h) - 1
        return sum(((bits >> (k * h)) & column) << ((last - k) * h) for k in range(self.columns))

    def key(self, own: int, both: int) -> int:
        """The position's key, the same for a position and its mirror image (the lesser of the two)."""
        return min(own + both, self.mirror(own) + self.mirror(both))
