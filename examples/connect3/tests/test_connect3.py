"""Connect Three against independent oracles: an exhaustive count of the positions and a negamax
written here from the rules' text, not from the package's code."""

from __future__ import annotations

from functools import cache

import pytest
from connect3 import ConnectThree

import gamelearn

ROWS = COLUMNS = 4


#: Every three squares in a row, by coordinates: a start and a step that stays on the board.
TRIPLES = [
    [(r + k * dr) * COLUMNS + c + k * dc for k in range(3)]
    for r in range(ROWS)
    for c in range(COLUMNS)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    if 0 <= r + 2 * dr < ROWS and 0 <= c + 2 * dc < COLUMNS
]


def three_in_a_row(board: str, mark: str) -> bool:
    return any(board[a] == board[b] == board[c] == mark for a, b, c in TRIPLES)


def drops(board: str) -> list[str]:
    """Every board one disc later, from the board alone (X moves when the counts are equal)."""
    if three_in_a_row(board, "X") or three_in_a_row(board, "O") or "." not in board:
        return []
    mark = "X" if board.count("X") == board.count("O") else "O"
    after = []
    for c in range(COLUMNS):
        for r in reversed(range(ROWS)):
            if board[r * COLUMNS + c] == ".":
                after.append(board[: r * COLUMNS + c] + mark + board[r * COLUMNS + c + 1 :])
                break
    return after


@cache
def reachable() -> frozenset[str]:
    seen, todo = {"." * 16}, ["." * 16]
    while todo:
        for board in drops(todo.pop()):
            if board not in seen:
                seen.add(board)
                todo.append(board)
    return seen


@cache
def value(board: str) -> int:
    """+1, 0, -1 for the side to move with best play."""
    after = drops(board)
    if not after:
        return -1 if three_in_a_row(board, "X") or three_in_a_row(board, "O") else 0
    return max(-value(child) for child in after)


def test_the_game_is_found_by_its_entry_point() -> None:
    game = gamelearn.get_game("connect3")
    assert isinstance(game, ConnectThree) and "connect3" in gamelearn.game_names()


def test_every_reachable_position_and_only_those() -> None:
    game = gamelearn.get_game("connect3")
    boards = reachable()
    assert len(boards) == 41_750
    seen, todo = {game.initial()}, [game.initial()]
    while todo:
        state = todo.pop()
        assert sorted(game.board(game.play(state, m)) for m in game.legal_moves(state)) == sorted(
            drops(game.board(state))
        )
        for move in game.legal_moves(state):
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert {game.board(state) for state in seen} == boards


def test_gamelearns_solver_agrees_with_a_negamax_of_the_rules() -> None:
    game = gamelearn.get_game("connect3")
    solution = gamelearn.solve(game)
    assert solution.outcome(game.initial())[0] == value("." * 16) == 1
    for board in sorted(reachable())[::97]:
        state = game.from_board(board, 0 if board.count("X") == board.count("O") else 1)
        assert solution.outcome(state)[0] == value(board)


def test_moves_are_the_squares_where_discs_land() -> None:
    game = gamelearn.get_game("connect3")
    assert game.legal_moves(game.initial()) == ["12", "13", "14", "15"]
    state = game.play(game.initial(), "13")
    assert game.legal_moves(state) == ["09", "12", "14", "15"]
    for wrong in ("9", "05", "13", "1", ""):
        with pytest.raises(gamelearn.IllegalMove, match=repr(wrong)):
            game.play(state, wrong)
    with pytest.raises(ValueError, match="would fall"):
        game.from_board("X" + "." * 15, 1)


def test_the_ntuple_learner_learns_it_by_self_play_over_its_board() -> None:
    """The layout comes from the board's 4 rows and 4 columns; 4,000 self-play games teach a frozen
    copy to keep the value in at least 95% of the suite's positions, where a random player keeps
    far fewer (the suite: positions where some move loses value, graded by gamelearn's solver,
    which the negamax above checks)."""
    from gamelearn.experiments.grading import grade_player
    from gamelearn.experiments.suites import get_suite

    game = gamelearn.get_game("connect3")
    learner = gamelearn.make_player(game, "ntuple", seed=3)
    assert learner.trainer.layout.name == "connect3-board-4x4-v1"
    learner.self_play(20)  # 20 batches of 200 games
    frozen = gamelearn.make_player(game, "ntuple:train=off", seed=3)
    frozen.load(learner.knowledge())
    suite = get_suite(game)
    learnt = grade_player(frozen, suite).keeps
    chance = grade_player(gamelearn.make_player(game, "random", seed=3), suite).keeps
    assert learnt >= 0.95 and chance < 0.9


def test_the_environments_pass_their_own_checkers() -> None:
    """PettingZoo's api_test on the AEC environment, Gymnasium's check_env on the single-agent one,
    and OpenSpiel's random simulation test on the bridged game."""
    import gymnasium
    import pyspiel
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    import gamelearn.envs
    import gamelearn.openspiel

    api_test(gamelearn.envs.env("connect3"), num_cycles=100)
    single = gymnasium.make("gamelearn/connect3-v0", opponent="random")
    check_env(single.unwrapped, skip_render_check=True)
    assert single.action_space.n == 16  # every square is some column's landing square
    pyspiel.random_sim_test(gamelearn.openspiel.load_game("connect3"), num_sims=20, serialize=False, verbose=False)
