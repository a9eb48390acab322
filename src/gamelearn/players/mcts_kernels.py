"""The compiled backend of :class:`~gamelearn.players.mcts.MCTSPlayer`: UCT over a small game's
numbered positions, compiled with numba.

A small game (one that cannot cycle and has at most ``MAX_STATES`` positions reachable from the
start: tic-tac-toe's 5,478, hexapawn's) is laid out once as arrays: each position's successors in
``legal_moves`` order, its winner and its side to move.  The kernel is
:meth:`MCTSPlayer.search <gamelearn.players.mcts.MCTSPlayer.search>` step for step over those
numbers, with the same arithmetic in the same order
(``wins / visits + c * sqrt(log(parent visits) / visits)``, the first of equal values).

It draws from the player's own ``random.Random``: the kernel is handed a block of the generator's
next 32-bit words (``getrandbits(32 * n)``, word ``i`` in bits ``32 i`` to ``32 i + 31``) and
turns them into numbers as CPython's ``randrange(n)`` and ``choice`` do (the top
``n.bit_length()`` bits of a word, drawn again while not below ``n``).  Afterwards the generator
is moved on by the words the search used, so the tree, the statistics, the move and the
generator's state are those of the Python search (``tests/players/test_mcts_kernels.py``).
"""

from __future__ import annotations

import math
import random
import weakref
from collections.abc import Hashable
from typing import Any, NamedTuple

import numpy as np

from ..games import Game
from ..jit import njit

#: A game with more reachable positions than this is searched through the rules' Python API.
MAX_STATES = 50_000


class Positions(NamedTuple):
    """A small game's reachable positions, numbered from the start, as the kernel reads them."""

    successors: np.ndarray  # int32 [s, k]: the position after the k-th legal move of s (-1 past the last)
    move_counts: np.ndarray  # int32 [s]: its legal moves (0: the game is over)
    winners: np.ndarray  # int8 [s]: its winner (-1: none)
    movers: np.ndarray  # int8 [s]: the side to move


class StateGraph:
    """A small game's reachable positions, numbered from the start as arrays (:class:`Positions`);
    ``index`` gives a position's number."""

    def __init__(
        self, index: dict[Hashable, int], successors: list[tuple[int, ...]], winners: list[int], movers: list[int]
    ) -> None:
        widest = max(1, max(len(found) for found in successors))
        if widest > 127:
            raise ValueError(f"{widest} moves in a position: untried moves are kept as int8")
        self.index = index
        table = np.full((len(successors), widest), -1, np.int32)
        for number, found in enumerate(successors):
            table[number, : len(found)] = found
        self.positions = Positions(
            successors=table,
            move_counts=np.array([len(found) for found in successors], np.int32),
            winners=np.array(winners, np.int8),
            movers=np.array(movers, np.int8),
        )


#: Each game object's graph, kept as long as the game is (by the object, not its id, which a
#: later game could reuse).
_GRAPHS: weakref.WeakKeyDictionary[Any, StateGraph | None] = weakref.WeakKeyDictionary()


def state_graph(game: Game[Any]) -> StateGraph | None:
    """The game's reachable positions, laid out once per game object; None for a game that can
    cycle or has more than ``MAX_STATES`` positions."""
    if game not in _GRAPHS:
        _GRAPHS[game] = None if game.facts.can_cycle else _build(game)
    return _GRAPHS[game]


def _build(game: Game[Any]) -> StateGraph | None:
    start = game.initial()
    index: dict[Hashable, int] = {start: 0}
    order = [start]
    successors: list[tuple[int, ...]] = []
    for state in order:  # breadth first; ``order`` grows as it is read
        found = []
        for _, after in game.successors(state):
            if after not in index:
                index[after] = len(order)
                order.append(after)
                if len(order) > MAX_STATES:
                    return None
            found.append(index[after])
        successors.append(tuple(found))
    winners = [-1 if (winner := game.winner(state)) is None else winner for state in order]
    return StateGraph(index, successors, winners, [game.to_move(state) for state in order])


@njit()
def _below(words: Any, used: Any, n: int) -> int:
    """A number in [0, n) from the next words of ``words`` (``used[0]`` of them read so far), as
    CPython's ``Random._randbelow_with_getrandbits(n)``, 0 < n < 2**32; -1 when the block runs out."""
    k = 0
    while (n >> k) > 0:
        k += 1
    while used[0] < len(words):
        r = np.int64(words[used[0]]) >> (32 - k)
        used[0] += 1
        if r < n:
            return int(r)
    return -1


@njit()
def _uct(
    positions: Positions,
    root_state: int,
    playouts: int,
    exploration: float,
    ply_cap: int,
    words: Any,
    used: Any,
    root_visits: Any,
    root_wins: Any,
) -> bool:
    """``playouts`` UCT walks from ``root_state``; each root move's visits and wins (for the side
    to move at the root) into ``root_visits`` and ``root_wins``, indexed by the move's place in
    ``legal_moves`` (0 visits: never expanded).  False when ``words`` ran out first."""
    successors, move_counts, winners, movers = (
        positions.successors,
        positions.move_counts,
        positions.winners,
        positions.movers,
    )
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
            pick = _below(words, used, untried_count[node])
            if pick < 0:
                return False
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
            pick = _below(words, used, move_counts[position])
            if pick < 0:
                return False
            position = successors[position, pick]
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
    return True


#: The first block of random words a search is handed, per playout (tic-tac-toe's first move uses
#: about 9 a playout over 1,000 playouts, fewer over more); a search that needs more is run again
#: from the same generator state with twice as many.
WORDS_PER_PLAYOUT = 12


def root_statistics(
    game: Game[Any], state: Hashable, rng: random.Random, playouts: int, exploration: float, ply_cap: int
) -> list[tuple[str, int, float]] | None:
    """(move, visits, wins) of each root move expanded by ``playouts`` UCT walks from ``state``, in
    the order of the moves, drawing from ``rng`` and leaving it where
    :meth:`MCTSPlayer.search <gamelearn.players.mcts.MCTSPlayer.search>` would; None where the
    game or the position is not in a state graph (the caller searches through the rules)."""
    graph = state_graph(game)
    number = None if graph is None else graph.index.get(state)
    if graph is None or number is None:
        return None
    count = int(graph.positions.move_counts[number])
    start = rng.getstate()
    size = WORDS_PER_PLAYOUT * playouts + 1024
    while True:
        words = np.frombuffer(rng.getrandbits(32 * size).to_bytes(4 * size, "little"), np.uint32)
        used = np.zeros(1, np.int64)
        visits = np.zeros(count, np.float64)
        wins = np.zeros(count, np.float64)
        if _uct(graph.positions, number, playouts, exploration, ply_cap, words, used, visits, wins):
            break
        rng.setstate(start)
        size *= 2
    rng.setstate(start)
    if used[0]:
        rng.getrandbits(32 * int(used[0]))  # the words the search used, and no more
    moves = game.legal_moves(state)
    return [(moves[k], int(visits[k]), float(wins[k])) for k in range(count) if visits[k] > 0]
