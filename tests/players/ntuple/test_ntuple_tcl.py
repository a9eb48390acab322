"""The ntuple learner's temporal coherence learning (a step size per weight) and its layouts other
than a game's default, against hand computations and the properties the default layout keeps
(tests/players/ntuple/test_ntuple.py: symmetry, the plain-Python reading)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gamelearn
from gamelearn.keeper import Keeper
from gamelearn.players.ntuple import kernels as kernels
from gamelearn.players.ntuple.player import NtuplePlayer
from gamelearn.players.ntuple.settings import TCL_BETA
from gamelearn.store.store import Store


def test_the_coherence_step_factor_matches_the_hand_computation() -> None:
    # Weight 0 has seen changes +0.4 and -0.2 (N = 0.2, A = 0.6), weight 1 only +0.3 (N = A), weight
    # 2 none.  A trace of two afterstates: the newest reads weights 0, 1, 2; the older reads 0 twice.
    beta, step, lam = TCL_BETA, 0.1, 0.5
    weights = np.zeros(3, np.float32)
    coherence = np.array([[0.2, 0.3, 0.0], [0.6, 0.3, 0.0]], np.float32)
    trace_indices = np.array([[0, 0, 0], [0, 1, 2]], np.int64)  # slot 0 older, slot 1 newest
    trace_grads = np.array([-0.25, 0.2])
    kernels.apply_trace(weights, trace_indices, trace_grads, 1, 2, step, kernels.Td(lam, 2, coherence, beta))

    n, a = [0.2, 0.3, 0.0], [0.6, 0.3, 0.0]
    w = [0.0, 0.0, 0.0]

    def change(index: int, amount: float) -> None:
        factor = math.exp(beta * (abs(n[index]) / a[index] - 1)) if a[index] > 0 else 1.0
        w[index] += factor * amount
        n[index] += amount
        a[index] += abs(amount)

    for index in (0, 1, 2):
        change(index, step * 0.2)  # the newest afterstate: its gradient, undecayed
    for index in (0, 0, 0):
        change(index, step * lam * -0.25)  # the older one, decayed by lambda, read three times
    assert weights == pytest.approx(w, rel=1e-5)
    assert coherence[0] == pytest.approx(n, rel=1e-5) and coherence[1] == pytest.approx(a, rel=1e-5)
    # weight 1's changes kept one sign: the full step; weight 2 had none: the full step too
    assert w[1] == pytest.approx(step * 0.2) and w[2] == pytest.approx(step * 0.2)
    assert 0 < -w[0] < step * lam * 0.25 * 3


def test_without_coherence_the_step_is_alpha_times_the_trace() -> None:
    weights = np.zeros(2, np.float32)
    td = kernels.Td(lam=0.5, horizon=1, coherence=np.zeros((2, 1), np.float32), beta=0.0)
    kernels.apply_trace(weights, np.array([[0, 1]], np.int64), np.array([0.25]), 0, 1, 0.4, td)
    assert weights == pytest.approx([0.1, 0.1])


@pytest.mark.parametrize("layout", ["teeko-windows-v1", "teeko-snakes-v1"])
def test_with_coherence_the_same_seed_trains_the_same_weights(layout: str) -> None:
    game = gamelearn.get_game("teeko")
    runs = []
    for seed in (4, 4, 5):
        player = NtuplePlayer(game, seed=seed, layout=layout, tcl=True)
        player.trainer.play_in_batches_of(10)
        player.self_play(2)
        runs.append((player.trainer.weights.copy(), player.trainer.coherence.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert not np.array_equal(runs[0][0], runs[2][0])
    sums, sizes = runs[0][1]
    assert np.all(sizes >= np.abs(sums) * (1 - 1e-6)) and sizes.max() > 0


def test_coherence_keeps_the_step_where_plain_td_decays_it() -> None:
    game = gamelearn.get_game("tictactoe")
    plain, coherent = NtuplePlayer(game, seed=1), NtuplePlayer(game, seed=1, tcl=True)
    for player in (plain, coherent):
        player.trainer.games = int(10 * player.trainer.settings.halflife)
    assert plain.trainer.alpha_now() == pytest.approx(plain.trainer.settings.alpha / 10, rel=0.01)
    assert coherent.trainer.alpha_now() == coherent.trainer.settings.alpha


def test_coherence_round_trips_through_the_keeper_and_training_resumes_as_if_never_stopped() -> None:
    game = gamelearn.get_game("tictactoe")
    straight = NtuplePlayer(game, seed=6, tcl=True)
    straight.trainer.play_in_batches_of(40)
    straight.self_play(3)
    keeper = Keeper(Store())
    first = gamelearn.make_player(game, "ntuple:name=tc,tcl=on", seed=6, keeper=keeper)
    first.trainer.play_in_batches_of(40)
    first.self_play(2)
    keeper.save(first)
    resumed = gamelearn.make_player(game, "ntuple:name=tc,tcl=on", seed=99, keeper=keeper)
    assert np.array_equal(resumed.trainer.coherence, first.trainer.coherence)
    resumed.trainer.play_in_batches_of(40)
    resumed.self_play(1)
    assert resumed.knowledge() == straight.knowledge()


def test_a_kept_learner_plays_with_its_own_layout_unless_the_spec_names_another() -> None:
    game = gamelearn.get_game("teeko")
    trained = NtuplePlayer(game, seed=1, layout="teeko-windows-v1")
    trained.trainer.play_in_batches_of(20)
    trained.self_play(1)
    knowledge = trained.knowledge()
    plain = NtuplePlayer(game, seed=0, train=False)
    plain.load(knowledge)  # whatever the default layout, the kept one's is taken
    assert plain.trainer.layout.name == "teeko-windows-v1"
    assert np.array_equal(plain.trainer.weights, trained.trainer.weights)
    state = game.initial()
    assert plain.move_values(state) == trained.move_values(state)
    other = NtuplePlayer(game, seed=0, train=False, layout="teeko-snakes-v1")
    before = other.knowledge()
    with pytest.raises(ValueError, match="layout"):
        other.load(knowledge)
    assert other.knowledge() == before
    with pytest.raises(ValueError, match="no layout"):
        gamelearn.make_player(game, "ntuple:layout=tictactoe-lines-v1", seed=0)
