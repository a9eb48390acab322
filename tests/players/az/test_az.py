"""The az player: seeded training replays exactly, knowledge round-trips, mctx's search with exact
values finds the moves of perfect play, and learning from a game record changes the network."""

from __future__ import annotations

import json

import numpy as np
import pytest

from extras import need

jax = need("neural", "jax")
need("neural", "mctx")
import jax.numpy as jnp

import gamelearn
from gamelearn.players.az.game_rules import rules_for
from gamelearn.players.az.network import NetworkShape, make_network
from gamelearn.players.az.player import AzPlayer
from gamelearn.players.az.rules import Position
from gamelearn.players.az.search import search
from gamelearn.players.az.settings import Settings
from gamelearn.players.registry import make_player

pytestmark = pytest.mark.slow  # az: JAX's import, compilation and training

#: Tiny training settings: a test compiles and runs in seconds.
TINY = Settings(
    games_per_batch=8, simulations=4, max_plies=9, buffer=500, batch_size=32, updates_per_batch=2, learning_rate=1e-2
)


def tiny(game_name="tictactoe", seed=1, **options):
    return AzPlayer(gamelearn.get_game(game_name), seed=seed, settings=TINY, simulations=4, **options)


def arrays(player):
    params, state = player.trainer.arrays()
    return params + state


def reachable(game):
    start = game.initial()
    seen, frontier = {start}, [start]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return sorted(seen, key=lambda s: (game.board(s), game.to_move(s)))


def test_the_same_seed_trains_the_same_network_step_for_step():
    first, second, other = tiny(seed=5), tiny(seed=5), tiny(seed=6)
    for player in (first, second, other):
        player.self_play(2)
    assert first.trainer.steps == 2 * TINY.updates_per_batch and first.trainer.games == 2 * TINY.games_per_batch
    assert all(np.array_equal(a, b) for a, b in zip(arrays(first), arrays(second), strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(arrays(first), arrays(other), strict=True))


def test_knowledge_round_trips_through_json():
    player = tiny(seed=2)
    player.self_play(1)
    value = json.loads(json.dumps(player.knowledge()))
    copy = tiny(seed=99, train=False)
    copy.load(value)
    assert copy.knowledge() == value
    assert all(np.array_equal(a, b) for a, b in zip(arrays(player), arrays(copy), strict=True))
    game = player.game
    states = [s for s in reachable(game) if not game.is_over(s)][:200]
    frozen = make_player(game, "az:simulations=4,train=off", seed=3)
    frozen.trainer.settings = TINY
    with pytest.raises(ValueError):  # the default settings differ: a knowledge value carries its own
        frozen.trainer.set_arrays([], [])
    mirror = tiny(seed=3, train=False)
    mirror.load(value)
    assert mirror.choose_many(states) == copy.choose_many(states)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda k: k.update(game="teeko"), "is for 'teeko'"),
        (lambda k: k.update(arrays="not base64!"), "base64"),
        (lambda k: k.update(steps=-1), "steps must be"),
        (lambda k: k.update(network={"kind": "mlp", "width": 8, "depth": 1}), "network"),
        (lambda k: k.update(format="menace"), "format"),
    ],
)
def test_load_refuses_a_bad_value_and_changes_nothing(change, message):
    player = tiny(seed=4)
    before = player.knowledge()
    bad = player.knowledge()
    change(bad)
    with pytest.raises(ValueError, match=message):
        player.load(bad)
    assert player.knowledge() == before


def test_load_refuses_arrays_of_another_shape():
    player = tiny(seed=4)
    other = tiny(game_name="hexapawn", seed=4).knowledge()
    value = player.knowledge() | {"arrays": other["arrays"]}
    with pytest.raises(ValueError, match="array"):
        player.load(value)


def test_learning_from_a_game_record_moves_the_weights_and_a_frozen_copy_learns_nothing():
    game = gamelearn.get_game("tictactoe")
    learner, frozen = tiny(seed=8), tiny(seed=8, train=False)
    opponent = make_player(game, "random", seed=1)
    before = learner.knowledge()
    for player in (learner, frozen):
        gamelearn.play_game(game, [player, opponent], seed=3)
    after = learner.knowledge()
    assert after["games"] == 1 and after["steps"] > 0
    lesson = learner.lesson(before, after)
    assert lesson and "1 game(s) learnt" in lesson.text
    assert frozen.knowledge() == before | {"seed": frozen.trainer.seed}
    assert not frozen.lesson(before, frozen.knowledge())


def exact_evaluator(game, exact=True):
    """Uniform prior, and each position's exact value from the solution, nudged by its distance so
    that a faster win (a slower loss) is worth more: the values perfect play maximises.  With
    ``exact=False`` every value is 0: only the rules' rewards (a won game) inform the search."""
    solution = gamelearn.solve(game)
    rules = rules_for(game.name)
    powers = 3 ** np.arange(9)
    table = np.zeros(2 * 3**9, np.float32)  # (board in base 3, side to move) -> value
    for state in reachable(game) if exact else ():
        position = rules.encode(game, state)
        value, distance = solution.outcome(state)
        table[int(np.dot(position.board % 3, powers)) * 2 + game.to_move(state)] = value * (1 - 0.01 * (distance or 0))

    def evaluate(params, positions: Position):
        index = jnp.sum((positions.board.astype(jnp.int32) % 3) * jnp.asarray(powers), axis=-1) * 2 + positions.to_move
        return jnp.zeros((positions.board.shape[0], rules.actions)), params[index]

    return evaluate, jnp.asarray(table)


def searched_grades(game, states, exact, simulations):
    """The grade of the move the search picks in each state.  With as many simulations as a state
    has moves, Gumbel search's first round visits each move once, and the pick is the best-valued."""
    solution = gamelearn.solve(game)
    rules = rules_for(game.name)
    evaluate, table = exact_evaluator(game, exact)
    run = jax.jit(
        lambda table, key, batch, count: search(rules, evaluate, table, key, batch, count, 0.0).action, static_argnums=3
    )
    batch = Position(*(np.stack(column) for column in zip(*(rules.encode(game, s) for s in states), strict=True)))
    actions = run(table, jax.random.PRNGKey(0), batch, simulations)
    return [solution.grade(s, rules.moves[int(a)]).value for s, a in zip(states, np.asarray(actions), strict=True)]


@pytest.mark.parametrize(("game_name", "moves", "count"), [("tictactoe", 4, 1140), ("hexapawn", 3, 19)])
def test_mctx_with_a_uniform_prior_and_exact_values_plays_perfectly(game_name, moves, count):
    game = gamelearn.get_game(game_name)
    states = [s for s in reachable(game) if not game.is_over(s) and len(game.legal_moves(s)) == moves]
    assert len(states) == count
    grades = searched_grades(game, states, True, moves)
    assert grades.count("best") == len(states), {g: grades.count(g) for g in set(grades)}


def test_mctx_with_no_values_still_takes_a_win_in_one():
    """The rules' reward alone (values 0, prior uniform): a move that wins at once is found."""
    game = gamelearn.get_game("tictactoe")
    solution = gamelearn.solve(game)
    states = [
        s
        for s in reachable(game)
        if not game.is_over(s) and any(game.winner(game.play(s, m)) is not None for m in game.legal_moves(s))
    ]
    grades = searched_grades(game, states[:300], False, 9)
    assert len(grades) == min(300, len(states)) and set(grades) == {"best"}
    assert all(solution.distance(s) == 1 for s in states[:300])


def test_weights_round_trip_through_the_store_by_the_keeper(tmp_path):
    from gamelearn.keeper import Keeper
    from gamelearn.store.store import Store

    game = gamelearn.get_game("tictactoe")
    player = AzPlayer(game, seed=11, settings=TINY, simulations=4, name="kept")
    player.self_play(1)
    with Store(tmp_path / "store.sqlite3") as store:
        keeper = Keeper(store)
        keeper.save(player)
        again = AzPlayer(game, seed=12, settings=TINY, simulations=4, name="kept", train=False)
        assert keeper.attach(again)
        assert again.knowledge() == player.knowledge()
        # a game taught through the keeper is applied to the stored network and written back
        learner = AzPlayer(game, seed=13, settings=TINY, simulations=4, name="kept")
        keeper.attach(learner)
        record = gamelearn.play_game(game, [learner, make_player(game, "random", seed=1)], seed=2, learn=False)
        [kept] = keeper.keep(record, [(learner, 0)])
        assert kept.lesson and store.load_learner("az", "kept")["steps"] == player.trainer.steps + 4


@pytest.mark.slow
def test_gamelearn_train_keeps_the_network_and_goes_on_from_it(tmp_path):
    import subprocess
    import sys

    # The run's JAX cache (tests/conftest.py) keeps every function the first command compiles,
    # however quickly: the second loads them all instead of compiling the small ones again.
    env = {
        **__import__("os").environ,
        "GAMELEARN_HOME": str(tmp_path),
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
    }
    command = [sys.executable, "-m", "gamelearn.cli.main", "train", "hexapawn", "az", "--name", "h", "--games", "64"]
    first = subprocess.run(
        [*command, "--checkpoints", "1", "--json"], capture_output=True, text=True, env=env, timeout=240
    )
    assert first.returncode == 0, first.stderr
    [point] = json.loads(first.stdout)["checkpoints"]
    assert point["games"] == 64 and point["steps"] == 8 and point["seconds"] > 0
    # graded on the suite, as `gamelearn grade` and `gamelearn curves` grade: shares of its positions
    assert 0 <= point["blunders"] <= 1 - point["keeps"] and point["best"] <= point["keeps"] <= 1
    second = subprocess.run(
        [*command, "--checkpoints", "1", "--no-grade"], capture_output=True, text=True, env=env, timeout=240
    )
    assert second.returncode == 0 and "Going on with az 'h'" in second.stdout, second.stderr
    from gamelearn.store.store import Store

    with Store(tmp_path / "gamelearn.sqlite3") as store:
        assert store.load_learner("az", "h")["games"] == 128
    bad = subprocess.run(
        [*command[:4], "tictactoe", "menace", "--name", "m", "--games", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def channel_first_reference(model, planes):
    """The Teeko network as it was computed before: Equinox's own channel-first ``Conv2d`` calls."""
    x = jax.nn.relu(model.stem(planes))
    for block in model.blocks:
        x = jax.nn.relu(x + block.second(jax.nn.relu(block.first(x))))
    logits = model.policy(jax.nn.relu(model.policy_conv(x)).reshape(-1))
    v = jax.nn.relu(model.value_hidden(jax.nn.relu(model.value_conv(x)).reshape(-1)))
    return logits, jnp.tanh(model.value(v)[0])


@pytest.mark.parametrize("shape", [NetworkShape("resnet", 8, 2), NetworkShape("resnet", 32, 3)])
def test_the_channel_last_network_gives_the_channel_first_outputs_for_the_same_weights(shape):
    rules = rules_for("teeko")
    model = make_network(shape, 5, 5, rules.actions, jax.random.PRNGKey(3))
    rng = np.random.default_rng(4)
    board = rng.choice(np.array([-1, 0, 1], np.int8), size=(16, 25))
    positions = Position(
        board, np.int32(np.arange(16) % 2), np.zeros(16, np.int32), np.zeros(16, bool), -np.ones(16, np.int32)
    )
    # each compiled once, as the player runs its network, not op by op
    planes = jax.jit(jax.vmap(rules.planes))(positions)
    logits, values = jax.jit(jax.vmap(model))(planes)
    old_logits, old_values = jax.jit(jax.vmap(lambda p: channel_first_reference(model, p)))(planes)
    assert logits.shape == (16, rules.actions) and values.shape == (16,)
    np.testing.assert_allclose(np.asarray(logits), np.asarray(old_logits), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(values), np.asarray(old_values), rtol=1e-5, atol=1e-5)
    assert float(jnp.std(logits)) > 0  # not a degenerate network that any layout would match


def test_a_value_kept_before_considered_existed_loads_and_keeps_its_search():
    player = tiny(seed=7)
    value = player.knowledge()
    value["settings"].pop("considered")
    copy = tiny(seed=8)
    copy.load(value)
    assert copy.trainer.settings.considered == 16 and copy.considered == 16
    assert all(np.array_equal(a, b) for a, b in zip(arrays(player), arrays(copy), strict=True))


def test_the_replay_buffer_draws_positions_under_the_symmetries_consistently():
    """Every drawn position's legal actions and policy are those of its drawn board (recomputed
    from the planes by the rules), and some drawn boards are turned ones the buffer does not hold."""
    game = gamelearn.get_game("tictactoe")
    rules = rules_for("tictactoe")
    trainer = tiny(seed=9).trainer
    states = [s for s in reachable(game) if not game.is_over(s)][:300]
    batch = Position(*(np.stack(c) for c in zip(*(rules.encode(game, s) for s in states), strict=True)))
    legal_of = jax.jit(jax.vmap(rules.legal))  # compiled once, not op by op
    planes = np.asarray(jax.jit(jax.vmap(rules.planes))(batch))
    legal = np.asarray(legal_of(batch))
    policy = legal / legal.sum(axis=1, keepdims=True) * (1 + np.arange(9))  # unequal, so a turn shows
    policy = (policy / policy.sum(axis=1, keepdims=True)).astype(np.float32)
    trainer.add_positions(planes, legal, policy, np.zeros(len(states), np.float32))
    drawn_planes, drawn_legal, drawn_policy, _ = trainer.buffer.sample(np.random.default_rng(1), 2000)
    board = (drawn_planes[:, 0] - drawn_planes[:, 1]).reshape(-1, 9).astype(np.int8)
    again = Position(
        board,
        drawn_planes[:, 2, 0, 0].astype(np.int32),
        np.zeros(len(board), np.int32),
        np.zeros(len(board), bool),
        -np.ones(len(board), np.int32),
    )
    assert np.array_equal(np.asarray(legal_of(again)), drawn_legal)
    assert np.all(drawn_policy[~drawn_legal] == 0)
    first = {p.tobytes() for p in planes}
    assert sum(p.tobytes() not in first for p in drawn_planes) > 0  # some drawn turned, off the buffer's own


def test_a_frozen_player_considers_every_legal_move_at_the_root():
    training, frozen = tiny(seed=3), tiny(seed=3, train=False)
    assert training.considered == TINY.considered and frozen.considered == frozen.rules.actions == 9
    teeko = AzPlayer(gamelearn.get_game("teeko"), seed=1, train=False)
    assert teeko.trainer.settings.considered == 8 < teeko.considered == teeko.rules.actions
    game = gamelearn.get_game("tictactoe")
    state = game.from_board("XX.OO....", 0)
    assert frozen.choose(state) in game.legal_moves(state)
