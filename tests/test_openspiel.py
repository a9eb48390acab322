"""The OpenSpiel bridge: each game (every form of Teeko) loads as a pyspiel game, passes OpenSpiel's
own random-simulation test, numbers its actions as the environments do, and OpenSpiel's algorithms
agree with gamelearn's (value iteration against the exact solution of hexapawn on every state)."""

from __future__ import annotations

import itertools
import random
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from extras import need

pyspiel = need("peers", "pyspiel")
from open_spiel.python.algorithms import mcts

import gamelearn
from doc_blocks import python_blocks
from gamelearn.envs.aec import legal_mask, planes
from gamelearn.games.teeko_forms import GOALS, STEPS, SWITCH
from gamelearn.openspiel import SHORT_NAMES, load_game

REPO = Path(__file__).resolve().parent.parent
#: Every form of Teeko: both goal sets, the 16 drop patterns, the centre on and off, king and knight.
TEEKO_FORMS = [
    (goals, "".join(drops), centre, steps)
    for goals, drops, centre, steps in itertools.product(GOALS, itertools.product("sa", repeat=4), SWITCH, STEPS)
]


def test_every_game_and_every_teeko_form_is_registered_under_its_own_name() -> None:
    assert {"gamelearn_teeko", "gamelearn_hexapawn", "gamelearn_tictactoe"} <= set(pyspiel.registered_names())
    assert len(TEEKO_FORMS) == 128
    specs = set()
    for goals, drops, centre, steps in TEEKO_FORMS:
        game = pyspiel.load_game(f"gamelearn_teeko(goals={goals},drops={drops},centre={centre},steps={steps})")
        assert game.rules.form.options() == (("goals", goals), ("drops", drops), ("centre", centre), ("steps", steps))
        specs.add(game.rules.spec)
    assert len(specs) == 128
    spec = "teeko:goals=advanced,steps=knight"
    assert load_game(spec).rules is gamelearn.get_game(spec)


@pytest.mark.parametrize(
    "spec",
    ["tictactoe", "hexapawn", "teeko", "teeko:drops=aaaa,centre=off", "teeko:goals=advanced,drops=asas,steps=knight"],
)
def test_openspiel_random_sim_test_passes(spec: str) -> None:
    game = load_game(spec, max_plies=60) if spec.startswith("teeko") else load_game(spec)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_bad_parameter_is_one_line_naming_it() -> None:
    with pytest.raises(ValueError, match="option 'goals' of game 'teeko': 'fancy' is not one of standard, advanced"):
        pyspiel.load_game("gamelearn_teeko(goals=fancy)")
    with pytest.raises(ValueError, match="max_plies must be"):
        pyspiel.load_game("gamelearn_teeko(max_plies=0)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'max_plies'"):
        pyspiel.load_game("gamelearn_hexapawn(max_plies=5)")  # hexapawn cannot cycle: no limit to set


def random_states(spec: str, games: int, seed: int) -> list[tuple[Any, Any]]:
    """(gamelearn state, bridged state) pairs met in seeded random games, played on both at once."""
    rules = gamelearn.get_game(spec)
    bridged = load_game(spec)
    rng = random.Random(seed)
    pairs = []
    for _ in range(games):
        ours, theirs = rules.initial(), bridged.new_initial_state()
        while True:
            pairs.append((ours, theirs.clone()))
            if theirs.is_terminal():
                break
            action = rng.choice(theirs.legal_actions())
            ours = rules.play(ours, theirs.action_to_string(action))
            theirs.apply_action(action)
    return pairs


@pytest.mark.parametrize("spec", ["tictactoe", "hexapawn", "teeko:drops=aass", "teeko:steps=knight"])
def test_actions_observations_and_turns_are_the_environments(spec: str) -> None:
    rules = gamelearn.get_game(spec)
    for ours, theirs in random_states(spec, games=3, seed=7):
        assert theirs.position == ours
        assert theirs.is_terminal() == rules.is_over(ours) or theirs.plies == 200
        if not theirs.is_terminal():
            assert theirs.current_player() == rules.to_move(ours)
            assert theirs.legal_actions() == list(np.flatnonzero(legal_mask(rules, ours)))
            assert sorted(theirs.action_to_string(a) for a in theirs.legal_actions()) == rules.legal_moves(ours)
        for player in (0, 1):
            board = np.asarray(theirs.observation_tensor(player)).reshape(3, rules.facts.rows, rules.facts.columns)
            assert (board[:2] == planes(rules, ours, player).transpose(2, 0, 1)).all()
            assert (board[2] == 1).all() == (theirs.current_player() == player)


def test_the_information_state_recalls_the_history_the_observation_only_the_board() -> None:
    game = load_game("tictactoe")
    first, second = game.new_initial_state(), game.new_initial_state()
    for action in (0, 4, 8):
        first.apply_action(action)
    for action in (8, 4, 0):  # the same position by another order
        second.apply_action(action)
    assert first.observation_tensor(1) == second.observation_tensor(1)
    assert first.observation_string(1) == second.observation_string(1)
    assert first.information_state_string(1) == "0 4 8" and second.information_state_string(1) == "8 4 0"
    tensor = np.asarray(first.information_state_tensor(1))
    assert tensor.size == game.information_state_tensor_shape()[0] == 27 + 9 * 9
    history = tensor[27:].reshape(9, 9)
    assert [int(row.argmax()) for row in history[:3]] == [0, 4, 8] and not history[3:].any()


def test_the_longest_games_are_the_known_lengths() -> None:
    assert load_game("tictactoe").max_game_length() == 9
    # Hexapawn: 3 White and 3 Black pawns, each at most 2 steps to the far row, and the game ends
    # when one arrives, so under 12 plies; the search of every position says 7.
    assert load_game("hexapawn").max_game_length() == 7
    assert load_game("teeko", max_plies=50).max_game_length() == 50


def test_openspiel_mcts_bot_plays_a_teeko_game_to_the_end() -> None:
    game = load_game("teeko", max_plies=40)
    rng = np.random.RandomState(3)
    bots = [mcts.MCTSBot(game, 2.0, 16, mcts.RandomRolloutEvaluator(1, rng), random_state=rng) for _ in (0, 1)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    # The same moves, replayed by gamelearn's rules, reach the same end.
    rules = gamelearn.get_game("teeko")
    ours = rules.initial()
    for action in state.history():
        ours = rules.play(ours, state.action_to_string(action))
    winner = rules.winner(ours)
    assert state.returns() == ([0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    assert rules.is_over(ours) or len(state.history()) == 40


def openspiel_value_iteration() -> Any:
    """OpenSpiel's value_iteration module.  It imports its LP solver (and so cvxpy, which is not a
    dependency here) for simultaneous-move nodes only; where cvxpy is absent, an empty stand-in is
    given to that import: no game here has such a node, so the stand-in is never called."""
    name = "open_spiel.python.algorithms.lp_solver"
    try:
        import cvxpy  # noqa: F401
    except ModuleNotFoundError:
        sys.modules.setdefault(name, types.ModuleType(name))
    from open_spiel.python.algorithms import value_iteration

    return value_iteration


def test_openspiel_value_iteration_agrees_with_the_exact_solution_of_hexapawn_on_every_state() -> None:
    game = load_game("hexapawn")
    values = openspiel_value_iteration().value_iteration(game, depth_limit=-1, threshold=1e-6)
    solution = gamelearn.solve("hexapawn")
    positions = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        positions[str(state)] = state.position
        stack.extend(state.child(action) for action in state.legal_actions())
    assert len(values) == len(positions) == 135  # every position a game reaches (Gardner 1962)
    rules = gamelearn.get_game("hexapawn")
    for key, position in positions.items():
        for_side_to_move = solution.value(position)
        assert values[key] == pytest.approx(for_side_to_move if rules.to_move(position) == 0 else -for_side_to_move)
    assert values[str(game.new_initial_state())] == -1  # Black wins with best play


def test_the_names_are_the_registered_ones() -> None:
    """The built-in games and every game installed (docs/own-game.md) that loads."""
    broken = gamelearn.games.broken_games()
    found = {name: f"gamelearn_{name}" for name in gamelearn.game_names() if name not in broken}
    assert SHORT_NAMES == found and set(gamelearn.GAME_NAMES) <= set(found)


DOC = python_blocks(REPO / "docs" / "openspiel.md")


@pytest.mark.parametrize("index", range(len(DOC)))
def test_the_openspiel_page_examples_run(index: int) -> None:
    exec(compile(DOC[index], f"docs/openspiel.md python block {index + 1}", "exec"), {"__name__": "openspiel_page"})
