"""An experiment of docs/ntuple.md: Teeko's ``ntuple`` self-play with proven two-ply losses as an
extra training signal, trained for a budget of CPU seconds and graded raw on ``teeko-val-v1``,
as ``yardstick_teeko.py train`` does for the default learner.  Prints figures and asserts nothing.

    python benchmarks/teeko_proven_losses.py --cpu-seconds 120 --seed 1 --out strap.json
    python benchmarks/teeko_proven_losses.py --cpu-seconds 120 --seed 1 --out strap.json --policy network
    python benchmarks/teeko_proven_losses.py --blunders s1.json strap.json

``--blunders``: of a saved learner's raw (``search=0``) moves on ``teeko-val-v1`` that throw the
position to a loss, how many let the other side complete a goal at once.

At every ply the mover scores its children, as the default self-play does; a child that lets the
other side complete a goal at once is a proven loss two plies deep, and its network value is moved
toward 0 there and then, whether or not it is played (the search-backed update of TreeStrap, Veness,
Silver, Uther & Blair 2009, restricted to the values a two-ply search proves).  ``--policy proven``
(the default) also scores such a child 0 in the choice and in the TD target; ``--policy network``
leaves the choice and the target to the network's value, so only the extra update differs from the
default learner.  The kernel is the default self-play kernel (``ntuple.kernels.self_play``) with
that one change; ``other_wins_next`` is checked against the game's rules on random positions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

import gamelearn
from gamelearn.experiments.grading import choose_all
from gamelearn.experiments.suites import VALIDATION_NAME, get_suite
from gamelearn.players.ntuple import kernels as kernels
from gamelearn.players.ntuple.layout import Features, neighbours, pieces, win_masks
from gamelearn.players.registry import make_player

sys.path.insert(0, str(Path(__file__).resolve().parent))
from yardstick_teeko import cpu_seconds, graded  # noqa: E402  # the yardstick's own clock and grade


@njit
def other_wins_next(a: int, b: int, mover: int, masks: np.ndarray, steps: np.ndarray) -> bool:
    """Whether the side to move (not ``mover``, who has just moved into (a, b)) can complete a goal at
    once: a goal holding three of its pieces and none of the mover's, whose fourth square it can
    drop on (fewer than 8 pieces down) or step onto from outside the goal."""
    own = a if mover == 0 else b
    other = b if mover == 0 else a
    placing = kernels.popcount(a | b) < 8
    for mask in masks:
        if mask & own or kernels.popcount(mask & other) != 3:
            continue
        if placing:
            return True
        empty = mask & ~other
        square = 0
        while not (empty >> square) & 1:
            square += 1
        if steps[square] & other & ~mask:
            return True
    return False


@njit
def toward_loss(weights: np.ndarray, indices: np.ndarray, alpha: float, coherence: np.ndarray, beta: float) -> None:
    """One step of V toward 0 on the weights ``indices`` read (``w += alpha (0 - V) V (1 - V)``),
    through temporal coherence learning's factors and sums when ``beta > 0``."""
    v = kernels.value_of(weights, indices)
    amount = alpha * (0.0 - v) * v * (1.0 - v)
    for f in range(indices.shape[0]):
        index = indices[f]
        if beta > 0.0:
            weights[index] += amount * kernels.coherence_factor(coherence, index, beta)
            coherence[0, index] += amount
            coherence[1, index] += abs(amount)
        else:
            weights[index] += amount


def kernel(proven_policy: bool) -> Any:
    """The self-play kernel with the extra update; ``proven_policy``: proven losses score 0 in the
    choice and in the target too."""

    @njit
    def self_play(  # noqa: C901  # the default kernel's one loop, kept whole to compare like with like
        games: int,
        seed: int,
        weights: np.ndarray,
        reading: Features,
        rules: kernels.BoardRules,
        schedule: kernels.Schedule,
        td: kernels.Td,
    ) -> np.ndarray:
        np.random.seed(seed)
        game, masks, steps, max_plies = rules.game, rules.masks, rules.neighbours, rules.max_plies
        start_a, start_b = rules.start_a, rules.start_b
        horizon, coherence, beta = td.horizon, td.coherence, td.beta
        games_before, random_plies = schedule.games_before, schedule.random_plies
        features = reading.lengths.shape[0]
        child_a = np.empty(kernels.MAX_CHILDREN, np.int64)
        child_b = np.empty(kernels.MAX_CHILDREN, np.int64)
        child_result = np.empty(kernels.MAX_CHILDREN, np.int64)
        child_indices = np.empty((kernels.MAX_CHILDREN, features), np.int64)
        child_value = np.empty(kernels.MAX_CHILDREN)
        trace_indices = np.empty((horizon, features), np.int64)
        trace_grads = np.zeros(horizon)
        plies_played, updates, squared = 0, 0, 0.0
        for g in range(games):
            decay = 0.5 ** ((games_before + g) / schedule.halflife)
            alpha = (schedule.alpha_floor + (schedule.alpha - schedule.alpha_floor) * decay) / features
            epsilon = schedule.epsilon_floor + (schedule.epsilon - schedule.epsilon_floor) * decay
            opening = np.random.randint(0, random_plies + 1)
            a, b, mover = start_a, start_b, 0
            head, length = -1, 0
            for ply in range(max_plies):
                count = kernels.afterstates(game, a, b, mover, masks, steps, child_a, child_b, child_result)
                if count == 0:
                    break
                best, ties = 0, 0
                best_value = -1.0
                for i in range(count):
                    if child_result[i] == kernels.WON:
                        child_value[i] = 1.0
                    elif child_result[i] == kernels.DRAWN:
                        child_value[i] = 0.5
                    else:
                        kernels.read_features(child_a[i], child_b[i], mover, reading, child_indices[i])
                        lost = other_wins_next(child_a[i], child_b[i], mover, masks, steps)
                        if lost:
                            toward_loss(weights, child_indices[i], alpha, coherence, beta)
                            updates += 1
                        child_value[i] = 0.0 if lost and proven_policy else kernels.value_of(weights, child_indices[i])
                    if child_value[i] > best_value:
                        best, best_value, ties = i, child_value[i], 1
                    elif child_value[i] == best_value:
                        ties += 1
                        if np.random.randint(0, ties) == 0:
                            best = i
                chosen = best
                if ply < opening or np.random.random() < epsilon:
                    chosen = np.random.randint(0, count)
                if length > 0:
                    target = best_value if mover == 0 else 1.0 - best_value
                    v = kernels.value_of(weights, trace_indices[head])
                    delta = target - (v if mover == 1 else 1.0 - v)
                    kernels.apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
                    squared += delta * delta
                    updates += 1
                if child_value[chosen] != best_value:
                    length = 0
                plies_played += 1
                a, b = child_a[chosen], child_b[chosen]
                if child_result[chosen] != kernels.ONGOING:
                    break
                v = kernels.value_of(weights, child_indices[chosen])
                head = (head + 1) % horizon
                trace_indices[head] = child_indices[chosen]
                trace_grads[head] = v * (1.0 - v) * (1.0 if mover == 0 else -1.0)
                length = min(length + 1, horizon)
                if ply == max_plies - 1:
                    delta = 0.5 - (v if mover == 0 else 1.0 - v)
                    kernels.apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
                    squared += delta * delta
                    updates += 1
                mover = 1 - mover
        out = np.empty(3)
        out[0], out[1], out[2] = plies_played, updates, squared
        return out

    return self_play


def check_rule(game: Any, positions: int = 400) -> None:
    """``other_wins_next`` against the game's own rules on seeded random positions; exits on a difference."""
    masks, steps = win_masks(game), neighbours(game)
    rng = random.Random(5)
    for _ in range(positions):
        state = game.initial()
        for _ply in range(rng.randrange(1, 60)):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.is_over(state):
            continue
        side = game.to_move(state)
        truth = any(game.winner(game.play(state, move)) == side for move in game.legal_moves(state))
        if bool(other_wins_next(*pieces(game, state), 1 - side, masks, steps)) != truth:
            sys.exit(f"other_wins_next is wrong on {game.board(state)!r}")


def blunders(game: Any, files: list[Path]) -> None:
    """Each learner's raw blunders on the validation suite, and those that hand the other side a four."""
    masks, steps = win_masks(game), neighbours(game)
    suite = get_suite(game, VALIDATION_NAME)
    for path in files:
        player = make_player(game, "ntuple:train=off,search=0", seed=0)
        player.load(json.loads(path.read_text())["knowledge"])
        moves = choose_all(player, [position.state for position in suite.positions], 0)
        thrown = handing = 0
        for position, move in zip(suite.positions, moves, strict=True):
            if move is None or move not in position.losing:
                continue
            thrown += 1
            side = game.to_move(position.state)
            handing += bool(other_wins_next(*pieces(game, game.play(position.state, move)), side, masks, steps))
        print(f"{path}: {thrown} raw blunders of {len(suite)} positions, {handing} of them hand over a four")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-seconds", type=float)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoints", type=int, default=2)
    parser.add_argument("--policy", choices=("proven", "network"), default="proven")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--blunders", type=Path, nargs="+", help="count these saved learners' raw blunders instead")
    args = parser.parse_args()
    game = gamelearn.get_game("teeko")
    check_rule(game)
    if args.blunders:
        blunders(game, args.blunders)
        return
    if args.cpu_seconds is None or args.out is None:
        parser.error("training needs --cpu-seconds and --out")
    kernels.self_play = kernel(args.policy == "proven")  # the trainer calls it through the module
    learner = make_player(game, "ntuple", seed=args.seed)
    get_suite(game, VALIDATION_NAME)
    learner.trainer._self_play(0, 1)  # compiled outside the budget (the default kernel is cached)
    started, spent = cpu_seconds(), 0.0
    every = args.cpu_seconds / args.checkpoints
    points: list[dict[str, Any]] = []
    while spent < args.cpu_seconds:
        learner.self_play(1)
        spent = cpu_seconds() - started
        if spent >= every * (len(points) + 1) or spent >= args.cpu_seconds:
            grading = cpu_seconds()
            found = graded(game, learner.knowledge(), "0", VALIDATION_NAME)
            started += cpu_seconds() - grading  # grading is left out of the training clock
            points.append({"seconds": spent, "games": learner.trainer.games, **found})
            print(
                f"{spent:7.1f} CPU s  {learner.trainer.games:>9,} games  raw keeps {100 * found['keeps']:.1f}% "
                f"({100 * found['low']:.1f}-{100 * found['high']:.1f}), blunders {100 * found['blunders']:.1f}%",
                flush=True,
            )
    data = {"name": args.out.stem, "clock": "cpu", "seed": args.seed, "policy": args.policy, "checkpoints": points}
    args.out.write_text(json.dumps({**data, "knowledge": learner.knowledge()}))


if __name__ == "__main__":
    main()
