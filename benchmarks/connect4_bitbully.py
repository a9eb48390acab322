"""BitBully, Markus Thill's Connect Four solver (``pip install bitbully``, with its opening books in
``bitbully-databases``; https://github.com/MarkusThill/BitBully), as an independent perfect player
for the benchmarks and the tests.  BitBully is AGPL-3.0: gamelearn never imports it, only this
benchmark module and the tests that check it do.

:class:`BitBullySolution` is an exact solution of the standard 7x6 board, as the project's own
:class:`gamelearn.solver.connect4.Connect4Solution` is one: ``perfect`` made with it
(``PerfectPlayer(game, solution=BitBullySolution(game))``) keeps the value, wins fastest and
postpones a loss longest, as GBG's AlphaBetaDL does, and breaks ties as ``perfect`` always does
(its seeded ``rng`` over the best moves in column order), so with the same seed the two perfect
players play the same game.  Every answer comes from BitBully's ``score_all_moves``: each column's
score for the side to move as Pascal Pons counts it (0 a draw; a win in which the winner drops its
last disc as the ``m``-th of the board, ``(43 - m) // 2``; a loss the negative), the score the
project's own search gives (``gamelearn.solver.connect4.search``).

The book is ``12-ply-dist``, BitBully's default: the exact score of every position of 12 discs, so
a position of fewer discs is searched only down to ply 12.  Its ``8-ply`` and ``12-ply`` books hold
only who wins (a win is +1, a loss -1), so a position read from them has its value but not its
distance, and the perfect player's fastest win would not be the fastest; they are not used.

    python benchmarks/connect4_bitbully.py 4453    # each column's score after the columns 4 4 5 3
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Any

import bitbully

from gamelearn.games import Game
from gamelearn.solver.base import Outcome, Solution
from gamelearn.solver.connect4 import outcome_of_score

#: BitBully's book with distances (the exact score, not only the value, of every 12-disc position).
BOOK = "12-ply-dist"
#: The most positions whose scores are kept (a game asks for a position's scores more than once:
#: the perfect player's move, the opening's value).
KEPT_MOST = 100_000


class BitBullySolution(Solution):
    """The exact solution of the standard 7x6 board, every position's scores asked of BitBully."""

    def __init__(self, game: Game[Any], book: str | None = BOOK) -> None:
        if game.name != "connect4" or (getattr(game, "columns", 0), getattr(game, "rows", 0)) != (7, 6):
            raise ValueError(f"BitBully solves the standard 7x6 board only, not {game.spec}")
        super().__init__(game)
        self.agent = bitbully.BitBully(book)
        self._scores: dict[Hashable, dict[str, int]] = {}

    def board(self, state: Hashable) -> bitbully.Board:
        """BitBully's board of ``state``: 7 columns of 6 squares, bottom first, 1 for X, 2 for O."""
        x, o = state[0], state[1]  # type: ignore[index]
        columns = []
        for column in range(7):
            bits = [1 << (column * 7 + row) for row in range(6)]  # Fhourstones' layout: 7 bits a column
            columns.append([1 if x & bit else 2 if o & bit else 0 for bit in bits])
        return bitbully.Board(columns)

    def move_scores(self, state: Hashable) -> dict[str, int]:
        """Each legal move (its column, from 1) with its Pons score for the side that plays it."""
        found = self._scores.get(state)
        if found is None:
            scores = self.agent.score_all_moves(self.board(state))
            found = {str(column + 1): score for column, score in scores.items()}
            if len(self._scores) >= KEPT_MOST:
                self._scores.clear()
            self._scores[state] = found
        return found

    def score(self, state: Hashable) -> int:
        """The exact Pons score of an unfinished position for the side to move: its best move's."""
        return max(self.move_scores(state).values())

    def outcome(self, state: Hashable) -> Outcome:
        game = self.game
        if game.is_over(state):
            return (0, None) if game.winner(state) is None else (-1, 0)
        discs = (state[0] | state[1]).bit_count()  # type: ignore[index]
        return outcome_of_score(self.score(state), discs, 42)

    def best_moves(self, state: Hashable) -> list[str]:
        """The moves of the highest score (the fastest win, else a draw, else the slowest loss), in
        the game's move order, as :meth:`Solution.best_moves` gives them."""
        if self.game.is_over(state):
            return []
        scores = self.move_scores(state)
        top = max(scores.values())
        return [move for move in self.game.legal_moves(state) if scores[move] == top]


def main() -> None:
    import gamelearn

    game = gamelearn.get_game("connect4")
    state = game.initial()
    for move in sys.argv[1] if len(sys.argv) > 1 else "":
        state = game.play(state, move)
    solution = BitBullySolution(game)
    value, distance = solution.outcome(state)
    print(
        f"value {value:+d} for the side to move, distance {distance}; each column's score {solution.move_scores(state)}"
    )
    print(f"best moves: {' '.join(solution.best_moves(state))}")


if __name__ == "__main__":
    main()
