"""Tic-tac-toe solved over the rules' own bitboards, without making a state object a position.

A fresh process's first ``gamelearn.solve("tictactoe")`` is dominated by making the 5,478 interned
states; a memoised negamax over the (X mask, O mask) pairs the states are made of needs none of
them, and its table answers for the states directly (a state is equal to, and hashes as, its pair).
The rules' tables (three in a row, the full board) decide the end, as they do for the game.
Checked against the generic search over the public API (tests/solver/test_solve.py).
"""

from __future__ import annotations

from collections.abc import Hashable

from ..games.tictactoe import FULL, HAS_LINE
from .base import Outcome
from .exhaustive import best_of


def outcomes() -> dict[Hashable, Outcome]:
    """(value, distance) for the side to move of every position reachable from the start."""
    table: dict[Hashable, Outcome] = {}
    has_line = HAS_LINE

    def solve(x: int, o: int, x_moves: bool) -> Outcome:
        key = (x, o)
        known = table.get(key)
        if known is not None:
            return known
        if has_line[x] or has_line[o]:
            result: Outcome = (-1, 0)  # the side that just moved has three in a row
        elif x | o == FULL:
            result = (0, None)
        else:
            children = []
            free = FULL & ~(x | o)
            while free:
                bit = free & -free
                free ^= bit
                children.append(solve(x | bit, o, False) if x_moves else solve(x, o | bit, True))
            result = best_of(children)
        table[key] = result
        return result

    solve(0, 0, True)
    return table
