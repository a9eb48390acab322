"""Monte Carlo tree search with UCT (Kocsis & Szepesvari 2006): ``mcts:playouts=N,c=C``.

Each playout walks down the tree choosing the child of largest UCB1 value
``wins/visits + c * sqrt(ln(parent visits) / visits)``, adds one new node, finishes the game with
uniformly random moves, and backs the result up the path (win 1, draw 1/2, loss 0, counted for the
side that made the move into each node).  The move played is the root child visited most.

Every random choice (which untried move to expand, the random moves of a playout) comes from the
player's seeded ``rng``, so the same seed gives the same moves.  Games that can go on for ever
(Teeko) cut a playout after ``PLAYOUT_PLY_CAP`` plies and count it as a draw.

:meth:`MCTSPlayer.search` is the search.  The ``backend`` option says how it runs:
``python``, through the rules' API, for every game; ``compiled``, over a small game's numbered
positions with numba (:mod:`gamelearn.players.mcts_kernels`; tic-tac-toe, hexapawn); ``auto``, the
default, compiled where the game allows it.  Both backends make the same draws from the same
generator with the same arithmetic, so the same moves for the same seed.  The plain one costs no
numba import, which a single short search in a fresh process does not pay back
(docs/performance.md).
"""

from __future__ import annotations

import math
from typing import Any, Generic

from ..games import Game
from .base import Player, S
from .registry import Option, PlayerKind, parse_int, register

#: The ways a search can run (the ``backend`` option).
BACKENDS = ("auto", "compiled", "python")

#: A random playout of a game that can cycle (Teeko) stops here and counts as a draw.
PLAYOUT_PLY_CAP = 100


def parse_backend(text: str) -> str:
    if text not in BACKENDS:
        raise ValueError(f"{text!r} is not one of {', '.join(BACKENDS)}")
    return text


def parse_positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not (value >= 0.0 and math.isfinite(value)):
        raise ValueError(f"{value} is not a finite number >= 0")
    return value


class Node(Generic[S]):
    """A position in the search tree.  ``wins`` counts results for the side that moved into it."""

    __slots__ = ("state", "parent", "move", "children", "untried", "visits", "wins", "mover")

    def __init__(self, game: Game[S], state: S, parent: Node[S] | None, move: str | None) -> None:
        self.state = state
        self.parent = parent
        self.move = move
        self.children: list[Node[S]] = []
        self.untried: list[str] = list(game.legal_moves(state))
        self.visits = 0
        self.wins = 0.0
        # The side that made the move into this node (the root's is the side not to move there);
        # the parent's side to move, which is not always the other side (Scarne's Alternate drops).
        self.mover = game.to_move(parent.state) if parent is not None else 1 - game.to_move(state)


class MCTSPlayer(Player[S]):
    """UCT with random playouts; ``playouts`` tree walks per move, exploration constant ``c``."""

    kind = "mcts"

    def __init__(
        self,
        game: Game[Any],
        seed: int | None = None,
        playouts: int = 1000,
        c: float = math.sqrt(2),
        backend: str = "auto",
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"mcts backend {backend!r}: valid backends are {', '.join(BACKENDS)}")
        if backend == "compiled" and game.facts.can_cycle:
            raise ValueError(
                f"mcts backend 'compiled' needs a game that cannot cycle; {game.name} can: use backend=python"
            )
        super().__init__(game, seed, playouts=playouts, c=c, backend=backend)
        self.playouts = playouts
        self.exploration = c
        self.compiled = backend != "python" and not game.facts.can_cycle

    def select_child(self, node: Node[S]) -> Node[S]:
        log_parent = math.log(node.visits)
        best = node.children[0]
        best_value = -math.inf
        for child in node.children:  # first of equal values wins: children keep the sorted move order
            value = child.wins / child.visits + self.exploration * math.sqrt(log_parent / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def rollout(self, state: S) -> int | None:
        """The winner of a game finished with uniformly random moves (None: a draw or the ply cap)."""
        game = self.game
        plies = 0
        while not game.is_over(state):
            if plies >= PLAYOUT_PLY_CAP:
                return None
            state = game.play(state, self.rng.choice(game.legal_moves(state)))
            plies += 1
        return game.winner(state)

    def search(self, state: S) -> Node[S]:
        """The root of a tree grown by ``playouts`` UCT walks from ``state``."""
        game = self.game
        root = Node(game, state, None, None)
        for _ in range(self.playouts):
            node = root
            while not node.untried and node.children:  # selection
                node = self.select_child(node)
            if node.untried:  # expansion: one untried move, chosen at random
                move = node.untried.pop(self.rng.randrange(len(node.untried)))
                child = Node(game, game.play(node.state, move), node, move)
                node.children.append(child)
                node = child
            winner = self.rollout(node.state)  # simulation
            walker: Node[S] | None = node
            while walker is not None:  # backpropagation
                walker.visits += 1
                if winner is None:
                    walker.wins += 0.5
                elif winner == walker.mover:
                    walker.wins += 1.0
                walker = walker.parent
        return root

    def root_statistics(self, state: S) -> list[tuple[str, int, float]]:
        """(move, visits, wins) of each root move the search expanded: by :meth:`search`, or by
        the compiled backend where the game and the position are in its graph of positions; the
        same figures either way."""
        if self.compiled:
            from . import mcts_kernels  # numba, 0.5 s of CPU: only the compiled backend loads it

            found = mcts_kernels.root_statistics(
                self.game, state, self.rng, self.playouts, self.exploration, PLAYOUT_PLY_CAP
            )
            if found is not None:
                return found
        root = self.search(state)
        return [(child.move, child.visits, child.wins) for child in root.children if child.move is not None]

    def move_values(self, state: S) -> dict[str, tuple[int, float]]:
        """Each root move's (visits, mean result for the side to move), after a search."""
        return {move: (visits, wins / visits) for move, visits, wins in self.root_statistics(state)}

    def choose(self, state: S) -> str | None:
        moves = self.moves_to_choose_from(state)
        if len(moves) == 1:
            return moves[0]
        expanded = self.root_statistics(state)
        if not expanded:
            return self.rng.choice(moves)
        # Most visited; equal visits go to the better mean, then to the earlier move in sorted order.
        best = max(expanded, key=lambda entry: (entry[1], entry[2] / entry[1], -moves.index(entry[0])))
        return best[0]


register(
    PlayerKind(
        "mcts",
        MCTSPlayer,
        "Monte Carlo tree search (UCT) with random playouts",
        options=(
            # the limits keep a move under about a minute (WORK_LIMIT; docs/performance.md)
            Option(
                "playouts",
                parse_int(1, 10_000_000),
                1000,
                "tree walks (each ending in a random playout) per move",
                limits=(("teeko", 50_000), ("tictactoe", 500_000), ("hexapawn", 1_000_000)),
            ),
            Option("c", parse_positive_float, math.sqrt(2), "UCB1 exploration constant"),
            Option(
                "backend",
                parse_backend,
                "auto",
                "compiled: numba over a small game's numbered positions; python: the rules' API; auto: compiled where it can",
            ),
        ),
    )
)
