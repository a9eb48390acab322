"""The rules layer: one module per game, pure functions of immutable states.  Imports nothing of gamelearn."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .base import Game, GameFacts, GameOption, IllegalMove

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from .hexapawn import Hexapawn
    from .teeko import Teeko
    from .tictactoe import TicTacToe

#: Each game's module and class, imported when the game is first named: a tic-tac-toe program
#: never loads Teeko's rules.
_CLASSES = {"teeko": ("teeko", "Teeko"), "hexapawn": ("hexapawn", "Hexapawn"), "tictactoe": ("tictactoe", "TicTacToe")}
_ALIASES = {"tic-tac-toe": "tictactoe", "ttt": "tictactoe", "noughts-and-crosses": "tictactoe"}
_OPTION_ALIASES = {"center": "centre"}
_INSTANCES: dict[str, Game[Any]] = {}

GAME_NAMES: tuple[str, ...] = tuple(_CLASSES)


def _game_class(name: str) -> type[Game[Any]]:
    module, attribute = _CLASSES[name]
    game_class: type[Game[Any]] = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    return game_class


def __getattr__(name: str) -> object:
    """``Teeko``, ``Hexapawn`` and ``TicTacToe``, each imported on first use (PEP 562)."""
    for key, (_, attribute) in _CLASSES.items():
        if name == attribute:
            return _game_class(key)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """The hint `` (did you mean 'teeko'?)`` for a mistyped name close to one of ``known``, else "": the
    likeliest intended name is worth more to a person than the full list after it."""
    import difflib  # only on a mistake

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def game_options(name: str) -> tuple[GameOption, ...]:
    """The options the spec of game ``name`` takes (empty for a game with none)."""
    return _game_class(name).game_options


def parse_game_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``NAME[:option=value,...]`` -> (the game's name, its options); ValueError, one line, naming
    the unknown game, option or value and the valid ones."""
    if not isinstance(spec, str):
        raise ValueError(f"a game is named by a string such as 'teeko' or 'teeko:goals=advanced', not {spec!r}")
    text = spec.strip().lower()
    name, _, rest = text.partition(":")
    name = name.strip()
    key = _ALIASES.get(name, name)
    if key not in _CLASSES:
        hint = did_you_mean(name, [*GAME_NAMES, *_ALIASES])
        raise ValueError(f"unknown game {name or spec!r}{hint}; valid games: {', '.join(GAME_NAMES)}")
    declared = {option.name: option for option in game_options(key)}
    given: dict[str, str] = {}
    for piece in rest.split(",") if rest.strip() else []:
        option, eq, value = (part.strip() for part in piece.partition("="))
        option = _OPTION_ALIASES.get(option, option)
        if option not in declared:
            names = ", ".join(declared) or "none"
            hint = did_you_mean(option, declared)
            raise ValueError(f"unknown option {option!r} for game {key!r}{hint}; valid options: {names}")
        if not eq or not value:
            raise ValueError(f"option {option!r} of game {key!r} needs a value: {option}=VALUE")
        if option in given:
            raise ValueError(f"option {option!r} of game {key!r} is given twice")
        from .teeko_forms import check_option  # Teeko's forms' module: only a spec with options needs it

        check_option(key, declared[option], value)
        given[option] = value
    return key, given


def get_game(name: str) -> Game[Any]:
    """The game named by ``name``: "teeko", "hexapawn", "tictactoe", or a spec with options such as
    "teeko:goals=advanced,drops=saaa,centre=off,steps=king".  One instance a form (``game.spec``
    is its canonical spec); ValueError lists the valid names, options or values."""
    key, options = parse_game_spec(name)
    game_class = _game_class(key)
    defaults = {option.name: option.default for option in game_class.game_options}
    changed = {option: value for option, value in options.items() if value != defaults[option]}
    canonical = key + (":" + ",".join(f"{o}={changed[o]}" for o in defaults if o in changed) if changed else "")
    if canonical not in _INSTANCES:
        _INSTANCES[canonical] = game_class(**changed)
    return _INSTANCES[canonical]


__all__ = [
    "GAME_NAMES",
    "Game",
    "GameFacts",
    "GameOption",
    "IllegalMove",
    "did_you_mean",
    "game_options",
    "get_game",
    "parse_game_spec",
    "Hexapawn",
    "Teeko",
    "TicTacToe",
]
