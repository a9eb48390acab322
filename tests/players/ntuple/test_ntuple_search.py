"""Teeko's search over the learnt values: the numba alpha-beta equals the plain negamax of the same
definition (value and move, at fixed depths), its proven wins and losses are the exact solution's,
its "four at once" test is the rules', a node budget replays the same move, and the spec's
``search=`` reads as documented."""

from __future__ import annotations

import random
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gamelearn
from gamelearn.players.ntuple.layout import pieces
from gamelearn.players.ntuple.player import NtuplePlayer
from gamelearn.players.ntuple.search import TeekoSearch, budget_of, parse_search, reference_search
from gamelearn.players.ntuple.search_kernels import MATE, WIN, can_win

GAME = gamelearn.get_game("teeko")


def noisy_player(seed: int = 4) -> NtuplePlayer:
    """An untrained learner with seeded random weights: values that differ from move to move."""
    player = NtuplePlayer(GAME, seed=seed, train=False)
    weights = player.trainer.weights
    weights[:] = np.random.default_rng(seed).normal(0.0, 0.3, weights.shape).astype(np.float32)
    return player


def random_positions(count: int, seed: int, low: int = 2, high: int = 40) -> list[Hashable]:
    rng = random.Random(seed)
    found: list[Hashable] = []
    while len(found) < count:
        state = GAME.initial()
        for _ in range(rng.randrange(low, high)):
            if GAME.is_over(state):
                break
            state = GAME.play(state, rng.choice(GAME.legal_moves(state)))
        if not GAME.is_over(state):
            found.append(state)
    return found


def network(player: NtuplePlayer) -> Any:
    return lambda a, b, mover: float(player.trainer.values([(a, b, mover)])[0])


def test_the_four_at_once_test_is_the_rules() -> None:
    from gamelearn.players.ntuple.layout import neighbours, win_masks

    masks, steps = win_masks(GAME), neighbours(GAME)
    wins = 0
    for state in random_positions(250, seed=1, high=60):
        side = GAME.to_move(state)
        a, b = pieces(GAME, state)
        own, other = (a, b) if side == 0 else (b, a)
        expected = any(GAME.winner(child) == side for _, child in GAME.successors(state))
        assert can_win(own, other, masks, steps) == expected
        wins += expected
    assert 5 < wins < 245  # both answers were tried


@pytest.mark.parametrize("depth", [1, 2])
def test_the_compiled_search_equals_the_plain_negamax(depth: int) -> None:
    player = noisy_player()
    search = TeekoSearch(GAME, player.trainer)
    for state in random_positions(12, seed=depth):
        found = search.search(state, depth=depth)
        score, move = reference_search(GAME, network(player), state, depth)
        assert (found.score, found.move) == (score, move)
        assert found.depth == depth or abs(score) > MATE  # a proven result ends the deepening


@pytest.mark.slow
def test_the_compiled_search_equals_the_plain_negamax_three_plies_deep() -> None:
    player = noisy_player(seed=7)
    search = TeekoSearch(GAME, player.trainer, table_size=1 << 10)  # a small table: collisions, replacements
    for state in random_positions(6, seed=3, low=8):
        found = search.search(state, depth=3)
        score, move = reference_search(GAME, network(player), state, 3)
        assert (found.score, found.move) == (score, move)


def test_a_four_to_make_or_to_stop_is_seen_at_one_ply() -> None:
    # X: 21 22 23 with 20 and 24 free is a double threat (row 2): a win in 3 plies, which the
    # extension for a four to stop finds with one ply searched; O to move must then stop a four.
    player = noisy_player()
    search = TeekoSearch(GAME, player.trainer)
    state = GAME.initial()
    for move in ("22", "11", "23", "33"):
        state = GAME.play(state, move)
    found = search.search(state, depth=1)
    assert found.score == WIN - 3 and found.move in ("21", "24")
    after = GAME.play(state, found.move)
    assert search.search(after, depth=1).score == -(WIN - 2)  # O loses whatever it does


def test_a_node_budget_replays_the_same_move() -> None:
    player = noisy_player()
    for state in random_positions(5, seed=9, low=10):
        first = TeekoSearch(GAME, player.trainer).search(state, nodes=3000)
        again = TeekoSearch(GAME, player.trainer)
        again.search(random_positions(1, seed=2)[0], depth=3)  # another search first: its table is not reused
        assert again.search(state, nodes=3000) == first
        assert first.nodes <= 3000 + 1 and first.move in GAME.legal_moves(state)
    tiny = TeekoSearch(GAME, player.trainer).search(random_positions(1, seed=5, low=10)[0], nodes=2)
    assert tiny.depth == 0  # not one ply fitted: the best learnt value is played


@pytest.mark.slow
def test_proven_wins_and_losses_are_the_solutions(teeko_table: Path) -> None:
    solution = gamelearn.solve(GAME)
    player = noisy_player()
    search = TeekoSearch(GAME, player.trainer)
    proven = 0
    for state in random_positions(150, seed=11, low=8, high=50):
        found = search.search(state, depth=3)
        value, distance = solution.outcome(state)
        if found.score > MATE:
            proven += 1
            assert value == 1 and distance is not None and distance <= WIN - found.score
            assert solution.result_of(state, found.move)[0] == 1
        elif found.score < -MATE:
            proven += 1
            assert value == -1
        elif value == 1 and distance is not None and distance <= 3:
            raise AssertionError(f"a win in {distance} plies missed at 3 plies: {GAME.board(state)}")
    assert proven > 10


def test_search_spellings() -> None:
    assert [parse_search(text) for text in ("0", "4", "1s", "250ms", "0.5s", " 2 ")] == [
        "0",
        "4",
        "1s",
        "250ms",
        "0.5s",
        "2",
    ]
    assert budget_of("250ms") == (None, 0.25) and budget_of("4") == (4, None)
    for bad in ("21", "-1", "2.5", "1h", "5ms", "61s", "fast", ""):
        with pytest.raises(ValueError):
            parse_search(bad)
    with pytest.raises(ValueError, match="tictactoe"):
        gamelearn.make_player(gamelearn.get_game("tictactoe"), "ntuple:search=1s")


def test_a_frozen_learner_plays_the_search_and_one_in_training_does_not() -> None:
    weights = noisy_player().trainer.weights
    state = random_positions(1, seed=13, low=10)[0]
    frozen = gamelearn.make_player(GAME, "ntuple:train=off,search=2", seed=0)
    frozen.trainer.weights = weights
    assert frozen.spec == "ntuple:search=2,train=off"
    assert frozen.choose(state) == TeekoSearch(GAME, frozen.trainer).search(state, depth=2).move
    raw = gamelearn.make_player(GAME, "ntuple:train=off,search=0", seed=0)
    raw.trainer.weights = weights
    values = raw.move_values(state)
    assert values[raw.choose(state)] == max(values.values())
    training = gamelearn.make_player(GAME, "ntuple:search=2,epsilon=0", seed=0)
    training.trainer.weights = weights
    assert training.choose(state) in [m for m, v in training.move_values(state).items() if v == max(values.values())]
