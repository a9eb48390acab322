"""Connect Four's exact solution: no table holds its 4.5 x 10^12 positions, so each position asked
for is searched (:mod:`.search`, numba), the first plies read from an opening book the project
computes with the same search (:mod:`.book`: the standard board's ships with the package, and
``gamelearn solve connect4 --force`` builds one for any board).

``solve("connect4")`` (any board whose bitboard fits 63 bits: columns x (rows + 1) <= 63, which
leaves out only 8x7, 8x8 and 9x7 up to 9x8) gives a :class:`Connect4Solution`: the value and the
distance of a position, its best moves (the fastest win, the slowest loss) and the grade of any move,
as every exact solution of gamelearn gives them.  Every position it solves is kept (in memory, up to
:data:`KEPT_MOST`), so the second question about it is a look-up, and, from ``solve``, in a file
beside the book (:class:`.book.SolvedFile`), so a later process finds it too.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base import Outcome, Solution
from .book import SolvedFile, book_path, load_book, solved_path
from .searcher import Connect4Searcher, fits

if TYPE_CHECKING:
    from ...games.connect4 import Connect4

#: The most solved positions kept in memory (about 100 bytes each).
KEPT_MOST = 2_000_000
#: The positions searched are written beside the book once their searches have taken this many CPU
#: seconds since the last write (and when the solution is done with): a write costs a few ms.
SAVE_AFTER_CPU_S = 1.0


def outcome_of_score(score: int, discs: int, squares: int) -> Outcome:
    """(value, distance in plies) of a position with ``discs`` down on a board of ``squares``, from
    its score (:mod:`.search`): a win's score is ``(squares + 1 - m) // 2`` where ``m`` discs are down
    when the winner drops its last, and ``m`` has the parity of the winner's turns."""
    if score == 0:
        return (0, None)
    wins = score > 0
    level = abs(score)
    winner_parity = discs % 2 if wins else (discs + 1) % 2
    before = squares + 1 - 2 * level  # (squares + 1 - before) // 2 == level for before and before - 1
    if before % 2 != winner_parity:
        before -= 1
    return (1 if wins else -1, before - discs + 1)


class Position:
    """A state as the search reads it: the side to move's discs, every disc, how many."""

    __slots__ = ("own", "both", "discs")

    def __init__(self, state: Any) -> None:
        x, o = state[0], state[1]
        self.both = x | o
        self.discs = self.both.bit_count()
        self.own = x if self.discs % 2 == 0 else o


class Connect4Solution(Solution):
    """The exact solution of a Connect Four board, by search, the first plies from the book."""

    def __init__(
        self, game: Connect4, book: Any = None, table_bits: int | None = None, solved: SolvedFile | None = None
    ) -> None:
        super().__init__(game)
        self.searcher = Connect4Searcher(game.columns, game.rows, table_bits)
        self.book = book
        #: The positions searched before, by this process and earlier ones, and where they are kept.
        self.solved = solved
        self._kept: dict[int, int] = {}
        #: CPU seconds the search has taken (all questions together).
        self.cpu_seconds = 0.0
        self._unsaved_cpu = 0.0
        if solved is not None:  # what is left unsaved is written when the solution goes, or at exit
            weakref.finalize(self, solved.save, 2.0)

    def save(self) -> bool:
        """Write the positions searched since the last write beside the book (False where another
        process is writing there: they are kept for the next write)."""
        if self.solved is None:
            return True
        self._unsaved_cpu = 0.0
        return self.solved.save()

    def score(self, state: Hashable) -> int:
        """The exact score of an unfinished position (:mod:`.search`)."""
        position = Position(state)
        searcher = self.searcher
        key = searcher.key(position.own, position.both)
        known = self.known_score(key, position.discs)
        if known is not None:
            return known
        started = time.process_time()
        score = searcher.score(position.own, position.both, position.discs)
        spent = time.process_time() - started
        self.cpu_seconds += spent
        if len(self._kept) >= KEPT_MOST:
            self._kept.clear()
        self._kept[key] = score
        if self.solved is not None:
            self.solved.add(key, score)
            self._unsaved_cpu += spent
            if self._unsaved_cpu >= SAVE_AFTER_CPU_S:
                self.save()
        return score

    def known_score(self, key: int, discs: int) -> int | None:
        """The score of the position with that key, where it is known without a search: solved in
        this process, in the book, or kept beside the book by an earlier one."""
        known = self._kept.get(key)
        if known is None and self.book is not None:
            known = self.book.get(key, discs)
        if known is None and self.solved is not None:
            known = self.solved.get(key)
        return None if known is None else int(known)

    def best_moves(self, state: Hashable) -> list[str]:
        """As :meth:`Solution.best_moves` (the fastest win, else the draws, else the slowest loss),
        asking less of the search: the position's own score first, then of each move only whether
        it keeps that score (one null window a move, where its exact score takes several)."""
        game = self.game
        if game.is_over(state):
            return []
        best = self.score(state)
        searcher = self.searcher
        chosen = []
        for move in game.legal_moves(state):
            child = game.play(state, move)
            if game.is_over(child):
                keeps = game.winner(child) is not None or best == 0  # a win, or the draw of a full board
            else:
                position = Position(child)
                known = self.known_score(searcher.key(position.own, position.both), position.discs)
                if known is not None:
                    keeps = -known == best
                else:
                    started = time.process_time()
                    keeps = searcher.at_most(position.own, position.both, position.discs, -best)
                    self.cpu_seconds += time.process_time() - started
            if keeps:
                chosen.append(move)
        return chosen

    def outcome(self, state: Hashable) -> Outcome:
        game = self.game
        if game.is_over(state):
            return (0, None) if game.winner(state) is None else (-1, 0)
        discs = (state[0] | state[1]).bit_count()  # type: ignore[index]
        return outcome_of_score(self.score(state), discs, self.searcher.squares)

    def answers_at_once(self, plies: int) -> bool:
        """Small boards are searched whole in moments; on larger ones a position of the first plies
        costs CPU minutes to hours of search unless the opening book holds its ply."""
        return self.searcher.squares <= 30 or (self.book is not None and plies <= self.book.plies)

    def _size_text(self) -> str:
        if self.book is None:
            return "searched on demand, no opening book"
        return f"searched on demand, an opening book of {len(self.book):,} positions to ply {self.book.plies}"

    def _start_text(self) -> str:
        if self.book is None and self.searcher.squares > 30:
            value = self.game.facts.value_of_start
            if value is not None:  # the start is long to search: its published value
                words = {1: "X wins", 0: "a draw", -1: "O wins"}[value]
                return f"{words} with best play (published)"
            return "the start's value not yet searched"
        return super()._start_text()

    def summary(self) -> dict[str, Any]:
        facts: dict[str, Any] = {"game": self.game.spec}
        if self.book is not None or self.searcher.squares <= 30:
            facts.update(super().summary())
            facts["game"] = self.game.spec
        facts["book_positions"] = 0 if self.book is None else len(self.book)
        facts["book_plies"] = None if self.book is None else self.book.plies
        return facts


def solve_connect4(game: Connect4, path: Any = None) -> Connect4Solution:
    """The solution of a Connect Four board, with its opening book (``path``; else the data
    directory's or the one shipped with the package, :func:`.book.load_book`), keeping the positions
    it searches beside the data directory's book; ValueError for a board the search does not take."""
    if not fits(game.columns, game.rows):
        Connect4Searcher(game.columns, game.rows)  # raises, saying which boards it takes
    book = load_book(game.columns, game.rows, Path(path) if path else None)
    target = Path(path) if path else book_path(game.columns, game.rows)
    solved = SolvedFile(solved_path(target), game.columns * game.rows)
    return Connect4Solution(game, book, solved=solved)


__all__ = ["Connect4Searcher", "Connect4Solution", "fits", "outcome_of_score", "solve_connect4"]
