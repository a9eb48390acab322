"""The rules layer: one module per game, pure functions of immutable states.  Imports nothing of gamelearn.

The games: the four built in (``teeko``, ``hexapawn``, ``tictactoe``, ``connect4``), every class an installed
package declares in the entry-point group ``gamelearn.games`` (docs/own-game.md), and every class
given to :func:`register_game`.  A plugin is imported when its game is first named.  The contract
is :mod:`.base`'s, the games by name and their specs :mod:`.registry`'s; this package gathers them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Game, GameFacts, GameOption, IllegalMove
from .registry import (
    CONTRACT_VERSION,
    ENTRY_POINT_GROUP,
    GAME_NAMES,
    broken_games,
    built_in_class,
    did_you_mean,
    game_names,
    game_options,
    get_game,
    parse_game_spec,
    register_game,
)

if TYPE_CHECKING:
    from .connect4 import Connect4
    from .hexapawn import Hexapawn
    from .teeko import Teeko
    from .tictactoe import TicTacToe


def __getattr__(name: str) -> object:
    """``Teeko``, ``Hexapawn``, ``TicTacToe`` and ``Connect4``, each imported on first use (PEP 562)."""
    game_class = built_in_class(name)
    if game_class is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return game_class


__all__ = [
    "CONTRACT_VERSION",
    "ENTRY_POINT_GROUP",
    "GAME_NAMES",
    "broken_games",
    "game_names",
    "register_game",
    "Game",
    "GameFacts",
    "GameOption",
    "IllegalMove",
    "did_you_mean",
    "game_options",
    "get_game",
    "parse_game_spec",
    "Connect4",
    "Hexapawn",
    "Teeko",
    "TicTacToe",
]
