"""Batched tree search for the az player: DeepMind's ``mctx`` (Danihelka et al. 2022, "Policy
improvement by planning with Gumbel") over the JAX rules, with the network as prior and value.

Two players take turns, so a move's reward is for the side that made it and every step down the
tree flips the sign of the value (``discount = -1``); a finished game ends the line (``discount =
0``, value 0).  Illegal actions get a prior of practically zero inside the tree and are excluded at
the root (``invalid_actions``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import mctx

from .cache import enable_compilation_cache
from .rules import JaxRules, Position

#: The logit given to an illegal action: finite, so a finished position's all-illegal row stays a
#: number (a uniform distribution nobody reads) instead of NaN.
ILLEGAL_LOGIT = -1e9

#: A function from positions (batched) to (logits, values): the network, or exact values in tests.
Evaluator = Callable[[Any, Position], tuple[jax.Array, jax.Array]]


def network_evaluator(rules: JaxRules) -> Evaluator:
    """Logits and values of a batch of positions from the network passed as ``params``."""

    def evaluate(model: Any, positions: Position) -> tuple[jax.Array, jax.Array]:
        planes = jax.vmap(rules.planes)(positions)
        logits, values = jax.vmap(model)(planes)
        return logits, values

    return evaluate


def masked(rules: JaxRules, positions: Position, logits: jax.Array) -> tuple[jax.Array, jax.Array]:
    legal = jax.vmap(rules.legal)(positions)
    return jnp.where(legal, logits, ILLEGAL_LOGIT), legal


def make_recurrent_fn(rules: JaxRules, evaluate: Evaluator) -> Callable[..., tuple[mctx.RecurrentFnOutput, Position]]:
    def recurrent_fn(
        params: Any, rng_key: jax.Array, action: jax.Array, embedding: Position
    ) -> tuple[mctx.RecurrentFnOutput, Position]:
        nxt, reward = jax.vmap(rules.step)(embedding, action)
        logits, values = evaluate(params, nxt)
        logits, _ = masked(rules, nxt, logits)
        ended = nxt.over
        output = mctx.RecurrentFnOutput(
            reward=reward.astype(jnp.float32),
            discount=jnp.where(ended, 0.0, -1.0).astype(jnp.float32),
            prior_logits=logits,
            value=jnp.where(ended, 0.0, values).astype(jnp.float32),
        )
        return output, nxt

    return recurrent_fn


def search(
    rules: JaxRules,
    evaluate: Evaluator,
    params: Any,
    key: jax.Array,
    positions: Position,
    simulations: int,
    gumbel_scale: float,
    considered: int = 16,
) -> mctx.PolicyOutput:
    """Gumbel MuZero search from a batch of unfinished positions: ``.action`` the chosen actions,
    ``.action_weights`` the improved policy (the training target); ``considered`` root actions at
    most (sequential halving among them)."""
    logits, values = evaluate(params, positions)
    logits, legal = masked(rules, positions, logits)
    root = mctx.RootFnOutput(prior_logits=logits, value=values.astype(jnp.float32), embedding=positions)
    return mctx.gumbel_muzero_policy(
        params,
        key,
        root,
        make_recurrent_fn(rules, evaluate),
        num_simulations=simulations,
        invalid_actions=~legal,
        max_num_considered_actions=min(considered, rules.actions),
        gumbel_scale=gumbel_scale,
    )


def _choose_eagerly(
    rules: JaxRules,
    model: Any,
    key: jax.Array,
    positions: Position,
    simulations: int,
    gumbel_scale: float,
    considered: int,
) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    evaluate = network_evaluator(rules)
    if simulations == 0:  # the raw policy: its most likely legal move (ties: the first)
        logits, values = evaluate(model, positions)
        logits, _ = masked(rules, positions, logits)
        weights = jax.nn.softmax(logits)
        return jnp.argmax(logits, axis=-1), weights, weights, values
    out = search(rules, evaluate, model, key, positions, simulations, gumbel_scale, considered)
    logits, values = evaluate(model, positions)
    prior = jax.nn.softmax(masked(rules, positions, logits)[0])
    return out.action, out.action_weights, prior, values


_choose: Any = eqx.filter_jit(_choose_eagerly)


def choose(
    rules: JaxRules,
    model: Any,
    key: jax.Array,
    positions: Position,
    simulations: int,
    explore: bool,
    considered: int = 16,
) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """(actions, search policies, network priors, network values) for a batch of positions.  Without
    ``explore`` the choice is deterministic (no Gumbel noise): the best action the search found."""
    enable_compilation_cache()
    return _choose(rules, model, key, positions, simulations, 1.0 if explore else 0.0, considered)
