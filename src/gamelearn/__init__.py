"""gamelearn: machines learn strategic games by playing them.

The public API (DESIGN.md):

>>> import gamelearn
>>> game = gamelearn.get_game("tictactoe")
>>> s = game.play(game.initial(), "4")
>>> game.board(s)
'....X....'
"""

from __future__ import annotations

from typing import Any

from .games import GAME_NAMES, Game, IllegalMove, get_game
from .match import End, GameRecord, play_game
from .players.base import Player
from .players.registry import make_player

__version__ = "0.1.0"


def solve(game: Game | str, **options: Any) -> Any:
    """The exact solution of ``game`` (see gamelearn.solve)."""
    from .solve import solve as _solve

    return _solve(get_game(game) if isinstance(game, str) else game, **options)


__all__ = [
    "GAME_NAMES",
    "End",
    "Game",
    "GameRecord",
    "IllegalMove",
    "Player",
    "get_game",
    "make_player",
    "play_game",
    "solve",
    "__version__",
]
