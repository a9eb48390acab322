"""The small games' UCT over their state graphs, plain and compiled, against the Python search
through the rules that it replaces (the reference): the same root statistics, the random stream
left in the same state, the same games for the same seed."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

import gamelearn
from gamelearn.players import mcts, mcts_graph, mcts_kernels
from gamelearn.players.mcts import PLAYOUT_PLY_CAP, MCTSPlayer, small_game_graph

SEARCHES = {"plain": mcts_graph.root_statistics, "compiled": mcts_kernels.root_statistics}


def reference_statistics(player: MCTSPlayer, state: object) -> list[tuple[str, int, float]]:
    root = player.search(state)
    return sorted((child.move or "", child.visits, child.wins) for child in root.children)


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_each_graph_search_is_the_python_search_move_for_move(name: str, search: str) -> None:
    game = gamelearn.get_game(name)
    graph = small_game_graph(game)
    rng, reference = random.Random(5), MCTSPlayer(game, seed=5, playouts=150)
    state = game.initial()
    while not game.is_over(state):
        number = graph.index[state]
        found = SEARCHES[search](graph, number, rng, 150, reference.exploration, PLAYOUT_PLY_CAP)
        named = sorted((graph.moves[number][k], visits, wins) for k, visits, wins in found)
        assert named == reference_statistics(reference, state)
        assert rng.getstate() == reference.rng.getstate()  # the stream is left where the reference leaves it
        state = game.play(state, max(named, key=lambda entry: entry[1])[0])


def test_the_player_switches_to_the_compiled_search_with_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    game = gamelearn.get_game("tictactoe")
    state = game.from_board("X...O....", 0)

    def moves_and_values(compiled: bool) -> tuple[str | None, dict[str, tuple[int, float]]]:
        monkeypatch.setattr("gamelearn.players.mcts.compiled_search_pays", lambda playouts: compiled)
        player = MCTSPlayer(game, seed=9, playouts=300)
        return player.choose(state), player.move_values(state)

    assert moves_and_values(False) == moves_and_values(True)


def test_a_process_searches_compiled_once_it_has_searched_enough_in_plain_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "gamelearn.players.mcts_kernels")  # as in a fresh process
    monkeypatch.setattr(mcts, "_PLAYOUTS_IN_PYTHON", [0])
    assert not mcts.compiled_search_pays(60_000)
    assert mcts.compiled_search_pays(mcts.COMPILED_AFTER - 60_000)
    assert mcts._PLAYOUTS_IN_PYTHON == [60_000]  # the compiled search's playouts are not counted


def test_the_state_graphs_hold_every_reachable_position() -> None:
    tictactoe = small_game_graph(gamelearn.get_game("tictactoe"))
    assert tictactoe is not None and len(tictactoe.index) == 5478  # as the solver counts them
    assert sum(not found for found in tictactoe.successors) == 958  # the finished positions
    assert small_game_graph(gamelearn.get_game("teeko")) is None  # Teeko can cycle: the rules' search


def test_the_compiled_generator_draws_as_cpython_does() -> None:
    _, internal, _ = random.Random(11).getstate()
    mt, where = np.array(internal[:624], np.int64), np.array([internal[624]], np.int64)
    words = [mcts_kernels._next_word(mt, where) for _ in range(700)]  # past one twist of the 624 words
    expected = random.Random(11)
    assert words == [expected.getrandbits(32) for _ in range(700)]
    sizes = (1, 2, 3, 7, 9, 1, 5)
    assert [mcts_kernels._below(mt, where, n) for n in sizes] == [expected.randrange(n) for n in sizes]


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn", "teeko"])
def test_same_seed_same_games_on_every_path(name: str) -> None:
    game = gamelearn.get_game(name)

    def moves(seed: int) -> tuple[str, ...]:
        players = [gamelearn.make_player(game, "mcts:playouts=12"), gamelearn.make_player(game, "mcts:playouts=9")]
        return gamelearn.play_game(game, players, seed=seed, max_plies=4 if game.facts.can_cycle else 10).moves

    assert moves(3) == moves(3)
    assert len({moves(seed) for seed in range(4)}) > 1
