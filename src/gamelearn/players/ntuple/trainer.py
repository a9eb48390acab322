"""The ``ntuple`` learner's trainer: its weights, layout, counters and schedules, and how a batch of
self-play is played and learnt (compiled for tic-tac-toe, hexapawn and Teeko, :mod:`.kernels`;
for Connect Four on 7x6, :mod:`.connect4`; by any other game's own rules, :mod:`.generic`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from . import connect4, generic, kernels
from .layout import GAME_IDS, Features, Layout, compile_features, default_layout, neighbours, pieces, win_masks
from .settings import Settings


class Trainer:
    """One learner's weights, counters and self-play (the interface ``train_self_play`` reads)."""

    def __init__(self, game: Any, seed: int, settings: Settings, layout: Layout | None = None) -> None:
        self.game = game
        self.settings = settings
        self.seed = int(seed)
        self.use_layout(layout or default_layout(game))
        self.masks, self.neighbours = win_masks(game), neighbours(game)
        #: the rules' answers kept for self-play over a game's own rules (:mod:`.generic`)
        self.rules = generic.Rules(game)
        self.start = pieces(game, game.initial())
        self.games = self.positions = self.steps = self.batches = 0
        self.last_loss = (float("nan"), float("nan"))

    def use_layout(self, layout: Layout) -> None:
        """Start over from zero weights read through ``layout``."""
        self.layout = layout
        self.features: Features = compile_features(layout, self.game.symmetries)
        #: Connect Four's four-state cells: its own kernels (:mod:`.connect4`) read them
        self.connect4 = layout.states == 4
        if self.connect4:
            self.grid = connect4.geometry(self.game.facts.columns, self.game.facts.rows)
        self.weights = np.zeros(layout.weight_count, np.float32)
        # temporal coherence learning's sums per weight: N (signed) and A (sizes); a stub when off
        shape = (2, layout.weight_count) if self.settings.coherence > 0 else (2, 1)
        self.coherence = np.zeros(shape, np.float32)

    #: each batch plays exactly ``games_per_batch`` games: a training for N games ends on a smaller one
    whole_batches = True

    def play_in_batches_of(self, games: int) -> None:
        if games < 1:
            raise ValueError(f"games at once must be at least 1, not {games}")
        self.settings = replace(self.settings, games_per_batch=games)

    def schedule(self) -> kernels.Schedule:
        """Where self-play's schedules stand: alpha and epsilon from their starts to their floors,
        after the games played so far."""
        s = self.settings
        return kernels.Schedule(
            alpha=float(s.alpha),
            alpha_floor=float(self.alpha_floor()),
            epsilon=float(s.epsilon),
            epsilon_floor=float(s.epsilon / 10),
            halflife=float(s.halflife),
            games_before=int(self.games),
            random_plies=int(s.random_plies),
        )

    def board_rules(self) -> kernels.BoardRules:
        """The game's rules on bitboards as its compiled self-play plays them (tic-tac-toe,
        hexapawn, Teeko), a game as long as the layout's ``max_plies`` a draw."""
        a, b = self.start
        return kernels.BoardRules(GAME_IDS[self.game.name], self.masks, self.neighbours, a, b, self.layout.max_plies)

    def td(self) -> kernels.Td:
        """TD(lambda)'s constants and temporal coherence learning's sums, as the kernels take them."""
        s = self.settings
        return kernels.Td(lam=float(s.trace), horizon=int(s.horizon), coherence=self.coherence, beta=float(s.coherence))

    def alpha_floor(self) -> float:
        """Where alpha's decay ends: a tenth of its start, or (with temporal coherence learning,
        whose per-weight factors take the schedule's place) the start itself."""
        return self.settings.alpha if self.settings.coherence > 0 else self.settings.alpha / 10

    def decay(self) -> float:
        return float(0.5 ** (self.games / self.settings.halflife))

    def alpha_now(self) -> float:
        floor = self.alpha_floor()
        return floor + (self.settings.alpha - floor) * self.decay()

    def epsilon_now(self) -> float:
        return self.settings.epsilon * (0.1 + 0.9 * self.decay())

    def compile(self) -> None:
        """Compile self-play now (from numba's cache if compiled before): no game, nothing learnt.
        A game without compiled rules has nothing to compile."""
        if self.game.name in GAME_IDS or self.connect4:
            self._self_play(0, 1)

    def train_batch(self) -> int:
        """One batch of self-play games, learnt online; the positions (plies) played."""
        if self.game.name not in GAME_IDS and not self.connect4:  # no compiled rules: played by its own
            return generic.train_batch(self)
        batch_seed = (self.seed * 1_000_003 + self.batches * 7_919 + 1) % (2**31 - 1)
        plies, updates, squared = self._self_play(self.settings.games_per_batch, batch_seed)
        self.batches += 1
        self.games += self.settings.games_per_batch
        self.positions, self.steps = self.positions + plies, self.steps + updates
        loss = float(squared / max(1.0, updates))
        self.last_loss = (loss, loss)
        return plies

    def _self_play(self, games: int, seed: int, log: np.ndarray | None = None) -> tuple[int, int, float]:
        if self.connect4:
            played = np.zeros((0, 0), np.int64) if log is None else log
            plies, updates, squared = connect4.self_play(
                games, seed, self.weights, self.features, self.grid, self.schedule(), self.td(), played
            )
        else:
            plies, updates, squared = kernels.self_play(
                games, seed, self.weights, self.features, self.board_rules(), self.schedule(), self.td()
            )
        return int(plies), int(updates), float(squared)

    def learn_sequence(self, afters: list[tuple[int, int, int]], learning: list[bool], final: float) -> None:
        """TD(lambda) over one game's unfinished afterstates (a, b, mover), then its result."""
        if not afters:
            return
        a, b, movers = (np.array(column, np.int64) for column in zip(*afters, strict=True))
        if self.connect4:  # the first player's W: every gradient W (1 - W), as the first player's
            indices = connect4.features_of(self.features, self.grid, a, b)
            movers = np.zeros_like(movers)
        else:
            indices = kernels.features_of(self.features, a, b, movers)
        alpha = self.alpha_now() / len(self.features.lengths)
        squared = kernels.td_sequence(
            self.weights, indices, movers, np.array(learning, np.bool_), final, alpha, self.td()
        )
        self.games += 1
        self.positions += len(afters)
        self.steps += len(afters)
        self.last_loss = (squared / len(afters), squared / len(afters))

    def values(self, afters: list[tuple[int, int, int]]) -> np.ndarray:
        """V of afterstates (a, b, mover), for the side that made each."""
        if not afters:
            return np.zeros(0)
        a, b, movers = (np.array(column, np.int64) for column in zip(*afters, strict=True))
        if self.connect4:
            return connect4.values_of(self.weights, self.features, self.grid, a, b, movers)
        return kernels.values_of(self.weights, self.features, a, b, movers)
