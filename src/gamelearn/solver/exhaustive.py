"""Tic-tac-toe, hexapawn and any other game that always ends, solved on the spot by exhaustive search.

Tic-tac-toe and hexapawn end within 9 plies and never repeat a position, so a memoised negamax
over every position reachable from the start is exact: a few thousand positions, well under a
second.  A game of another author is solved the same way where its positions fit in memory
(:data:`POSITION_LIMIT`); a game that can repeat positions needs a retrograde table of its own.
Positions outside that set (from ``from_board``) are solved on demand by the same search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from itertools import islice
from typing import TYPE_CHECKING

from ..games import Game
from .base import Outcome, Solution

if TYPE_CHECKING:
    from typing import Any


#: The most positions the exhaustive search keeps in memory (about 0.5 KB each, with the states: a
#: few GB at most); a game with more reachable positions is refused in one line, not run out of memory.
POSITION_LIMIT = 5_000_000


class ExhaustiveSolution(Solution):
    """The complete game tree of a finite, acyclic game, memoised by position."""

    def __init__(
        self, game: Game[Any], known: Mapping[Hashable, Outcome] | None = None, limit: int = POSITION_LIMIT
    ) -> None:
        """``known``: the outcomes of every position reachable from the start, where a faster pass
        has found them (solve.tictactoe); the search fills the table otherwise.  ValueError where
        the game can repeat positions or has more than ``limit`` reachable ones."""
        if game.facts.can_cycle:
            raise ValueError(f"{game.name} can repeat positions: exhaustive search needs a game that always ends")
        super().__init__(game)
        self._memo: dict[Hashable, Outcome] = dict(known) if known is not None else {}
        self._limit = limit
        self.outcome(game.initial())
        #: The positions reachable from the start (every one was visited by the search above).
        self.reachable = len(self._memo)

    def outcome(self, state: Hashable) -> Outcome:
        memo = self._memo
        known = memo.get(state)
        if known is not None:
            return known
        game = self.game
        successors = game.successors
        # An explicit stack instead of recursion: a position stays until its children are known.
        stack: list[Hashable] = [state]
        limit = self._limit
        while stack:
            position = stack[-1]
            if position in memo:
                stack.pop()
                continue
            moves = successors(position)
            if not moves and game.is_over(position):
                # Won (by the side that just moved, in every built-in game), or drawn by the rules.
                winner = game.winner(position)
                memo[position] = (
                    (0, None) if winner is None else (1, 0) if winner == game.to_move(position) else (-1, 0)
                )
                stack.pop()
                continue
            if len(memo) >= limit:
                raise ValueError(
                    f"{game.name} has more than {limit:,} positions reachable from the start: too many for the "
                    "exhaustive solver, which keeps each in memory"
                )
            unknown = [child for _, child in moves if child not in memo]
            if unknown:
                stack.extend(unknown)
                continue
            memo[position] = best_of([memo[child] for _, child in moves])
            stack.pop()
        return memo[state]

    def positions(self) -> list[Hashable]:
        """Every position reachable from the start, each once (the search's own walk, in the order
        it met them; positions solved on demand later are not among them)."""
        return list(islice(self._memo, self.reachable))

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

    def _size_text(self) -> str:
        return f"{self.reachable:,} positions reachable from the start"

    def summary(self) -> dict[str, Any]:
        facts = super().summary()
        facts.update(positions=self.reachable, longest_forced_win=self.longest_win(), **dict(self.census()))
        return facts


def best_of(children: Iterable[Outcome]) -> Outcome:
    """A position's outcome from its children's (each for the side to move there): the fastest win
    if a child is lost for the other side, else a draw if a child is drawn, else the slowest loss.
    The same as the best move_outcome by outcome_key, without a key function a child."""
    losses: list[int] = []  # distances of the children lost for their mover: our wins
    drawn = False
    longest = 0
    for value, distance in children:
        if value < 0:
            losses.append(distance or 0)
        elif value == 0:
            drawn = True
        elif (distance or 0) > longest:
            longest = distance or 0
    if losses:
        return (1, min(losses) + 1)
    if drawn:
        return (0, None)
    return (-1, longest + 1)
