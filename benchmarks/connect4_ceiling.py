"""An experiment of docs/ntuple.md: can the ``ntuple`` network of Connect Four hold the opening?
Prints figures and asserts nothing; the network it fits is a diagnostic, never a player of the
project.

    python benchmarks/connect4_ceiling.py --name n2 --perfect bitbully --games 100 --seed 1
    python benchmarks/connect4_ceiling.py --name w140 --snakes 140,8 --perfect bitbully --games 100 --seed 1

A self-taught learner loses its games against perfect play in the first moves after the opening
(docs/ntuple.md, *Where the learner loses*).  To tell a training signal that never teaches those
moves from a network too small to hold them, this fits the raw network (``search=0``) of the
learner kept under ``--name`` (``$GAMELEARN_HOME``'s store, read and never written back) to the
exact values of every position of the first seven plies (every unfinished afterstate of plies 1
to 7, 76,230 positions, the values read from the opening book that ships with the package), by
``--epochs`` passes of stochastic gradient descent on the squared error of its logistic value, in
a seeded random order.  Before the fit and after every ``--every`` passes it reports:

* the **book keeps**: of every position of plies 0 to 6 with a move to make, the share where the
  network's move keeps the position's value, the first player's and the second's apart;
* the **opening keeps** (``connect4_ntuple.py``'s: 400 positions with the first player to move and
  a win to keep, at 2, 4, 6 and 8 discs along perfect play from 100 won two-ply openings of
  ``--seed``);
* its keeps of ``connect4-val-v1`` (the positions from ply 10 on, which the fit never sees);
* once before and once after the fit, its games moving first against perfect play from ``--games``
  won openings of two random plies (``--seed``), raw and with ``--search``; and for the raw
  network's games not won, the discs down after its first move that gave the win away (each
  game replayed from ``against_perfect``'s moves).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

import numpy as np
from numba import njit

import gamelearn
from connect4_ntuple import (
    kept_learner,
    opening_keeps,
    opening_positions,
    perfect_solution,
    snake_layout,
    split_layout,
)
from gamelearn.experiments.versus_perfect import against_perfect
from gamelearn.players.ntuple import connect4, kernels
from gamelearn.players.ntuple.layout import pieces
from gamelearn.players.ntuple.player import NtuplePlayer

#: The positions fitted: every afterstate of the plies the opening book holds.
LAST_PLY = 7


def opening_tree(game: Any, solution: Any) -> dict[Any, float]:
    """Every position of plies 1 to LAST_PLY with its exact value for the first player (1 won,
    1/2 drawn, 0 lost), the book's (a finished game's from its winner)."""
    values: dict[Any, float] = {}
    layer = [game.initial()]
    for ply in range(1, LAST_PLY + 1):
        following: dict[Any, None] = {}
        for state in layer:
            for move in game.legal_moves(state):
                child = game.play(state, move)
                following[child] = None
        for child in following:
            if game.is_over(child):
                winner = game.winner(child)
                values[child] = 0.5 if winner is None else 1.0 - winner
            else:
                value, _ = solution.outcome(child)  # for the side to move: X where ply is even
                values[child] = (1 + value) / 2 if ply % 2 == 0 else (1 - value) / 2
        layer = [child for child in following if not game.is_over(child)]
    return values


@njit(cache=True)
def fit(weights: np.ndarray, indices: np.ndarray, target: np.ndarray, order: np.ndarray, step: float) -> float:
    """One pass of gradient descent on ``(target - W)^2 / 2`` over the positions in ``order``
    (``indices``: each position's weight indices; ``step``: the logit's step per unit of error,
    shared by the features); the mean squared error."""
    squared = 0.0
    for k in order:
        value = kernels.value_of(weights, indices[k])
        error = target[k] - value
        squared += error * error
        change = step * error * value * (1.0 - value)
        for index in indices[k]:
            weights[index] += change
    return squared / max(1, order.shape[0])


def book_keeps(game: Any, player: Any, values: dict[Any, float]) -> tuple[float, float, int]:
    """Of every position of plies 0 to LAST_PLY - 1 with a move to make, the share where
    ``player``'s move keeps the value: the first player's positions, the second's, how many."""
    kept = [0, 0]
    seen = [0, 0]
    for state in [game.initial(), *values]:
        discs = (state[0] | state[1]).bit_count()
        if discs >= LAST_PLY or game.is_over(state):
            continue
        side = discs % 2
        now = values.get(state, None)
        if now is None:  # the empty board: the best of its children's
            now = max(values[game.play(state, move)] for move in game.legal_moves(state))
        after = values[game.play(state, player.choose(state))]
        seen[side] += 1
        kept[side] += after == now
    return kept[0] / seen[0], kept[1] / seen[1], seen[0] + seen[1]


def split_network(game: Any, learner: NtuplePlayer, split: int) -> NtuplePlayer:
    """The learner's network with weight sets of their own for the positions of fewer than
    ``split`` discs, copied from its sets (so it plays as the learner does until fitted): a fit to
    the opening then leaves the rest of the game as the learner has it."""
    name = split_layout(learner.trainer.layout.name, split)
    split_player = NtuplePlayer(game, seed=0, train=False, epsilon=0.0, search=0, layout=name)
    split_player.trainer.weights = np.concatenate([learner.trainer.weights, learner.trainer.weights])
    return split_player


def searching(game: Any, player: NtuplePlayer, search: int) -> NtuplePlayer:
    """A frozen player of the same network (the same array of weights) with a ``search``-ply search."""
    layout_name = player.trainer.layout.name
    searcher = NtuplePlayer(game, seed=0, train=False, epsilon=0.0, search=search, layout=layout_name)
    searcher.trainer.weights = player.trainer.weights
    return searcher


def report(label: str, game: Any, player: Any, values: dict[Any, float], positions: list[Any], solution: Any) -> None:
    suite = gamelearn.get_suite(game, "connect4-val-v1")
    keeps = sum(player.choose(position.state) in position.keeping for position in suite.positions)
    first, second, counted = book_keeps(game, player, values)
    kept_won = opening_keeps(player, solution, positions)
    print(
        f"{label}: book keeps {100 * first:.1f}% (first player) {100 * second:.1f}% (second) of {counted:,}, "
        f"opening keeps {kept_won} of {len(positions)}, keeps {100 * keeps / len(suite.positions):.1f}% of "
        f"{suite.name}",
        flush=True,
    )


def first_slips(game: Any, result: dict[str, Any], solution: Any) -> Counter[int]:
    """For each game of ``against_perfect``'s ``result`` (moving first from won openings) that the
    player did not win, the discs down after its first move that gave the win away, read by
    replaying the game's moves."""
    slips = Counter[int]()
    for shortfall in result["shortfalls"]:
        state = game.initial()
        for move in shortfall["opening"]:
            state = game.play(state, move)
        for move in shortfall["moves"]:
            mine = game.to_move(state) == 0
            state = game.play(state, move)
            if mine and (game.is_over(state) or solution.outcome(state)[0] != -1):
                break  # the second player, to move, no longer loses (or the game ended without the win)
        slips[(state[0] | state[1]).bit_count()] += 1
    return slips


def games(label: str, game: Any, player: Any, args: argparse.Namespace, solution: Any) -> None:
    for search in dict.fromkeys((0, args.search)):
        playing = player if search == 0 else searching(game, player, search)
        result = against_perfect(game, playing, 0, args.games, plies=2, seed=args.seed, solution=solution)
        print(
            f"{label}, search={search}: moving first from {args.games} won two-ply openings of seed {args.seed}: "
            f"won {result['won']}, drawn {result['drawn']}, lost {result['lost']}",
            flush=True,
        )
        if search == 0:
            slips = first_slips(game, result, solution)
    where = ", ".join(f"{discs} discs: {count}" for discs, count in sorted(slips.items()))
    print(f"{label}, search=0: the first move that gave the win away left {where}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--name", required=True, help="the kept ntuple learner whose network is fitted")
    parser.add_argument("--snakes", type=lambda text: tuple(int(part) for part in text.split(",")), default=None)
    parser.add_argument("--epochs", type=int, default=30, help="passes over the positions")
    parser.add_argument("--every", type=int, default=10, help="passes between reports")
    parser.add_argument("--step", type=float, default=1.0, help="the step, divided by the number of features")
    parser.add_argument("--split", type=int, default=0, help="fit weight sets of their own below this many discs")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--search", type=int, default=8, help="the games also with this search (0: raw only)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--perfect", choices=("ours", "bitbully"), default="ours")
    args = parser.parse_args()
    game = gamelearn.get_game("connect4")
    chosen = f",layout={snake_layout(*args.snakes)}" if args.snakes else ""
    player = kept_learner(game, f"ntuple:name={args.name},search=0{chosen}", seed=args.seed)
    if args.split:
        player = split_network(game, player, args.split)
    book = gamelearn.solve(game)
    oracle = perfect_solution(args.perfect)
    solution = oracle or book
    started = time.process_time()
    values = opening_tree(game, book)
    print(
        f"{len(values):,} positions of plies 1 to {LAST_PLY} and their values: {time.process_time() - started:.1f} CPU s"
    )
    trainer = player.trainer
    states = [state for state in values if not game.is_over(state)]  # what the network is asked
    x = np.array([pieces(game, state)[0] for state in states], np.int64)
    o = np.array([pieces(game, state)[1] for state in states], np.int64)
    indices = connect4.features_of(trainer.features, trainer.grid, x, o)
    print(f"{len(states):,} of them unfinished, fitted")
    target = np.array([values[state] for state in states])
    positions = opening_positions(solution, args.seed)
    report("before", game, player, values, positions, solution)
    games("before", game, player, args, solution)
    rng = np.random.default_rng(args.seed)
    step = args.step / indices.shape[1]
    for epoch in range(1, args.epochs + 1):
        started = time.process_time()
        error = fit(trainer.weights, indices, target, rng.permutation(len(states)), step)
        if epoch % args.every == 0 or epoch == args.epochs:
            print(f"pass {epoch}: mean squared error {error:.4f} ({time.process_time() - started:.1f} CPU s a pass)")
            report(f"pass {epoch}", game, player, values, positions, solution)
    games("after", game, player, args, solution)


if __name__ == "__main__":
    main()
