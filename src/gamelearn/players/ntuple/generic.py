"""The ``ntuple`` learner's self-play for a game without compiled rules: any game of the contract
(docs/own-game.md), played by its own ``successors``, ``is_over`` and ``winner``.

Each game opens with 0 to ``random_plies`` random moves, then both sides play the best afterstate
by the network (ties broken at random), exploring a random move with the schedule's epsilon.  As
in the compiled self-play (:mod:`.kernels`) and Watkins's Q(lambda), the target of an
afterstate is the value of the move the greedy policy makes next, whether or not it is played, and
an exploring move cuts the eligibility trace: what is learnt is the greedy policy's value.  The
game is learnt at its end, a run of greedy plies at a time, by TD(lambda)
(:func:`.kernels.td_sequence`, the update the compiled self-play and ``learn`` make).  Seeded: batch ``k`` draws from
``random.Random`` of (seed, k), so the same seed trains the same weights.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, Protocol

import numpy as np

from . import kernels
from .layout import Features, Layout, board_pieces
from .settings import Settings

#: The most positions whose rules' answers a trainer keeps (:class:`Rules`).
KEPT_POSITIONS = 2_000_000


class Rules:
    """A game's answers about each position met (its successors, whether it is over, its winner,
    its bitboards), worked out once and kept for up to :data:`KEPT_POSITIONS` positions: a game
    written plainly (docs/own-game.md) pays for its rules once a position, not once a visit."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.known: dict[Hashable, tuple[bool, int | None, int, tuple[int, int]]] = {}
        self.children: dict[Hashable, tuple[Hashable, ...]] = {}

    def facts(self, state: Hashable) -> tuple[bool, int | None, int, tuple[int, int]]:
        """(over, winner, side to move, bitboards) of ``state``."""
        known = self.known.get(state)
        if known is None:
            game = self.game
            over = game.is_over(state)
            known = (over, game.winner(state) if over else None, game.to_move(state), board_pieces(game, state))
            if len(self.known) < KEPT_POSITIONS:
                self.known[state] = known
        return known

    def successors(self, state: Hashable) -> tuple[Hashable, ...]:
        known = self.children.get(state)
        if known is None:
            known = tuple(child for _, child in self.game.successors(state))
            if len(self.children) < KEPT_POSITIONS:
                self.children[state] = known
        return known


class SelfPlaying(Protocol):
    """What self-play over a game's own rules reads and counts of its trainer
    (:class:`.trainer.Trainer`): the network, the settings and schedules, the counters."""

    game: Any
    rules: Rules
    settings: Settings
    layout: Layout
    features: Features
    weights: np.ndarray
    coherence: np.ndarray
    seed: int
    games: int
    positions: int
    steps: int
    batches: int
    last_loss: tuple[float, float]

    def alpha_now(self) -> float: ...

    def epsilon_now(self) -> float: ...


def result_for_first(winner: int | None) -> float:
    """A finished game's value for the first player: 1 won, 1/2 drawn, 0 lost."""
    return 0.5 if winner is None else 1.0 if winner == 0 else 0.0


def _network_values(trainer: SelfPlaying, mover: int, bits: list[tuple[int, int]]) -> list[float]:
    a = np.array([pair[0] for pair in bits], np.int64)
    b = np.array([pair[1] for pair in bits], np.int64)
    movers = np.full(len(bits), mover, np.int64)
    values = kernels.values_of(trainer.weights, trainer.features, a, b, movers)
    result: list[float] = values.tolist()
    return result


def _best(
    trainer: SelfPlaying, rules: Rules, mover: int, children: tuple[Hashable, ...], rng: random.Random
) -> tuple[Hashable, float]:
    """The child ``mover`` rates best (a won game first, then by the network's values) and its value for ``mover``."""
    best_value, best = -1.0, []
    afters, pending = [], []
    for child in children:
        over, winner, _, bits = rules.facts(child)
        if over:
            value = 0.5 if winner is None else 1.0 if winner == mover else 0.0
            if value > best_value:
                best_value, best = value, [child]
            elif value == best_value:
                best.append(child)
        else:
            pending.append(child)
            afters.append(bits)
    if pending and best_value < 1.0:
        for child, value in zip(pending, _network_values(trainer, mover, afters), strict=True):
            if value > best_value:
                best_value, best = value, [child]
            elif value == best_value:
                best.append(child)
    return (best[0] if len(best) == 1 else rng.choice(best)), best_value


Segment = tuple[list[tuple[int, int, int]], float]


def play_one(trainer: SelfPlaying, rng: random.Random, epsilon: float) -> tuple[list[Segment], int]:
    """One self-play game as the segments TD(lambda) learns from, and its plies.  Each segment is a
    run of unfinished afterstates (a, b, mover) played greedily and the first player's result after
    it: the game's own at its end; at an exploring move, the value of the move the greedy policy
    would have made there, which the segment's last afterstate is learnt toward (an unfinished
    greedy afterstate closes the segment, learnt toward itself: the trace is cut there)."""
    rules = trainer.rules
    state = trainer.game.initial()
    segments: list[Segment] = []
    afters: list[tuple[int, int, int]] = []
    opening = rng.randint(0, trainer.settings.random_plies)
    for ply in range(trainer.layout.max_plies):
        over, winner, mover, _ = rules.facts(state)
        if over:
            segments.append((afters, result_for_first(winner)))
            return segments, ply
        children = rules.successors(state)
        if ply < opening:
            state = rng.choice(children)
            afters = []  # the random opening is not learnt from
        elif rng.random() < epsilon:
            greedy, value = _best(trainer, rules, mover, children, rng)
            state = rng.choice(children)
            if state is not greedy and state != greedy:
                g_over, _, _, g_bits = rules.facts(greedy)
                if afters and not g_over:
                    segments.append(([*afters, (*g_bits, mover)], value if mover == 0 else 1.0 - value))
                elif afters:
                    segments.append((afters, value if mover == 0 else 1.0 - value))
                afters = []
        else:
            state = _best(trainer, rules, mover, children, rng)[0]
        after = rules.facts(state)
        if not after[0]:
            afters.append((*after[3], mover))
    segments.append((afters, 0.5))  # the ply cap: a draw
    return segments, trainer.layout.max_plies


def train_batch(trainer: SelfPlaying) -> int:
    """One batch of self-play games, each learnt at its end; the positions (plies) played."""
    rng = random.Random(trainer.seed * 1_000_003 + trainer.batches * 7_919 + 1)
    f = trainer.features
    plies = 0
    squared = 0.0
    updates = 0
    td = kernels.Td(
        lam=float(trainer.settings.trace),
        horizon=int(trainer.settings.horizon),
        coherence=trainer.coherence,
        beta=float(trainer.settings.coherence),
    )
    for _ in range(trainer.settings.games_per_batch):
        segments, played = play_one(trainer, rng, trainer.epsilon_now())
        plies += played
        trainer.games += 1
        for afters, final in segments:
            if not afters:
                continue
            a, b, movers = (np.array(column, np.int64) for column in zip(*afters, strict=True))
            indices = kernels.features_of(f, a, b, movers)
            alpha = trainer.alpha_now() / len(f.lengths)
            squared += kernels.td_sequence(
                trainer.weights, indices, movers, np.ones(len(afters), np.bool_), final, alpha, td
            )
            updates += len(afters)
    trainer.batches += 1
    trainer.positions += plies
    trainer.steps += updates
    loss = squared / max(1, updates)
    trainer.last_loss = (loss, loss)
    return plies


__all__ = ["Rules", "SelfPlaying", "play_one", "result_for_first", "train_batch"]
