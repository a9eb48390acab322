"""Connect Four's graded suites, shipped with the package: ``connect4-v1`` (to report) and
``connect4-val-v1`` (held out, where every choice of a learner's settings is made).

No table holds Connect Four's 4.5 x 10^12 positions, and each position of a suite costs its
solver a search of every move (CPU seconds at the earliest plies), so the suites are built once,
by ``benchmarks/yardstick_connect4.py build``, and shipped as small gzipped text files beside this
module (``suite_data/``): one position a line, the game that reaches it written as its columns
(``4453...``), then the outcome of each column for the side to move, ``+N`` a win in N plies,
``-N`` a loss in N plies, ``0`` a draw, ``.`` a full column.  Everything a suite position holds
(its value, the moves that keep it, the best and the losing moves) follows from those outcomes.

How the positions are drawn (the build, :data:`RECIPE`): seeded games between two players drawn
from :data:`PLAYERS` (uniform random, and alpha-beta with no evaluation,
``eval=none``: the fours within its depth), one position taken from each game at a ply drawn for its
phase, the *opening* (plies :data:`MIN_PLY` to ``OPENING_END - 1``) or the *endgame* (ply
:data:`OPENING_END` on); merged by
the mirror image; only positions where a mistake is possible (a won or drawn position with a move
that keeps the value and one that does not) are kept, and they are drawn evenly over phase x value
x how many moves keep the value, as Teeko's suites are.  The validation suite has its own seed
and players, and leaves out every position of the report suite.

Imports nothing of the suites' module (which reads these files through :func:`shipped_lines`), so
the two depend one way.
"""

from __future__ import annotations

import gzip
from collections.abc import Hashable, Sequence
from functools import cache
from importlib import resources
from typing import Any

from ..games import Game
from ..solver.base import Outcome, Solution, outcome_key

#: The suites shipped, report first.
REPORT_NAME = "connect4-v1"
VALIDATION_NAME = "connect4-val-v1"
NAMES = (REPORT_NAME, VALIDATION_NAME)
#: The first ply a suite position may have, and the first ply of the endgame phase.
MIN_PLY = 10
OPENING_END = 18
#: The seeds of the two suites' games and draws.
SEEDS = {REPORT_NAME: 47, VALIDATION_NAME: 4747}
#: The players whose games give each suite's positions, two drawn for each game: uniform random
#: (the positions a learner meets early in self-play, sharp ones decided by a threat or two) and
#: alpha-beta, which sees only the fours within its depth (closer games, where draws and quiet
#: positions are common); the validation suite's players differ from the report suite's.
PLAYERS = {
    REPORT_NAME: ("random", "alphabeta:depth=1,eval=none", "alphabeta:depth=3,eval=none"),
    VALIDATION_NAME: ("random", "alphabeta:depth=2,eval=none", "mcts:playouts=30"),
}
#: The recipe, in words (each suite file's header adds its players, size, seed and the CPU it took).
RECIPE = (
    f"positions of seeded games, one a game at a ply drawn for its phase (opening: plies "
    f"{MIN_PLY}-{OPENING_END - 1}; endgame: ply {OPENING_END} on), merged by the mirror image, those "
    "where a move loses value drawn evenly over phase x value x moves that hold; each move's value "
    "by the project's solver"
)


def phase_of_ply(discs: int) -> str:
    """A Connect Four suite position's phase from the discs down (its ply)."""
    return "opening" if discs < OPENING_END else "endgame"


def applies(game: Game[Any]) -> bool:
    """Whether the shipped suites are ``game``'s: the standard 7x6 board only."""
    return game.spec == "connect4"


def format_outcome(outcome: Outcome | None) -> str:
    """One column's token: ``+N``, ``-N``, ``0``, or ``.`` for a full column."""
    if outcome is None:
        return "."
    value, distance = outcome
    return "0" if value == 0 else f"{'+' if value > 0 else '-'}{distance}"


def parse_outcome(token: str) -> Outcome | None:
    if token == ".":
        return None
    if token == "0":
        return (0, None)
    if token[0] not in "+-" or not token[1:].isdigit():
        raise ValueError(f"not a column's outcome: {token!r}")
    return (1 if token[0] == "+" else -1, int(token[1:]))


def format_line(moves: str, outcomes: Sequence[Outcome | None]) -> str:
    return " ".join([moves, *map(format_outcome, outcomes)])


def parse_line(line: str, columns: int = 7) -> tuple[str, list[Outcome | None]]:
    """(the game's columns, each column's outcome) of one line of a suite file."""
    moves, *tokens = line.split()
    if len(tokens) != columns:
        raise ValueError(f"a suite line needs {columns} outcomes after its moves: {line!r}")
    return moves, [parse_outcome(token) for token in tokens]


def state_of(game: Game[Any], moves: str) -> Hashable:
    """The position a game's columns reach from the start."""
    state: Hashable = game.initial()
    for move in moves:
        state = game.play(state, move)
    return state


@cache
def shipped_text(name: str) -> str:
    """The whole text of a shipped suite's file (ValueError naming the suites for another name)."""
    if name not in NAMES:
        raise ValueError(f"unknown suite {name!r} for connect4; the suites there are: {', '.join(NAMES)}")
    data = resources.files(__package__).joinpath("suite_data", f"{name}.txt.gz").read_bytes()
    return gzip.decompress(data).decode("ascii")


def shipped_header(name: str) -> dict[str, str]:
    """The ``# key: value`` lines at the top of a suite's file."""
    header = {}
    for line in shipped_text(name).splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        header[key.strip()] = value.strip()
    return header


def shipped_lines(name: str) -> list[tuple[str, list[Outcome | None]]]:
    """Every position of a shipped suite: (the game's columns, each column's outcome), in order."""
    return [parse_line(line) for line in shipped_text(name).splitlines() if line and not line.startswith("#")]


class StoredOutcomes(Solution):
    """The outcomes a suite file holds, read as a solution of just those positions: a position's
    outcome is its best move's, its moves' outcomes are the stored ones."""

    def __init__(self, game: Game[Any], lines: Sequence[tuple[str, list[Outcome | None]]]) -> None:
        super().__init__(game)
        self.stored: dict[Hashable, list[tuple[str, Outcome]]] = {}
        for moves, outcomes in lines:
            legal = [(str(column + 1), found) for column, found in enumerate(outcomes) if found is not None]
            self.stored[state_of(game, moves)] = legal

    def move_outcomes(self, state: Hashable) -> list[tuple[str, Outcome]]:
        return list(self.stored[state])

    def outcome(self, state: Hashable) -> Outcome:
        return max((found for _, found in self.stored[state]), key=outcome_key)
