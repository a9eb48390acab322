"""The compiled UCT of the small games against the Python search it replaces (the reference): the
same root statistics, the same random stream afterwards, the same games for the same seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

import gamelearn
from gamelearn.players.mcts import MCTSPlayer, compiled_graph
from gamelearn.players.mcts_kernels import _below, _next_word, state_graph


def reference_statistics(player: MCTSPlayer, state: object) -> list[tuple[str, int, float]]:
    root = player.search(state)
    return [(child.move or "", child.visits, child.wins) for child in root.children]


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_the_compiled_search_is_the_python_search_move_for_move(name: str) -> None:
    game = gamelearn.get_game(name)
    compiled, reference = MCTSPlayer(game, seed=5, playouts=200), MCTSPlayer(game, seed=5, playouts=200)
    state = game.initial()
    while not game.is_over(state):
        assert sorted(compiled.root_statistics(state)) == sorted(reference_statistics(reference, state))
        assert compiled.rng.getstate() == reference.rng.getstate()  # the stream is left where Python leaves it
        move = compiled.choose(state)
        reference.rng.setstate(compiled.rng.getstate())
        state = game.play(state, move)


def test_the_state_graphs_hold_every_reachable_position() -> None:
    tictactoe = state_graph(gamelearn.get_game("tictactoe"))
    assert tictactoe is not None and len(tictactoe.index) == 5478  # Russell & Norvig's count, as the solver's
    assert int((tictactoe.move_counts == 0).sum()) == 958  # the terminal positions
    assert compiled_graph(gamelearn.get_game("teeko")) is None  # Teeko can cycle: the Python search


def test_the_generator_draws_as_cpython_does() -> None:
    rng = random.Random(11)
    _, internal, _ = rng.getstate()
    mt, where = np.array(internal[:624], np.int64), np.array([internal[624]], np.int64)
    words = [_next_word(mt, where) for _ in range(700)]  # past one twist of the 624 words
    expected = random.Random(11)
    assert words == [expected.getrandbits(32) for _ in range(700)]
    assert [_below(mt, where, n) for n in (1, 2, 3, 7, 9, 1, 5)] == [
        expected.randrange(n) for n in (1, 2, 3, 7, 9, 1, 5)
    ]


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn", "teeko"])
def test_same_seed_same_games_on_every_path(name: str) -> None:
    game = gamelearn.get_game(name)

    def moves(seed: int) -> tuple[str, ...]:
        players = [gamelearn.make_player(game, "mcts:playouts=12"), gamelearn.make_player(game, "mcts:playouts=9")]
        return gamelearn.play_game(game, players, seed=seed, max_plies=10).moves

    assert moves(3) == moves(3)
    assert len({moves(seed) for seed in range(4)}) > 1
