"""UCT for small games in numba: the same search as :mod:`gamelearn.players.mcts`, move for move.

A small game (one that cannot cycle and has at most ``MAX_STATES`` reachable positions: tic-tac-toe's
5,478, hexapawn's) is laid out once as arrays over its positions, numbered from the start: each
position's successors in ``legal_moves`` order, its winner and its side to move.  The tree, the
UCB1 walk (Kocsis & Szepesvari 2006), the random playouts and the backing up then run in one
compiled kernel over those numbers instead of through the rules' Python API.

Same seed, same moves.  The kernel draws from the player's own ``random.Random``: it takes the
Mersenne Twister's state (Matsumoto & Nishimura 1998) from ``rng.getstate()``, draws exactly as
CPython's ``randrange(n)`` and ``choice`` do (``getrandbits(n.bit_length())``, drawn again while
not below ``n``), and hands the state back with ``rng.setstate``.  With the same arithmetic in the
same order (``wins / visits + c * sqrt(log(parent visits) / visits)``, first of equal values
wins), the tree, the statistics and the move chosen are those of the Python search, and the
generator is left where the Python search leaves it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..jit import njit

#: A game with more reachable positions than this is searched through the rules' Python API.
MAX_STATES = 50_000

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


@dataclass(frozen=True)
class StateGraph:
    """A small game's reachable positions as arrays: ``successors[s, k]`` is the position after
    the ``k``-th legal move of position ``s`` (-1 past the last), ``move_counts[s]`` how many
    there are (0: over), ``winners[s]`` the winner (-1: none), ``movers[s]`` the side to move."""

    index: dict[Hashable, int]
    moves: tuple[tuple[str, ...], ...]
    successors: np.ndarray
    move_counts: np.ndarray
    winners: np.ndarray
    movers: np.ndarray


_GRAPHS: dict[int, StateGraph | None] = {}


def state_graph(game: Any) -> StateGraph | None:
    """The game's reachable positions laid out for the kernel, made once per game object; None for
    a game that can cycle or has more than ``MAX_STATES`` positions."""
    key = id(game)
    if key not in _GRAPHS:
        _GRAPHS[key] = None if game.facts.can_cycle else _build(game)
    return _GRAPHS[key]


def _build(game: Any) -> StateGraph | None:
    start = game.initial()
    index: dict[Hashable, int] = {start: 0}
    order = [start]
    edges: list[tuple[int, ...]] = []
    moves: list[tuple[str, ...]] = []
    for state in order:  # breadth first; ``order`` grows as it is read
        found = []
        names = []
        for name, after in game.successors(state):
            number = index.get(after)
            if number is None:
                number = index[after] = len(order)
                order.append(after)
                if len(order) > MAX_STATES:
                    return None
            found.append(number)
            names.append(name)
        edges.append(tuple(found))
        moves.append(tuple(names))
    widest = max(1, max(len(targets) for targets in edges))
    if widest > 127:
        return None  # untried moves are kept as int8
    successors = np.full((len(order), widest), -1, np.int32)
    for number, targets in enumerate(edges):
        successors[number, : len(targets)] = targets
    winners = np.array([-1 if (w := game.winner(s)) is None else w for s in order], np.int8)
    return StateGraph(
        index=index,
        moves=tuple(moves),
        successors=successors,
        move_counts=np.array([len(targets) for targets in edges], np.int32),
        winners=winners,
        movers=np.array([game.to_move(s) for s in order], np.int8),
    )


def root_statistics(
    graph: StateGraph, state: Hashable, rng: random.Random, playouts: int, exploration: float, ply_cap: int
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """(legal moves, visits, wins) of each root move after ``playouts`` walks from ``state``,
    drawing from ``rng`` and leaving it where the Python search would."""
    number = graph.index[state]
    version, internal, gauss = rng.getstate()
    mt = np.array(internal[:_N], np.int64)
    where = np.array([internal[_N]], np.int64)
    count = int(graph.move_counts[number])
    visits = np.zeros(count, np.float64)
    wins = np.zeros(count, np.float64)
    _uct(
        graph.successors,
        graph.move_counts,
        graph.winners,
        graph.movers,
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
    return graph.moves[number], visits, wins
