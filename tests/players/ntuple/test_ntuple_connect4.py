"""The ntuple learner on Connect Four (players/ntuple/connect4.py, the layout connect4-snakes70-sides-v1)
against independent oracles: the game's own rules (move by move over random games), the literature's
layout (70 snakes of 8 neighbouring squares), a plain-Python reading of the four-state cells, a
plain-Python replay of self-play's TD(lambda) and TCL, a plain negamax for the search, and games
against the random player."""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
import pytest

import gamelearn
from gamelearn.players.ntuple import connect4 as c4
from gamelearn.players.ntuple.connect4_search import WIN
from gamelearn.players.ntuple.layout import KNOWN_LAYOUTS, LAYOUTS, pieces
from gamelearn.players.ntuple.player import NtuplePlayer
from gamelearn.players.ntuple.snakes import CONNECT4_SNAKES70, draw_snakes
from random_games import unfinished_positions

GAME = gamelearn.get_game("connect4")
COLUMNS, ROWS, BOARD = 7, 6, 42
GRID = c4.geometry(COLUMNS, ROWS)
LAYOUT = LAYOUTS["connect4"]


def random_states(count: int, seed: int) -> list[Hashable]:
    """Unfinished positions met in seeded random games, every stage of the game."""
    return unfinished_positions(GAME, count, seed)


def trained_weights(player: NtuplePlayer, seed: int) -> None:
    rng = np.random.default_rng(seed)
    player.trainer.weights = (rng.standard_normal(player.trainer.weights.size) * 0.3).astype(np.float32)


# The rules ---------------------------------------------------------------------------------------


@pytest.mark.slow  # 600 positions' successors, by the kernel and by the rules
def test_the_kernels_afterstates_are_the_games_successors_over_random_games() -> None:
    out = [np.zeros(c4.MAX_COLUMNS, np.int64) for _ in range(4)]
    checked = 0
    for state in random_states(600, seed=1):
        mover = GAME.to_move(state)
        x, o = pieces(GAME, state)
        count = c4.afterstates(x, o, mover, GRID, *out)
        got = [(int(out[0][i]), int(out[1][i]), int(out[2][i]), int(out[3][i]) % COLUMNS) for i in range(count)]
        expected = []
        for move, child in GAME.successors(state):
            result = c4.ONGOING
            if GAME.is_over(child):
                result = c4.DRAWN if GAME.winner(child) is None else c4.WON
                assert GAME.winner(child) in (None, mover)
            expected.append((*pieces(GAME, child), result, int(move) - 1))
        assert got == expected
        checked += count
    assert checked > 2_500


# The layout ----------------------------------------------------------------------------------------


def test_the_layout_is_seventy_snakes_of_eight_neighbouring_squares() -> None:
    assert LAYOUT.name == "connect4-snakes70-sides-v1" and KNOWN_LAYOUTS[LAYOUT.name] is LAYOUT
    assert LAYOUT.tuples == CONNECT4_SNAKES70 and len(CONNECT4_SNAKES70) == 70
    # a weight set for the positions each side has just made: the first player's have odd discs
    assert LAYOUT.states == 4 and LAYOUT.weight_count == 2 * 70 * 4**8
    assert [LAYOUT.phase_of[discs] for discs in range(1, 43)] == [1, 0] * 21
    one_set = KNOWN_LAYOUTS["connect4-snakes70-v1"]  # what learners kept before still load
    assert one_set.tuples == LAYOUT.tuples and one_set.weight_count == 70 * 4**8

    def neighbours(a: int, b: int) -> bool:
        return a != b and abs(a // COLUMNS - b // COLUMNS) <= 1 and abs(a % COLUMNS - b % COLUMNS) <= 1

    def mirror(square: int) -> int:
        return square - square % COLUMNS + COLUMNS - 1 - square % COLUMNS

    seen: set[frozenset[int]] = set()
    for snake in CONNECT4_SNAKES70:
        assert len(snake) == 8 == len(set(snake)) and all(0 <= sq < BOARD for sq in snake)
        assert all(neighbours(a, b) for a, b in zip(snake, snake[1:], strict=False))
        assert frozenset(snake) not in seen and frozenset(map(mirror, snake)) not in seen
        seen.add(frozenset(snake))
    assert draw_snakes(COLUMNS, ROWS, 70, 8, 2012) == CONNECT4_SNAKES70  # as written down


def test_the_other_sizes_read_their_boards_layout() -> None:
    small = gamelearn.get_game("connect4:columns=5,rows=4")
    player = NtuplePlayer(small, seed=0)
    assert player.trainer.layout.name == "connect4-board-4x5-v1" and not player.trainer.connect4
    with pytest.raises(ValueError, match="no layout"):
        NtuplePlayer(small, seed=0, layout="connect4-snakes70-v1")


# Reading the tuples --------------------------------------------------------------------------------


def reference_first_value(weights: np.ndarray, state: Hashable) -> float:
    """W read the plain way: the board's text, each square's state (X, O, empty and playable: the
    bottom row or a disc below, else empty), each mirror image made square by square, each tuple's
    cells read as base-4 digits, in the weight set of the side that has just moved (the first
    player's after an odd number of discs, the second half of the weights)."""
    board = GAME.board(state)
    discs = sum(square != "." for square in board)
    weight_set = LAYOUT.weight_count // 2 if discs % 2 else 0

    def state_of(square: int) -> int:
        if board[square] != ".":
            return 1 if board[square] == "X" else 2
        below = square + COLUMNS
        return 3 if below >= BOARD or board[below] != "." else 0

    cells = [state_of(square) for square in range(BOARD)]
    total = 0.0
    for perm in GAME.symmetries:
        image = [0] * BOARD
        for square, content in enumerate(cells):
            image[perm[square]] = content
        for offset, squares in zip(LAYOUT.tuple_offsets, LAYOUT.tuples, strict=True):
            total += float(weights[weight_set + offset + sum(image[sq] * 4**k for k, sq in enumerate(squares))])
    return 1.0 / (1.0 + math.exp(-total))


@pytest.mark.slow  # 140 tuples read in plain Python, ten positions each side and mirrored
def test_the_kernel_reads_what_a_plain_reading_does_and_mirror_images_alike() -> None:
    player = NtuplePlayer(GAME, seed=0)
    trained_weights(player, 5)
    states = random_states(200, seed=2)[::20]
    afters = [(*pieces(GAME, s), mover) for s in states for mover in (0, 1)]
    values = player.trainer.values(afters)
    for i, state in enumerate(states):
        first = reference_first_value(player.trainer.weights, state)
        assert values[2 * i] == pytest.approx(first, abs=1e-12)  # the first player's own
        assert values[2 * i + 1] == pytest.approx(1.0 - first, abs=1e-12)  # the second's: 1 - W
        image = GAME.transform(state, 1)
        assert player.trainer.values([(*pieces(GAME, image), 0)])[0] == pytest.approx(first, abs=1e-12)


def test_a_child_read_from_its_parent_reads_what_the_child_read_whole_does() -> None:
    f = NtuplePlayer(GAME, seed=0).trainer.features
    parent, child, whole = (np.zeros(len(f.lengths), np.int64) for _ in range(3))
    for state in random_states(400, seed=3):
        x, o = pieces(GAME, state)
        c4.read_features(x, o, f, COLUMNS, BOARD, parent)
        for _, after in GAME.successors(state):
            cx, co = pieces(GAME, after)
            square = ((cx | co) & ~(x | o)).bit_length() - 1
            c4.child_features(x, o, cx, co, square, parent, f, COLUMNS, BOARD, child)
            c4.read_features(cx, co, f, COLUMNS, BOARD, whole)
            assert child.tolist() == whole.tolist()


# Self-play and its TD(lambda) ----------------------------------------------------------------------


def replay(player: NtuplePlayer, weights: np.ndarray, coherence: np.ndarray, log: np.ndarray) -> np.ndarray:
    """Self-play's learning redone in plain Python over the games ``log`` holds (their columns): at
    each ply every child is valued (the first player's W by :func:`reference_first_value`, a
    finished game by its result), the previous afterstate moves toward the best child's value for
    the first player through the trace (lambda, TCL-EXP), a move that was not the best cuts the
    trace, and the chosen afterstate joins it with the gradient W (1 - W)."""
    trainer = player.trainer
    s = trainer.settings
    features, beta = len(trainer.features.lengths), s.coherence
    w = weights.copy()
    for g, columns in enumerate(log):
        decay = 0.5 ** (g / s.halflife)
        floor = trainer.alpha_floor()
        alpha = (floor + (s.alpha - floor) * decay) / features
        state, trace = GAME.initial(), []
        for column in (int(c) for c in columns if c >= 0):
            mover = GAME.to_move(state)
            values, reads = {}, {}
            for move, child in GAME.successors(state):
                if GAME.is_over(child):
                    values[move] = 0.5 if GAME.winner(child) is None else 1.0
                else:
                    x, o = pieces(GAME, child)
                    reads[move] = c4.features_of(player.trainer.features, GRID, np.array([x]), np.array([o]))[0]
                    first = reference_first_value(w, child)
                    values[move] = first if mover == 0 else 1.0 - first
            best = max(values.values())
            if trace:
                target = best if mover == 0 else 1.0 - best
                delta = target - 1.0 / (1.0 + math.exp(-sum(float(w[i]) for i in trace[-1][0])))
                for j, (indices, grad) in enumerate(reversed(trace[-s.horizon :])):
                    amount = alpha * delta * s.trace**j * grad
                    for i in indices:
                        factor = 1.0
                        if beta > 0 and coherence[1, i] > 0:
                            factor = math.exp(beta * (abs(float(coherence[0, i])) / float(coherence[1, i]) - 1.0))
                        w[i] = np.float32(float(w[i]) + amount * factor)
                        if beta > 0:
                            coherence[0, i] = np.float32(float(coherence[0, i]) + amount)
                            coherence[1, i] = np.float32(float(coherence[1, i]) + abs(amount))
            move = str(column + 1)
            if values[move] != best:
                trace = []  # an exploring move
            state = GAME.play(state, move)
            if GAME.is_over(state):
                break
            first = values[move] if mover == 0 else 1.0 - values[move]
            trace.append((reads[move], first * (1.0 - first)))
    return w


@pytest.mark.slow  # a plain-Python replay of 6 games over 4.6 million weights
@pytest.mark.parametrize("tcl", [False, True])
def test_self_plays_td_update_is_the_plain_replays(tcl: bool) -> None:
    player = NtuplePlayer(GAME, seed=3, tcl=tcl, epsilon=0.3)
    trained_weights(player, 7)
    start = player.trainer.weights.copy()
    coherence = player.trainer.coherence.copy()
    log = np.zeros((6, BOARD), np.int64)
    player.trainer.play_in_batches_of(6)
    player.trainer._self_play(6, 11, log)
    assert all((row >= 0).sum() >= 7 for row in log)  # whole games, each at least 7 plies
    expected = replay(player, start, coherence, log)
    moved = np.flatnonzero(expected != start)
    assert moved.size > 100
    assert np.array_equal(np.flatnonzero(player.trainer.weights != start), moved)
    assert player.trainer.weights[moved] == pytest.approx(expected[moved], rel=1e-5, abs=1e-7)


@pytest.mark.slow  # three learners of 4.6 million weights and TCL sums
def test_the_same_seed_plays_the_same_games() -> None:
    runs = []
    for seed in (4, 4, 5):
        player = NtuplePlayer(GAME, seed=seed)
        log = np.zeros((50, BOARD), np.int64)
        player.trainer._self_play(50, seed, log)
        runs.append((log, player.trainer.weights.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert not np.array_equal(runs[0][0], runs[2][0])


def test_a_game_learnt_from_a_record_moves_the_weights_it_read() -> None:
    player = NtuplePlayer(GAME, seed=0, search=0)
    other = gamelearn.make_player(GAME, "random", seed=1)
    record = gamelearn.play_game(GAME, [player, other], seed=2, learn=False)
    player.learn(record, 0)
    assert player.trainer.games == 1 and np.count_nonzero(player.trainer.weights) > 0


@pytest.mark.slow  # 20,000 self-play games and 100 games against random
def test_a_short_training_beats_random_more_than_the_untrained_network() -> None:
    def wins_against_random(player: NtuplePlayer) -> int:
        won = 0
        for seed in range(50):
            other = gamelearn.make_player(GAME, "random", seed=seed)
            won += gamelearn.play_game(GAME, [player, other], seed=seed, learn=False).winner == 0
            won += gamelearn.play_game(GAME, [other, player], seed=seed, learn=False).winner == 1
        return won

    player = NtuplePlayer(GAME, seed=1, search=0, train=False)  # frozen and greedy; self_play still learns
    before = wins_against_random(player)
    player.self_play(20)
    after = wins_against_random(player)
    assert after >= 90 and after > before + 15


# The search ------------------------------------------------------------------------------------------


def plain_negamax(
    player: NtuplePlayer, state: Hashable, depth: int, ply: int, known: dict[Hashable, float] | None = None
) -> float:
    """The search's score by its definition, without pruning, over the game's own rules; ``known``
    keeps each position's score (a position is always the same plies from the root: its discs)."""
    known = {} if known is None else known
    if state in known:
        return known[state]
    side = GAME.to_move(state)
    children = GAME.successors(state)
    if not children:
        score = 0.0
    elif any(GAME.winner(child) == side for _, child in children):
        score = WIN - (ply + 1)
    elif depth <= 0:  # 2 V - 1 for the side to move, V being 1 - the other side's value
        score = 1.0 - 2.0 * player.trainer.values([(*pieces(GAME, state), 1 - side)])[0]
    else:
        score = max(-plain_negamax(player, child, depth - 1, ply + 1, known) for _, child in children)
    known[state] = score
    return score


@pytest.mark.slow  # a plain negamax without pruning
@pytest.mark.parametrize("depth", [2, 3, 4, 5])
def test_the_searchs_best_score_is_the_plain_negamaxs(depth: int) -> None:
    """The best move's score is the plain negamax's, also where the search's table matters (from
    3 plies on two orders of the same moves meet, and each pass deepens over the one before), and
    the move is one of the best."""
    player = NtuplePlayer(GAME, seed=0, search=depth, train=False)
    trained_weights(player, 9)
    for state in random_states(300, seed=6)[:: {2: 25, 3: 25, 4: 10, 5: 10}[depth]]:
        side = GAME.to_move(state)
        move, scores = player.connect4_search(state)
        plain: dict[str, float] = {}
        known: dict[Hashable, float] = {}
        for name, child in GAME.successors(state):
            won = GAME.winner(child) == side
            full = GAME.is_over(child) and not won
            plain[name] = WIN - 1 if won else 0.0 if full else -plain_negamax(player, child, depth - 1, 1, known)
        assert scores[move] == pytest.approx(max(plain.values()), abs=1e-9)
        assert plain[move] == pytest.approx(max(plain.values()), abs=1e-9)
        assert all(scores[m] >= plain[m] - 1e-9 for m in plain)  # the others: upper bounds


def test_the_search_takes_a_four_and_stops_one() -> None:
    player = gamelearn.make_player(GAME, "ntuple:train=off", seed=0)
    # X to move with three across the bottom: 4 wins at once
    assert player.choose(GAME.from_board("." * 28 + ".....O." + "XXX.OO.", 0)) == "4"
    # O to move against the same three: 4 stops them
    assert player.choose(GAME.from_board("." * 35 + "XXX.OO.", 1)) == "4"
