"""The symmetries of the az player's boards, as index tables, for augmenting its training data (as
AlphaGo Zero's training did, Silver et al. 2017: a position drawn from the replay buffer is seen
under a random symmetry of the board).

Tic-tac-toe and Teeko keep their rules under the 8 symmetries of the square (4 rotations, 4
reflections: the dihedral group); hexapawn's pawns move up and down the board and Connect Four's
discs fall down it, so only the mirror that swaps the left and right columns keeps their rules.  Each symmetry is a pair of gather tables:
the transformed board is ``board[squares]`` and the transformed policy (or legal actions) is
``policy[actions]``; ``tests/players/az/test_az_rules.py`` checks that the rules commute with them.  A game
of another author brings its own symmetries (docs/own-game.md), tabulated with its rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .rules import TEEKO_DIRECTIONS, JaxRules

#: A map of (row, column) on an n x n board, n given.
PointMap = Callable[[int, int, int], tuple[int, int]]

#: The dihedral group of the square, as maps of (row, column) with n - 1 = ``m``.
DIHEDRAL: tuple[PointMap, ...] = (
    lambda r, c, m: (r, c),
    lambda r, c, m: (c, m - r),  # a quarter turn
    lambda r, c, m: (m - r, m - c),  # a half turn
    lambda r, c, m: (m - c, r),  # three quarters
    lambda r, c, m: (r, m - c),  # mirror left-right
    lambda r, c, m: (m - r, c),  # mirror up-down
    lambda r, c, m: (c, r),  # the main diagonal
    lambda r, c, m: (m - c, m - r),  # the other diagonal
)


class Symmetry(NamedTuple):
    """Gather tables: the board under the symmetry is ``board[squares]``, a policy ``policy[actions]``."""

    squares: np.ndarray  # int[squares]
    actions: np.ndarray  # int[actions]


def _inverse(forward: np.ndarray) -> np.ndarray:
    inverse = np.empty_like(forward)
    inverse[forward] = np.arange(len(forward))
    return inverse


def _action_map(rules: JaxRules, point: PointMap) -> tuple[np.ndarray, np.ndarray]:
    """(where each square goes, where each action goes) under ``point``."""
    n, m = rules.columns, rules.columns - 1
    square = np.array([n * row + column for row, column in (point(s // n, s % n, m) for s in range(n * n))])
    if rules.name == "tictactoe":
        return square, square
    if rules.name == "hexapawn":
        return square, np.array([9 * square[a // 9] + square[a % 9] for a in range(rules.actions)])
    if rules.name == "teeko":
        actions = list(square)
        for a in range(25, rules.actions):
            source, direction = divmod(a - 25, 8)
            r, c = divmod(source, 5)
            dr, dc = TEEKO_DIRECTIONS[direction]
            (r0, c0), (r1, c1) = point(r, c, m), point(r + dr, c + dc, m)
            actions.append(25 + 8 * square[source] + TEEKO_DIRECTIONS.index((r1 - r0, c1 - c0)))
        return square, np.array(actions)
    raise ValueError(f"no symmetries known for {rules.name!r}")


def symmetries(rules: JaxRules) -> tuple[Symmetry, ...]:
    """The symmetries of ``rules``' game, the identity first: a tabulated game's own (its
    ``symmetries`` with ``transform_move``, players/az/tabulated.py), Connect Four's mirror (any
    size), else the square's above."""
    own = getattr(rules, "symmetry_tables", None)
    if own is not None:
        return tuple(Symmetry(squares, actions) for squares, actions in own)
    if rules.name == "connect4":  # discs fall down the board: only the left-right mirror keeps the rules
        columns = np.arange(rules.columns)
        mirror = np.array(
            [row * rules.columns + rules.columns - 1 - column for row in range(rules.rows) for column in columns]
        )
        identity = Symmetry(np.arange(rules.squares), columns)
        return identity, Symmetry(mirror, columns[::-1].copy())  # a mirror is its own inverse
    if rules.rows != rules.columns:
        raise ValueError(f"{rules.name}'s board is not square")
    points = DIHEDRAL[::4] if rules.name == "hexapawn" else DIHEDRAL  # hexapawn: identity, left-right
    found = []
    for point in points:
        square, action = _action_map(rules, point)
        found.append(Symmetry(_inverse(square), _inverse(action)))
    return tuple(found)
