"""An experiment of docs/ntuple.md: Teeko's ``ntuple`` self-play with search-backed targets, run on
from a saved learner for a budget of CPU seconds and graded raw (``search=0``) on
``teeko-val-v1`` at each checkpoint.  Prints figures and asserts nothing.

    python benchmarks/teeko_search_targets.py s1-hour.json --depth 2 --cpu-seconds 900
    python benchmarks/teeko_search_targets.py s1-hour.json --depth 2 --every-child --cpu-seconds 900

At each ply the side to move runs the learner's own alpha-beta (``ntuple/search_kernels.py``: the
four to make, the extension for a four to stop, the transposition table) ``--depth`` plies deep,
deepening from one ply, and plays the move it finds (a random move with chance ``--epsilon``,
and 0 to 6 random opening moves, as the default self-play).

* By default (TD-Leaf's idea, Baxter, Tridgell & Weaver 1998, applied at the root): the previous
  afterstate learns the search's value of the position instead of the best child's network value,
  through the same TD(lambda) trace and temporal coherence learning as the default self-play.
* ``--every-child`` (RootStrap, Veness, Silver, Uther & Blair 2009): every unfinished child of the
  position learns its own search value, ``depth - 1`` plies deep with a full window, at once.

A proven win or loss is learnt as 1 or 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

import gamelearn
from gamelearn.experiments.suites import VALIDATION_NAME, get_suite
from gamelearn.players.ntuple import kernels as kernels
from gamelearn.players.ntuple import search_kernels as search
from gamelearn.players.ntuple.search import TeekoSearch
from gamelearn.players.registry import make_player

sys.path.insert(0, str(Path(__file__).resolve().parent))
from teeko_ceiling import raw_report  # noqa: E402  # the same raw grade, by phase
from yardstick_teeko import cpu_seconds  # noqa: E402  # the yardstick's own clock

OPENING = 6


@njit(cache=True)
def chance(score: float) -> float:
    """The side to move's chance to win, as a search score (``-1..1``, or a proven result) says."""
    if score > search.MATE:
        return 1.0
    if score < -search.MATE:
        return 0.0
    return 0.5 * (1.0 + score)


@njit(cache=True)
def fresh_search(stats: np.ndarray) -> None:
    stats[search.GENERATION] += 1
    stats[search.NODES] = stats[search.ABORTED] = 0
    stats[search.LIMIT] = 1 << 60


@njit(cache=True)
def searched_self_play(
    games: int,
    seed: int,
    trainer: tuple,  # type: ignore[type-arg]
    learning: np.ndarray,
    depth: int,
    every_child: bool,
    context: search.Search,
    td: kernels.Td,
) -> int:
    """Play and learn ``games`` games (see the module's text); the plies played.  ``trainer``:
    (weights, the features, the rules' masks and neighbours); ``learning``: (alpha, epsilon, the
    ply limit); ``td``: lambda, the trace's horizon and TCL's sums and beta."""
    np.random.seed(seed)
    weights, f, masks, neighbours = trainer
    alpha, epsilon, max_plies = learning[0], learning[1], int(learning[2])
    horizon = td.horizon
    one = kernels.Td(0.0, 1, td.coherence, td.beta)  # a single afterstate's step, no trace
    stats, root_scores = context.stats, context.root_scores
    features = f.lengths.shape[0]
    step = alpha / features
    child_a = np.empty(kernels.MAX_CHILDREN, np.int64)
    child_b = np.empty(kernels.MAX_CHILDREN, np.int64)
    child_result = np.empty(kernels.MAX_CHILDREN, np.int64)
    trace_indices = np.empty((horizon, features), np.int64)
    trace_grads = np.zeros(horizon)
    one_indices = np.empty((1, features), np.int64)
    one_grad = np.zeros(1)
    plies = 0
    for _ in range(games):
        opening = np.random.randint(0, OPENING + 1)
        a, b, mover = 0, 0, 0
        head, length = -1, 0
        for ply in range(max_plies):
            count = kernels.afterstates(kernels.TEEKO, a, b, mover, masks, neighbours, child_a, child_b, child_result)
            fresh_search(stats)
            best, best_score = 0, -search.INFINITY
            if every_child:
                search.open_node(0, a, b, mover, context)  # the leaves' parent
                for i in range(count):
                    if child_result[i] != kernels.ONGOING:
                        score = search.WIN - 1.0
                    else:
                        score = -search.negamax(
                            child_a[i],
                            child_b[i],
                            1 - mover,
                            depth - 1,
                            6,
                            -search.INFINITY,
                            search.INFINITY,
                            1,
                            context,
                        )
                        kernels.read_features(child_a[i], child_b[i], mover, f, one_indices[0])
                        value = kernels.value_of(weights, one_indices[0])
                        one_grad[0] = value * (1.0 - value)
                        error = chance(score) - value
                        kernels.apply_trace(weights, one_indices, one_grad, 0, 1, step * error, one)
                    if score > best_score:
                        best, best_score = i, score
            else:
                for plies_deep in range(1, depth + 1):
                    best = search.search_root(a, b, mover, plies_deep, 6, context)
                    best_score = root_scores[best]
                    if abs(best_score) > search.MATE:
                        break
                if length > 0:  # the previous afterstate (the other side's) learns the search's value
                    target = chance(best_score) if mover == 0 else 1.0 - chance(best_score)
                    value = kernels.value_of(weights, trace_indices[head])
                    error = target - (value if mover == 1 else 1.0 - value)
                    kernels.apply_trace(weights, trace_indices, trace_grads, head, length, step * error, td)
            chosen = best
            if ply < opening or np.random.random() < epsilon:
                chosen = np.random.randint(0, count)
            if chosen != best:
                length = 0  # an exploring move: the searched policy's trace ends here
            plies += 1
            a, b = child_a[chosen], child_b[chosen]
            if child_result[chosen] != kernels.ONGOING:
                break
            head = (head + 1) % horizon
            kernels.read_features(a, b, mover, f, trace_indices[head])
            value = kernels.value_of(weights, trace_indices[head])
            trace_grads[head] = value * (1.0 - value) * (1.0 if mover == 0 else -1.0)
            length = min(length + 1, horizon)
            mover = 1 - mover
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("start", type=Path, help="a yardstick_teeko.py run file (ntuple) to go on from")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--every-child", action="store_true")
    parser.add_argument("--cpu-seconds", type=float, default=900.0)
    parser.add_argument("--checkpoints", type=int, default=3)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=50, help="games between two looks at the clock")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = gamelearn.get_game("teeko")
    learner: Any = make_player(game, "ntuple", seed=args.seed)
    learner.load(json.loads(args.start.read_text())["knowledge"])
    t, f = learner.trainer, learner.trainer.features
    trainer = (t.weights, f, t.masks, t.neighbours)
    learning = np.array([t.settings.alpha, args.epsilon, t.layout.max_plies], np.float64)
    searcher = TeekoSearch(game, t)
    context = searcher._search()
    suite = get_suite(game, VALIDATION_NAME)

    raw_report(game, learner, suite, "start")
    started, spent, games, batch = cpu_seconds(), 0.0, 0, 0
    every = args.cpu_seconds / args.checkpoints
    done = 0
    while spent < args.cpu_seconds:
        seed = args.seed * 1_000_003 + batch
        searched_self_play(args.games, seed, trainer, learning, args.depth, args.every_child, context, t.td())
        batch, games = batch + 1, games + args.games
        spent = cpu_seconds() - started
        if spent >= every * (done + 1):
            done += 1
            grading = cpu_seconds()
            raw_report(game, learner, suite, f"{spent:6.0f} CPU s, {games:,} games")
            started += cpu_seconds() - grading


if __name__ == "__main__":
    main()
