"""gamelearn: machines learn strategic games by playing them.

The public API (DESIGN.md):

>>> import gamelearn
>>> game = gamelearn.get_game("tictactoe")
>>> s = game.play(game.initial(), "4")
>>> game.board(s)
'....X....'
"""

from __future__ import annotations

from .games import GAME_NAMES, Game, IllegalMove, get_game
from .keeper import Keeper, load_player
from .match import End, GameRecord, Match, play_game
from .players.base import Player
from .players.registry import make_player

# Bound after the subpackage is imported, so ``gamelearn.solve`` is the function of the public API
# (importing a subpackage sets the parent's attribute to the module; this import comes first).
from .solve import solve

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
