"""gamelearn: machines learn strategic games by playing them.

The public API (docs/api.md):

>>> import gamelearn
>>> game = gamelearn.get_game("tictactoe")
>>> s = game.play(game.initial(), "4")
>>> game.board(s)
'....X....'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# Every name of the public API is imported on first use (PEP 562), so that ``import gamelearn``
# costs only what the caller touches: a tic-tac-toe program never loads the store, the keeper or
# Teeko.  Importing them all here costs every fresh process about 0.1 s of CPU, five times
# ``import gamelearn`` (docs/startup.md).  Type checkers see the plain imports.
if TYPE_CHECKING:
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

#: Where each public name lives (relative to this package), and under which name where it is not
#: its own (``play_game`` is the play layer's :func:`gamelearn.play.play_and_keep`, the game that
#: keeps its learners' lessons).
_LAZY: dict[str, str | tuple[str, str]] = {
    "CONTRACT_VERSION": ".games",
    "GAME_NAMES": ".games",
    "Game": ".games",
    "GameFacts": ".games",
    "game_names": ".games",
    "register_game": ".games",
    "IllegalMove": ".games",
    "get_game": ".games",
    "Keeper": ".keeper",
    "End": ".games.record",
    "GameRecord": ".games.record",
    # a game record as text, tag pairs and moves (games/record_text.py)
    "RecordText": ".games.record_text",
    "format_record": (".games.record_text", "format"),
    "parse_record": (".games.record_text", "parse"),
    "Match": ".match",
    "play_game": (".play", "play_and_keep"),
    "Player": ".players.base",
    "make_player": ".play",
    # the experiments, as the command runs them, with typed results (experiments/api.py)
    "grade": ".experiments.api",
    "tournament": ".experiments.api",
    "curves": ".experiments.api",
    "train": ".experiments.api",
    "get_suite": ".experiments.suites",
    "solve": ".solver",
}


def __getattr__(name: str) -> object:
    """A public name, imported on first use and then kept in the package's namespace."""
    if name not in _LAZY:
        raise AttributeError(f"module 'gamelearn' has no attribute {name!r}")
    where = _LAZY[name]
    module, attribute = where if isinstance(where, tuple) else (where, name)
    value = getattr(importlib.import_module(module, __name__), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
