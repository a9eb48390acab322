"""Named static evaluation functions, per game, each from the view of player 0 (X or White).

A search negates the value for player 1.  Terminal positions are scored by the search, not here.
Tic-tac-toe's are here; hexapawn's, Teeko's and Connect Four's are in modules of their own,
gathered here by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games.tictactoe import LINES
from . import evaluation_connect4, evaluation_hexapawn, evaluation_teeko
from .evaluation_teeko import goals_if_not_standard, teeko_lines_over

if TYPE_CHECKING:
    from typing import Any

    from ..games import Game
    from .base import Evaluation

#: "MaxInt" of Russell & Norvig's slides: what the better evaluation returns for a won tic-tac-toe board.
WIN = 1_000_000


# Tic-tac-toe: Russell & Norvig ------------------------------------------------------------------------


def tictactoe_simple(state: Any) -> float:
    """Russell & Norvig's simple evaluation: lines where X can still win minus lines where O can."""
    x_open = sum(1 for line in LINES if not state.o & line)
    o_open = sum(1 for line in LINES if not state.x & line)
    return x_open - o_open


def tictactoe_better(state: Any) -> float:
    """Russell & Norvig's better evaluation: 3*X2 + X1 - (3*O2 + O1); +/-MaxInt for a won board.

    X2 counts lines with two X and a blank, X1 lines with one X and two blanks; O likewise.
    """
    x2 = x1 = o2 = o1 = 0
    for line in LINES:
        xs, os_ = (state.x & line).bit_count(), (state.o & line).bit_count()
        if xs == 3:
            return WIN
        if os_ == 3:
            return -WIN
        if os_ == 0:
            if xs == 2:
                x2 += 1
            elif xs == 1:
                x1 += 1
        if xs == 0:
            if os_ == 2:
                o2 += 1
            elif os_ == 1:
                o1 += 1
    return 3 * x2 + x1 - (3 * o2 + o1)


# The evaluations of each game, by name, the first the default -------------------------------------

#: Each game's evaluation names, the first its default.
EVALUATION_NAMES: dict[str, tuple[str, ...]] = {
    "tictactoe": ("better", "simple"),
    "hexapawn": ("material",),
    "teeko": ("thesis", "lines"),
    # threats over lines over none on connect4-val-v1 (docs/connect4.md, "Alpha-beta's evaluations")
    "connect4": ("threats", "lines", "none"),
}


def no_evaluation(state: Any) -> float:
    """Every unfinished position alike (0): a search then sees only the wins and losses within its depth."""
    return 0.0


def evaluation_names(game: Game[Any]) -> tuple[str, ...]:
    """The evaluation names ``game`` offers, its default first: a built-in game's own, or for any
    other game ``own`` where it defines ``evaluate(state)`` (docs/own-game.md), then ``none``."""
    if game.name in EVALUATION_NAMES:
        return EVALUATION_NAMES[game.name]
    return ("own", "none") if callable(getattr(game, "evaluate", None)) else ("none",)


def _table(game_name: str) -> dict[str, Evaluation]:
    """The evaluations of ``game_name`` by name."""
    if game_name == "tictactoe":
        return {"better": tictactoe_better, "simple": tictactoe_simple}
    modules = {"hexapawn": evaluation_hexapawn, "teeko": evaluation_teeko, "connect4": evaluation_connect4}
    evaluations: dict[str, Evaluation] = modules[game_name].EVALUATIONS
    return evaluations


def _goals(game: Game[Any]) -> tuple[int, ...] | None:
    """A Teeko form's goals when they are not the standard 44 (None otherwise)."""
    if game.name != "teeko" or getattr(game, "win_masks", None) is None:
        return None
    return goals_if_not_standard(game.win_masks)  # type: ignore[attr-defined]


def evaluation(game: Game[Any], name: str) -> Evaluation:
    """The evaluation ``name`` for ``game``; Teeko's ``lines`` counts the goals of the form played."""
    names = evaluation_names(game)
    if name not in names:
        raise ValueError(f"unknown evaluation {name!r} for {game.name}; valid: {', '.join(names)}")
    if game.name not in EVALUATION_NAMES:
        own: Evaluation = getattr(game, "evaluate") if name == "own" else no_evaluation  # noqa: B009
        return own
    goals = _goals(game)
    if name == "lines" and goals is not None:
        return teeko_lines_over(goals)
    return _table(game.name)[name]


def default_evaluation(game: Game[Any]) -> str:
    """The game's first evaluation; for a Teeko form with other goals than the standard 44,
    ``lines``, which counts that form's goals (the thesis program's knows only the standard ones)."""
    if _goals(game) is not None:
        return "lines"
    return evaluation_names(game)[0]
