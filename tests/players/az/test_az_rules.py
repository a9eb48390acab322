"""The az player's JAX rules agree with the rules of record (gamelearn.games): on every reachable
tic-tac-toe and hexapawn position (legal moves, winner, the end, every move's result) and along
random Teeko games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from extras import need

jax = need("neural", "jax")

from gamelearn.games import get_game
from gamelearn.players.az.game_rules import rules_for
from gamelearn.players.az.rules import action_moves

pytestmark = pytest.mark.slow  # az: JAX's rules over every reachable position


def reachable(game):
    start = game.initial()
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return sorted(seen, key=lambda s: (game.board(s), game.to_move(s)))


def check_positions(game, states):
    """Every state, and every move from it, against the Python rules (batched: one call each)."""
    rules = rules_for(game.name)
    encoded = [rules.encode(game, state) for state in states]
    batch = jax.tree_util.tree_map(lambda *xs: np.stack(xs), *encoded)
    legal = np.asarray(jax.jit(jax.vmap(rules.legal))(batch))
    moves = rules.moves
    pairs = []
    for index, state in enumerate(states):
        expected = sorted(game.legal_moves(state))
        got = sorted(moves[a] for a in np.flatnonzero(legal[index]))
        assert got == expected, (game.board(state), game.to_move(state))
        pairs.extend((index, rules.action_of(move), game.play(state, move)) for move in expected)
    # Every move: the next position and the reward for its player.
    sources = jax.tree_util.tree_map(lambda x: x[np.array([p[0] for p in pairs])], batch)
    actions = np.array([p[1] for p in pairs])
    after, reward = jax.jit(jax.vmap(rules.step))(sources, actions)
    after = jax.tree_util.tree_map(np.asarray, after)
    for k, (index, _, state) in enumerate(pairs):
        expected = rules.encode(game, state)
        assert np.array_equal(after.board[k], np.asarray(expected.board))
        assert after.to_move[k] == game.to_move(state)
        winner = game.winner(state)
        assert after.winner[k] == (-1 if winner is None else winner)
        assert bool(after.over[k]) == game.is_over(state)
        assert reward[k] == (1.0 if winner == game.to_move(states[index]) else 0.0)
    return len(states), len(pairs)


def test_every_reachable_tictactoe_position_and_move():
    game = get_game("tictactoe")
    states = reachable(game)
    assert check_positions(game, states) == (5478, 16167)  # the known counts: positions, and edges


def test_every_reachable_hexapawn_position_and_move():
    game = get_game("hexapawn")
    states = reachable(game)
    assert len(states) == 135
    check_positions(game, states)


def test_random_teeko_games():
    game = get_game("teeko")
    rng = random.Random(7)
    states = []
    for _ in range(16):
        state = game.initial()
        for _ in range(100):
            states.append(state)
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
    assert any(game.is_over(s) for s in states) and any(not game.placing(s) for s in states)
    check_positions(game, states)


def test_action_numbers_are_the_environments():
    from gamelearn.envs.actions import codec

    for name in ("tictactoe", "hexapawn", "teeko"):
        assert action_moves(name) == codec(name).moves


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn", "teeko"])
def test_the_rules_commute_with_the_symmetries(name):
    """For each symmetry: the legal actions of the transformed position are the transformed legal
    actions, and every move played then transformed is the transformed move played on the
    transformed position (board, winner, end)."""
    from gamelearn.players.az.symmetry import symmetries

    game = get_game(name)
    rules = rules_for(name)
    if name == "teeko":
        rng = random.Random(3)
        states = []
        for _ in range(6):
            state = game.initial()
            for _ in range(30):
                states.append(state)
                if game.is_over(state):
                    break
                state = game.play(state, rng.choice(game.legal_moves(state)))
    else:
        states = reachable(game)
    found = symmetries(rules)
    assert len(found) == (2 if name == "hexapawn" else 8)
    assert len({tuple(s.squares) for s in found}) == len(found)  # all different
    batch = jax.tree_util.tree_map(lambda *xs: np.stack(xs), *(rules.encode(game, s) for s in states))
    legal = np.asarray(jax.vmap(rules.legal)(batch))
    pairs = [(i, int(a)) for i in range(len(states)) for a in np.flatnonzero(legal[i])]
    sources = jax.tree_util.tree_map(lambda x: x[np.array([i for i, _ in pairs])], batch)
    actions = np.array([a for _, a in pairs])
    after, _ = jax.vmap(rules.step)(sources, actions)
    for symmetry in found:
        where_action = np.argsort(symmetry.actions)  # action a becomes where_action[a]
        turned = batch._replace(board=batch.board[:, symmetry.squares])
        assert np.array_equal(np.asarray(jax.vmap(rules.legal)(turned)), legal[:, symmetry.actions])
        turned_sources = sources._replace(board=sources.board[:, symmetry.squares])
        turned_after, _ = jax.vmap(rules.step)(turned_sources, where_action[actions])
        assert np.array_equal(np.asarray(turned_after.board), np.asarray(after.board)[:, symmetry.squares])
        assert np.array_equal(np.asarray(turned_after.winner), np.asarray(after.winner))
        assert np.array_equal(np.asarray(turned_after.over), np.asarray(after.over))
