"""gamelearn: machines learn strategic games by playing them.

The public API (docs/api.md):

>>> import gamelearn
>>> game = gamelearn.get_game("tictactoe")
>>> s = game.play(game.initial(), "4")
>>> game.board(s)
'....X....'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .games import GAME_NAMES, Game, IllegalMove, get_game
from .keeper import Keeper, load_player
from .match import End, GameRecord, Match, play_game
from .players.base import Player
from .players.registry import make_player

# ``gamelearn.solve`` is the package gamelearn/solve/, whose module is callable: ``gamelearn.solve(game)``
# calls its function and ``import gamelearn.solve.kernels`` finds the package. Type checkers are told
# it is the function, which is how the public API uses it.
if TYPE_CHECKING:
    from .solve import solve
else:
    from . import solve

__version__ = "0.1.0"


__all__ = [
    "GAME_NAMES",
    "End",
    "Game",
    "GameRecord",
    "IllegalMove",
    "Keeper",
    "Match",
    "Player",
    "get_game",
    "load_player",
    "make_player",
    "play_game",
    "solve",
    "__version__",
]
