"""az's self-play batching: every game it collects is a legal game of the rules of record, replayed
move by move, that ends where they say it ends (or at the ply limit); with busy slots no ply of any
slot is wasted on a finished game; and the same seed plays the same games."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from extras import need

jax = need("neural", "jax")

import gamelearn
from gamelearn.players.az.game_rules import rules_for
from gamelearn.players.az.settings import Settings
from gamelearn.players.az.training import Trainer

pytestmark = pytest.mark.slow  # az: JAX's batched self-play

#: Hexapawn (its games last 3 to 7 plies; 3 or 4 with this search), 8 slots, 2 plies a batch, games
#: cut off at 3 plies: games both end by the rules and reach the ply limit, and all go on from one
#: batch into the next.
BUSY = Settings(
    games_per_batch=8,
    simulations=4,
    max_plies=3,
    buffer=2_000,
    batch_size=32,
    updates_per_batch=1,
    learning_rate=1e-2,
    random_plies=2,
    plies_per_batch=2,
)
BATCHES = 5


def play(settings, seed, batches=BATCHES):
    trainer = Trainer("hexapawn", seed, settings=settings)
    return trainer, [trainer.play_games() for _ in range(batches)]


@pytest.fixture(scope="module")
def busy():
    return play(BUSY, seed=3)


@cache
def compiled(rules):
    """``rules``' planes and legal actions, compiled once (called eagerly, each ply ran them op by op)."""
    return jax.jit(rules.planes), jax.jit(rules.legal)


def replay(game, rules, trajectory, max_plies):
    """Check ``trajectory`` against the Python rules, move by move; the final state."""
    planes_of, legal_of = compiled(rules)
    state = game.initial()
    for planes, legal, policy, mover, action in zip(
        trajectory.planes, trajectory.legal, trajectory.policy, trajectory.movers, trajectory.actions, strict=True
    ):
        assert not game.is_over(state)
        encoded = rules.encode(game, state)
        assert np.array_equal(planes, np.asarray(planes_of(encoded)))
        assert np.array_equal(legal, np.asarray(legal_of(encoded)))
        assert mover == game.to_move(state)
        assert np.all(policy[~legal] == 0) and abs(float(policy.sum()) - 1) < 1e-5
        move = rules.moves[int(action)]
        assert move in game.legal_moves(state)
        state = game.play(state, move)
    if game.is_over(state):
        winner = game.winner(state)
        assert trajectory.winner == (-1 if winner is None else winner)
    else:
        assert len(trajectory) == max_plies and trajectory.winner == -1
    return state


def test_busy_slots_collect_legal_whole_games_and_waste_no_ply(busy):
    trainer, batches = busy
    game, rules = gamelearn.get_game("hexapawn"), rules_for("hexapawn")
    games = [g for batch in batches for g in batch]
    ends = [game.is_over(replay(game, rules, g, BUSY.max_plies)) for g in games]
    assert any(ends) and not all(ends)  # some ended by the rules, some at the ply limit
    assert max(len(g) for g in games) > BUSY.plies_per_batch  # those went on into the next batch
    # every slot held an unfinished game at every ply: the plies played are all collected or going on
    played = sum(len(g) for g in games) + trainer.self_play_slots.unfinished_positions
    assert played == BATCHES * BUSY.plies_per_batch * BUSY.games_per_batch
    # the buffer holds the collected games' positions in order, each with its game's result
    assert trainer.games == len(games) and trainer.positions == trainer.buffer.size == sum(len(g) for g in games)
    assert np.array_equal(trainer.buffer.value[: trainer.buffer.size], np.concatenate([g.values() for g in games]))
    assert np.array_equal(trainer.buffer.planes[: trainer.buffer.size], np.concatenate([g.planes for g in games]))


def test_whole_games_end_within_their_batch():
    settings = replace(BUSY, plies_per_batch=0)
    trainer, batches = play(settings, seed=3, batches=2)
    game, rules = gamelearn.get_game("hexapawn"), rules_for("hexapawn")
    assert [len(batch) for batch in batches] == [settings.games_per_batch] * 2
    for trajectory in (g for batch in batches for g in batch):
        replay(game, rules, trajectory, settings.max_plies)
    assert trainer.self_play_slots.unfinished_positions == 0


def test_the_same_seed_plays_the_same_games(busy):
    _, first = busy
    _, again = play(BUSY, seed=3)
    _, other = play(BUSY, seed=4)

    def flat(batches):
        return [(g.winner, g.actions.tolist(), g.policy.tobytes()) for batch in batches for g in batch]

    assert flat(first) == flat(again)
    assert [len(b) for b in first] == [len(b) for b in again]
    assert flat(first) != flat(other)


def test_connect4_self_play_plays_legal_games_through_the_search():
    """mctx's search over Connect Four's JAX rules (a small net, busy slots): every game collected
    replays move by move by the game's own rules and ends as they say (the ply limit is the full
    board, so no game is cut off), the mirror augmenting the buffer."""
    from gamelearn.players.az.network import NetworkShape

    game = gamelearn.get_game("connect4")
    rules = rules_for(game)
    settings = Settings(4, 4, rules.max_plies, 2_000, 16, 1, 1e-2, random_plies=4, considered=8, plies_per_batch=12)
    trainer = Trainer(game, 5, shape=NetworkShape("resnet", 8, 1), settings=settings)
    games = [g for _ in range(4) for g in trainer.play_games()]
    assert len(games) >= 2 and len(trainer.buffer.square_tables) == 2
    for trajectory in games:
        assert game.is_over(replay(game, rules, trajectory, settings.max_plies))
