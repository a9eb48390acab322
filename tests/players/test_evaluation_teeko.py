"""Teeko's ``lines`` evaluation (gamelearn.players.evaluation_teeko), which sums packed integers
rather than looping over the goals, against that loop written out here: for each goal of the form
free of the enemy, 4**(own pawns in it), X minus O."""

from __future__ import annotations

import random

import pytest

import gamelearn
from gamelearn import get_game
from gamelearn.games.teeko import TeekoState
from gamelearn.players.evaluation import evaluation


def open_sets(x: int, o: int, goals: tuple[int, ...]) -> int:
    own = sum(4 ** (x & goal).bit_count() for goal in goals if not o & goal)
    return own - sum(4 ** (o & goal).bit_count() for goal in goals if not x & goal)


@pytest.mark.parametrize("spec", ["teeko", "teeko:goals=advanced"])
def test_the_lines_evaluation_is_the_loop_over_the_forms_goals(spec: str) -> None:
    game = get_game(spec)
    goals = tuple(game.win_masks)  # type: ignore[attr-defined]
    lines = evaluation(game, "lines")
    rng = random.Random(11)
    # every count of pawns a side can hold (0 to 4 each, the placement phase included), twice over
    # so that a board's second evaluation, from the sides' remembered sums, is checked too
    boards = []
    for _ in range(4000):
        squares = rng.sample(range(25), 8)
        x_count, o_count = rng.randint(0, 4), rng.randint(0, 4)
        boards.append((sum(1 << s for s in squares[:x_count]), sum(1 << s for s in squares[4 : 4 + o_count])))
    for x, o in boards + boards:
        assert lines(TeekoState(x, o, 0)) == open_sets(x, o, goals)
    # and the boards that games reach, a four made included
    for seed in range(6):
        players = [gamelearn.make_player(game, "random", seed=seed), gamelearn.make_player(game, "random", seed=99)]
        for state in gamelearn.play_game(game, players, seed=seed, max_plies=60).states:
            assert lines(state) == open_sets(state.x, state.o, goals)
