"""What every exact solution offers: the value and distance of a position, its best moves, and the
grade of any move.

Values are for the side to move: +1 it wins with best play, 0 a draw, -1 it loses.  The distance is
the number of plies to the end with best play, the winner hurrying and the loser holding out; a
draw has no distance (None).  A finished game is a loss at distance 0 for the side to move (the
other side has just won), or a draw when the rules ended it drawn.

Imports nothing of gamelearn but the rules' types.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..games import Game
from ..games.svg import facts_html

#: (value, distance): the outcome of a position for the side to move.
Outcome = tuple[int, int | None]


class Grade(StrEnum):
    """How good a move is, judged against perfect play."""

    BEST = "best"  # keeps the value at the best distance (the fastest win, the slowest loss)
    KEEPS = "keeps"  # keeps the value, but a win takes longer or a loss comes sooner
    MISTAKE = "mistake"  # a win thrown to a draw, or a draw to a loss
    BLUNDER = "blunder"  # a win thrown to a loss


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One legal move and what it leads to, from the view of the side that plays it."""

    move: str
    value: int
    distance: int | None
    grade: Grade

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "value": self.value, "distance": self.distance, "grade": self.grade.value}


def outcome_key(outcome: Outcome) -> tuple[int, int]:
    """A sort key, larger is better for the side to move: wins first (sooner better), then draws,
    then losses (later better)."""
    value, distance = outcome
    if value > 0:
        return (2, -(distance or 0))
    if value < 0:
        return (0, distance or 0)
    return (1, 0)


def move_outcome(child: Outcome) -> Outcome:
    """The outcome of a move for its player, from the outcome of the position it leads to (where the
    other side moves): the value flips and the move adds one ply."""
    value, distance = child
    return (-value, None if distance is None else distance + 1)


class Solution(ABC):
    """The exact solution of a game.  Subclasses give ``outcome``; the rest is shared."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    @abstractmethod
    def outcome(self, state: Hashable) -> Outcome:
        """(value, distance) of ``state`` for the side to move there."""

    def value(self, state: Hashable) -> int:
        """+1: the side to move wins with best play, 0: draw, -1: it loses."""
        return self.outcome(state)[0]

    def distance(self, state: Hashable) -> int | None:
        """Plies to the end with best play (winner hurries, loser holds out); None for a draw."""
        return self.outcome(state)[1]

    def result_of(self, state: Hashable, move: str) -> Outcome:
        """The outcome of ``move`` for the side that plays it in ``state``.  Usually the other side
        moves next and the child's value flips; in a drop round of Scarne's Alternate Game the same
        side may choose again, and then it does not.  IllegalMove for a move the rules forbid."""
        child = self.game.play(state, move)
        value, distance = self.outcome(child)
        if self.game.to_move(child) != self.game.to_move(state):
            return move_outcome((value, distance))
        return (value, None if distance is None else distance + 1)

    def move_outcomes(self, state: Hashable) -> list[tuple[str, Outcome]]:
        """Every legal move with its outcome for the side that plays it, in the game's move order."""
        return [(move, self.result_of(state, move)) for move in self.game.legal_moves(state)]

    def best_moves(self, state: Hashable) -> list[str]:
        """The moves of perfect play: the best value, then the fastest win or the slowest loss.
        Empty when the game is over."""
        options = self.move_outcomes(state)
        if not options:
            return []
        top = max(outcome_key(result) for _, result in options)
        return [move for move, result in options if outcome_key(result) == top]

    @staticmethod
    def _grade(best: Outcome, chosen: Outcome) -> Grade:
        drop = best[0] - chosen[0]
        if drop >= 2:
            return Grade.BLUNDER
        if drop == 1:
            return Grade.MISTAKE
        return Grade.BEST if outcome_key(chosen) == outcome_key(best) else Grade.KEEPS

    def grade(self, state: Hashable, move: str) -> Grade:
        """best, keeps, mistake or blunder; IllegalMove (a ValueError) for a move the rules forbid."""
        return self._grade(self.outcome(state), self.result_of(state, move))

    def analyze(self, state: Hashable) -> list[MoveAnalysis]:
        """Every legal move with its value, distance and grade, best first (ties in move order)."""
        best = self.outcome(state)
        rows = [
            MoveAnalysis(move, result[0], result[1], self._grade(best, result))
            for move, result in self.move_outcomes(state)
        ]
        rows.sort(key=lambda row: outcome_key((row.value, row.distance)), reverse=True)
        return rows

    def answers_at_once(self, plies: int) -> bool:
        """Whether every position ``plies`` plies from the start is answered without a long search:
        a table holds every position; a solution that searches says for itself."""
        return True

    def _size_text(self) -> str:
        """How big the solution is, in words (subclasses say what they count)."""
        return "size unknown"

    def _start_text(self) -> str:
        """The value of the start with best play, in words, for the side to move there."""
        start = self.game.initial()
        value, distance = self.outcome(start)
        side = self.game.to_move(start)
        if value == 0:
            return "a draw with best play"
        winner = self.game.symbols[side if value > 0 else 1 - side]
        return f"{winner} wins with best play in {distance} plies"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game.spec}: {self._start_text()}; {self._size_text()}>"

    def _repr_html_(self) -> str:
        """The game, the value of its start and the solution's size beside the starting board, for Jupyter."""
        facts = [("game", self.game.spec), ("value of the start", self._start_text()), ("size", self._size_text())]
        return facts_html(self.game, f"The exact solution of {self.game.spec}", facts)

    def summary(self) -> dict[str, Any]:
        """Facts about the solution for `gamelearn solve` (subclasses add counts)."""
        start = self.game.initial()
        value, distance = self.outcome(start)
        return {"game": self.game.name, "start_value": value, "start_distance": distance}
