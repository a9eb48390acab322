"""The rules layer: one module per game, pure functions of immutable states.  Imports nothing of gamelearn."""

from __future__ import annotations

from .base import Game, GameFacts, IllegalMove
from .hexapawn import Hexapawn
from .teeko import Teeko
from .tictactoe import TicTacToe

_GAMES: dict[str, type[Game]] = {"teeko": Teeko, "hexapawn": Hexapawn, "tictactoe": TicTacToe}
_ALIASES = {"tic-tac-toe": "tictactoe", "ttt": "tictactoe", "noughts-and-crosses": "tictactoe"}
_INSTANCES: dict[str, Game] = {}

GAME_NAMES: tuple[str, ...] = tuple(_GAMES)


def get_game(name: str) -> Game:
    """The game called ``name`` ("teeko", "hexapawn", "tictactoe"); ValueError lists the valid names."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower()) if isinstance(name, str) else name
    if key not in _GAMES:
        raise ValueError(f"unknown game {name!r}; valid games: {', '.join(GAME_NAMES)}")
    if key not in _INSTANCES:
        _INSTANCES[key] = _GAMES[key]()
    return _INSTANCES[key]


__all__ = ["GAME_NAMES", "Game", "GameFacts", "IllegalMove", "get_game", "Hexapawn", "Teeko", "TicTacToe"]
