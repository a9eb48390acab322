"""``az``: an AlphaZero-style learner (Silver et al. 2018) with Gumbel search (Danihelka et al.
2022): a small network per game, trained by self-play with tree search, built on JAX, Equinox,
Optax and DeepMind's mctx (the ``neural`` extra: ``pip install 'gamelearn[neural]'``).

It plays tic-tac-toe, hexapawn, Teeko and Connect Four (every size) over rules written again in
JAX, and any other game (docs/own-game.md) over its own rules tabulated on every position
reachable from the start, for a game that always ends and fits the solver's limit
(:mod:`gamelearn.players.az.tabulated`).

This module only registers the player kind, so that listing players needs no JAX; the player
itself is in :mod:`gamelearn.players.az.player`.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from ...games import GAME_NAMES, Game
from ..registry import Option, PlayerKind, parse_int, parse_switch, register

#: The packages the player needs (the neural extra).
NEEDS = ("jax", "equinox", "optax", "mctx")


def parse_name(text: str) -> str:
    if not text.replace("-", "").replace("_", "").replace(".", "").isalnum():
        raise ValueError(f"{text!r} is not a name of letters, digits, '-', '_' and '.'")
    return text


def missing_packages() -> list[str]:
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def make_az(game: Game[Any], seed: int | None = None, **options: Any) -> Any:
    missing = missing_packages()
    if missing:
        raise ValueError(
            f"the az player needs {', '.join(missing)}: install the neural extra, pip install 'gamelearn[neural]'"
        )
    # the neural extra (JAX, Equinox, Optax, mctx), imported once it is known to be installed; JAX's
    # compilation cache is switched on when the player first searches or trains (az/cache.py)
    from .player import AzPlayer

    return AzPlayer(game, seed=seed, **options)


def busy_batch(game: Game[Any], kept: object | None = None) -> int | None:
    """The games an az learner of a built-in ``game`` plays at once where its batches are busy
    slots, else None: a new one's from :data:`.settings.SETTINGS` (Connect Four's every size
    alike), a kept one's from the settings ``kept`` holds (its knowledge as the store keeps it).
    None also for whole batches, another author's game (its settings follow its longest game,
    known once its rules are tabulated), knowledge of another game or not as az keeps it (loading
    it says what is wrong), or the neural extra missing (that is said first)."""
    if missing_packages():
        return None
    if kept is not None:
        settings = kept.get("settings") if isinstance(kept, dict) and kept.get("game") == game.name else None
        if not isinstance(settings, dict):
            return None
        plies, games = settings.get("plies_per_batch", 0), settings.get("games_per_batch")
        return games if isinstance(plies, int) and plies > 0 and isinstance(games, int) else None
    from .settings import SETTINGS  # plain numbers: no JAX

    settings_of = SETTINGS.get(game.name)
    return settings_of.games_per_batch if settings_of is not None and settings_of.plies_per_batch > 0 else None


register(
    PlayerKind(
        "az",
        make_az,
        "AlphaZero-style self-play learner: a small network and Gumbel tree search (JAX, mctx)",
        # The built-in games whose rules are written in JAX, and every game of another author (tabulated).
        frozenset({"tictactoe", "hexapawn", "teeko", "connect4"}),
        (
            Option("name", parse_name, "", "keep the network under this name in the store"),
            Option("simulations", parse_int(0, 10_000), 32, "search simulations a move (0: the raw policy)"),
            Option("train", parse_switch, True, "learn from the games it plays (off: frozen)"),
        ),
        learns=True,
        also_plays=lambda game: game.name not in GAME_NAMES,
        busy_batch=busy_batch,
    )
)
