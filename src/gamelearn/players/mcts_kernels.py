"""UCT for small games compiled with numba: :func:`gamelearn.players.mcts_graph.root_statistics`,
step for step, over the same numbered positions held as arrays.

The kernel draws from the player's own ``random.Random``: it takes the Mersenne Twister's state
(Matsumoto & Nishimura 1998) from ``rng.getstate()``, draws exactly as CPython's ``randrange(n)``
and ``choice`` do (``getrandbits(n.bit_length())``, drawn again while not below ``n``), and hands
the state back with ``rng.setstate``.  With the same arithmetic in the same order, the tree, the
statistics and the move chosen are those of the Python search, and the generator is left where
the Python search leaves it.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from ..jit import njit
from .mcts_graph import StateGraph

_N = 624  # the Mersenne Twister's words of state
_M = 397
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX = 0x9908B0DF
_WORD = 0xFFFFFFFF


@njit()
def _next_word(mt: Any, where: Any) -> int:
    """The next 32-bit output of the generator ``mt`` (624 words) at position ``where[0]``, as
    CPython's ``genrand_uint32``: the words are twisted when all have been used."""
    if where[0] >= _N:
        for kk in range(_N):
            y = (mt[kk] & _UPPER) | (mt[(kk + 1) % _N] & _LOWER)
            mt[kk] = mt[(kk + _M) % _N] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        where[0] = 0
    y = mt[where[0]]
    where[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _WORD


@njit()
def _below(mt: Any, where: Any, n: int) -> int:
    """A number in [0, n), as CPython's ``Random._randbelow_with_getrandbits(n)``, n < 2**32."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = _next_word(mt, where) >> (32 - k)
    while r >= n:
        r = _next_word(mt, where) >> (32 - k)
    return r


@njit()
def _uct(
    successors: Any,
    move_counts: Any,
    winners: Any,
    movers: Any,
    root_state: int,
    playouts: int,
    exploration: float,
    ply_cap: int,
    mt: Any,
    where: Any,
    root_visits: Any,
    root_wins: Any,
) -> None:
    """``playouts`` UCT walks from ``root_state``; each root move's visits and wins (for the side
    to move at the root) into ``root_visits`` and ``root_wins``, indexed by the move's place in
    ``legal_moves`` (0 visits: never expanded)."""
    nodes = playouts + 1
    widest = successors.shape[1]
    state = np.empty(nodes, np.int32)
    parent = np.empty(nodes, np.int32)
    move = np.empty(nodes, np.int32)
    mover = np.empty(nodes, np.int8)
    visits = np.zeros(nodes, np.float64)
    wins = np.zeros(nodes, np.float64)
    untried = np.empty((nodes, widest), np.int8)
    untried_count = np.empty(nodes, np.int32)
    children = np.empty((nodes, widest), np.int32)
    child_count = np.zeros(nodes, np.int32)

    state[0] = root_state
    parent[0] = -1
    move[0] = -1
    mover[0] = 1 - movers[root_state]
    untried_count[0] = move_counts[root_state]
    for k in range(move_counts[root_state]):
        untried[0, k] = k
    made = 1

    for _ in range(playouts):
        node = 0
        while untried_count[node] == 0 and child_count[node] > 0:  # selection
            log_parent = math.log(visits[node])
            best = children[node, 0]
            best_value = -math.inf
            for i in range(child_count[node]):
                child = children[node, i]
                value = wins[child] / visits[child] + exploration * math.sqrt(log_parent / visits[child])
                if value > best_value:
                    best = child
                    best_value = value
            node = best
        if untried_count[node] > 0:  # expansion: list.pop(randrange(len(untried)))
            pick = _below(mt, where, untried_count[node])
            k = untried[node, pick]
            for i in range(pick, untried_count[node] - 1):
                untried[node, i] = untried[node, i + 1]
            untried_count[node] -= 1
            child = made
            made += 1
            after = successors[state[node], k]
            state[child] = after
            parent[child] = node
            move[child] = k
            mover[child] = movers[state[node]]
            untried_count[child] = move_counts[after]
            for i in range(move_counts[after]):
                untried[child, i] = i
            children[node, child_count[node]] = child
            child_count[node] += 1
            node = child
        position = state[node]  # simulation: choice(legal_moves) to the end, or to the cap
        plies = 0
        winner = -1
        while move_counts[position] > 0:
            if plies >= ply_cap:
                break
            position = successors[position, _below(mt, where, move_counts[position])]
            plies += 1
        if move_counts[position] == 0:
            winner = winners[position]
        walker = node
        while walker >= 0:  # backpropagation
            visits[walker] += 1.0
            if winner < 0:
                wins[walker] += 0.5
            elif winner == mover[walker]:
                wins[walker] += 1.0
            walker = parent[walker]

    for i in range(child_count[0]):
        child = children[0, i]
        root_visits[move[child]] = visits[child]
        root_wins[move[child]] = wins[child]


class GraphArrays:
    """The graph as the kernel reads it: ``successors[s, k]`` (-1 past the last move),
    ``move_counts[s]`` (0: over), ``winners[s]`` (-1: none), ``movers[s]``."""

    def __init__(self, graph: StateGraph) -> None:
        widest = max(1, max(len(found) for found in graph.successors))
        if widest > 127:
            raise ValueError(f"{widest} moves in a position: untried moves are kept as int8")
        self.successors = np.full((len(graph.successors), widest), -1, np.int32)
        for number, found in enumerate(graph.successors):
            self.successors[number, : len(found)] = found
        self.move_counts = np.array([len(found) for found in graph.successors], np.int32)
        self.winners = np.array(graph.winners, np.int8)
        self.movers = np.array(graph.movers, np.int8)


def root_statistics(
    graph: StateGraph, number: int, rng: random.Random, playouts: int, exploration: float, ply_cap: int
) -> list[tuple[int, int, float]]:
    """(move's place in ``legal_moves``, visits, wins) of each root move expanded by ``playouts``
    walks from position ``number``, drawing from ``rng`` and leaving it where the Python search
    would; in the order of the moves."""
    if graph.arrays is None:
        graph.arrays = GraphArrays(graph)
    arrays = graph.arrays
    version, internal, gauss = rng.getstate()
    mt = np.array(internal[:_N], np.int64)
    where = np.array([internal[_N]], np.int64)
    count = int(arrays.move_counts[number])
    visits = np.zeros(count, np.float64)
    wins = np.zeros(count, np.float64)
    _uct(
        arrays.successors,
        arrays.move_counts,
        arrays.winners,
        arrays.movers,
        number,
        playouts,
        exploration,
        ply_cap,
        mt,
        where,
        visits,
        wins,
    )
    rng.setstate((version, (*mt.tolist(), int(where[0])), gauss))
    return [(k, int(visits[k]), float(wins[k])) for k in range(count) if visits[k] > 0]
