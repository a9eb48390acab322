"""gamelearn: machines learn strategic games by playing them.

The public API (docs/api.md):

>>> import gamelearn
>>> game = gamelearn.get_game("tictactoe")
>>> s = game.play(game.initial(), "4")
>>> game.board(s)
'....X....'
"""

from __future__ import annotations

from .experiments.api import curves, grade, tournament, train
from .experiments.suites import get_suite
from .games import CONTRACT_VERSION, GAME_NAMES, Game, GameFacts, IllegalMove, game_names, get_game, register_game
from .games.record import End, GameRecord
from .games.record_text import RecordText
from .games.record_text import format as format_record
from .games.record_text import parse as parse_record
from .keeper import Keeper
from .match import Match
from .play import make_player
from .play import play_and_keep as play_game
from .players.base import Player
from .solver import solve

__version__ = "0.1.0"

__all__ = [
    "CONTRACT_VERSION",
    "GAME_NAMES",
    "End",
    "Game",
    "GameFacts",
    "GameRecord",
    "IllegalMove",
    "Keeper",
    "Match",
    "Player",
    "RecordText",
    "curves",
    "format_record",
    "game_names",
    "get_game",
    "get_suite",
    "grade",
    "make_player",
    "parse_record",
    "play_game",
    "register_game",
    "solve",
    "tournament",
    "train",
    "__version__",
]
