"""``make_player(game, spec, seed=)``: player specs such as ``minimax:depth=2,eval=better``.

Each kind of player registers itself with the options it takes; a spec is parsed here, at the
edge, and an unknown kind or option is a ValueError that lists the valid ones.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import did_you_mean
from ..games.specs import Spec, SpecOption, spec_name, split_spec

if TYPE_CHECKING:
    from ..games import Game
    from .base import Player, S


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a player spec.  A whole-number option (``parse_int``) has a range, and
    ``limits`` may lower its top for a game where larger values would take more than about a
    minute a move (:data:`WORK_LIMIT`): a spec that could never finish is refused, not started."""

    name: str
    parse: Callable[[str], Any]
    default: Any
    help: str
    limits: tuple[tuple[str, int], ...] = ()  # (game, largest value) pairs
    games: tuple[str, ...] = ()  # the games that take it (by name); () every game
    #: The default where it depends on the game (ntuple's search, step and TCL are each game's
    #: own), told from the game alone; None: ``default`` for every game.
    game_default: Callable[[Game[Any]], Any] | None = None

    def default_for(self, game: Game[Any]) -> Any:
        """What the option is when a spec does not give it, in ``game``."""
        return self.default if self.game_default is None else self.game_default(game)

    def applies_to(self, game: str) -> bool:
        """Whether ``game`` takes this option (an option of one game's search is refused elsewhere)."""
        return not self.games or game in self.games

    def bounds(self, game: str) -> tuple[int, int] | None:
        """The values this option accepts for ``game``, or None if it is not a whole number or
        ``game`` does not take it."""
        if not isinstance(self.parse, IntRange) or not self.applies_to(game):
            return None
        return self.parse.low, min([self.parse.high, *(high for name, high in self.limits if name == game)])


#: What a top of a range promises: a move takes at most about a minute (on a 2-core machine shared
#: with others; a faster one has room to spare; docs/performance.md gives the figures).  Above it a move would take minutes or,
#: for Teeko's deep searches, longer than anyone waits: silence, not a game.
WORK_LIMIT = "a move takes at most about a minute"


@dataclass(frozen=True, slots=True)
class PlayerKind:
    """A kind of player as make_player knows it: its name, how to make one, and its options."""

    name: str
    factory: Callable[..., Player[Any]]
    summary: str
    games: frozenset[str] | None = None  # None: every game
    options: tuple[Option, ...] = ()
    #: The options that make the player greedy when it is graded: exploration switched off
    #: (td's ``epsilon=0``).  A learner is also frozen (``train=off``) by :func:`graded_spec`.
    greedy: tuple[tuple[str, str], ...] = ()
    #: True for a kind whose players learn from their games (a Learner: boxes, a table, weights, a
    #: memory), so an interface can list the learners without building a player of every kind.
    learns: bool = False
    #: Whether the kind also plays a game outside ``games``, told from the game alone and at once
    #: (listing the kinds searches nothing): the matchbox learners take any game of another author
    #: that always ends.  None: only ``games``.
    also_plays: Callable[[Game[Any]], bool] | None = None
    #: For a learner whose self-play batches end a varying number of games (az's busy slots): the
    #: games a learner of ``game`` plays at once, told at once without building one (that takes
    #: seconds), so that a budget of games is refused before it is built: a new learner's from the
    #: game, a kept one's from what the store keeps as its kind's document under its name (the
    #: second argument, None for a new one).  None from it: whole batches, or not known until a
    #: learner is built and loaded.
    busy_batch: Callable[[Game[Any], object | None], int | None] | None = None

    def plays(self, game: Game[Any]) -> bool:
        """Whether the kind is offered for ``game``."""
        if self.games is None or game.name in self.games:
            return True
        return self.also_plays is not None and self.also_plays(game)


_KINDS: dict[str, PlayerKind] = {}


def register(kind: PlayerKind) -> None:
    _KINDS[kind.name] = kind


def module_of(kind: PlayerKind) -> str:
    """The name in PLAYER_MODULES of the module that registers ``kind`` (its factory's module)."""
    where = kind.factory.__module__
    for module, path in MODULE_PATHS.items():
        if where == path:
            return module
    module = where.rsplit(".", 1)[-1]
    if module not in PLAYER_MODULES:  # a package (players/ntuple/player.py): its package's name
        module = where.split(".players.", 1)[-1].split(".", 1)[0]
    return module


def _module_rank(kind: PlayerKind) -> int:
    """Where the kind's module stands in PLAYER_MODULES, so listings do not depend on import order."""
    module = module_of(kind)
    return PLAYER_MODULES.index(module) if module in PLAYER_MODULES else len(PLAYER_MODULES)


def kinds_for(game: Game[Any]) -> list[PlayerKind]:
    _load_all()
    kinds = [k for k in _KINDS.values() if k.plays(game)]
    return sorted(kinds, key=_module_rank)  # stable: registration order within a module


#: A whole number as an option's value: ASCII digits, with an optional minus.
WHOLE_NUMBER = re.compile(r"-?[0-9]+")
#: A learner's name in the store.
NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")


@dataclass(frozen=True, slots=True)
class IntRange:
    """An option's parser for a whole number in ``low..high``; the bounds are data, so an
    interface can offer them (the web page's player picker)."""

    low: int
    high: int

    def __call__(self, text: str) -> int:
        # ASCII digits only, with an optional minus: int() would also take "+9", " 9", "1_000_000"
        # and other scripts' digits, spellings a bound check on the text could miss.
        if not WHOLE_NUMBER.fullmatch(text):
            raise ValueError(f"{text[:20]!r} is not a whole number")
        digits = text.lstrip("-").lstrip("0")
        if len(digits) > 9 or not self.low <= int(text) <= self.high:
            if text.startswith("-") or int(text) < self.low:
                raise ValueError(f"{text[:20]} is too small (at least {self.low})")
            raise ValueError(f"{text[:20]} is too large (at most {self.high})")
        return int(text)


def parse_int(low: int, high: int) -> IntRange:
    return IntRange(low, high)


def parse_name(text: str) -> str:
    """A learner's name in the store: 1 to 100 letters, digits, '-', '_' and '.' (no control
    characters, no spaces, nothing a shell or a file name would mangle)."""
    if not NAME.fullmatch(text):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise ValueError(f"{shown!r} is not a name of 1 to 100 letters, digits, '-', '_' and '.'")
    return text


def parse_fraction(text: str) -> float:
    """A number from 0 to 1 (a step size, an exploring chance, a trace's lambda)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{value} is outside 0..1")
    return value


def parse_switch(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("on", "true", "yes", "1"):
        return True
    if lowered in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"{text!r} is not on or off")


#: The modules of this layer that register player kinds, imported on first use.
PLAYER_MODULES = ("basic", "search", "mcts", "td", "perfect", "thesis", "matchbox", "az", "ntuple")
#: The modules of PLAYER_MODULES that are not under players/: the 1999 thesis program is a package
#: of its own (gamelearn.thesis), whose player is of this layer (tests/test_layers.py).
MODULE_PATHS = {"thesis": "gamelearn.thesis.player"}


def module_path(module: str) -> str:
    """The full name of the player module ``module`` (a name in PLAYER_MODULES)."""
    return MODULE_PATHS.get(module, f"{__package__}.{module}")


#: Which module registers each kind, so that making a player imports only its own module (a random
#: player needs neither numba nor JAX).  Listing every kind still imports them all (:func:`kinds_for`);
#: tests/players/test_player_kinds.py checks this table against what the modules register.
KIND_MODULES = {
    "random": "basic",
    "human": "basic",
    "minimax": "search",
    "alphabeta": "search",
    "sharp": "search",
    "mcts": "mcts",
    "td": "td",
    "perfect": "perfect",
    "thesis": "thesis",
    "her": "matchbox",
    "him": "matchbox",
    "menace": "matchbox",
    "az": "az",
    "ntuple": "ntuple",
}


def _load(module: str) -> None:
    """Import one player module (which registers its kinds), if this install has it."""
    name = module_path(module)
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:  # the module is there, but something it needs is not: say so
            raise


def _load_all() -> None:
    """Import every player module so each registers itself."""
    for module in PLAYER_MODULES:
        _load(module)


def _find_kind(game: Game[Any], name: str) -> PlayerKind:
    """The kind called ``name`` for ``game``, importing only its module; ValueError listing every
    valid kind (which imports them all) for an unknown name."""
    if name not in _KINDS and name in KIND_MODULES:
        _load(KIND_MODULES[name])
    if name not in _KINDS:  # a kind the table does not name yet: every module is asked
        _load_all()
    kind = _KINDS.get(name)
    if kind is None or not kind.plays(game):
        valid = [k.name for k in kinds_for(game)]
        hint = did_you_mean(name, valid)
        raise ValueError(f"unknown player {name!r} for {game.name}{hint}; valid players: {', '.join(valid)}")
    return kind


def kind_of(game: Game[Any], spec: str) -> PlayerKind:
    """The registered kind a spec names; ValueError listing the valid ones for an unknown name."""
    return _find_kind(game, spec_name(spec))


def with_options(game: Game[Any], spec: str, **overrides: str) -> str:
    """``spec`` with the options ``overrides`` set (replacing any it gives), only those its kind
    takes; the other options keep their order."""
    kind = kind_of(game, spec)
    name, options = split_spec(spec)
    takes = {option.name for option in kind.options}
    kept = [option for option in options if option.key not in overrides]
    kept += [SpecOption(key, value) for key, value in overrides.items() if key in takes]
    return Spec(name, tuple(kept)).text()


def graded_spec(game: Game[Any], spec: str) -> str:
    """``spec`` frozen and greedy, as every grade measures a player: ``train=off`` for a kind that
    learns, and its kind's exploration options off (:attr:`PlayerKind.greedy`)."""
    kind = kind_of(game, spec)
    return with_options(game, spec, train="off", **dict(kind.greedy))


def make_player(game: Game[S], spec: str, seed: int | None = None) -> Player[S]:
    """A player for ``game`` from a spec: ``NAME`` or ``NAME:opt=value,opt=value``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("a player spec is a name such as 'random' or 'minimax:depth=2'")
    name, written = split_spec(spec)
    kind = _find_kind(game, name)
    given: dict[str, Any] = {}
    known = {opt.name: opt for opt in kind.options}
    for key, value in written:
        if key not in known:
            names = ", ".join(known) or "none"
            hint = did_you_mean(key, known)
            raise ValueError(f"unknown option {key!r} for player {name!r}{hint}; valid options: {names}")
        if not value:
            raise ValueError(f"option {key!r} of player {name!r} needs a value: {key}=VALUE")
        if key in given:
            raise ValueError(f"option {key!r} of player {name!r} is given twice")
        if not known[key].applies_to(game.name):
            games = ", ".join(known[key].games)
            raise ValueError(f"option {key!r} of player {name!r} is for {games} only, not {game.name}")
        try:
            given[key] = known[key].parse(value)
        except ValueError as error:
            raise ValueError(f"option {key!r} of player {name!r}: {error}") from None
        bounds = known[key].bounds(game.name)
        if bounds is not None and not bounds[0] <= given[key] <= bounds[1]:
            raise ValueError(
                f"option {key!r} of player {name!r}: {given[key]} is outside {bounds[0]}..{bounds[1]} for "
                f"{game.name} (the range where {WORK_LIMIT})"
            )
    options = {opt.name: given.get(opt.name, opt.default) for opt in kind.options}
    return kind.factory(game, seed=seed, **options)
