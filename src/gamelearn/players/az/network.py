"""The az player's networks (Equinox): a small one per game, from the board planes and the side to
move to a policy over the game's actions and a value in [-1, 1] for the side to move.

* tic-tac-toe and hexapawn: a multilayer perceptron;
* Teeko: a small residual convolutional network (He et al. 2016, as AlphaZero's, Silver et al. 2018,
  without batch normalisation: a net this small trains well without it and stays a pure function);
* a game of another author: one of the two, by the size of its board (:func:`shape_for`).

The convolutions keep Equinox's ``Conv2d`` weights (out, in, kernel rows, kernel columns), so a
network saved by any version loads as it is, but they are computed channel-last (rows, columns,
channels), with the weights transposed on the way: on a CPU, XLA runs the channel-first layout many
times slower inside the search's loop bodies (docs/performance.md).  ``tests/players/az/test_az.py`` checks that the outputs are Equinox's own.
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
    # Connect Four (42 squares on 7x6; the net is the same on every size): Teeko's residual net.
    "connect4": NetworkShape("resnet", 32, 3),
}


def shape_for(name: str, rows: int, columns: int) -> NetworkShape:
    """The network of the game called ``name`` on a rows x columns board: a built-in game's own
    (:data:`SHAPES`), else one from the board's size, as the built-in games' sizes chose theirs: up
    to 16 squares an MLP of 2 hidden layers, 8 units a square (at least 64: tic-tac-toe's); more
    squares a residual net of 32 channels and 3 blocks (Teeko's, 25 squares)."""
    if name in SHAPES:
        return SHAPES[name]
    squares = rows * columns
    if squares <= 16:
        return NetworkShape("mlp", max(64, 8 * squares), 2)
    return NetworkShape("resnet", 32, 3)


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


def conv_channel_last(layer: eqx.nn.Conv2d, x: jax.Array) -> jax.Array:
    """``layer`` (an Equinox ``Conv2d``: stride 1, no dilation, no groups) applied to ``x`` of
    shape [rows, columns, channels]: Equinox's result, transposed to channel-last."""
    kernel = jnp.transpose(layer.weight, (2, 3, 1, 0))  # (out, in, kh, kw) -> (kh, kw, in, out)
    padding = layer.padding
    if isinstance(padding, str):  # this module's layers pad by numbers
        raise ValueError(f"a convolution padded {padding!r} is not computed channel-last here")
    y = jax.lax.conv_general_dilated(
        x[None], kernel, (1, 1), list(padding), dimension_numbers=("NHWC", "HWIO", "NHWC")
    )[0]
    return y if layer.bias is None else y + layer.bias.reshape(-1)


def flatten_channel_first(x: jax.Array) -> jax.Array:
    """[rows, columns, channels] flattened in the order of [channels, rows, columns], the order the
    heads' linear layers were made for."""
    return jnp.transpose(x, (2, 0, 1)).reshape(-1)


class ResidualBlock(eqx.Module):
    first: eqx.nn.Conv2d
    second: eqx.nn.Conv2d

    def __init__(self, channels: int, key: jax.Array) -> None:
        k1, k2 = jax.random.split(key)
        self.first = eqx.nn.Conv2d(channels, channels, 3, padding=1, key=k1)
        self.second = eqx.nn.Conv2d(channels, channels, 3, padding=1, key=k2)

    def __call__(self, x: jax.Array) -> jax.Array:
        """x: [rows, columns, channels]."""
        return jax.nn.relu(x + conv_channel_last(self.second, jax.nn.relu(conv_channel_last(self.first, x))))


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
        """planes: [3, rows, columns], as the rules give them."""
        x = jax.nn.relu(conv_channel_last(self.stem, jnp.transpose(planes, (1, 2, 0))))
        for block in self.blocks:
            x = block(x)
        logits = self.policy(flatten_channel_first(jax.nn.relu(conv_channel_last(self.policy_conv, x))))
        v = jax.nn.relu(self.value_hidden(flatten_channel_first(jax.nn.relu(conv_channel_last(self.value_conv, x)))))
        return logits, jnp.tanh(self.value(v)[0])


def make_network(shape: NetworkShape, rows: int, columns: int, actions: int, key: jax.Array) -> eqx.Module:
    """A freshly initialised network of ``shape`` for a board of rows x columns (3 input planes)."""
    if shape.kind == "mlp":
        return MLP(3 * rows * columns, actions, shape.width, shape.depth, key)
    if shape.kind == "resnet":
        return ResNet(3, rows * columns, actions, shape.width, shape.depth, key)
    raise ValueError(f"unknown network kind {shape.kind!r}; kinds: mlp, resnet")
