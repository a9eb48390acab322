"""Connect Four's self-play with other targets or moves than the ``ntuple`` learner's: the game's
result for the opening's afterstates, a discount a ply, a two-ply search's, or Boltzmann
exploration.  A variant of the learner's kernel, measured and not kept (docs/ntuple.md, *The
game's result for the opening*, *A discount a ply*, *Self-play that looks two plies ahead* and
*Boltzmann exploration*).

    python benchmarks/connect4_td_targets.py check
    python benchmarks/connect4_ntuple.py settings --result-below 12 --perfect bitbully --games 50 --cpu 900 --every 300
    python benchmarks/connect4_ntuple.py settings --discount 0.99 --perfect bitbully --games 50 --cpu 900 --every 300
    python benchmarks/connect4_ntuple.py settings --lookahead 2 --perfect bitbully --games 50 --cpu 900 --every 300
    python benchmarks/connect4_ntuple.py settings --temperature 0.02 --perfect bitbully --games 50 --cpu 900 --every 300

The variant (:func:`self_play_variant`) is the package's ``connect4.self_play`` with four changes.

* An afterstate with fewer than ``result_below`` discs does not learn the value of the next
  greedy choice (TD(0), the default's target).  It is kept, and when the game ends it learns the
  game's result, the Monte-Carlo return (Sutton & Barto 2018, chapter 5), through the same
  temporal coherence learning.  Where an exploring move ends the greedy line first, the kept
  afterstates learn the value the greedy move had there, where the default's trace is cut too.
* Each TD target ``W`` moves toward the draw by ``discount``, to ``1/2 + discount (W - 1/2)``:
  a win ``k`` plies away is worth ``1/2 + discount^k / 2``, so the sooner the better.
* With ``lookahead`` 2 each move is chosen by a two-ply search: a column is worth its worst reply
  for the mover (a four made by the reply: a loss; a full board: a draw; else the network's
  value), and the best of those is also the previous afterstate's target, the search's value at
  the root (Veness, Silver, Uther & Blair 2009, TreeStrap's root value).
* With a ``temperature`` ``T`` above 0, each move after the random opening plies is drawn with a
  chance proportional to ``exp(value / T)`` (soft-max, or Boltzmann, action selection: Sutton &
  Barto 2018, sections 2.8 and 13.1) in place of ε-greedy: near-best moves are explored often,
  blunders seldom.  The targets stay greedy.

With ``result_below`` 0, ``discount`` 1, ``lookahead`` 1 and ``temperature`` 0 it is the
default.  ``check`` proves that: it plays the same games and leaves the same weights and TCL sums
as the package's kernel, and each change alone leaves other weights; and with nothing learnt, the two-ply moves are a plain
two-ply choice over the game's own rules (:func:`check_lookahead`), and the first moves drawn at a
temperature fall as a softmax says (:func:`check_temperature`).  Prints; asserts only in
``check``.
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
def self_play_variant(  # noqa: C901 (the package's kernel, one loop, and the changes)
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
    lookahead: int,
    temperature: float,
) -> np.ndarray:
    """``connect4.self_play`` (same arguments, same returns), the afterstates of fewer than
    ``result_below`` discs learning the game's result, each target discounted by ``discount``,
    with ``lookahead`` 2 each move chosen and each target valued by a two-ply search, and with a
    ``temperature`` each move drawn by its value in place of ε-greedy (the module's docstring)."""
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
    child_raw = np.empty(MAX_COLUMNS)  # the network's own value, where child_value is searched
    child_weight = np.empty(MAX_COLUMNS)
    reply_x = np.empty(MAX_COLUMNS, np.int64)
    reply_o = np.empty(MAX_COLUMNS, np.int64)
    reply_result = np.empty(MAX_COLUMNS, np.int64)
    reply_square = np.empty(MAX_COLUMNS, np.int64)
    reply_indices = np.empty(count_of_features, np.int64)
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
                child_raw[i] = child_value[i]
                if lookahead == 2 and child_result[i] == ONGOING:  # the worst reply, for the mover
                    replies = afterstates(
                        child_x[i], child_o[i], 1 - mover, grid, reply_x, reply_o, reply_result, reply_square
                    )
                    worst = 1.0
                    for j in range(replies):
                        if reply_result[j] == WON:
                            worst = 0.0
                            break
                        if reply_result[j] == DRAWN:
                            reply_value = 0.5
                        else:
                            child_features(
                                child_x[i], child_o[i], reply_x[j], reply_o[j], reply_square[j], child_indices[i],
                                features, columns, board, reply_indices,
                            )  # fmt: skip
                            first = value_of(weights, reply_indices)
                            reply_value = first if mover == 0 else 1.0 - first
                        worst = min(worst, reply_value)
                    child_value[i] = worst
            for i in range(n):
                if child_value[i] > best_value:
                    best, best_value, ties = i, child_value[i], 1
                elif child_value[i] == best_value:
                    ties += 1
                    if np.random.randint(0, ties) == 0:
                        best = i
            chosen = best
            if ply < opening:
                chosen = np.random.randint(0, n)
            elif temperature > 0:  # Boltzmann: each move by exp(its value / temperature)
                weight_sum = 0.0
                for i in range(n):
                    child_weight[i] = np.exp((child_value[i] - best_value) / temperature)
                    weight_sum += child_weight[i]
                draw = np.random.random() * weight_sum
                chosen = n - 1
                for i in range(n):
                    draw -= child_weight[i]
                    if draw < 0:
                        chosen = i
                        break
            elif np.random.random() < epsilon:
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
            first = child_raw[chosen] if mover == 0 else 1.0 - child_raw[chosen]
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


def use_variant(
    trainer: Any, result_below: int, discount: float = 1.0, lookahead: int = 1, temperature: float = 0.0
) -> None:
    """Make ``trainer`` (a Connect Four ntuple trainer) play its self-play by the variant,
    compiled."""

    def self_play(games: int, seed: int, log: np.ndarray | None = None) -> tuple[int, int, float]:
        played = np.zeros((0, 0), np.int64) if log is None else log
        plies, updates, squared = self_play_variant(
            games, seed, trainer.weights, trainer.features, trainer.grid, trainer.schedule(), trainer.td(), played,
            result_below, discount, lookahead, temperature,
        )  # fmt: skip
        return int(plies), int(updates), float(squared)

    trainer._self_play = self_play
    self_play(0, 1)  # numba compiles the variant now, before a clock starts: no game, nothing learnt


def check(games: int) -> None:
    """With ``result_below`` 0, ``discount`` 1 and ``lookahead`` 1 the variant is the package's
    kernel: the same games, the same weights and TCL sums; with any one change the weights differ."""
    from gamelearn.players.ntuple import NtuplePlayer

    game = gamelearn.get_game("connect4")
    runs = {}
    for label, below, discount, lookahead, temperature in (
        ("package", None, 1.0, 1, 0.0),
        ("variant, no change", 0, 1.0, 1, 0.0),
        ("variant, the result below 12 discs", 12, 1.0, 1, 0.0),
        ("variant, discount 0.99", 0, 0.99, 1, 0.0),
        ("variant, a two-ply lookahead", 0, 1.0, 2, 0.0),
        ("variant, Boltzmann exploration", 0, 1.0, 1, 0.05),
    ):
        trainer = NtuplePlayer(game, seed=5).trainer
        if below is not None:
            use_variant(trainer, below, discount, lookahead, temperature)
        log = np.zeros((games, 42), np.int64)
        returned = trainer._self_play(games, 11, log)
        runs[label] = (trainer.weights.copy(), trainer.coherence.copy(), log, returned)
        print(f"{label}: {games} games; plies, updates, squared TD errors {returned}")
    package, same = runs["package"], runs["variant, no change"]
    assert np.array_equal(package[2], same[2]), "the variant with no change played other games"
    assert np.array_equal(package[0], same[0]) and np.array_equal(package[1], same[1]), "other weights"
    assert package[3] == same[3]
    for label in (
        "variant, the result below 12 discs",
        "variant, discount 0.99",
        "variant, a two-ply lookahead",
        "variant, Boltzmann exploration",
    ):
        assert not np.array_equal(package[0], runs[label][0]), f"{label} changed no weight"
    print("with no change the variant is the package's self-play: the same games, weights and TCL sums")


def check_lookahead(games: int) -> None:
    """With ``lookahead`` 2 and nothing learnt (α 0, random weights, no exploration past 6
    random opening plies), every move from the 7th on is a plain two-ply choice over the game's
    own rules and the network read whole: the column whose worst reply (a four: 0, a full board:
    1/2, else the network's value for the mover) is best."""
    from dataclasses import replace

    from gamelearn.players.ntuple import NtuplePlayer
    from gamelearn.players.ntuple.layout import pieces

    game = gamelearn.get_game("connect4")
    player = NtuplePlayer(game, seed=5)
    trainer = player.trainer
    trainer.settings = replace(trainer.settings, alpha=0.0, epsilon=0.0, random_plies=6)
    trainer.weights = (np.random.default_rng(7).standard_normal(trainer.weights.size) * 0.3).astype(np.float32)
    before = trainer.weights.copy()
    use_variant(trainer, 0, 1.0, 2)
    log = np.zeros((games, 42), np.int64)
    trainer._self_play(games, 13, log)
    assert np.array_equal(before, trainer.weights), "alpha 0 moved a weight"
    grid = connect4.geometry(7, 6)

    def mover_value(state: Any, mover: int) -> float:
        if game.is_over(state):
            return 0.5 if game.winner(state) is None else float(game.winner(state) == mover)
        x, o = pieces(game, state)
        movers = np.array([1 - game.to_move(state)])
        value = connect4.values_of(trainer.weights, trainer.features, grid, np.array([x]), np.array([o]), movers)
        return float(value[0]) if movers[0] == mover else 1.0 - float(value[0])

    checked = 0
    for row in log:
        state = game.initial()
        for ply, column in enumerate(row):
            if column < 0:
                break
            if ply >= 6:
                mover = game.to_move(state)
                searched = {}
                for move in game.legal_moves(state):
                    child = game.play(state, move)
                    replies = [game.play(child, reply) for reply in game.legal_moves(child)]
                    worst = min((mover_value(reply, mover) for reply in replies), default=mover_value(child, mover))
                    searched[move] = worst
                best = max(searched.values())
                assert searched[str(column + 1)] == best or np.isclose(searched[str(column + 1)], best, atol=1e-6), (
                    f"ply {ply}: column {column + 1} ({searched[str(column + 1)]}), best {best}"
                )
                checked += 1
            state = game.play(state, str(column + 1))
    print(f"with a two-ply lookahead, {checked} moves of {games} games are the plain two-ply choice")


def check_temperature(games: int, temperature: float = 0.05) -> None:
    """With a ``temperature`` and nothing learnt (α 0, random weights, no random opening plies),
    the first move of ``games`` games falls on each column as often as the softmax of the seven
    afterstates' values, read whole, says (a chi-square test, scipy.stats)."""
    from dataclasses import replace

    from scipy.stats import chisquare

    from gamelearn.players.ntuple import NtuplePlayer
    from gamelearn.players.ntuple.layout import pieces

    game = gamelearn.get_game("connect4")
    trainer = NtuplePlayer(game, seed=5).trainer
    trainer.settings = replace(trainer.settings, alpha=0.0, random_plies=0)
    trainer.weights = (np.random.default_rng(8).standard_normal(trainer.weights.size) * 0.05).astype(np.float32)
    use_variant(trainer, 0, 1.0, 1, temperature)
    log = np.zeros((games, 42), np.int64)
    trainer._self_play(games, 17, log)
    children = [game.play(game.initial(), move) for move in game.legal_moves(game.initial())]
    x = np.array([pieces(game, child)[0] for child in children])
    o = np.array([pieces(game, child)[1] for child in children])
    grid = connect4.geometry(7, 6)
    values = connect4.values_of(trainer.weights, trainer.features, grid, x, o, np.zeros(7, np.int64))
    chances = np.exp(values / temperature) / np.exp(values / temperature).sum()
    seen = np.bincount(log[:, 0], minlength=7)
    test = chisquare(seen, chances * games)
    print(
        f"first moves {seen.tolist()}, softmax expects {np.round(chances * games).astype(int).tolist()}; p {test.pvalue:.3f}"
    )
    assert test.pvalue > 1e-3, "the first moves are not the softmax's"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("check",))
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    check(args.games)
    check_lookahead(args.games // 10)
    check_temperature(20 * args.games)


if __name__ == "__main__":
    main()
