"""What every player is: something that picks a legal move, and may learn from a finished game."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from ..games import Game
    from ..games.record import GameRecord

#: The state type of the game a player plays (``Player[TicTacToeState]``).
S = TypeVar("S", bound=Hashable)

#: A static evaluation: a position's value from the view of player 0 (players/evaluation.py names them).
Evaluation = Callable[[Hashable], float]

#: The value of a player spec's option, as its parser gives it: a whole number (``depth=2``), a
#: fraction (``epsilon=0.1``), a switch (``train=off``), a name (``eval=better``), or None for
#: an option left to the game's default.
OptionValue = str | int | float | bool | None


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the player in ``seat`` (0 moves first) of a game seeded ``seed``: the play layer
    reseeds each player with it, so the same seed and the same players replay the same game, and
    a fast path that replays such games (players/matchbox/fast.py) seeds its streams with it too."""
    return seed + seat


class Player(Generic[S]):
    """A player of one game, whose states are ``S``.

    ``choose(state)`` returns a legal move in the game's notation, or ``None`` to resign (the
    matchbox learners resign when a box is empty).  ``learn(record, side)`` is called once after
    every game the player took part in, with the side it played; players that do not learn ignore
    it.  All randomness comes from ``self.rng``, seeded at construction and by ``reseed``.
    """

    #: The spec name this player answers to in make_player ("random", "minimax", ...).
    kind: str = "player"
    #: True for players whose moves come from a person (the interfaces ask them).
    is_human: bool = False
    #: The side this kind plays where nothing says otherwise (0 moves first), None for either:
    #: Gardner's HER and HIM play Black (1), Michie's MENACE plays X (0).  ``curves`` seats a
    #: learner there by default, and a learner that has learned nothing yet is graded there.
    usual_side: int | None = None

    def __init__(self, game: Game[S], seed: int | None = None, **options: OptionValue) -> None:
        self.game = game
        self.seed = seed
        self.options: dict[str, OptionValue] = options
        self.rng = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the player's random stream (play_game does this per game when given a seed)."""
        self.seed = seed
        self.rng.seed(seed)

    def choose(self, state: S) -> str | None:
        raise NotImplementedError

    def moves_to_choose_from(self, state: S) -> list[str]:
        """The legal moves; a ValueError (not an IndexError from an empty choice) when there are none."""
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"the game is over: {type(self).__name__} has no move to choose")
        return moves

    def learn(self, record: GameRecord[S], side: int | None = None) -> None:
        """Update from a finished game; ``side`` is the player index this player had in it."""
        return None

    def side_played(self) -> int | None:
        """The one side this player plays (0 moves first), or None where it plays both: a grade
        measures a one-sided player on its side's positions, and on no other
        (:mod:`gamelearn.experiments.grading`)."""
        return None

    @property
    def spec(self) -> str:
        """The spec that makes this player again: its kind and the options it was made with
        (``minimax:depth=2,eval=better``), as :attr:`gamelearn.Game.spec` names a game."""
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} for {self.game.name}>"
