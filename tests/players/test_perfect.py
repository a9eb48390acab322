"""The perfect player: never loses what can be held, takes the fastest win, seeded."""

from __future__ import annotations

from pathlib import Path

import pytest

import gamelearn
from gamelearn.players.basic import RandomPlayer
from gamelearn.players.perfect import PerfectPlayer
from gamelearn.solver.table import build_layers, open_table, write_table
from gamelearn.solver.teeko import TableSolution
from gamelearn.solver.variant import small_variant
from small_teeko import SmallTeeko


def test_perfect_never_loses_tictactoe_and_draws_itself() -> None:
    game = gamelearn.get_game("tictactoe")
    perfect = gamelearn.make_player(game, "perfect", seed=1)
    other = gamelearn.make_player(game, "random", seed=2)
    for seed in range(40):
        for players, side in (([perfect, other], 0), ([other, perfect], 1)):
            record = gamelearn.play_game(game, players, seed=seed)
            assert record.winner in (None, side)
    mirror = gamelearn.play_game(game, [perfect, gamelearn.make_player(game, "perfect", seed=5)], seed=9)
    assert mirror.winner is None


def test_perfect_black_always_wins_hexapawn() -> None:
    game = gamelearn.get_game("hexapawn")
    for seed in range(30):
        white = gamelearn.make_player(game, "random" if seed % 2 else "perfect", seed=seed)
        record = gamelearn.play_game(game, [white, gamelearn.make_player(game, "perfect")], seed=seed)
        assert record.winner == 1


def test_perfect_takes_the_fastest_win_and_is_seeded() -> None:
    game = gamelearn.get_game("tictactoe")
    state = game.initial()
    for move in ["0", "3", "1", "4"]:
        state = game.play(state, move)
    player = gamelearn.make_player(game, "perfect", seed=0)
    assert player.choose(state) == "2"
    # among equal moves the choice is random but seeded: the same seed, the same choices
    start = game.initial()
    first = [gamelearn.make_player(game, "perfect", seed=s).choose(start) for s in range(12)]
    again = [gamelearn.make_player(game, "perfect", seed=s).choose(start) for s in range(12)]
    assert first == again and len(set(first)) > 1


def test_perfect_teeko_without_a_table_says_how_to_build_it() -> None:
    game = gamelearn.get_game("teeko")
    with pytest.raises(ValueError, match="gamelearn solve teeko"):
        gamelearn.make_player(game, "perfect")


@pytest.mark.slow  # a real solve of a small Teeko board
def test_perfect_wins_the_small_teeko_that_the_first_player_wins(tmp_path: Path) -> None:
    variant = small_variant(4, 4, 3)
    path = tmp_path / "small.table"
    layers, facts = build_layers(variant)
    write_table(variant, layers, facts, path)
    game = SmallTeeko(variant)
    solution = TableSolution(game, variant, *open_table(variant, path))
    start_value = solution.value(game.initial())
    assert start_value == 1  # on 4x4 with three in a row, the first player wins (checked by the oracle test)
    perfect = PerfectPlayer(game, seed=1, solution=solution)
    for seed in range(4):
        record = gamelearn.play_game(game, [perfect, RandomPlayer(game)], seed=seed, max_plies=60)
        assert record.winner == 0
