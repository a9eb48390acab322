"""The ntuple learner (players/ntuple/player.py, ntuple/kernels.py, ntuple/layout.py) against independent
oracles: the rules (afterstates), the symmetries (invariance), a plain-Python reading of the
tuples, a hand-written dense TD(lambda), the store (round trip) and the exact solution (the
hexapawn suite of gamelearn.experiments.suites)."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable

import numpy as np
import pytest

import gamelearn
from gamelearn.experiments.grading import grade_player
from gamelearn.experiments.suites import get_suite
from gamelearn.keeper import Keeper
from gamelearn.players.ntuple import kernels as kernels
from gamelearn.players.ntuple.layout import GAME_IDS, KNOWN_LAYOUTS, MAX_CHILDREN, SNAKES, SNAKES12, Layout, pieces
from gamelearn.players.ntuple.player import NtuplePlayer
from gamelearn.players.registry import graded_spec
from gamelearn.store.store import Store

GAMES = ("tictactoe", "hexapawn", "teeko")
#: Every layout of three-state cells, the games' defaults and the others, as (game, layout name)
#: (Connect Four's four-state layout: tests/players/ntuple/test_ntuple_connect4.py).
EVERY_LAYOUT = [(layout.game, name) for name, layout in KNOWN_LAYOUTS.items() if layout.states == 3]
NO_COHERENCE = np.zeros((2, 1), np.float32)


def random_positions(game: gamelearn.Game, count: int, seed: int) -> list[Hashable]:
    """Unfinished and finished positions of seeded random games, without repeats."""
    rng = random.Random(seed)
    found: dict[Hashable, None] = {}
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(1, 40)):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        found.setdefault(state, None)
    return list(found)


def random_game(game: gamelearn.Game, rng: random.Random, plies: int = 60) -> list[Hashable]:
    """The unfinished positions of one random game, from the start (every count of pieces)."""
    met, state = [], game.initial()
    while not game.is_over(state) and len(met) < plies:
        met.append(state)
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return met


def just_moved(game: gamelearn.Game, state: Hashable) -> int:
    return 1 - game.to_move(state)


def feature_indices(player: NtuplePlayer, state: Hashable, mover: int) -> np.ndarray:
    f = player.trainer.features
    a, b = pieces(player.game, state)
    args = (np.array([a]), np.array([b]), np.array([mover]))
    return kernels.features_of(f, *args)[0]


@pytest.mark.parametrize(("name", "layout"), EVERY_LAYOUT)
def test_a_position_and_its_symmetric_images_read_the_same_weights(name: str, layout: str) -> None:
    game = gamelearn.get_game(name)
    player = NtuplePlayer(game, seed=0, layout=layout)
    for state in random_positions(game, 40, seed=1):
        mover = just_moved(game, state)
        seen = sorted(feature_indices(player, state, mover))
        for symmetry in range(len(game.symmetries)):
            image = game.transform(state, symmetry)
            assert sorted(feature_indices(player, image, mover)) == seen


def reference_value(game: gamelearn.Game, layout: Layout, weights: np.ndarray, state: Hashable, mover: int) -> float:
    """The network's value read the plain way: the board's text, turned to the mover's view, each
    symmetric image made square by square, each tuple's cells read as base-3 digits."""
    board = game.board(state)
    own, other = game.symbols[mover], game.symbols[1 - mover]
    cells = [1 if ch == own else 2 if ch == other else 0 for ch in board]
    if mover == 1 and layout.flip is not None:  # hexapawn: the second player's board upside down
        cells = [cells[layout.flip[sq]] for sq in range(len(cells))]
    phase = layout.phase_of[sum(1 for ch in board if ch in game.symbols)]
    total = 0.0
    for perm in game.symmetries:
        image = [0] * len(cells)
        for square, content in enumerate(cells):
            image[perm[square]] = content
        for offset, squares in zip(layout.tuple_offsets, layout.tuples, strict=True):
            index = sum(image[sq] * 3**k for k, sq in enumerate(squares))
            total += float(weights[phase * layout.per_phase + offset + index])
    return 1.0 / (1.0 + math.exp(-total))


@pytest.mark.parametrize(("name", "layout"), EVERY_LAYOUT)
def test_the_kernel_and_a_plain_python_reading_agree(name: str, layout: str) -> None:
    game = gamelearn.get_game(name)
    player = NtuplePlayer(game, seed=0, layout=layout)
    rng = np.random.default_rng(5)
    player.trainer.weights = (rng.standard_normal(player.trainer.weights.size) * 0.05).astype(np.float32)
    states = random_positions(game, 30, seed=2)
    afters = [(*pieces(game, s), mover) for s in states for mover in (0, 1)]
    values = player.trainer.values(afters)
    weights, used = player.trainer.weights, KNOWN_LAYOUTS[layout]
    expected = [reference_value(game, used, weights, s, mover) for s in states for mover in (0, 1)]
    assert values == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize(("name", "layout"), EVERY_LAYOUT)
def test_a_child_read_from_its_parent_reads_what_the_child_read_whole_does(name: str, layout: str) -> None:
    """Self-play reads each child's features by changing its parent's where the move changed a
    square (captures included); the whole reading, checked above against plain Python, is the oracle."""
    game = gamelearn.get_game(name)
    f = NtuplePlayer(game, seed=0, layout=layout).trainer.features
    parent = np.zeros(len(f.lengths), np.int64)
    child = np.zeros(len(f.lengths), np.int64)
    rng, checked = random.Random(4), 0
    for state in (s for _ in range(20) for s in random_game(game, rng)):
        mover = game.to_move(state)
        own, other = pieces(game, state)[:: 1 if mover == 0 else -1]
        kernels.parent_features(own, other, mover, f, parent)
        for _, after in game.successors(state):
            a, b = pieces(game, after)
            child_own, child_other = (a, b) if mover == 0 else (b, a)
            kernels.child_features(own, other, child_own, child_other, mover, parent, f, child)
            whole = kernels.features_of(f, np.array([a]), np.array([b]), np.array([mover]))[0]
            assert child.tolist() == whole.tolist()
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("snake", SNAKES + SNAKES12)
def test_every_snake_is_a_walk_of_king_steps_that_visits_no_square_twice(snake: tuple[int, ...]) -> None:
    def king_step(square: int, other: int) -> bool:
        return square != other and abs(square // 5 - other // 5) <= 1 and abs(square % 5 - other % 5) <= 1

    assert len(set(snake)) == len(snake) and all(0 <= square < 25 for square in snake)
    assert all(king_step(square, after) for square, after in zip(snake[:-1], snake[1:], strict=True))


@pytest.mark.parametrize("name", GAMES)
def test_the_kernels_afterstates_are_the_rules_successors(name: str) -> None:
    game = gamelearn.get_game(name)
    trainer = NtuplePlayer(game, seed=0).trainer
    out = [np.zeros(MAX_CHILDREN, np.int64) for _ in range(3)]
    for state in random_positions(game, 60, seed=3):
        if game.is_over(state):
            continue
        mover = game.to_move(state)
        a, b = pieces(game, state)
        count = kernels.afterstates(GAME_IDS[name], a, b, mover, trainer.masks, trainer.neighbours, *out)
        got = sorted((int(out[0][i]), int(out[1][i]), int(out[2][i])) for i in range(count))
        expected = []
        for _, child in game.successors(state):
            result = kernels.ONGOING
            if game.is_over(child):
                result = kernels.DRAWN if game.winner(child) is None else kernels.WON
                assert game.winner(child) in (None, mover)
            expected.append((*pieces(game, child), result))
        assert got == sorted(expected)


def test_td_lambda_on_a_three_move_game_matches_the_hand_computation() -> None:
    # Afterstates a0 (first player), a1 (second player), then the first player's winning move.
    # Each reads three weights; a0 reads weight 1 twice and shares weight 0 with a1.
    indices = np.array([[0, 1, 1], [2, 3, 0]], np.int64)
    movers = np.array([0, 1], np.int64)
    weights = np.array([0.2, -0.1, 0.3, 0.4], np.float64)
    alpha, lam = 0.5, 0.7

    def sigmoid(x: float) -> float:
        return 1.0 / (1.0 + math.exp(-x))

    x0, x1 = np.array([1.0, 2.0, 0.0, 0.0]), np.array([1.0, 0.0, 1.0, 1.0])
    w = weights.copy()
    v0, v1 = sigmoid(w @ x0), sigmoid(w @ x1)
    delta0 = (1 - v1) - v0  # W1 - W0: values from the first player's side
    e = v0 * (1 - v0) * x0
    w = w + alpha * delta0 * e
    v1 = sigmoid(w @ x1)
    delta1 = 1.0 - (1 - v1)  # the win, minus W1 as it is now
    e = lam * e - v1 * (1 - v1) * x1
    w = w + alpha * delta1 * e

    kernel_weights = weights.copy()
    learning = np.array([True, True])
    td = kernels.Td(lam=lam, horizon=8, coherence=NO_COHERENCE, beta=0.0)
    squared = kernels.td_sequence(kernel_weights, indices, movers, learning, 1.0, alpha, td)
    assert kernel_weights == pytest.approx(w, abs=1e-12)
    assert squared == pytest.approx(delta0**2 + delta1**2)


@pytest.mark.slow  # trainings, twice for each game
@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_trains_the_same_weights(name: str) -> None:
    game = gamelearn.get_game(name)
    runs = []
    for seed in (4, 4, 5):
        player = NtuplePlayer(game, seed=seed)
        player.trainer.play_in_batches_of(30)
        player.self_play(3)
        runs.append(player.trainer.weights.copy())
    assert np.array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


def test_the_weights_round_trip_through_the_keeper() -> None:
    game = gamelearn.get_game("teeko")
    keeper = Keeper(Store())
    player = gamelearn.make_player(game, "ntuple:name=trip", seed=1, keeper=keeper)
    player.trainer.play_in_batches_of(50)
    player.self_play(2)
    keeper.save(player)
    again = gamelearn.make_player(game, "ntuple:name=trip", seed=9, keeper=keeper)
    assert np.array_equal(again.trainer.weights, player.trainer.weights)
    assert again.trainer.games == player.trainer.games == 100
    # a game against another player is learnt and kept in the keeper's transaction
    record = gamelearn.play_game(game, [again, gamelearn.make_player(game, "random", seed=2)], seed=3, keeper=keeper)
    stored = gamelearn.make_player(game, "ntuple:name=trip", keeper=keeper)
    assert stored.trainer.games == 101 and record.plies > 0
    assert np.array_equal(stored.trainer.weights, again.trainer.weights)
    assert not np.array_equal(stored.trainer.weights, player.trainer.weights)


def test_bad_weights_are_refused_and_change_nothing() -> None:
    game = gamelearn.get_game("hexapawn")
    player = NtuplePlayer(game, seed=1)
    player.self_play(1)
    good = player.knowledge()
    for bad in ({**good, "weights": "not base64!"}, {**good, "layout": "other"}, {**good, "games": -1}):
        with pytest.raises(ValueError):
            player.load(bad)
        assert player.knowledge() == good


def test_hexapawn_keeps_every_value_after_a_little_self_play() -> None:
    game = gamelearn.get_game("hexapawn")
    player = NtuplePlayer(game, seed=1)
    player.self_play(20)  # 20,000 games: a fraction of a second
    frozen = gamelearn.make_player(game, graded_spec(game, "ntuple"), seed=0)
    frozen.load(player.knowledge())
    suite = get_suite(game)  # every position where a move loses value, from the exact solution
    graded = grade_player(frozen, suite)
    assert graded.size == len(suite) > 10 and graded.keeps == 1.0
    perfect = gamelearn.make_player(game, "perfect", seed=0)
    for seed in range(6):
        record = gamelearn.play_game(game, [perfect, frozen], seed=seed)
        assert record.winner == 1  # Black wins hexapawn with best play, and the learner keeps it


@pytest.mark.parametrize("search", [2, 3])
def test_a_deeper_search_sees_what_the_untrained_network_cannot(search: int) -> None:
    # Tic-tac-toe, X to move on X.X / .OO / ...: 1 wins at once; every move but 1 and 3 lets O
    # complete 3-4-5; 3 blocks and makes a double threat (1 and 6), a forced win that only a
    # 3-ply search sees (at 2 plies it ends on the untrained network's one half).
    game = gamelearn.get_game("tictactoe")
    state = game.from_board("X.X.OO...", 0)
    player = gamelearn.make_player(game, f"ntuple:search={search},train=off", seed=0)
    values = player.move_values(state)
    assert values["1"] == 1.0
    assert all(values[move] == 0.0 for move in values if move not in ("1", "3"))
    assert values["3"] == (1.0 if search == 3 else 0.5)
    assert player.choose(state) in (("1", "3") if search == 3 else ("1",))


def test_training_resumed_from_the_knowledge_goes_on_as_if_never_stopped() -> None:
    game = gamelearn.get_game("tictactoe")
    straight = NtuplePlayer(game, seed=6)
    straight.trainer.play_in_batches_of(40)
    straight.self_play(3)
    first = NtuplePlayer(game, seed=6)
    first.trainer.play_in_batches_of(40)
    first.self_play(2)
    resumed = NtuplePlayer(game, seed=99)  # the seed, like the weights, comes from the knowledge
    resumed.trainer.play_in_batches_of(40)
    resumed.load(first.knowledge())
    resumed.self_play(1)
    assert resumed.knowledge() == straight.knowledge()


def test_a_trace_given_keeps_the_afterstates_whose_share_is_above_the_cut() -> None:
    # lambda ** k above 0.001: ten afterstates for 0.5 (Teeko's), one with no trace, at most 50
    for trace, horizon in ((0.0, 1), (0.5, 10), (0.8, 31), (0.9, 50)):
        player = NtuplePlayer(gamelearn.get_game("connect4"), seed=0, trace=trace)
        assert player.trainer.settings.horizon == horizon
        assert trace**horizon <= 0.001 < (trace ** (horizon - 1) if horizon > 1 else 1.0) or horizon == 50
    assert NtuplePlayer(gamelearn.get_game("teeko"), seed=0).trainer.settings.horizon == 10
