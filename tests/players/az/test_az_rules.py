"""The az player's JAX rules agree with the rules of record (gamelearn.games): on every reachable
tic-tac-toe and hexapawn position (legal moves, winner, the end, every move's result) and along
random Teeko and Connect Four games (Connect Four's Python rules are themselves checked against
OpenSpiel's ``connect_four``, tests/games/)."""

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
    rules = rules_for(game)
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
    after, reward = jax.tree_util.tree_map(np.asarray, after), np.asarray(reward)  # read on the host once
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


def random_game(game, rng):
    """A random game of ``game``: (its states start to end, its moves)."""
    states, moves = [game.initial()], []
    while not game.is_over(states[-1]):
        moves.append(rng.choice(game.legal_moves(states[-1])))
        states.append(game.play(states[-1], moves[-1]))
    return states, moves


def random_games(game, seed, count, drawn=False):
    """``count`` seeded random games of ``game``, each (its states start to end, its moves); with
    ``drawn``, the first drawn game of the same seed's games too (one in about 200 on 7x6)."""
    rng = random.Random(seed)
    games = [random_game(game, rng) for _ in range(count)]
    while drawn:
        states, moves = random_game(game, rng)
        if game.winner(states[-1]) is None:
            games.append((states, moves))
            drawn = False
    return games


def play_in_lockstep(game, games):
    """Play ``games`` (states and moves) at once, move by move, by the JAX rules alone (one vmapped
    ``step`` a ply from the JAX start, the Python rules only choosing the moves), checking after
    every ply each game's position, side to move, plies, winner, end and legal actions against the
    Python rules; a finished game's slot must stay as it is, whatever action it is given."""
    rules = rules_for(game)
    step, legal = jax.jit(jax.vmap(rules.step)), jax.jit(jax.vmap(rules.legal))
    positions = jax.vmap(lambda _: rules.initial())(np.arange(len(games)))
    for ply in range(max(len(states) for states, _ in games)):
        now = [states[min(ply, len(states) - 1)] for states, _ in games]
        got = jax.tree_util.tree_map(np.asarray, positions)
        allowed = np.asarray(legal(positions))
        for k, state in enumerate(now):
            expected = rules.encode(game, state)
            assert np.array_equal(got.board[k], expected.board), (ply, k, game.board(state))
            assert (got.to_move[k], got.plies[k], got.winner[k]) == (
                expected.to_move,
                expected.plies,
                expected.winner,
            )
            assert bool(got.over[k]) == game.is_over(state)
            assert [rules.moves[a] for a in np.flatnonzero(allowed[k])] == game.legal_moves(state)
        # a finished game is given column 0 (any action): its slot must not change
        actions = np.array([rules.action_of(moves[ply]) if ply < len(moves) else 0 for _, moves in games])
        positions, reward = step(positions, actions)
        reward = np.asarray(reward)  # read on the host once, not a device slice for each game
        for k, (states, _) in enumerate(games):
            won = ply + 1 < len(states) and game.winner(states[ply + 1]) == game.to_move(states[ply])
            assert float(reward[k]) == (1.0 if won else 0.0)
    return rules


@pytest.mark.parametrize(
    ("spec", "count", "drawn"),
    [("connect4", 24, True), ("connect4:columns=4,rows=4", 24, True), ("connect4:columns=9,rows=8", 8, False)],
)
def test_random_connect4_games_move_by_move(spec, count, drawn):
    """Seeded random games, played at once by the JAX rules from their own start (a vmapped batch,
    ply by ply), agree with the Python rules at every ply; and every move from every position met
    gives the Python rules' next position, winner, end and reward."""
    game = get_game(spec)
    games = random_games(game, seed=11, count=count, drawn=drawn)
    ends = [game.winner(states[-1]) for states, _ in games]
    assert {0, 1} <= set(ends) and (None in ends or not drawn)  # wins by both sides, a full board drawn
    rules = play_in_lockstep(game, games)
    assert (rules.rows, rules.columns, rules.actions, rules.max_plies) == (
        game.rows,
        game.columns,
        game.columns,
        game.rows * game.columns,
    )
    check_positions(game, [state for states, _ in games for state in states])


def test_connect4_lines_are_the_games_fours():
    """On boards of one side's discs strewn at random (any board, not only reachable ones), the JAX
    rules see a winner exactly where the game's own bitboard test (shifts, no table) finds four."""
    from gamelearn.games.connect4 import has_four

    rng = np.random.default_rng(5)
    for spec in ("connect4", "connect4:columns=4,rows=4", "connect4:columns=9,rows=8"):
        game = get_game(spec)
        rules = rules_for(game)
        discs = rng.random((600, rules.squares)) < rng.uniform(0.1, 0.5, (600, 1))
        fours = [
            has_four(sum(bit for bit, on in zip(game.square_bits, row, strict=True) if on), game.height)
            for row in discs
        ]
        assert 0 < sum(fours) < len(fours)
        winner_of = jax.jit(jax.vmap(rules._winner, in_axes=(0, None)))  # compiled once, not op by op
        for disc, side in ((1, 0), (-1, 1)):
            winners = winner_of(disc * discs.astype(np.int8), np.int32(0))
            assert np.array_equal(np.asarray(winners) == side, np.array(fours))
            assert np.all(np.asarray(winners)[~np.array(fours)] == -1)


def test_action_numbers_are_the_environments():
    from gamelearn.envs.actions import codec, codec_for

    for name in ("tictactoe", "hexapawn", "teeko"):
        assert action_moves(name) == codec(name).moves
    for spec in ("connect4", "connect4:columns=5,rows=4"):
        game = get_game(spec)
        assert rules_for(game).moves == codec_for(game).moves == tuple(game.legal_moves(game.initial()))


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn", "teeko", "connect4"])
def test_the_rules_commute_with_the_symmetries(name):
    """For each symmetry: the legal actions of the transformed position are the transformed legal
    actions, and every move played then transformed is the transformed move played on the
    transformed position (board, winner, end)."""
    from gamelearn.players.az.symmetry import symmetries

    game = get_game(name)
    rules = rules_for(name)
    if name == "connect4":
        states = [state for states, _ in random_games(game, seed=3, count=6) for state in states]
    elif name == "teeko":
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
    assert len(found) == (2 if name in ("hexapawn", "connect4") else 8)
    assert len({tuple(s.squares) for s in found}) == len(found)  # all different
    batch = jax.tree_util.tree_map(lambda *xs: np.stack(xs), *(rules.encode(game, s) for s in states))
    # compiled once each (as check_positions does), not op by op for every symmetry
    legal_of, step = jax.jit(jax.vmap(rules.legal)), jax.jit(jax.vmap(rules.step))
    legal = np.asarray(legal_of(batch))
    pairs = [(i, int(a)) for i in range(len(states)) for a in np.flatnonzero(legal[i])]
    sources = jax.tree_util.tree_map(lambda x: x[np.array([i for i, _ in pairs])], batch)
    actions = np.array([a for _, a in pairs])
    after, _ = step(sources, actions)
    for symmetry in found:
        where_action = np.argsort(symmetry.actions)  # action a becomes where_action[a]
        turned = batch._replace(board=batch.board[:, symmetry.squares])
        assert np.array_equal(np.asarray(legal_of(turned)), legal[:, symmetry.actions])
        turned_sources = sources._replace(board=sources.board[:, symmetry.squares])
        turned_after, _ = step(turned_sources, where_action[actions])
        assert np.array_equal(np.asarray(turned_after.board), np.asarray(after.board)[:, symmetry.squares])
        assert np.array_equal(np.asarray(turned_after.winner), np.asarray(after.winner))
        assert np.array_equal(np.asarray(turned_after.over), np.asarray(after.over))
    if name == "connect4":  # the mirror is the game's own (its transform)
        mirrored = [rules.encode(game, game.transform(state, 1)).board for state in states]
        assert np.array_equal(batch.board[:, found[1].squares], np.stack(mirrored))
        assert [rules.moves[a] for a in found[1].actions] == [game.transform_move(m, 1) for m in rules.moves]
