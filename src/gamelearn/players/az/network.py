"""The az player's networks (Equinox): a small one per game, from the board planes and the side to
move to a policy over the game's actions and a value in [-1, 1] for the side to move.

* tic-tac-toe and hexapawn: a multilayer perceptron;
* Teeko: a small residual convolutional network (He et al. 2016, as AlphaZero's, Silver et al. 2018,
  without batch normalisation: a net this small trains well without it and stays a pure function).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class NetworkShape:
    """What network a learner has: ``kind`` "mlp" (``width`` units, ``depth`` hidden layers) or
    "resnet" (``width`` channels, ``depth`` residual blocks of two 3x3 convolutions)."""

    kind: str
    width: int
    depth: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: The network each game gets.
SHAPES: dict[str, NetworkShape] = {
    "tictactoe": NetworkShape("mlp", 64, 2),
    "hexapawn": NetworkShape("mlp", 64, 2),
    "teeko": NetworkShape("resnet", 32, 3),
}


class MLP(eqx.Module):
    hidden: list[eqx.nn.Linear]
    policy: eqx.nn.Linear
    value: eqx.nn.Linear

    def __init__(self, inputs: int, actions: int, width: int, depth: int, key: jax.Array) -> None:
        keys = jax.random.split(key, depth + 2)
        sizes = [inputs] + [width] * depth
        self.hidden = [eqx.nn.Linear(sizes[i], sizes[i + 1], key=keys[i]) for i in range(depth)]
        self.policy = eqx.nn.Linear(width, actions, key=keys[depth])
        self.value = eqx.nn.Linear(width, 1, key=keys[depth + 1])

    def __call__(self, planes: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = planes.reshape(-1)
        for layer in self.hidden:
            x = jax.nn.relu(layer(x))
        return self.policy(x), jnp.tanh(self.value(x)[0])


class ResidualBlock(eqx.Module):
    first: eqx.nn.Conv2d
    second: eqx.nn.Conv2d

    def __init__(self, channels: int, key: jax.Array) -> None:
        k1, k2 = jax.random.split(key)
        self.first = eqx.nn.Conv2d(channels, channels, 3, padding=1, key=k1)
        self.second = eqx.nn.Conv2d(channels, channels, 3, padding=1, key=k2)

    def __call__(self, x: jax.Array) -> jax.Array:
        return jax.nn.relu(x + self.second(jax.nn.relu(self.first(x))))


class ResNet(eqx.Module):
    stem: eqx.nn.Conv2d
    blocks: list[ResidualBlock]
    policy_conv: eqx.nn.Conv2d
    policy: eqx.nn.Linear
    value_conv: eqx.nn.Conv2d
    value_hidden: eqx.nn.Linear
    value: eqx.nn.Linear

    def __init__(self, planes: int, squares: int, actions: int, width: int, depth: int, key: jax.Array) -> None:
        keys = jax.random.split(key, depth + 6)
        self.stem = eqx.nn.Conv2d(planes, width, 3, padding=1, key=keys[0])
        self.blocks = [ResidualBlock(width, keys[1 + i]) for i in range(depth)]
        self.policy_conv = eqx.nn.Conv2d(width, 2, 1, key=keys[depth + 1])
        self.policy = eqx.nn.Linear(2 * squares, actions, key=keys[depth + 2])
        self.value_conv = eqx.nn.Conv2d(width, 1, 1, key=keys[depth + 3])
        self.value_hidden = eqx.nn.Linear(squares, 64, key=keys[depth + 4])
        self.value = eqx.nn.Linear(64, 1, key=keys[depth + 5])

    def __call__(self, planes: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = jax.nn.relu(self.stem(planes))
        for block in self.blocks:
            x = block(x)
        logits = self.policy(jax.nn.relu(self.policy_conv(x)).reshape(-1))
        v = jax.nn.relu(self.value_hidden(jax.nn.relu(self.value_conv(x)).reshape(-1)))
        return logits, jnp.tanh(self.value(v)[0])


def make_network(shape: NetworkShape, rows: int, columns: int, actions: int, key: jax.Array) -> eqx.Module:
    """A freshly initialised network of ``shape`` for a board of rows x columns (3 input planes)."""
    if shape.kind == "mlp":
        return MLP(3 * rows * columns, actions, shape.width, shape.depth, key)
    if shape.kind == "resnet":
        return ResNet(3, rows * columns, actions, shape.width, shape.depth, key)
    raise ValueError(f"unknown network kind {shape.kind!r}; kinds: mlp, resnet")
