"""Real Teeko's first levels of retrograde analysis (every position decided within 3 plies), built
by the same kernels over the rules' masks, against a plain 3-ply search straight from the rules
(gamelearn.games.teeko).  The whole table is a command and a benchmark, not a test."""

from __future__ import annotations

import random

import numpy as np
import pytest

import gamelearn
from gamelearn.games.teeko import TeekoState
from gamelearn.solver import kernels
from gamelearn.solver.codes import decode
from gamelearn.solver.variant import Indexing, teeko

pytestmark = pytest.mark.slow  # real solves of Teeko's first levels

DEPTH = 3


def plain_search(game: gamelearn.Game, state: TeekoState, depth: int) -> tuple[int, int | None] | None:
    """(value, distance) if the game is decided within ``depth`` plies with best play, else None."""
    if game.is_over(state):
        return (-1, 0)
    if depth == 0:
        return None
    results = [plain_search(game, game.play(state, move), depth - 1) for move in game.legal_moves(state)]
    wins = [r[1] for r in results if r is not None and r[0] < 0]
    if wins:
        return (1, min(wins) + 1)  # type: ignore[operator]
    if all(r is not None and r[0] > 0 for r in results):
        return (-1, max(r[1] for r in results) + 1)  # type: ignore[index,operator]
    return None


@pytest.fixture(scope="module")
def shallow_codes() -> tuple[np.ndarray, Indexing]:
    index = Indexing(teeko())
    movers = index.subsets(25, 4)
    others = index.subsets(21, 4)
    free = index.free_squares(movers)
    code = np.empty(len(movers) * len(others), dtype=np.uint8)
    count = np.empty_like(code)
    full = (1 << 25) - 1
    assert (
        kernels.init_moving(code, count, movers, others, free, index.neighbours, index.win_masks, index.binom, full)
        == 0
    )
    for distance in range(DEPTH - 1 + 1):
        kernels.retrograde_level(code, count, distance, movers, others, free, index.neighbours, index.binom, full)
    return code, index


def test_positions_decided_within_three_plies_match_a_plain_search(shallow_codes: tuple[np.ndarray, Indexing]) -> None:
    code, index = shallow_codes
    game = gamelearn.get_game("teeko")
    movers, others = index.subsets(25, 4), index.subsets(21, 4)
    rng = np.random.default_rng(11)
    picks = list(rng.choice(len(code), 40, replace=False))
    for wanted in (2, 3, 4):  # decided at distance 1, 2 and 3
        hits = np.flatnonzero(code == wanted)
        picks += list(rng.choice(hits, 12, replace=False))
    checked = 0
    for idx in picks:
        i, j = divmod(int(idx), len(others))
        a = int(movers[i])
        free = [sq for sq in range(25) if not a >> sq & 1]
        b = sum(1 << free[p] for p in range(21) if int(others[j]) >> p & 1)
        if game.winner(TeekoState(a, b, 0)) == 0 or int(code[idx]) == kernels.INVALID:
            continue  # the side to move already has four: no game reaches it
        state = TeekoState(a, b, 0) if rng.random() < 0.5 else TeekoState(b, a, 1)
        expected = plain_search(game, state, DEPTH)
        got = None if code[idx] in (kernels.DRAW, 5) or code[idx] > 5 else decode(int(code[idx]))
        assert got == expected, (game.board(state), state.to_move)
        checked += 1
    assert checked > 60


def test_locate_maps_a_position_onto_its_representative_row() -> None:
    """The stored row of a mover set is its representative's: the symmetry that maps the mover set
    onto the representative maps the other side's pawns onto the stored offset."""
    rng = random.Random(5)
    index = Indexing(teeko())
    movers = index.subsets(25, 4)
    others = index.subsets(21, 4)
    for _ in range(300):
        squares = rng.sample(range(25), 8)
        a = sum(1 << sq for sq in squares[:4])
        b = sum(1 << sq for sq in squares[4:])
        cls, offset = index.locate(a, b)
        rank = int(np.searchsorted(movers, a))
        assert movers[rank] == a
        rep = int(index.classes[4].reps[cls])
        perm = index.perms[int(index.classes[4].sym_of[rank])]
        assert sum(1 << int(perm[sq]) for sq in range(25) if a >> sq & 1) == rep
        image_b = sum(1 << int(perm[sq]) for sq in range(25) if b >> sq & 1)
        free = [sq for sq in range(25) if not rep >> sq & 1]
        assert sum(1 << free[p] for p in range(21) if int(others[offset]) >> p & 1) == image_b
