"""``teeko-val-v1``: the held-out Teeko suite that every choice of a learner's settings is made on,
so that ``teeko-v1`` stays a test set, graded only to report.

It is drawn the way ``teeko-v1`` is (:mod:`.suites`: positions where a move loses value, merged by
the board's 8 symmetries, drawn evenly over phase x value x moves that hold), but independently of
it: from the games of *other* players (the 1999 thesis program, alpha-beta over the open-lines
evaluation at depths 1 and 3, MCTS with 30 random playouts, uniform random, and the perfect player
slipping into a random move a fifth or a half of the time), another seed, and with every position
of ``teeko-v1`` (up to symmetry) left out, so the two suites share no position.  It holds
:data:`VALIDATION_SIZE` positions: at 95% a keeps figure on it is good to about three points
(Wilson's interval, :func:`keeps_interval`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..games import Game
from ..match import play_game
from ..players.base import Player
from ..players.registry import make_player
from ..solver import Solution
from .statistics import Interval, wilson
from .suites import (
    TEEKO_MAX_PLIES,
    Suite,
    SuitePosition,
    _SlippingPerfect,
    _teeko_seed,
    draw_stratified,
    get_suite,
    graded_position,
)

#: The validation suite's name, positions, games and seed.
VALIDATION_NAME = "teeko-val-v1"
VALIDATION_SIZE = 1000
VALIDATION_GAMES = 500
VALIDATION_SEED = 2026
#: The players whose games give its positions: none of them gives ``teeko-v1``'s.
VALIDATION_PLAYERS = (
    "random",
    "thesis:train=off",
    "alphabeta:depth=1,eval=lines",
    "alphabeta:depth=3,eval=lines",
    "mcts:playouts=30",
)
VALIDATION_SLIPS = (0.2, 0.5)


def validation_names(game: Game[Any]) -> tuple[str, ...]:
    """The held-out suites of ``game`` (Standard Teeko's one; none for the other games)."""
    return (VALIDATION_NAME,) if game.spec == "teeko" else ()


def keeps_interval(keeps: int, positions: int) -> Interval:
    """The 95% Wilson interval of a keeps figure: ``keeps`` of ``positions``.

    >>> keeps_interval(900, 1000).percent()
    '90.0 (88.0-91.7)'
    """
    return wilson(keeps, positions)


def _seats(game: Game[Any], solution: Solution, index: int) -> list[Player[Any]]:
    kinds: list[str | float] = [*VALIDATION_PLAYERS, *VALIDATION_SLIPS]
    seats: list[Player[Any]] = []
    for side in (0, 1):
        kind = kinds[_teeko_seed(VALIDATION_SEED, index, side) % len(kinds)]
        seed = _teeko_seed(VALIDATION_SEED, index, side, "player")
        if isinstance(kind, float):
            seats.append(_SlippingPerfect(game, solution, kind, seed))
        else:
            seats.append(make_player(game, kind, seed=seed))
    return seats


def validation_suite(game: Game[Any], solution: Solution) -> Suite:
    """The suite ``teeko-val-v1`` of Standard Teeko (see the module's text), built afresh."""
    held_out = {position.state for position in get_suite(game).positions}
    pool: dict[Hashable, SuitePosition] = {}
    looked_at: set[Hashable] = set()
    for index in range(VALIDATION_GAMES):
        record = play_game(
            game,
            _seats(game, solution, index),
            seed=_teeko_seed(VALIDATION_SEED, index),
            max_plies=TEEKO_MAX_PLIES,
            learn=False,
        )
        for state in record.states:
            canonical, _ = game.canonical(state)
            if canonical in looked_at or canonical in held_out:
                continue
            looked_at.add(canonical)
            graded = graded_position(game, solution, canonical)
            if graded is not None:
                pool[canonical] = graded
    chosen = draw_stratified(game, list(pool.values()), VALIDATION_SEED, VALIDATION_SIZE)
    description = (
        f"{len(chosen)} {game.spec} positions where a move loses value, held out from teeko-v1: from "
        f"{VALIDATION_GAMES} seeded games (seed {VALIDATION_SEED}) between {', '.join(VALIDATION_PLAYERS)} and the "
        f"perfect player slipping {', '.join(f'{s:.0%}' for s in VALIDATION_SLIPS)} of the time; merged by symmetry, "
        f"teeko-v1's positions left out ({len(pool)} distinct), drawn evenly over phase x value x moves that hold"
    )
    return Suite(VALIDATION_NAME, game.spec, description, tuple(chosen))
