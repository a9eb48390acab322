"""The perfect player: a best move of the exact solution.

It plays the fastest win, else a draw, else the slowest loss, at random among equally good moves
(seeded, like every player).  With ``random=P`` it is a mixed opponent: with chance P it plays a
random legal move instead (``perfect:random=0.5``, a teacher that makes mistakes).  For Teeko it needs the solved table; without one it raises a
ValueError that says how to build it (``gamelearn solve teeko``).  For Connect Four every position is
searched (gamelearn.solver.connect4), the first plies read from the opening book where
``gamelearn solve connect4`` has built it: without the book a move of the first plies of the standard
board is a search of many CPU seconds, the longer the earlier (docs/connect4.md).
"""

from __future__ import annotations

from typing import Any

from ..games import Game
from ..solver import Solution, solve
from .base import Player, S
from .registry import Option, PlayerKind, parse_fraction, register


class PerfectPlayer(Player[S]):
    kind = "perfect"

    def __init__(
        self, game: Game[Any], seed: int | None = None, solution: Solution | None = None, random: float = 0.0
    ) -> None:
        super().__init__(game, seed, **({"random": random} if random else {}))
        self.mistakes = random
        # Solving (or opening Teeko's table) up front: a missing table is reported when the player
        # is made, not in the middle of a game.
        self.solution = solution if solution is not None else solve(game)

    def choose(self, state: S) -> str | None:
        moves = self.moves_to_choose_from(state)  # a finished game is an error, not a resignation
        if self.mistakes and self.rng.random() < self.mistakes:
            return self.rng.choice(sorted(moves))
        best = self.solution.best_moves(state)
        return self.rng.choice(best)


register(
    PlayerKind(
        "perfect",
        PerfectPlayer,
        "perfect play from the exact solution: fastest win, slowest loss",
        options=(Option("random", parse_fraction, 0.0, "chance of a random legal move instead (a mixed opponent)"),),
    )
)
