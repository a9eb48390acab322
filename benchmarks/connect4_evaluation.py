"""The weights of Connect Four's evaluations, chosen on the validation suite (connect4-val-v1).

    python benchmarks/connect4_evaluation.py                 # every weight set at depth 2
    python benchmarks/connect4_evaluation.py --depth 4 --top 4

Each weight set is an alpha-beta player (``alphabeta:depth=D``) whose evaluation is
``gamelearn.players.evaluation_connect4.lines_over(weights)`` (or ``threats_over`` with its threat
weights), graded on the held-out validation suite, never on connect4-v1 (the report suite).  With
``--top K`` only the K best of depth 2 are graded at the depth asked.  The figure is the keeps
share; CPU seconds are this process's (user + system) for the grade.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gamelearn
from gamelearn.experiments.grading import grade_player
from gamelearn.experiments.suites import Suite, get_suite
from gamelearn.players.base import Evaluation
from gamelearn.players.evaluation_connect4 import lines_over, threats_over
from gamelearn.players.search import AlphaBetaPlayer

#: The windows' weights tried (a window of 0, 1, 2, 3 and 4 discs).
LINE_WEIGHTS = [
    (0, 1, 2, 4, 1000),
    (0, 1, 3, 9, 1000),
    (0, 1, 4, 16, 1000),
    (0, 1, 5, 25, 1000),
    (0, 1, 2, 8, 1000),
    (0, 1, 4, 32, 1000),
    (0, 1, 10, 100, 1000),
    (0, 0, 1, 4, 1000),
    (0, 1, 1, 1, 1000),
]
#: The threat weights tried (own kind of row, other kind), each over the best windows' weights.
THREAT_WEIGHTS = [(5, 0), (10, 0), (20, 0), (40, 0), (10, 3), (20, 5)]


def keeps(depth: int, evaluate: Evaluation, suite: Suite) -> tuple[float, float]:
    """The keeps share of alpha-beta to ``depth`` over ``evaluate`` on ``suite``, and its CPU s."""
    game = gamelearn.get_game("connect4")
    player: AlphaBetaPlayer[Any] = AlphaBetaPlayer(game, seed=0, depth=depth, eval="none")
    player.evaluate = evaluate
    start = time.process_time()
    report = grade_player(player, suite, seed=0)
    return report.keeps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--top", type=int, default=0, help="grade only the K best of depth 2 at --depth")
    args = parser.parse_args()
    suite = get_suite(gamelearn.get_game("connect4"), "connect4-val-v1")
    rows: list[tuple[str, Evaluation]] = [(f"lines {w[1:4]}", lines_over(w)) for w in LINE_WEIGHTS]
    results = {name: keeps(2, evaluate, suite) for name, evaluate in rows}
    best_lines = max(LINE_WEIGHTS, key=lambda w: results[f"lines {w[1:4]}"][0])
    for good, other in THREAT_WEIGHTS:
        name = f"threats {best_lines[1:4]} +{good}/{other}"
        rows.append((name, threats_over(best_lines, good, other)))
        results[name] = keeps(2, rows[-1][1], suite)
    print("connect4-val-v1, alphabeta:depth=2: keeps, CPU s (user + sys) of the grade")
    for name, (share, cpu) in sorted(results.items(), key=lambda item: -item[1][0]):
        print(f"  {name:34} {share:6.1%} {cpu:6.1f}")
    if args.top and args.depth != 2:
        best = sorted(rows, key=lambda row: -results[row[0]][0])[: args.top]
        print(f"connect4-val-v1, alphabeta:depth={args.depth}, the {args.top} best of depth 2")
        for name, evaluate in best:
            share, cpu = keeps(args.depth, evaluate, suite)
            print(f"  {name:34} {share:6.1%} {cpu:6.1f}")


if __name__ == "__main__":
    main()
