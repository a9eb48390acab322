"""Connect Four's self-play with other targets than the ``ntuple`` learner's: the game's result
for the opening's afterstates, or a discount a ply.  A variant of the learner's kernel, measured
and not kept (docs/ntuple.md, *The game's result for the opening* and *A discount a ply*).

    python benchmarks/connect4_td_targets.py check
    python benchmarks/connect4_ntuple.py settings --result-below 12 --perfect bitbully --games 50 --cpu 900 --every 300
    python benchmarks/connect4_ntuple.py settings --discount 0.99 --perfect bitbully --games 50 --cpu 900 --every 300

The variant (:func:`self_play_variant`) is the package's ``connect4.self_play`` with two changes.

* An afterstate with fewer than ``result_below`` discs does not learn the value of the next
  greedy choice (TD(0), the default's target).  It is kept, and when the game ends it learns the
  game's result, the Monte-Carlo return (Sutton & Barto 2018, chapter 5), through the same
  temporal coherence learning.  Where an exploring move ends the greedy line first, the kept
  afterstates learn the value the greedy move had there, where the default's trace is cut too.
* Each TD target ``W`` moves toward the draw by ``discount``, to ``1/2 + discount (W - 1/2)``:
  a win ``k`` plies away is worth ``1/2 + discount^k / 2``, so the sooner the better.

With ``result_below`` 0 and ``discount`` 1 it is the default.  ``check`` proves that: it plays the
same games and leaves the same weights and TCL sums as the package's kernel, and either change
alone leaves other weights.  Prints; asserts only in ``check``.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from numba import njit

import gamelearn
from gamelearn.players.ntuple import connect4
from gamelearn.players.ntuple.connect4 import (
    DRAWN,
    MAX_COLUMNS,
    ONGOING,
    WON,
    afterstates,
    child_features,
    read_features,
)
from gamelearn.players.ntuple.kernels import Schedule, Td, apply_trace, value_of
from gamelearn.players.ntuple.layout import Features


@njit
def learn_result(
    weights: np.ndarray, kept: np.ndarray, grads: np.ndarray, count: int, target: float, alpha: float, td: Td
) -> None:
    """Each of the ``count`` kept afterstates (the first player's ``W``) moves toward ``target``."""
    for i in range(count):
        value = value_of(weights, kept[i])
        grads[i] = value * (1.0 - value)
        apply_trace(weights, kept, grads, i, 1, alpha * (target - value), td)


@njit
def self_play_variant(  # noqa: C901 (the package's kernel, one loop, and the two changes)
    games: int,
    seed: int,
    weights: np.ndarray,
    features: Features,
    grid: connect4.Grid,
    schedule: Schedule,
    td: Td,
    log: np.ndarray,
    result_below: int,
    discount: float,
) -> np.ndarray:
    """``connect4.self_play`` (same arguments, same returns), the afterstates of fewer than
    ``result_below`` discs learning the game's result and each target discounted by ``discount``
    (the module's docstring)."""
    np.random.seed(seed)
    columns, rows = grid.columns, grid.rows
    board = columns * rows
    horizon = td.horizon
    count_of_features = features.lengths.shape[0]
    child_x = np.empty(MAX_COLUMNS, np.int64)
    child_o = np.empty(MAX_COLUMNS, np.int64)
    child_result = np.empty(MAX_COLUMNS, np.int64)
    child_square = np.empty(MAX_COLUMNS, np.int64)
    child_indices = np.empty((MAX_COLUMNS, count_of_features), np.int64)
    child_value = np.empty(MAX_COLUMNS)
    parent = np.empty(count_of_features, np.int64)
    trace_indices = np.empty((horizon, count_of_features), np.int64)
    trace_grads = np.zeros(horizon)
    kept = np.empty((board + 1, count_of_features), np.int64)
    kept_grads = np.zeros(board + 1)
    logging = log.shape[0] >= games
    plies_played, updates, squared = 0, 0, 0.0
    for g in range(games):
        decay = 0.5 ** ((schedule.games_before + g) / schedule.halflife)
        alpha = (schedule.alpha_floor + (schedule.alpha - schedule.alpha_floor) * decay) / count_of_features
        epsilon = schedule.epsilon_floor + (schedule.epsilon - schedule.epsilon_floor) * decay
        opening = np.random.randint(0, schedule.random_plies + 1)
        x, o, mover = 0, 0, 0
        read_features(x, o, features, columns, board, parent)
        head, length, count = -1, 0, 0
        if logging:
            log[g, :] = -1
        for ply in range(board):
            n = afterstates(x, o, mover, grid, child_x, child_o, child_result, child_square)
            best, ties = 0, 0
            best_value = -1.0
            for i in range(n):
                if child_result[i] == WON:
                    child_value[i] = 1.0
                elif child_result[i] == DRAWN:
                    child_value[i] = 0.5
                else:
                    child_features(
                        x, o, child_x[i], child_o[i], child_square[i], parent, features, columns, board,
                        child_indices[i],
                    )  # fmt: skip
                    first = value_of(weights, child_indices[i])
                    child_value[i] = first if mover == 0 else 1.0 - first
                if child_value[i] > best_value:
                    best, best_value, ties = i, child_value[i], 1
                elif child_value[i] == best_value:
                    ties += 1
                    if np.random.randint(0, ties) == 0:
                        best = i
            chosen = best
            if ply < opening or np.random.random() < epsilon:
                chosen = np.random.randint(0, n)
            if logging:
                log[g, ply] = child_square[chosen] % columns
            target = best_value if mover == 0 else 1.0 - best_value
            if discount < 1.0:  # each ply toward the draw: the sooner a win, the more it is worth
                target = 0.5 + discount * (target - 0.5)
            if length > 0 and ply >= result_below:  # the previous afterstate has `ply` discs
                delta = target - value_of(weights, trace_indices[head])
                apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
                squared += delta * delta
                updates += 1
            if child_value[chosen] != best_value:
                length = 0  # an exploring move: the greedy line ends here, for the kept ones too
                learn_result(weights, kept, kept_grads, count, target, alpha, td)
                count = 0
            plies_played += 1
            x, o = child_x[chosen], child_o[chosen]
            if child_result[chosen] != ONGOING:
                final = child_value[chosen] if mover == 0 else 1.0 - child_value[chosen]
                learn_result(weights, kept, kept_grads, count, final, alpha, td)
                break
            first = child_value[chosen] if mover == 0 else 1.0 - child_value[chosen]
            head = (head + 1) % horizon
            trace_indices[head] = child_indices[chosen]
            trace_grads[head] = first * (1.0 - first)
            length = min(length + 1, horizon)
            if ply + 1 < result_below:
                kept[count] = child_indices[chosen]
                count += 1
            parent[:] = child_indices[chosen]
            mover = 1 - mover
    out = np.empty(3)
    out[0], out[1], out[2] = plies_played, updates, squared
    return out


def use_variant(trainer: Any, result_below: int, discount: float = 1.0) -> None:
    """Make ``trainer`` (a Connect Four ntuple trainer) play its self-play by the variant,
    compiled."""

    def self_play(games: int, seed: int, log: np.ndarray | None = None) -> tuple[int, int, float]:
        played = np.zeros((0, 0), np.int64) if log is None else log
        plies, updates, squared = self_play_variant(
            games, seed, trainer.weights, trainer.features, trainer.grid, trainer.schedule(), trainer.td(), played,
            result_below, discount,
        )  # fmt: skip
        return int(plies), int(updates), float(squared)

    trainer._self_play = self_play
    self_play(0, 1)  # numba compiles the variant now, before a clock starts: no game, nothing learnt


def check(games: int) -> None:
    """With ``result_below`` 0 and ``discount`` 1 the variant is the package's kernel: the same
    games, the same weights and TCL sums; with either change the weights differ."""
    from gamelearn.players.ntuple import NtuplePlayer

    game = gamelearn.get_game("connect4")
    runs = {}
    for label, below, discount in (
        ("package", None, 1.0),
        ("variant, neither change", 0, 1.0),
        ("variant, the result below 12 discs", 12, 1.0),
        ("variant, discount 0.99", 0, 0.99),
    ):
        trainer = NtuplePlayer(game, seed=5).trainer
        if below is not None:
            use_variant(trainer, below, discount)
        log = np.zeros((games, 42), np.int64)
        returned = trainer._self_play(games, 11, log)
        runs[label] = (trainer.weights.copy(), trainer.coherence.copy(), log, returned)
        print(f"{label}: {games} games; plies, updates, squared TD errors {returned}")
    package, same = runs["package"], runs["variant, neither change"]
    assert np.array_equal(package[2], same[2]), "the variant with neither change played other games"
    assert np.array_equal(package[0], same[0]) and np.array_equal(package[1], same[1]), "other weights"
    assert package[3] == same[3]
    for label in ("variant, the result below 12 discs", "variant, discount 0.99"):
        assert not np.array_equal(package[0], runs[label][0]), f"{label} changed no weight"
    print("with neither change the variant is the package's self-play: the same games, weights and TCL sums")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("check",))
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    check(args.games)


if __name__ == "__main__":
    main()
