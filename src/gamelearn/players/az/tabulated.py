"""Any game's rules as tables, for the az player: the JAX rules of a game of another author
(docs/own-game.md), made from its own Python rules instead of written again by hand.

The exhaustive solver already walks every position reachable from the start
(:meth:`gamelearn.solver.exhaustive.ExhaustiveSolution.positions`); those positions are numbered
in the order it met them, and each gets a row in a few arrays:

* ``boards``: int8[positions, squares], +1 the first player's piece, -1 the second's, 0 empty
  (from ``board(state)`` and the two symbols, as the hand-written rules hold a board);
* ``successors``: int32[positions, actions], the number of the position each legal action leads
  to, -1 where the action is not legal (actions numbered as every interface numbers them,
  :func:`gamelearn.games.actions.codec_for`);
* ``movers``, ``winners`` (-1: none), ``finished``: the side to move, the winner and the end.

A :class:`TabulatedRules` is a :class:`JaxRules` whose :class:`Position` holds the position's
number in ``board`` instead of the squares: ``legal`` and ``step`` are look-ups, ``planes`` looks the
board up and makes the same three planes as the hand-written rules, so the self-play (``jax.vmap``,
``jax.lax.scan``) and mctx's search run on it unchanged.  The tables are the rules object's leaves
as a JAX pytree, so a jitted function receives them as arguments rather than baking them into the
compiled code as constants (millions of entries would make compiling and JAX's persistent cache
slow).

What fits: a game that cannot cycle (each game ends, so the longest game is the ply limit) and has
at most :data:`~gamelearn.solver.exhaustive.POSITION_LIMIT` (5,000,000) reachable positions, the
solver's own limit, with a successor table of at most :data:`TABLE_LIMIT` entries.  A position
that is not reachable from the start (a board set up by hand) is not in the tables.

The symmetries are the game's own (``symmetries`` and ``transform_move``), each one whose image of
every action is an action: the board's squares permuted, the actions mapped move by move.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, fields
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ...games import Game
from ...games.actions import codec_for
from ...solver import solve
from ...solver.base import Solution
from ...solver.exhaustive import POSITION_LIMIT, ExhaustiveSolution
from .rules import JaxRules, Position

#: The most entries of the successor table (positions x actions, int32: 1 GB): a game that has
#: few enough positions for the solver but so many actions that its table would be larger is
#: refused in one line rather than run out of memory.
TABLE_LIMIT = 250_000_000

#: The array fields, the leaves of the rules object as a pytree (the rest is static).
ARRAYS = ("boards", "successors", "movers", "winners", "finished")


@dataclass(frozen=True, eq=False)
class TabulatedRules(JaxRules):
    """A game's rules over its reachable positions, by number (see the module docstring)."""

    boards: Any  # int8[positions, squares]
    successors: Any  # int32[positions, actions]: -1 not legal
    movers: Any  # int32[positions]
    winners: Any  # int32[positions]: -1 none
    finished: Any  # bool[positions]
    start: int  # the number of the start position
    #: state -> its number (for ``encode``), and its fewest plies from the start
    numbers: dict[Hashable, int]
    fewest_plies: np.ndarray
    #: the game's symmetries as (square, action) gather tables: board[squares], policy[actions]
    symmetry_tables: tuple[tuple[np.ndarray, np.ndarray], ...]
    #: the rules object this one was rebuilt from by ``jax.tree_util`` (itself for the original),
    #: the static half of the pytree: the same for every copy, so jit caches hit.
    origin: Any = None

    @property
    def positions(self) -> int:
        return int(self.successors.shape[0])

    def initial(self) -> Position:
        start = self.start
        return Position(
            jnp.int32(start),
            self.movers[start],
            jnp.int32(0),
            self.finished[start],
            self.winners[start],
        )

    def legal(self, position: Position) -> jax.Array:
        return (self.successors[position.board] >= 0) & ~position.over

    def _after(self, board: jax.Array, to_move: jax.Array, action: jax.Array) -> jax.Array:
        child = self.successors[board, action]
        return jnp.where(child >= 0, child, board)  # a finished position stays as it is (step keeps it)

    def _winner(self, board: jax.Array, next_to_move: jax.Array) -> jax.Array:
        return self.winners[board]

    def _drawn(self, board: jax.Array) -> jax.Array:
        return self.finished[board]

    def cells(self, position: Position) -> jax.Array:
        return self.boards[position.board]

    def encode(self, game: Game[Any], state: Hashable) -> Position:
        """The position's number and facts; ValueError for a state no game from the start reaches."""
        number = self.numbers.get(state)
        if number is None:
            raise ValueError(
                f"az knows the {self.name} positions reachable from the start, and this one is not: "
                f"{game.board(state)} with {game.symbols[game.to_move(state)]} to move"
            )
        return Position(
            np.int32(number),
            np.int32(game.to_move(state)),
            np.int32(self.fewest_plies[number]),
            np.bool_(game.is_over(state)),
            np.int32(-1 if (winner := game.winner(state)) is None else winner),
        )


def _flatten(rules: TabulatedRules) -> tuple[tuple[Any, ...], Any]:
    return tuple(getattr(rules, name) for name in ARRAYS), rules.origin


def _unflatten(origin: TabulatedRules, arrays: tuple[Any, ...]) -> TabulatedRules:
    rebuilt = object.__new__(TabulatedRules)
    for field in fields(TabulatedRules):
        object.__setattr__(rebuilt, field.name, getattr(origin, field.name))
    for name, array in zip(ARRAYS, arrays, strict=True):
        object.__setattr__(rebuilt, name, array)
    return rebuilt


jax.tree_util.register_pytree_node(TabulatedRules, _flatten, _unflatten)


def reachable_positions(game: Game[Any], limit: int = POSITION_LIMIT) -> list[Hashable]:
    """Every position reachable from the start, as the exhaustive solver walks them (the solution
    ``gamelearn.solve`` keeps, so grading and the perfect player share the walk); ValueError in one
    line for a game that can cycle or has more than ``limit`` positions."""
    if game.facts.can_cycle:
        raise ValueError(f"az tabulates a game that always ends; {game.name} can repeat positions")
    solution: Solution
    try:
        if limit < POSITION_LIMIT:  # a smaller limit: a walk of its own, not kept
            solution = ExhaustiveSolution(game, limit=limit)
        else:
            solution = solve(game)
    except ValueError as error:
        raise ValueError(f"az tabulates {game.name}'s positions, at most {limit:,}: {error}") from None
    if not isinstance(solution, ExhaustiveSolution):  # not for the built-in games, whose rules az has
        raise ValueError(f"{game.name} is not solved by walking its positions")
    return solution.positions()


def _boards(game: Game[Any], states: list[Hashable], chunk: int = 100_000) -> np.ndarray:
    """int8[positions, squares]: +1, -1, 0 for the first symbol, the second, anything else (the
    characters as UTF-32 code points, so a symbol outside ASCII is read as well)."""
    first, second = (ord(symbol) for symbol in game.symbols)
    boards = np.zeros((len(states), game.squares), np.int8)
    for start in range(0, len(states), chunk):
        text = "".join(game.board(state) for state in states[start : start + chunk])
        points = np.frombuffer(text.encode("utf-32-le"), np.uint32).reshape(-1, game.squares)
        boards[start : start + len(points)] = np.where(points == first, 1, np.where(points == second, -1, 0))
    return boards


def _longest_to_end(successors: np.ndarray, finished: np.ndarray) -> np.ndarray:
    """Per position, the most plies a game from it can still last (the positions form a DAG: a
    game that cannot cycle), by relaxing ``1 + the children's most`` until nothing changes."""
    longest = np.zeros(len(finished), np.int64)
    legal = successors >= 0
    for _ in range(len(finished) + 1):
        children = np.where(legal, longest[np.maximum(successors, 0)], -1).max(axis=1, initial=-1)
        relaxed = np.where(finished, 0, children + 1)
        if np.array_equal(relaxed, longest):
            return longest
        longest = relaxed
    raise ValueError("the positions repeat: a game that cannot cycle was expected")


def _fewest_from_start(successors: np.ndarray, start: int) -> np.ndarray:
    """Per position, the fewest plies from the start (breadth first over the table)."""
    fewest = np.full(len(successors), -1, np.int32)
    fewest[start] = 0
    frontier, plies = np.array([start]), 0
    while frontier.size:
        children = successors[frontier].ravel()
        children = np.unique(children[children >= 0])
        frontier = children[fewest[children] < 0]
        plies += 1
        fewest[frontier] = plies
    return fewest


def _symmetry_tables(game: Game[Any], moves: tuple[str | None, ...]) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The game's symmetries as gather tables, the identity first; a symmetry that maps some
    action to no action (a move outside the numbering) is left out."""
    numbers = {move: number for number, move in enumerate(moves) if move is not None}
    found = []
    for k, perm in enumerate(game.symmetries):
        image = np.arange(len(moves))
        try:
            for number, move in enumerate(moves):
                if move is not None:
                    image[number] = numbers[game.transform_move(move, k)]
        except (KeyError, ValueError):
            continue
        if len(set(image.tolist())) != len(moves):
            continue
        squares = np.empty(len(perm), np.int64)
        squares[np.asarray(perm)] = np.arange(len(perm))  # board[squares]: square i moves to perm[i]
        actions = np.empty(len(moves), np.int64)
        actions[image] = np.arange(len(moves))
        found.append((squares, actions))
    return tuple(found)


def tabulate(game: Game[Any], limit: int = POSITION_LIMIT) -> TabulatedRules:
    """``game``'s rules as tables over every position reachable from its start (see the module
    docstring); ValueError in one line where they do not fit (more than ``limit`` positions)."""
    states = reachable_positions(game, limit)
    moves = codec_for(game).moves
    count, actions = len(states), len(moves)
    if count * actions > TABLE_LIMIT:
        raise ValueError(
            f"az's table of {game.name} would hold {count:,} positions x {actions:,} actions, "
            f"more than {TABLE_LIMIT:,} entries"
        )
    numbers = {state: index for index, state in enumerate(states)}
    action_of = {move: number for number, move in enumerate(moves) if move is not None}
    successors = np.full((count, actions), -1, np.int32)
    movers = np.empty(count, np.int32)
    winners = np.empty(count, np.int32)
    finished = np.empty(count, bool)
    for index, state in enumerate(states):
        movers[index] = game.to_move(state)
        winner = game.winner(state)
        winners[index] = -1 if winner is None else winner
        finished[index] = game.is_over(state)
        for move, child in game.successors(state):
            if move not in action_of:
                raise ValueError(f"{game.name}'s move {move!r} is not among its action_moves()")
            successors[index, action_of[move]] = numbers[child]
    start = numbers[game.initial()]
    longest = _longest_to_end(successors, finished)
    rules = TabulatedRules(
        name=game.name,
        rows=game.facts.rows,
        columns=game.facts.columns,
        actions=actions,
        max_plies=max(1, int(longest[start])),
        moves=moves,
        boards=jnp.asarray(_boards(game, states)),
        successors=jnp.asarray(successors),
        movers=jnp.asarray(movers),
        winners=jnp.asarray(winners),
        finished=jnp.asarray(finished),
        start=start,
        numbers=numbers,
        fewest_plies=_fewest_from_start(successors, start),
        symmetry_tables=_symmetry_tables(game, moves),
    )
    object.__setattr__(rules, "origin", rules)
    return rules
