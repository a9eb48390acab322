"""Connect Four's tree search at play time for the ``ntuple`` learner (numba, ``cache=True``): PUCT
over the learnt values with no playouts, the way GBG wraps its n-tuple agents in MCTS at test time
(Scheiermann & Konen 2022; the selection rule of Silver et al. 2017).

The tree grows one position an iteration.  Each position, once reached, is *expanded*: every
column's child is read once, a four made or a full board is its exact result (1, 1/2), any other
child the network's value for the side that moved into it (``W`` for the first player, ``1 - W``
for the second); the children's prior is the softmax of those values over a temperature.  An
iteration walks down from the root choosing at each position the column of the largest

    Q + c * P * sqrt(N + 1) / (1 + n)

(``Q`` the mean value of the column's visits, or its child's learnt value before the first; ``P``
its prior; ``n`` its visits, ``N`` the position's), and stops at a child that ends the game or that
it has not visited yet: that child's value is backed up the path, each position's side reading it
from its own view.  A child visited once is expanded the next time the walk reaches it.  After the
iterations the root plays its most visited column (ties: the better learnt value, then the column
nearer the middle).  Nothing is random: the same weights and position give the same move.

A search takes what it reads and writes as one :class:`PuctSearch` and its tree as one
:class:`Tree`; the plain-Python search it is proved equal to is in the tests.

This module imports nothing of gamelearn but the kernels: the players layer builds its inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...jit import njit
from .connect4 import Grid, landing, makes_four, read_features
from .kernels import value_of

if TYPE_CHECKING:
    from .layout import Features

#: The exploration constant ``c`` and the prior's temperature, chosen on games against perfect
#: play from the openings of seed 0 (docs/ntuple.md, "Connect Four").
EXPLORATION = 1.0
TEMPERATURE = 0.1
#: The deepest walk (a full 9x8 board's squares).
MAX_DEPTH = 72


class PuctSearch(NamedTuple):
    """What a search reads: the network, the board, the move order, the constants."""

    weights: np.ndarray
    features: Features
    grid: Grid
    order: np.ndarray  # int64 (columns,): the columns from the middle outwards, for ties
    exploration: float
    temperature: float
    indices: np.ndarray  # int64 (features,): scratch for a child's features


class Tree(NamedTuple):
    """The positions a search has expanded, node 0 the root; row ``n`` of each table is node ``n``'s
    columns."""

    x: np.ndarray  # int64 (nodes,): the first player's discs
    o: np.ndarray  # int64 (nodes,): the second player's discs
    side: np.ndarray  # int64 (nodes,): the side to move
    child: np.ndarray  # int64 (nodes, columns): each column's node once expanded, else -1
    first: np.ndarray  # float (nodes, columns): each column's child's value for the side to move; -1 full
    ended: np.ndarray  # bool (nodes, columns): whether the column's move ends the game
    prior: np.ndarray  # float (nodes, columns)
    visits: np.ndarray  # int64 (nodes, columns)
    total: np.ndarray  # float (nodes, columns): the values backed up through the column, summed


def new_tree(nodes: int, columns: int) -> Tree:
    """An empty tree for a search of ``nodes - 1`` iterations on a board of ``columns``."""
    return Tree(
        x=np.zeros(nodes, np.int64),
        o=np.zeros(nodes, np.int64),
        side=np.zeros(nodes, np.int64),
        child=np.full((nodes, columns), -1, np.int64),
        first=np.zeros((nodes, columns)),
        ended=np.zeros((nodes, columns), np.bool_),
        prior=np.zeros((nodes, columns)),
        visits=np.zeros((nodes, columns), np.int64),
        total=np.zeros((nodes, columns)),
    )


@njit(cache=True)
def expand(node: int, x: int, o: int, side: int, search: PuctSearch, tree: Tree) -> None:
    """Read each column's child of (x, o), ``side`` to move, into row ``node`` of ``tree``."""
    grid = search.grid
    columns, rows = grid.columns, grid.rows
    board = columns * rows
    both = x | o
    tree.x[node], tree.o[node], tree.side[node] = x, o, side
    best = -1.0
    for c in range(columns):
        tree.child[node, c] = -1
        tree.visits[node, c] = 0
        tree.total[node, c] = 0.0
        tree.ended[node, c] = False
        square = landing(both, c, columns, rows)
        if square < 0:
            tree.first[node, c] = -1.0
            continue
        disc = np.int64(1) << square
        cx, co = (x | disc, o) if side == 0 else (x, o | disc)
        if makes_four(cx if side == 0 else co, square, grid.lines, grid.counts):
            value, over = 1.0, True
        elif (cx | co) == (np.int64(1) << board) - 1:
            value, over = 0.5, True
        else:
            read_features(cx, co, search.features, columns, board, search.indices)
            first = value_of(search.weights, search.indices)
            value, over = (first if side == 0 else 1.0 - first), False
        tree.first[node, c], tree.ended[node, c] = value, over
        best = max(best, value)
    weight = 0.0
    for c in range(columns):
        if tree.first[node, c] >= 0.0:
            tree.prior[node, c] = np.exp((tree.first[node, c] - best) / search.temperature)
            weight += tree.prior[node, c]
        else:
            tree.prior[node, c] = 0.0
    for c in range(columns):
        tree.prior[node, c] /= weight


@njit(cache=True)
def _select(node: int, search: PuctSearch, tree: Tree) -> int:
    """The column of ``node`` the walk takes: the largest Q + c P sqrt(N + 1) / (1 + n), the first
    in centre-first order among equals."""
    columns = search.grid.columns
    parent = 0
    for c in range(columns):
        parent += tree.visits[node, c]
    scale = search.exploration * np.sqrt(parent + 1.0)
    chosen, best = -1, -np.inf
    for k in range(columns):
        c = search.order[k]
        if tree.first[node, c] < 0.0:
            continue
        n = tree.visits[node, c]
        q = tree.total[node, c] / n if n > 0 else tree.first[node, c]
        u = q + scale * tree.prior[node, c] / (1.0 + n)
        if u > best:
            chosen, best = c, u
    return chosen


@njit(cache=True)
def puct_root(x: int, o: int, side: int, iterations: int, search: PuctSearch, tree: Tree) -> int:
    """``iterations`` walks from (x, o), ``side`` to move and the game not over (the tree holds at
    least ``iterations + 1`` nodes); the column chosen: the most visited, then the better learnt
    value, then the nearer the middle.  ``tree.visits[0]`` holds each root column's visits."""
    columns = search.grid.columns
    path_node = np.zeros(MAX_DEPTH, np.int64)
    path_column = np.zeros(MAX_DEPTH, np.int64)
    expand(0, x, o, side, search, tree)
    used = 1
    for _ in range(iterations):
        node, depth = 0, 0
        while True:
            c = _select(node, search, tree)
            path_node[depth], path_column[depth] = node, c
            depth += 1
            if tree.ended[node, c] or tree.visits[node, c] == 0:
                value = tree.first[node, c]  # for the side to move at ``node``
                break
            below = tree.child[node, c]
            if below < 0:
                both = tree.x[node] | tree.o[node]
                disc = np.int64(1) << landing(both, c, columns, search.grid.rows)
                mover = tree.side[node]
                cx = tree.x[node] | disc if mover == 0 else tree.x[node]
                co = tree.o[node] if mover == 0 else tree.o[node] | disc
                below = used
                used += 1
                expand(below, cx, co, 1 - mover, search, tree)
                tree.child[node, c] = below
            node = below
        # back up: the value is the last position's side's; the sides alternate up the path
        for k in range(depth - 1, -1, -1):
            n, c = path_node[k], path_column[k]
            tree.visits[n, c] += 1
            tree.total[n, c] += value
            value = 1.0 - value
    chosen, most, learnt = -1, -1, -np.inf
    for k in range(columns):
        c = search.order[k]
        if tree.first[0, c] < 0.0:
            continue
        n = tree.visits[0, c]
        if n > most or (n == most and tree.first[0, c] > learnt):
            chosen, most, learnt = c, n, tree.first[0, c]
    return chosen
