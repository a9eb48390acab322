"""Tic-tac-toe and hexapawn solved by exhaustive search, checked against known figures and a plain
recursive negamax with no memory; grades follow their definitions."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

import gamelearn
from gamelearn.solver import Grade
from gamelearn.solver.base import outcome_key


def plain_negamax(game: Any, state: Any) -> tuple[int, int | None]:
    """(value, distance) by brute force: no memo, no symmetry, straight from the rules."""
    if game.is_over(state):
        return (-1, 0) if game.winner(state) is not None else (0, None)
    results = []
    for move in game.legal_moves(state):
        value, distance = plain_negamax(game, game.play(state, move))
        results.append((-value, None if distance is None else distance + 1))
    wins = [d for v, d in results if v > 0]
    if wins:
        return (1, min(wins))
    if any(v == 0 for v, _ in results):
        return (0, None)
    return (-1, max(d for _, d in results))


def random_positions(game: Any, count: int, seed: int, min_plies: int = 0) -> list[Any]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(min_plies, 9)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        found.append(state)
    return found


def test_tictactoe_is_a_draw_over_5478_positions() -> None:
    solution = gamelearn.solve("tictactoe")
    game = solution.game
    assert solution.value(game.initial()) == 0
    assert solution.distance(game.initial()) is None
    facts = solution.summary()
    assert facts["positions"] == 5478  # the well-known count of legal tic-tac-toe positions
    assert facts["finished"] == 958  # and of finished games' final positions
    assert solution.best_moves(game.initial()) == game.legal_moves(game.initial())  # every first move draws


def test_hexapawn_is_won_by_black() -> None:
    solution = gamelearn.solve("hexapawn")
    game = solution.game
    assert solution.value(game.initial()) == -1  # White, to move, loses: Black wins (Gardner 1962)
    assert solution.distance(game.initial()) == 6
    assert solution.summary()["positions"] == 135


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_values_and_distances_match_plain_search(name: str) -> None:
    solution = gamelearn.solve(name)
    game = solution.game
    for state in random_positions(game, 60, seed=7, min_plies=2 if name == "tictactoe" else 0):
        assert solution.outcome(state) == plain_negamax(game, state)


def test_grades_follow_their_definitions() -> None:
    solution = gamelearn.solve("tictactoe")
    game = solution.game
    seen: set[Grade] = set()
    for state in random_positions(game, 150, seed=3, min_plies=3):
        if game.is_over(state):
            assert solution.best_moves(state) == []
            continue
        value, distance = solution.outcome(state)
        best = solution.best_moves(state)
        for move in game.legal_moves(state):
            child_value, child_distance = plain_negamax(game, game.play(state, move))
            mine = (-child_value, None if child_distance is None else child_distance + 1)
            grade = solution.grade(state, move)
            seen.add(grade)
            drop = value - mine[0]
            if drop == 2:
                assert grade is Grade.BLUNDER
            elif drop == 1:
                assert grade is Grade.MISTAKE
            elif mine == (value, distance):
                assert grade is Grade.BEST and move in best
            else:
                assert grade is Grade.KEEPS and move not in best
                assert outcome_key(mine) < outcome_key((value, distance))
    assert seen == set(Grade)  # every grade occurs, so none of the branches above is idle


def test_analysis_is_sorted_best_first_and_a_win_is_taken_at_once() -> None:
    solution = gamelearn.solve("tictactoe")
    game = solution.game
    state = game.initial()
    for move in ["0", "3", "1", "4"]:  # X on 0 and 1, O on 3 and 4: X to move wins at once on 2
        state = game.play(state, move)
    assert solution.outcome(state) == (1, 1)
    assert solution.best_moves(state) == ["2"]
    rows = solution.analyze(state)
    assert rows[0].move == "2" and rows[0].grade is Grade.BEST
    assert [outcome_key((r.value, r.distance)) for r in rows] == sorted(
        (outcome_key((r.value, r.distance)) for r in rows), reverse=True
    )
    assert solution.grade(state, "8") is Grade.BLUNDER  # O then completes 3-4-5
    with pytest.raises(gamelearn.IllegalMove):
        solution.grade(state, "0")


def test_solve_is_callable_from_the_package_and_refuses_unknown_options() -> None:
    assert gamelearn.solve("tictactoe") is gamelearn.solve(gamelearn.get_game("tictactoe"))
    with pytest.raises(ValueError, match="no solve options"):
        gamelearn.solve("hexapawn", build=True)


def test_the_solve_function_and_the_solver_package_live_side_by_side() -> None:
    """``gamelearn.solve`` is the function and ``gamelearn.solver`` its package, in a fresh process,
    whichever is imported first."""
    program = (
        "import gamelearn.solver.kernels as k\n"
        "from gamelearn.solver import kernels, solve\n"
        "import gamelearn\n"
        "game = gamelearn.get_game('tictactoe')\n"
        "assert k is kernels and gamelearn.solver.kernels is kernels\n"
        "assert gamelearn.solve(game) is solve('tictactoe') and gamelearn.solve is solve\n"
        "print(gamelearn.solve(game).value(game.initial()))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


def test_the_bitboard_pass_agrees_with_the_search_over_the_public_api() -> None:
    """gamelearn.solve's first tic-tac-toe solve runs over bitboards (solver/tictactoe.py); the generic
    search over legal_moves/play, with no help, finds the same outcome for every reachable position."""
    from gamelearn.solver.exhaustive import ExhaustiveSolution
    from gamelearn.solver.tictactoe import outcomes

    game = gamelearn.get_game("tictactoe")
    generic = ExhaustiveSolution(game)
    fast = outcomes()
    assert generic.reachable == len(fast) == 5478
    for position, outcome in fast.items():
        assert generic.outcome(game.from_board(game.board(position), game.to_move(position))) == outcome  # type: ignore[arg-type]
    assert gamelearn.solve(game).reachable == 5478
