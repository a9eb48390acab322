"""Differential tests: our rules against other people's (OpenSpiel's tic_tac_toe over every state,
easyAI's Hexapawn over seeded random games), and the numba kernels against the Python players they
claim to replay, game for game and table entry for table entry."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from easyAI import Human_Player
from easyAI.games.Hexapawn import Hexapawn as EasyHexapawn

import gamelearn
from gamelearn.experiments import kernels
from gamelearn.players.td import TDPlayer

TICTACTOE = gamelearn.get_game("tictactoe")
HEXAPAWN = gamelearn.get_game("hexapawn")


# OpenSpiel -----------------------------------------------------------------------------------


def test_tictactoe_agrees_with_openspiel_on_every_state() -> None:
    spiel_game = pyspiel.load_game("tic_tac_toe")
    seen: set[Any] = set()
    terminal = {0: 0, 1: 0, None: 0}
    stack = [(TICTACTOE.initial(), spiel_game.new_initial_state())]
    while stack:
        ours, theirs = stack.pop()
        if ours in seen:
            continue
        seen.add(ours)
        # OpenSpiel numbers the cells 0-8 along the rows, as we do; x moves first, as X does.
        assert str(theirs).replace("\n", "").upper() == TICTACTOE.board(ours)
        assert theirs.is_terminal() == TICTACTOE.is_over(ours)
        if theirs.is_terminal():
            winner = TICTACTOE.winner(ours)
            expected = [0.0, 0.0] if winner is None else [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]
            assert theirs.returns() == expected
            terminal[winner] += 1
            continue
        assert theirs.current_player() == TICTACTOE.to_move(ours)
        assert theirs.legal_actions() == [int(move) for move in TICTACTOE.legal_moves(ours)]
        for move in TICTACTOE.legal_moves(ours):
            stack.append((TICTACTOE.play(ours, move), theirs.child(int(move))))
    # The known counts: 5,478 positions, of which 958 are final (626 X wins, 316 O wins, 16 draws).
    assert len(seen) == 5478
    assert terminal == {0: 626, 1: 316, None: 16}


# easyAI --------------------------------------------------------------------------------------


def easyai_square(square: int) -> tuple[int, int]:
    """Our square (0-8 along the rows from the top) as easyAI's (row, column) for Hexapawn(size=(3, 3)).

    easyAI's first player starts on its row 0 and moves towards row 2; ours (White) starts on the
    bottom row and moves up.  So easyAI's board is ours upside down: our row r is its row 2 - r.
    """
    return 2 - square // 3, square % 3


def easyai_move(move: str) -> str:
    (a_row, a_col), (b_row, b_col) = easyai_square(int(move[0])), easyai_square(int(move[1]))
    return f"{'ABC'[a_row]}{a_col + 1} {'ABC'[b_row]}{b_col + 1}"


def easyai_moves_on_own_pawns(game: Any) -> set[str]:
    """easyAI lets a pawn step straight onto a square its own side holds (it checks only for an enemy
    pawn there); no rules of hexapawn allow that, so such moves are set aside and counted."""
    own = set(game.player.pawns)
    blocked = set()
    for move in game.possible_moves():
        source, target = move.split(" ")
        to = ("ABC".index(target[0]), int(target[1:]) - 1)
        if to in own:
            blocked.add(move)
    return blocked


def test_hexapawn_agrees_with_easyai_over_random_games() -> None:
    rng = random.Random(2024)
    onto_own_pawn = 0
    results = {0: 0, 1: 0}
    for _ in range(400):
        theirs = EasyHexapawn([Human_Player(), Human_Player()], size=(3, 3))
        ours = HEXAPAWN.initial()
        while True:
            assert theirs.current_player - 1 == HEXAPAWN.to_move(ours)
            bad = easyai_moves_on_own_pawns(theirs)
            if HEXAPAWN.is_over(ours):
                # easyAI: the side to move has lost when the enemy reached its goal or it has no move.
                # (Its own-pawn bug can give a blocked side a "move", so its verdict is checked only
                # where no such move hides a loss.)
                if not bad:
                    assert theirs.is_over()
                assert HEXAPAWN.winner(ours) == 1 - HEXAPAWN.to_move(ours)
                results[HEXAPAWN.winner(ours)] += 1
                break
            # Only while the game goes on: easyAI lists moves even after the enemy has reached its goal.
            assert not theirs.is_over()
            onto_own_pawn += len(bad)
            assert set(theirs.possible_moves()) - bad == {easyai_move(m) for m in HEXAPAWN.legal_moves(ours)}
            move = rng.choice(HEXAPAWN.legal_moves(ours))
            theirs.make_move(easyai_move(move))
            theirs.switch_player()
            ours = HEXAPAWN.play(ours, move)
    assert results[0] > 50 and results[1] > 50  # both sides win some random games
    assert onto_own_pawn > 0  # the set-aside easyAI moves do occur: the filter is not idle


# Kernels against the Python players ---


def test_solve_kernel_agrees_with_gamelearn_solve_on_every_reachable_position() -> None:
    values, distances = kernels.solve_all()
    solution = gamelearn.solve(TICTACTOE)
    seen = set()
    stack = [TICTACTOE.initial()]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        index = kernels.board_index(TICTACTOE.board(state))
        distance = None if distances[index] == -1 else int(distances[index])
        assert (int(values[index]), distance) == solution.outcome(state)
        stack.extend(TICTACTOE.play(state, move) for move in TICTACTOE.legal_moves(state))
    assert len(seen) == 5478
    assert (
        int((distances > -2).sum()) == 6046
    )  # boards with legal counts, reachable or not-------------------------------------------------------


def test_mersenne_twister_matches_cpython() -> None:
    for seed in (0, 1, 7, 2**32 + 5, 2**40 + 123):
        stream = kernels.new_mt_state(seed)
        reference = random.Random(seed)
        bounds = [1, 2, 3, 5, 7, 8, 9] * 120  # past 624 words: the twist runs more than once
        assert [kernels.mt_randbelow(stream, n) for n in bounds] == [reference._randbelow(n) for n in bounds]
        assert [kernels.mt_random(stream) for _ in range(10)] == [reference.random() for _ in range(10)]


def moves_of(row: np.ndarray) -> tuple[str, ...]:
    return tuple(str(square) for square in row if square >= 0)


def test_random_games_kernel_replays_play_game() -> None:
    results, moves = kernels.random_games(500, seed0=11, seed1=12)
    x_player = gamelearn.make_player(TICTACTOE, "random", seed=11)
    o_player = gamelearn.make_player(TICTACTOE, "random", seed=12)
    for game in range(500):
        record = gamelearn.play_game(TICTACTOE, [x_player, o_player])
        assert moves_of(moves[game]) == record.moves
        assert results[game] == (kernels.DRAW if record.winner is None else record.winner)


def test_reseeded_random_games_kernel_replays_seeded_play_game() -> None:
    seeds = list(range(1000, 1200))
    results, moves = kernels.random_games_reseeded(seeds)
    players = [gamelearn.make_player(TICTACTOE, "random"), gamelearn.make_player(TICTACTOE, "random")]
    for game, seed in enumerate(seeds):
        record = gamelearn.play_game(TICTACTOE, players, seed=seed)
        assert moves_of(moves[game]) == record.moves


def test_random_games_kernel_matches_the_exact_outcome_probabilities() -> None:
    # Uniformly random play: X wins 737/1260, O wins 121/420, draw 8/63 (summing over the game tree
    # with each move's probability); 20,000 games land within a few standard errors.
    results, _ = kernels.random_games(20_000, seed0=1, seed1=2)
    for outcome, probability in ((0, 737 / 1260), (1, 121 / 420), (kernels.DRAW, 8 / 63)):
        share = float(np.mean(results == outcome))
        assert abs(share - probability) < 4 * (probability * (1 - probability) / 20_000) ** 0.5


def exact_outcome_probabilities() -> dict[int | None, float]:
    memo: dict[Any, dict[int | None, float]] = {}

    def walk(state: Any) -> dict[int | None, float]:
        if state in memo:
            return memo[state]
        if TICTACTOE.is_over(state):
            return {TICTACTOE.winner(state): 1.0}
        moves = TICTACTOE.legal_moves(state)
        total: dict[int | None, float] = {}
        for move in moves:
            for outcome, p in walk(TICTACTOE.play(state, move)).items():
                total[outcome] = total.get(outcome, 0.0) + p / len(moves)
        memo[state] = total
        return total

    return walk(TICTACTOE.initial())


def test_the_quoted_probabilities_are_the_game_trees() -> None:
    exact = exact_outcome_probabilities()
    assert exact[0] == pytest.approx(737 / 1260) and exact[1] == pytest.approx(121 / 420)
    assert exact[None] == pytest.approx(8 / 63)


@pytest.mark.parametrize(("games", "alpha", "epsilon", "symmetry"), [(400, 0.2, 0.1, True), (150, 0.5, 0.3, False)])
def test_td_kernel_learns_the_same_table_as_the_python_player(
    games: int, alpha: float, epsilon: float, symmetry: bool
) -> None:
    player = TDPlayer(TICTACTOE, seed=21, alpha=alpha, epsilon=epsilon, symmetry=symmetry)
    python_results = []
    for _ in range(games):
        record = gamelearn.play_game(TICTACTOE, [player, player], learn=False)
        player.learn(record, None)
        python_results.append(kernels.DRAW if record.winner is None else record.winner)
    table, results = kernels.td_selfplay(games, seed=21, alpha=alpha, epsilon=epsilon, symmetry=symmetry)
    assert results.tolist() == python_results
    assert table.as_dict() == player.values  # exactly: same keys, same floating-point values


def test_td_self_play_through_play_game_learns_each_side_once() -> None:
    # play_game calls learn(record, 0) then learn(record, None) for one player on both sides.
    player = TDPlayer(TICTACTOE, seed=13)
    for _ in range(300):
        gamelearn.play_game(TICTACTOE, [player, player])
    table, _ = kernels.td_selfplay(300, seed=13)
    assert player.games_learnt == 300
    assert table.as_dict() == player.values


def test_kernel_trained_td_player_plays_from_the_kernels_table() -> None:
    player = kernels.train_td_player(TICTACTOE, games=3000, seed=5)
    assert player.games_learnt == 3000 and len(player.values) > 300
    player.train = False
    player.epsilon = 0.0
    opponent = gamelearn.make_player(TICTACTOE, "random", seed=6)
    outcomes = [gamelearn.play_game(TICTACTOE, [player, opponent], seed=s).winner for s in range(100)]
    assert outcomes.count(1) <= 5  # it has learnt not to lose to random play as X
    assert outcomes.count(0) >= 80
