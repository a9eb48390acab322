"""Tic-tac-toe and hexapawn, solved on the spot by exhaustive search (issue 4, point 2).

Both games end within 9 plies and never repeat a position, so a memoised negamax over every
position reachable from the start is exact: a few thousand positions, well under a second.
Positions outside that set (from ``from_board``) are solved on demand by the same search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

from ..games import Game
from .base import Outcome, Solution, move_outcome, outcome_key


class ExhaustiveSolution(Solution):
    """The complete game tree of a finite, acyclic game, memoised by position."""

    def __init__(self, game: Game) -> None:
        if game.facts.can_cycle:
            raise ValueError(f"{game.name} can repeat positions: exhaustive search needs a game that always ends")
        super().__init__(game)
        self._memo: dict[Hashable, Outcome] = {}
        self.outcome(game.initial())
        #: The positions reachable from the start (every one was visited by the search above).
        self.reachable = len(self._memo)

    def outcome(self, state: Hashable) -> Outcome:
        known = self._memo.get(state)
        if known is not None:
            return known
        # An explicit stack instead of recursion: children first, then the parent from them.
        stack: list[tuple[Hashable, bool]] = [(state, False)]
        while stack:
            position, expanded = stack.pop()
            if position in self._memo:
                continue
            game = self.game
            if game.is_over(position):
                # The side that just moved has won, or the rules ended the game drawn.
                self._memo[position] = (-1, 0) if game.winner(position) is not None else (0, None)
                continue
            children = [game.play(position, move) for move in game.legal_moves(position)]
            if not expanded:
                stack.append((position, True))
                stack.extend((child, False) for child in children if child not in self._memo)
                continue
            self._memo[position] = max((move_outcome(self._memo[child]) for child in children), key=outcome_key)
        return self._memo[state]

    def census(self) -> Counter[str]:
        """Won, drawn and lost counts over the positions reachable from the start, finished ones apart."""
        counts: Counter[str] = Counter()
        for position, (value, _) in self._memo.items():
            if self.game.is_over(position):
                counts["finished"] += 1
            else:
                counts["won" if value > 0 else "lost" if value < 0 else "drawn"] += 1
        return counts

    def longest_win(self) -> int:
        return max((d or 0) for v, d in self._memo.values() if v > 0)

    def summary(self) -> dict[str, Any]:
        facts = super().summary()
        facts.update(positions=self.reachable, longest_forced_win=self.longest_win(), **dict(self.census()))
        return facts
