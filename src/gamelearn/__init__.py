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


def __getattr__(name: str) -> object:
    """The experiments' entry points, imported on first use so that ``import gamelearn`` stays
    light: ``gamelearn.grade(game, specs, suite=None)`` and ``gamelearn.get_suite(game)``."""
    if name == "grade":
        from .experiments.grading import grade

        return grade
    if name == "get_suite":
        from .experiments.suites import get_suite

        return get_suite
    raise AttributeError(f"module 'gamelearn' has no attribute {name!r}")


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
    "get_suite",
    "grade",
    "load_player",
    "make_player",
    "play_game",
    "solve",
    "__version__",
]
