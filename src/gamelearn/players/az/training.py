"""AlphaZero-style training (Silver et al. 2018) for the az player, with Gumbel search (Danihelka et
al. 2022): self-play in batches, every game of a batch played at once on the device (``jax.vmap``
over the JAX rules, ``jax.lax.scan`` over the plies; Teeko's slots kept busy, see ``selfplay``), a replay buffer of the positions met, and
gradient steps on the policy (cross-entropy against the search's improved policy) and the value
(squared error against the game's result for the side to move) with Adam and weight decay (Optax).

Every random choice is seeded: self-play batch ``b`` uses ``fold_in(PRNGKey(seed), b)``, and the
positions a gradient step trains on are drawn with ``numpy.random.default_rng((seed, step))``, so
the same seed trains the same network, step for step.  The weights, the optimiser's state and the
counters are the learner's knowledge; a training resumed from them goes on from the same network
and optimiser (its replay buffer, which is not kept, fills again from new games; self-play games
unfinished when it stopped are not kept either).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from ...games import Game
from .cache import enable_compilation_cache
from .game_rules import rules_for
from .network import NetworkShape, make_network, shape_for
from .selfplay import SelfPlay, Trajectory, new_slots, play_plies
from .settings import Settings, settings_for
from .symmetry import Symmetry, symmetries


def optimiser(settings: Settings) -> optax.GradientTransformation:
    return optax.adamw(settings.learning_rate, weight_decay=settings.weight_decay)


class ReplayBuffer:
    """The latest ``capacity`` positions: planes, legal actions, search policy, result for the mover.
    With ``symmetries``, each position drawn is seen under one of them, drawn at random too."""

    def __init__(
        self, capacity: int, planes: tuple[int, ...], actions: int, symmetries: tuple[Symmetry, ...] = ()
    ) -> None:
        self.capacity = capacity
        self.square_tables = np.stack([s.squares for s in symmetries]) if symmetries else None
        self.action_tables = np.stack([s.actions for s in symmetries]) if symmetries else None
        self.planes = np.zeros((capacity, *planes), np.float32)
        self.legal = np.zeros((capacity, actions), bool)
        self.policy = np.zeros((capacity, actions), np.float32)
        self.value = np.zeros(capacity, np.float32)
        self.size = 0
        self.next = 0

    def add(self, planes: np.ndarray, legal: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        for start in range(0, len(value), self.capacity):
            chunk = slice(start, start + self.capacity)
            count = len(value[chunk])
            where = (self.next + np.arange(count)) % self.capacity
            self.planes[where] = planes[chunk]
            self.legal[where] = legal[chunk]
            self.policy[where] = policy[chunk]
            self.value[where] = value[chunk]
            self.next = (self.next + count) % self.capacity
            self.size = min(self.capacity, self.size + count)

    def sample(self, rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
        picks = rng.integers(0, self.size, size=count)
        planes, legal, policy = self.planes[picks], self.legal[picks], self.policy[picks]
        if self.square_tables is not None and self.action_tables is not None:
            which = rng.integers(0, len(self.square_tables), size=count)
            flat = planes.reshape(count, planes.shape[1], -1)
            planes = np.take_along_axis(flat, self.square_tables[which][:, None, :], axis=2).reshape(planes.shape)
            legal = np.take_along_axis(legal, self.action_tables[which], axis=1)
            policy = np.take_along_axis(policy, self.action_tables[which], axis=1)
        return planes, legal, policy, self.value[picks]


@eqx.filter_jit
def _train_step(
    settings: Settings,
    model: Any,
    opt_state: Any,
    planes: jax.Array,
    legal: jax.Array,
    policy: jax.Array,
    value: jax.Array,
) -> tuple[Any, Any, jax.Array, jax.Array]:
    def loss_fn(model: Any) -> tuple[jax.Array, jax.Array]:
        logits, values = jax.vmap(model)(planes)
        logits = jnp.where(legal, logits, -1e9)
        policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
        value_loss = jnp.mean((values - value) ** 2)
        return policy_loss + value_loss, value_loss

    (loss, value_loss), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model)
    updates, opt_state = optimiser(settings).update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss, value_loss


@dataclass
class Checkpoint:
    """What a stretch of training did: games, positions and steps so far, the last loss."""

    games: int
    positions: int
    steps: int
    loss: float
    value_loss: float
    seconds: float


class Trainer:
    """One learner's network, optimiser and counters, and its training (see the module docstring)."""

    def __init__(
        self, game: str | Game[Any], seed: int, shape: NetworkShape | None = None, settings: Settings | None = None
    ):
        """``game``: a built-in game's name, or any game (another author's is tabulated, rules_for)."""
        self.rules = rules_for(game)
        self.game = self.rules.name
        self.seed = int(seed)
        self.shape = shape or shape_for(self.rules.name, self.rules.rows, self.rules.columns)
        self.settings = settings or settings_for(self.rules)
        if self.settings.max_plies > self.rules.max_plies:
            self.settings = replace(self.settings, max_plies=self.rules.max_plies)
        self.model = make_network(
            self.shape, self.rules.rows, self.rules.columns, self.rules.actions, jax.random.PRNGKey(self.seed)
        )
        self.opt_state = optimiser(self.settings).init(eqx.filter(self.model, eqx.is_array))
        self.steps = 0  # gradient steps taken
        self.batches = 0  # self-play batches played
        self.games = 0  # games learnt from: self-play and learn()
        self.positions = 0  # positions put into the buffer
        self.buffer = ReplayBuffer(
            self.settings.buffer,
            (3, self.rules.rows, self.rules.columns),
            self.rules.actions,
            symmetries(self.rules),
        )
        self.last_loss = (float("nan"), float("nan"))
        self.self_play_slots = SelfPlay()  # the slots and unfinished games between batches (not kept)

    @property
    def whole_batches(self) -> bool:
        """Each batch plays exactly ``games_per_batch`` whole games; with busy slots
        (``plies_per_batch`` > 0) a batch ends a varying number of them."""
        return self.settings.plies_per_batch == 0

    def play_in_batches_of(self, games: int) -> None:
        """Play ``games`` self-play games at once from now on (an accelerator takes hundreds)."""
        if games < 1:
            raise ValueError(f"games at once must be at least 1, not {games}")
        self.settings = replace(self.settings, games_per_batch=games)

    # Parameters as arrays (for knowledge) -------------------------------------------------------

    def arrays(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        params = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(eqx.filter(self.model, eqx.is_array))]
        state = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(self.opt_state)]
        return params, state

    def set_arrays(self, params: list[np.ndarray], state: list[np.ndarray]) -> None:
        """Replace the weights and optimiser state; ValueError (nothing changed) if they do not fit."""
        model_arrays, model_static = eqx.partition(self.model, eqx.is_array)
        model_leaves, model_def = jax.tree_util.tree_flatten(model_arrays)
        state_leaves, state_def = jax.tree_util.tree_flatten(self.opt_state)
        for what, new, old in (("weights", params, model_leaves), ("optimiser state", state, state_leaves)):
            if len(new) != len(old):
                raise ValueError(f"az knowledge: {len(new)} {what} arrays where the network has {len(old)}")
            for index, (a, b) in enumerate(zip(new, old, strict=True)):
                if a.shape != b.shape or a.dtype != b.dtype:
                    raise ValueError(
                        f"az knowledge: {what} array {index} is {a.dtype}{list(a.shape)}, the network's {b.dtype}{list(b.shape)}"
                    )
                if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
                    raise ValueError(f"az knowledge: {what} array {index} holds a value that is not finite")
        self.model = eqx.combine(
            jax.tree_util.tree_unflatten(model_def, [jnp.asarray(a) for a in params]), model_static
        )
        self.opt_state = jax.tree_util.tree_unflatten(state_def, [jnp.asarray(a) for a in state])

    # Training -------------------------------------------------------------------------------------

    def compile(self) -> None:
        """Compile the self-play batch and the gradient step now (from JAX's persistent cache when
        they were compiled before), so that a training's clock starts at its first game; nothing
        is played or learnt."""
        enable_compilation_cache()
        slots, key = new_slots(self.rules, self.settings, jax.random.PRNGKey(0))
        cast(Any, play_plies).lower(self.rules, self.settings, self.model, key, slots).compile()
        count, actions = self.settings.batch_size, self.rules.actions
        cast(Any, _train_step).lower(
            self.settings,
            self.model,
            self.opt_state,
            np.zeros((count, 3, self.rules.rows, self.rules.columns), np.float32),
            np.zeros((count, actions), bool),
            np.zeros((count, actions), np.float32),
            np.zeros(count, np.float32),
        ).compile()

    def add_positions(self, planes: np.ndarray, legal: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        self.buffer.add(planes, legal, policy, value)
        self.positions += len(value)

    def play_games(self) -> list[Trajectory]:
        """Play one self-play batch; the games it finished, their positions put into the buffer."""
        enable_compilation_cache()
        key = jax.random.fold_in(jax.random.PRNGKey(self.seed), self.batches)
        games = self.self_play_slots.play(self.rules, self.settings, self.model, key)
        if games:
            self.add_positions(
                np.concatenate([g.planes for g in games]),
                np.concatenate([g.legal for g in games]),
                np.concatenate([g.policy for g in games]),
                np.concatenate([g.values() for g in games]),
            )
        self.batches += 1
        self.games += len(games)
        return games

    def self_play_batch(self) -> int:
        """Play one batch of self-play games into the buffer; the positions it added."""
        return sum(len(game) for game in self.play_games())

    def update(self, count: int) -> None:
        """``count`` gradient steps on positions drawn from the buffer (none while it is empty)."""
        if self.buffer.size == 0:
            return
        enable_compilation_cache()
        for _ in range(count):
            rng = np.random.default_rng((self.seed, self.steps))
            planes, legal, policy, value = (
                jnp.asarray(part) for part in self.buffer.sample(rng, self.settings.batch_size)
            )
            self.model, self.opt_state, loss, value_loss = _train_step(
                self.settings, self.model, self.opt_state, planes, legal, policy, value
            )
            self.steps += 1
            self.last_loss = (float(loss), float(value_loss))

    def train_batch(self) -> int:
        """One self-play batch, then its gradient steps; the positions played."""
        played = self.self_play_batch()
        self.update(self.settings.updates_per_batch)
        return played
