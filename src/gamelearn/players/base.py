"""What every player is: something that picks a legal move, and may learn from a finished game."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Hashable
    from typing import Any

    from ..games import Game
    from ..games.record import GameRecord


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the player in ``seat`` (0 moves first) of a game seeded ``seed``: the play layer
    reseeds each player with it, so the same seed and the same players replay the same game, and
    a fast path that replays such games (players/matchbox_fast.py) seeds its streams with it too."""
    return seed + seat


class Player:
    """A player of one game.

    ``choose(state)`` returns a legal move in the game's notation, or ``None`` to resign (the
    matchbox learners resign when a box is empty).  ``learn(record, side)`` is called once after
    every game the player took part in, with the side it played; players that do not learn ignore
    it.  All randomness comes from ``self.rng``, seeded at construction and by ``reseed``.
    """

    #: The spec name this player answers to in make_player ("random", "minimax", ...).
    kind: str = "player"
    #: True for players whose moves come from a person (the interfaces ask them).
    is_human: bool = False

    def __init__(self, game: Game[Any], seed: int | None = None, **options: Any) -> None:
        self.game = game
        self.seed = seed
        self.options = options
        self.rng = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the player's random stream (play_game does this per game when given a seed)."""
        self.seed = seed
        self.rng.seed(seed)

    def choose(self, state: Hashable) -> str | None:
        raise NotImplementedError

    def moves_to_choose_from(self, state: Hashable) -> list[str]:
        """The legal moves; a ValueError (not an IndexError from an empty choice) when there are none."""
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"the game is over: {type(self).__name__} has no move to choose")
        return moves

    def learn(self, record: GameRecord, side: int | None = None) -> None:
        """Update from a finished game; ``side`` is the player index this player had in it."""
        return None

    def spec(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec()} for {self.game.name}>"
