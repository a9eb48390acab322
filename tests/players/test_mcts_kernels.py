"""The compiled backend of MCTS (players/mcts_kernels.py) against the Python search through the
rules (MCTSPlayer.search): the same root statistics, the random stream left in the same state, the
same games for the same seed."""

from __future__ import annotations

import random

import pytest

import gamelearn
from gamelearn.players import mcts_kernels
from gamelearn.players.mcts import PLAYOUT_PLY_CAP, MCTSPlayer


def reference_statistics(player: MCTSPlayer, state: object) -> list[tuple[str, int, float]]:
    root = player.search(state)
    return sorted((child.move or "", child.visits, child.wins) for child in root.children)


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_the_compiled_search_is_the_python_search_move_for_move(name: str) -> None:
    game = gamelearn.get_game(name)
    rng, reference = random.Random(5), MCTSPlayer(game, seed=5, playouts=150)
    state = game.initial()
    while not game.is_over(state):
        found = mcts_kernels.root_statistics(game, state, rng, 150, reference.exploration, PLAYOUT_PLY_CAP)
        assert found is not None
        assert sorted(found) == reference_statistics(reference, state)
        assert rng.getstate() == reference.rng.getstate()  # the stream is left where the reference leaves it
        state = game.play(state, max(found, key=lambda entry: entry[1])[0])


def test_a_search_that_needs_more_random_words_than_its_first_block_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = gamelearn.get_game("tictactoe")
    monkeypatch.setattr(mcts_kernels, "WORDS_PER_PLAYOUT", 1)  # too few: the block runs out, then doubles
    rng, reference = random.Random(8), MCTSPlayer(game, seed=8, playouts=400)
    found = mcts_kernels.root_statistics(game, game.initial(), rng, 400, reference.exploration, PLAYOUT_PLY_CAP)
    assert found is not None and sorted(found) == reference_statistics(reference, game.initial())
    assert rng.getstate() == reference.rng.getstate()


def test_both_backends_give_the_same_moves_and_values() -> None:
    game = gamelearn.get_game("tictactoe")
    state = game.from_board("X...O....", 0)

    def moves_and_values(backend: str) -> tuple[str | None, dict[str, tuple[int, float]]]:
        player = MCTSPlayer(game, seed=9, playouts=300, backend=backend)
        return player.choose(state), player.move_values(state)

    assert moves_and_values("python") == moves_and_values("compiled") == moves_and_values("auto")


def test_the_backend_is_the_player_s_own_choice_not_the_process_s_history() -> None:
    """The same spec searches the same way whatever the process did before: ``auto`` compiles a
    game that cannot cycle, ``python`` never does, and a game that can cycle is refused the
    compiled backend in one line."""
    game = gamelearn.get_game("tictactoe")
    assert gamelearn.make_player(game, "mcts").compiled
    assert not gamelearn.make_player(game, "mcts:backend=python").compiled
    assert not gamelearn.make_player(gamelearn.get_game("teeko"), "mcts").compiled
    with pytest.raises(ValueError, match="needs a game that cannot cycle; teeko can"):
        gamelearn.make_player(gamelearn.get_game("teeko"), "mcts:backend=compiled")
    with pytest.raises(ValueError, match="option 'backend' of player 'mcts'"):
        gamelearn.make_player(game, "mcts:backend=gpu")


def test_the_state_graphs_hold_every_reachable_position() -> None:
    tictactoe = mcts_kernels.state_graph(gamelearn.get_game("tictactoe"))
    assert tictactoe is not None and len(tictactoe.index) == 5478  # as the solver counts them
    assert int((tictactoe.positions.move_counts == 0).sum()) == 958  # the finished positions
    assert mcts_kernels.state_graph(gamelearn.get_game("teeko")) is None  # Teeko can cycle: the rules' search
    assert mcts_kernels.root_statistics(gamelearn.get_game("teeko"), None, random.Random(1), 5, 1.0, 10) is None


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn", "teeko"])
def test_same_seed_same_games_on_every_path(name: str) -> None:
    game = gamelearn.get_game(name)

    def moves(seed: int) -> tuple[str, ...]:
        players = [gamelearn.make_player(game, "mcts:playouts=12"), gamelearn.make_player(game, "mcts:playouts=9")]
        return gamelearn.play_game(game, players, seed=seed, max_plies=4 if game.facts.can_cycle else 10).moves

    assert moves(3) == moves(3)
    assert len({moves(seed) for seed in range(4)}) > 1
