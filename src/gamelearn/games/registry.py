"""The games of this process by name: the four built in (``teeko``, ``hexapawn``, ``tictactoe``,
``connect4``), every class an installed package declares in the entry-point group
``gamelearn.games`` (docs/own-game.md), and every class given to :func:`register_game`; and the
one reader of a game's spec, ``NAME[:option=value,...]`` (:func:`parse_game_spec`).

A game's module is imported when the game is first named: a tic-tac-toe program never loads
Teeko's rules, and a plugin that cannot be loaded breaks only its own name.  :mod:`gamelearn.games`
re-exports this module's public names.
"""

from __future__ import annotations

import difflib
import functools
import importlib
from collections.abc import Iterable
from importlib.metadata import entry_points
from typing import Any

from .base import Game, GameFacts, GameOption, shown_text
from .specs import split_spec

#: Each game's module and class, imported when the game is first named: a tic-tac-toe program
#: never loads Teeko's rules.
_CLASSES = {
    "teeko": ("teeko", "Teeko"),
    "hexapawn": ("hexapawn", "Hexapawn"),
    "tictactoe": ("tictactoe", "TicTacToe"),
    "connect4": ("connect4", "Connect4"),
}
_ALIASES = {
    "tic-tac-toe": "tictactoe",
    "ttt": "tictactoe",
    "noughts-and-crosses": "tictactoe",
    "connect-four": "connect4",
    "connectfour": "connect4",
}
_OPTION_ALIASES = {"center": "centre"}
_INSTANCES: dict[str, Game[Any]] = {}

#: The built-in games, in the order every listing gives them (:func:`game_names` adds the others).
GAME_NAMES: tuple[str, ...] = tuple(_CLASSES)

#: The version of the Game contract (docs/own-game.md): a change to what a game must provide, or to
#: what gamelearn promises a game, is a new version, announced there.
CONTRACT_VERSION = 1
#: The entry-point group where installed packages declare their games.
ENTRY_POINT_GROUP = "gamelearn.games"

_REGISTERED: dict[str, type[Game[Any]]] = {}  # register_game's, and the plugins once loaded
_BROKEN: dict[str, str] = {}  # plugin name -> why it cannot be loaded (one line)


@functools.cache
def _plugins() -> dict[str, str]:
    """The entry points of group ``gamelearn.games``, read once a process (name -> its target,
    ``"module:attribute"``); a plugin that reuses a built-in game's name is broken."""
    found: dict[str, str] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in _CLASSES:
            _BROKEN.setdefault(point.name, f"the plugin {point.value!r} reuses a built-in game's name")
            continue
        found.setdefault(point.name, point.value)
    return found


def game_names() -> tuple[str, ...]:
    """Every game found: the built-in ones, then those registered or installed, each once."""
    return (*GAME_NAMES, *dict.fromkeys([*_REGISTERED, *_plugins()]))


def _check_class(game_class: object, where: str) -> type[Game[Any]]:
    """``game_class`` if it is a Game subclass with facts and a name; ValueError naming ``where``."""
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise ValueError(f"{where} is {game_class!r}, not a subclass of gamelearn.Game")
    facts = getattr(game_class, "facts", None)
    if not isinstance(facts, GameFacts):
        raise ValueError(f"{where}: {game_class.__name__}.facts must be a gamelearn.GameFacts")
    if getattr(game_class, "__abstractmethods__", None):
        missing = ", ".join(sorted(game_class.__abstractmethods__))
        raise ValueError(f"{where}: {game_class.__name__} does not define {missing}")
    if not (facts.name and facts.name.isascii() and all(ch.isalnum() or ch in "_-" for ch in facts.name)):
        raise ValueError(f"{where}: the game's name {facts.name!r} is not letters, digits, '-' and '_'")
    return game_class


def register_game(game_class: type[Game[Any]]) -> type[Game[Any]]:
    """Make ``game_class`` (a subclass of :class:`Game`) a game of this process, by the name in its
    facts: ``get_game(name)``, the players, the solver and every interface then know it.  Returns
    the class, so it serves as a decorator.  ValueError for a class that does not keep the contract's
    form, or a name a built-in game has."""
    checked = _check_class(game_class, "register_game's argument")
    name = checked.facts.name
    if name in _CLASSES or name in _ALIASES:
        raise ValueError(f"{name!r} is a built-in game's name: give the game another")
    if _REGISTERED.get(name) is not checked:
        _REGISTERED[name] = checked
        _BROKEN.pop(name, None)
        for spec in [spec for spec in _INSTANCES if spec.partition(":")[0] == name]:
            del _INSTANCES[spec]  # a class registered again (a notebook's edited cell) replaces the old
    return checked


def _load_plugin(name: str) -> type[Game[Any]]:
    """The class of plugin ``name``, imported once; ValueError in one line where it cannot be."""
    if name in _BROKEN:
        raise ValueError(f"game {name!r} cannot be loaded: {_BROKEN[name]}")
    target = _plugins()[name]
    module, _, attribute = target.partition(":")
    try:
        found: object = importlib.import_module(module.strip())
        for part in attribute.strip().split(".") if attribute.strip() else []:
            found = getattr(found, part)
        game_class = _check_class(found, f"the plugin {target!r}")
        if game_class.facts.name != name:
            raise ValueError(f"the plugin {target!r} is named {name!r} but its facts say {game_class.facts.name!r}")
    except Exception as error:  # anything a third party's import raises: named, never a traceback
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        _BROKEN[name] = reason if isinstance(error, ValueError) else f"{type(error).__name__}: {reason}"
        raise ValueError(f"game {name!r} cannot be loaded: {_BROKEN[name]}") from None
    _REGISTERED[name] = game_class
    return game_class


def broken_games() -> dict[str, str]:
    """The installed plugins that cannot be loaded, each with the reason in one line (each is
    tried).  The built-in and registered games are unaffected."""
    for name in _plugins():
        if name not in _REGISTERED and name not in _BROKEN:
            try:
                _load_plugin(name)
            except ValueError:
                pass
    return dict(_BROKEN)


def class_of(name: str) -> type[Game[Any]]:
    """The class of game ``name`` (a key, not an alias): a built-in game's imported now, a plugin's
    loaded once; ValueError for a plugin that cannot be loaded."""
    if name in _CLASSES:
        module, attribute = _CLASSES[name]
        game_class: type[Game[Any]] = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        return game_class
    if name in _REGISTERED:
        return _REGISTERED[name]
    return _load_plugin(name)


def built_in_class(attribute: str) -> type[Game[Any]] | None:
    """The built-in game class named ``attribute`` (``Teeko``, ``Hexapawn``, ``TicTacToe``,
    ``Connect4``), imported now; None for any other name."""
    for key, (_, name) in _CLASSES.items():
        if name == attribute:
            return class_of(key)
    return None


def _is_game(name: str) -> bool:
    return name in _CLASSES or name in _REGISTERED or name in _plugins() or name in _BROKEN


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """The hint `` (did you mean 'teeko'?)`` for a mistyped name close to one of ``known``, else "": the
    likeliest intended name is worth more to a person than the full list after it."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def game_options(name: str) -> tuple[GameOption, ...]:
    """The options the spec of game ``name`` takes (empty for a game with none)."""
    return class_of(name).game_options


def parse_game_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``NAME[:option=value,...]`` -> (the game's name, its options); ValueError, one line, naming
    the unknown game, option or value and the valid ones."""
    if not isinstance(spec, str):
        raise ValueError(f"a game is named by a string such as 'teeko' or 'teeko:goals=advanced', not {spec!r}")
    name, options = split_spec(spec.lower())
    key = _ALIASES.get(name, name)
    if not _is_game(key):
        found = game_names()
        hint = did_you_mean(name, [*found, *_ALIASES])
        raise ValueError(f"unknown game {shown_text(name or spec)}{hint}; valid games: {', '.join(found)}")
    declared = {option.name: option for option in game_options(key)}
    given: dict[str, str] = {}
    for written, value in options:
        option = _OPTION_ALIASES.get(written, written)
        if option not in declared:
            names = ", ".join(declared) or "none"
            hint = did_you_mean(option, declared)
            raise ValueError(f"unknown option {shown_text(option)} for game {key!r}{hint}; valid options: {names}")
        if not value:
            raise ValueError(f"option {shown_text(option)} of game {key!r} needs a value: {option[:40]}=VALUE")
        if option in given:
            raise ValueError(f"option {option!r} of game {key!r} is given twice")
        declared[option].check(key, value)
        given[option] = value
    return key, given


def get_game(name: str) -> Game[Any]:
    """The game named by ``name``: "teeko", "hexapawn", "tictactoe", "connect4", a game installed or registered
    (:func:`game_names`), or a spec with options such as
    "teeko:goals=advanced,drops=saaa,centre=off,steps=king".  One instance a form (``game.spec``
    is its canonical spec); ValueError lists the valid names, options or values.

    >>> game = get_game("tictactoe")
    >>> game.legal_moves(game.initial())
    ['0', '1', '2', '3', '4', '5', '6', '7', '8']
    >>> get_game("teeko:goals=advanced,centre=on").spec  # defaults are left out of the spec
    'teeko:goals=advanced'
    """
    key, options = parse_game_spec(name)
    game_class = class_of(key)
    defaults = {option.name: option.default for option in game_class.game_options}
    changed = {option: value for option, value in options.items() if value != defaults[option]}
    canonical = key + (":" + ",".join(f"{o}={changed[o]}" for o in defaults if o in changed) if changed else "")
    if canonical not in _INSTANCES:
        _INSTANCES[canonical] = game_class(**changed)
    return _INSTANCES[canonical]
