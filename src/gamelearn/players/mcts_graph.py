"""A small game's positions as a graph, and the UCT search of :mod:`gamelearn.players.mcts` over it.

A small game (one that cannot cycle and has at most ``MAX_STATES`` positions reachable from the
start: tic-tac-toe's 5,478, hexapawn's) is laid out once, its positions numbered from the start:
each position's successors in ``legal_moves`` order, its winner and its side to move.  The search
then walks numbers instead of calling the rules, in plain Python here (no import to pay for), or
compiled (:mod:`gamelearn.players.mcts_kernels`) once a process has searched enough to pay for
numba's start-up.

Both are the Python search of :class:`~gamelearn.players.mcts.MCTSPlayer` (Kocsis & Szepesvari
2006) step for step: the same draws from the player's ``rng`` in the same order (an untried move
by ``randrange``, a playout's moves by ``choice`` over the legal moves), the same arithmetic
(``wins / visits + c * sqrt(log(parent visits) / visits)``, the first of equal values), so the
same statistics, the same move and the generator left in the same state.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Hashable
from typing import Any

from ..games import Game

#: A game with more reachable positions than this is searched through the rules' Python API.
MAX_STATES = 50_000


class StateGraph:
    """A small game's reachable positions, numbered: ``successors[s]`` the positions after each
    legal move of ``s`` (in ``legal_moves`` order, named by ``moves[s]``; empty when the game is
    over), ``winners[s]`` the winner (-1: none), ``movers[s]`` the side to move."""

    def __init__(
        self,
        index: dict[Hashable, int],
        moves: list[tuple[str, ...]],
        successors: list[tuple[int, ...]],
        winners: list[int],
        movers: list[int],
    ) -> None:
        self.index = index
        self.moves = moves
        self.successors = successors
        self.winners = winners
        self.movers = movers
        #: The compiled search's arrays, made the first time it runs.
        self.arrays: Any = None


#: Each game object's graph, kept as long as the game is (by the object, not its id, which a
#: later game could reuse).
_GRAPHS: weakref.WeakKeyDictionary[Any, StateGraph | None] = weakref.WeakKeyDictionary()


def state_graph(game: Game[Any]) -> StateGraph | None:
    """The game's reachable positions, laid out once per game object; None for a game that can
    cycle or has more than ``MAX_STATES`` positions."""
    try:
        return _GRAPHS[game]
    except KeyError:
        pass
    graph = _GRAPHS[game] = None if game.facts.can_cycle else _build(game)
    return graph


def _build(game: Game[Any]) -> StateGraph | None:
    start = game.initial()
    index: dict[Hashable, int] = {start: 0}
    order = [start]
    moves: list[tuple[str, ...]] = []
    successors: list[tuple[int, ...]] = []
    for state in order:  # breadth first; ``order`` grows as it is read
        names = []
        found = []
        for name, after in game.successors(state):
            number = index.get(after)
            if number is None:
                number = index[after] = len(order)
                order.append(after)
                if len(order) > MAX_STATES:
                    return None
            names.append(name)
            found.append(number)
        moves.append(tuple(names))
        successors.append(tuple(found))
    winners = [-1 if (winner := game.winner(state)) is None else winner for state in order]
    return StateGraph(index, moves, successors, winners, [game.to_move(state) for state in order])


def root_statistics(
    graph: StateGraph, number: int, rng: Any, playouts: int, exploration: float, ply_cap: int
) -> list[tuple[int, int, float]]:
    """(move's place in ``legal_moves``, visits, wins) of each root move expanded by ``playouts``
    UCT walks from position ``number``, in the order they were expanded."""
    successors, winners, movers = graph.successors, graph.winners, graph.movers
    log, sqrt = math.log, math.sqrt
    randrange, choice = rng.randrange, rng.choice
    # The tree, one entry a node in parallel lists; node 0 is the root.
    state = [number]
    parent = [-1]
    move = [-1]
    mover = [1 - movers[number]]
    visits = [0]
    wins = [0.0]
    untried = [list(range(len(successors[number])))]
    children: list[list[int]] = [[]]
    for _ in range(playouts):
        node = 0
        while not untried[node] and children[node]:  # selection
            log_parent = log(visits[node])
            best = children[node][0]
            best_value = -math.inf
            for child in children[node]:
                seen = visits[child]
                value = wins[child] / seen + exploration * sqrt(log_parent / seen)
                if value > best_value:
                    best, best_value = child, value
            node = best
        if untried[node]:  # expansion
            k = untried[node].pop(randrange(len(untried[node])))
            after = successors[state[node]][k]
            child = len(state)
            state.append(after)
            parent.append(node)
            move.append(k)
            mover.append(movers[state[node]])
            visits.append(0)
            wins.append(0.0)
            untried.append(list(range(len(successors[after]))))
            children.append([])
            children[node].append(child)
            node = child
        position = state[node]  # simulation
        plies = 0
        winner = -1
        while successors[position]:
            if plies >= ply_cap:
                break
            position = choice(successors[position])
            plies += 1
        else:
            winner = winners[position]
        walker = node
        while walker >= 0:  # backpropagation
            visits[walker] += 1
            if winner < 0:
                wins[walker] += 0.5
            elif winner == mover[walker]:
                wins[walker] += 1.0
            walker = parent[walker]
    return [(move[child], visits[child], wins[child]) for child in children[0]]
