"""An experiment of docs/ntuple.md: how much of ``teeko-val-v1`` can an ``ntuple`` layout's raw
network (``search=0``) keep at best?  The network is fitted to perfect values instead of being
taught by self-play, so what it misses is the layout's, not the training signal's.  Prints figures
and asserts nothing; the learner it fits is a diagnostic, never a player of the project.

    python benchmarks/teeko_ceiling.py --rounds 10
    python benchmarks/teeko_ceiling.py --rounds 10 --layout teeko-snakes12-v1
    python benchmarks/teeko_ceiling.py --rounds 8 --start s1-hour.json --step 0.5

Each round plays ``--games`` games with the network as it stands (the best child by its value,
a random move with chance 0.1, and 0 to 6 random opening moves, as the default self-play), keeps
every unfinished child of every position met (the positions the raw network chooses among),
labels each with its value under perfect play (the solved table: 1 won, 1/2 drawn, 0 lost, for
the side that moved into it), and fits the network to those labels by ``--epochs`` passes of
stochastic gradient descent on the squared error of its logistic value, in a seeded random order;
then grades it raw on ``teeko-val-v1``.  ``--start``: begin from a saved learner's weights (a
``yardstick_teeko.py`` run file) instead of zero.  Needs the Teeko solution (``gamelearn solve
teeko``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

import gamelearn
from gamelearn.experiments.grading import grade_player
from gamelearn.experiments.suites import VALIDATION_NAME, get_suite
from gamelearn.games.teeko import TeekoState
from gamelearn.players.ntuple import kernels as kernels
from gamelearn.players.ntuple.layout import Features
from gamelearn.players.registry import make_player
from gamelearn.solver.teeko import solve_teeko

#: As the default self-play: a random move with this chance, and 0..OPENING random opening moves.
EPSILON = 0.1
OPENING = 6
#: Children kept a game at most (Teeko's games here average 25-45 plies of up to 32 children).
CHILDREN_PER_GAME = 1200


@njit(cache=True)
def children_met(
    games: int,
    seed: int,
    weights: np.ndarray,
    features: Features,
    rules: tuple,  # type: ignore[type-arg]
    out_a: np.ndarray,
    out_b: np.ndarray,
    out_mover: np.ndarray,
) -> int:
    """Play ``games`` games with the network (see the module's text) and write every unfinished
    child of every position met, (a, b, the side that moved into it), until the buffers are full;
    how many were written."""
    np.random.seed(seed)
    masks, neighbours, max_plies = rules
    child_a = np.empty(kernels.MAX_CHILDREN, np.int64)
    child_b = np.empty(kernels.MAX_CHILDREN, np.int64)
    child_result = np.empty(kernels.MAX_CHILDREN, np.int64)
    indices = np.empty(features.lengths.shape[0], np.int64)
    written = 0
    for _ in range(games):
        opening = np.random.randint(0, OPENING + 1)
        a, b, mover = 0, 0, 0
        for ply in range(max_plies):
            count = kernels.afterstates(kernels.TEEKO, a, b, mover, masks, neighbours, child_a, child_b, child_result)
            best, best_value = 0, -1.0
            for i in range(count):
                if child_result[i] != kernels.ONGOING:
                    value = 1.0
                else:
                    kernels.read_features(child_a[i], child_b[i], mover, features, indices)
                    value = kernels.value_of(weights, indices)
                    if written < out_a.shape[0]:
                        out_a[written], out_b[written], out_mover[written] = child_a[i], child_b[i], mover
                        written += 1
                if value > best_value:
                    best, best_value = i, value
            chosen = best
            if ply < opening or np.random.random() < EPSILON:
                chosen = np.random.randint(0, count)
            a, b = child_a[chosen], child_b[chosen]
            if child_result[chosen] != kernels.ONGOING:
                break
            mover = 1 - mover
    return written


@njit(cache=True)
def fit(
    weights: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    mover: np.ndarray,
    target: np.ndarray,
    order: np.ndarray,
    features: Features,
    step: float,
) -> float:
    """One pass of gradient descent on ``(target - V)^2 / 2`` over the afterstates in ``order``
    (``step``: the logit's step per unit of error, shared by the features); the mean squared error."""
    indices = np.empty(features.lengths.shape[0], np.int64)
    squared = 0.0
    for k in order:
        kernels.read_features(a[k], b[k], mover[k], features, indices)
        value = kernels.value_of(weights, indices)
        error = target[k] - value
        squared += error * error
        change = step * error * value * (1.0 - value)
        for index in indices:
            weights[index] += change
    return squared / max(1, order.shape[0])


def perfect_values(solution: Any, a: np.ndarray, b: np.ndarray, mover: np.ndarray) -> np.ndarray:
    """Each afterstate's value under perfect play for the side that moved into it."""
    values = np.empty(a.shape[0])
    for k in range(a.shape[0]):
        to_move = 1 - int(mover[k])
        outcome, _ = solution.outcome(TeekoState(int(a[k]), int(b[k]), to_move))  # for the side to move
        values[k] = (1.0 - outcome) / 2.0
    return values


def raw_report(game: Any, learner: Any, suite: Any, label: str) -> None:
    """Print ``label`` and what ``learner``'s raw network (``search=0``) keeps of ``suite``, by phase."""
    frozen: Any = make_player(game, "ntuple:train=off,search=0", seed=0)
    frozen.load(learner.knowledge())
    report = grade_player(frozen, suite)
    phases = "  ".join(f"{phase} {100 * row['keeps']:.1f}%" for phase, row in report.by_phase.items())
    print(f"{label}: raw keeps {100 * report.keeps:.1f}% of {suite.name} ({phases})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layout", default=None, help="an ntuple layout of Teeko (default: the learner's default)")
    parser.add_argument("--start", type=Path, default=None, help="a yardstick_teeko.py run file to start from")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=3000, help="games played a round")
    parser.add_argument("--epochs", type=int, default=2, help="passes over a round's children")
    parser.add_argument("--step", type=float, default=1.0, help="the step, divided by the number of features")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = gamelearn.get_game("teeko")
    solution = solve_teeko(game)
    spec = "ntuple" + (f":layout={args.layout}" if args.layout else "")
    learner: Any = make_player(game, spec, seed=args.seed)
    if args.start is not None:
        learner.load(json.loads(args.start.read_text())["knowledge"])
    trainer = learner.trainer
    features = trainer.features
    rules = (trainer.masks, trainer.neighbours, trainer.layout.max_plies)
    suite = get_suite(game, VALIDATION_NAME)
    rng = np.random.default_rng(args.seed)
    print(f"{trainer.layout.name}: {trainer.layout.weight_count:,} weights", flush=True)

    raw_report(game, learner, suite, "start")
    for round_number in range(args.rounds):
        started = time.process_time()
        size = args.games * CHILDREN_PER_GAME
        a, b, mover = (np.zeros(size, np.int64) for _ in range(3))
        seed = args.seed * 1_000_003 + round_number
        written = children_met(args.games, seed, trainer.weights, features, rules, a, b, mover)
        keys = (a[:written] << 32) | (b[:written] << 1) | mover[:written]
        _, first = np.unique(keys, return_index=True)
        a, b, mover = a[first], b[first], mover[first]
        target = perfect_values(solution, a, b, mover)
        step = args.step / len(features.lengths)
        for _ in range(args.epochs):
            error = fit(trainer.weights, a, b, mover, target, rng.permutation(a.shape[0]), features, step)
        seconds = time.process_time() - started
        raw_report(
            game,
            learner,
            suite,
            f"round {round_number + 1}: {a.shape[0]:,} children, mean squared error {error:.4f}, {seconds:.0f} CPU s",
        )


if __name__ == "__main__":
    main()
