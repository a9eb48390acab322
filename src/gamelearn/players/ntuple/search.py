"""The ``ntuple`` learner's search at play time over Teeko: alpha-beta with iterative deepening
under a budget, over the learnt values (:mod:`.search_kernels`, numba), and the plain
Python negamax of the same definition that it is proved equal to (:func:`reference_search`).

A budget is how a spec's ``search=`` reads (:func:`parse_search`):

* ``0`` or ``1``: no search, the raw network (one ply of learnt values);
* ``2`` .. ``20``: that many plies, full width, with the extensions for forced sequences;
* ``250ms``, ``1s``, ``1.5s``: deepen one ply at a time until the wall-clock time a move is
  spent (the deepest search finished is played);

and ``nodes=N`` caps the positions visited a move, which makes a timed search deterministic
where the clock does not interrupt it first (the same position, the same move).

>>> parse_search("1s"), parse_search("250ms"), parse_search("3"), parse_search("0")
('1s', '250ms', '3', '0')
>>> budget_of("1.5s"), budget_of("3")
((None, 1.5), (3, None))
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...games import teeko as teeko_rules
from . import search_kernels as kernels
from .layout import MAX_CHILDREN, neighbours, pieces, win_masks

#: The plies a timed or node-budgeted search may reach at most (it stops at a proven result).
MAX_DEPTH = 30
#: The extensions (plies) one line of the search may take to stop a four.
EXTENSIONS = 6
#: The transposition table's entries (a power of two).
TABLE_SIZE = 1 << 18
#: A timed search starts no new ply once this share of its time is spent: the next ply costs more
#: than all before it together.
START_SHARE = 0.35
_SPELLING = re.compile(r"(?P<number>\d+(?:\.\d+)?)(?P<unit>ms|s)?")


def parse_search(text: str) -> str:
    """A ``search=`` value, checked: a whole number of plies 0..20, or a time a move (``ms`` or
    ``s``, 10 ms to 60 s); ValueError naming what is wrong."""
    found = _SPELLING.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"{text!r} is neither plies (0..20) nor a time a move such as 1s or 250ms")
    number, unit = found["number"], found["unit"]
    if unit is None:
        if "." in number or not 0 <= int(number) <= 20:
            raise ValueError(f"{text!r}: plies are a whole number 0..20")
        return str(int(number))
    seconds = float(number) / (1000 if unit == "ms" else 1)
    if not 0.01 <= seconds <= 60:
        raise ValueError(f"{text!r}: a time a move is 10ms..60s")
    return f"{float(number):g}{unit}"


def budget_of(search: str) -> tuple[int | None, float | None]:
    """(plies, None) or (None, seconds) of a checked ``search=`` value."""
    if search.endswith("ms"):
        return None, float(search[:-2]) / 1000
    if search.endswith("s"):
        return None, float(search[:-1])
    return int(search), None


def searches(search: str) -> bool:
    """Whether a ``search=`` value asks for more than the raw network."""
    depth, _ = budget_of(search)
    return depth is None or depth > 1


@dataclass(frozen=True)
class Searched:
    """What one search found: the move, its score for the side to move (``WIN - k``: a win in
    ``k`` plies; ``-1..1``: the learnt value's ``2 E - 1``), the deepest ply finished and the
    positions visited."""

    move: str
    score: float
    depth: int
    nodes: int


class TeekoSearch:
    """The search over one trainer's weights (read afresh at every move, so loading new knowledge
    needs nothing more); its table and buffers are made once and reused."""

    def __init__(self, game: Any, trainer: Any, table_size: int = TABLE_SIZE) -> None:
        if table_size & (table_size - 1):
            raise ValueError(f"the table's size must be a power of two, not {table_size}")
        self.game, self.trainer = game, trainer
        zobrist = np.random.default_rng(1970).integers(1, 2**62, size=(3, 25), dtype=np.int64)
        self.rules = kernels.TeekoRules(win_masks(game), neighbours(game), zobrist)
        entries = (table_size,)
        self.table = kernels.Table(
            keys=np.zeros(entries, np.int64),
            scores=np.zeros(entries),
            depths=np.zeros(entries, np.int64),
            extensions=np.zeros(entries, np.int64),
            kinds=np.zeros(entries, np.int64),
            moves=np.zeros(entries, np.int64),
            generations=np.zeros(entries, np.int64),
        )
        shape = (kernels.MAX_PLY, MAX_CHILDREN)
        self.children = kernels.Children(
            a=np.zeros(shape, np.int64),
            b=np.zeros(shape, np.int64),
            result=np.zeros(shape, np.int64),
            order=np.zeros(shape, np.int64),
            values=np.zeros(shape),
        )
        features = int(trainer.features.lengths.shape[0])
        self.parents = np.zeros((kernels.MAX_PLY, features), np.int64)
        self.scratch = np.zeros(features, np.int64)
        self.frames = np.zeros(kernels.MAX_PLY, kernels.FRAME)
        self.stats = np.zeros(4, np.int64)
        self.scores = np.zeros(MAX_CHILDREN)

    def _search(self) -> kernels.Search:
        """What a search reads and writes: the trainer's weights as they are now, the tables and
        buffers made once."""
        trainer = self.trainer
        return kernels.Search(
            trainer.weights,
            trainer.features,
            self.rules,
            self.table,
            self.children,
            self.parents,
            self.scratch,
            self.frames,
            self.stats,
            self.scores,
            self._deadline,
        )

    def root(self, state: Hashable, depth: int, extensions: int = EXTENSIONS, nodes: int | None = None) -> int:
        """One fixed-depth search of ``state`` in the table's current generation: the chosen
        child's index in the rules' order, or -1 when ``nodes`` ran out."""
        a, b = pieces(self.game, state)
        self.stats[kernels.LIMIT] = nodes if nodes is not None else 2**62
        return int(kernels.search_root(a, b, self.game.to_move(state), depth, extensions, self._search()))

    _deadline = 0.0

    def search(
        self,
        state: Hashable,
        depth: int | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        extensions: int = EXTENSIONS,
    ) -> Searched:
        """The move the search plays in ``state`` (unfinished): iterative deepening from one ply to
        ``depth`` (default :data:`MAX_DEPTH`), stopping early at a proven result, once ``seconds``
        of wall-clock time are spent (a ply started but not finished is dropped) or ``nodes``
        positions have been visited in all."""
        self.stats[kernels.GENERATION] += 1
        self.stats[kernels.NODES] = self.stats[kernels.ABORTED] = 0
        started = time.perf_counter()
        self._deadline = started + seconds if seconds is not None else 0.0
        found: tuple[int, float, int] | None = None
        for ply in range(1, (depth or MAX_DEPTH) + 1):
            index = self.root(state, ply, extensions, nodes)
            if index < 0:
                break
            found = (index, float(self.scores[index]), ply)
            if abs(found[1]) > kernels.MATE:
                break
            if seconds is not None and time.perf_counter() - started > START_SHARE * seconds:
                break
        if found is None:  # not even one ply fitted: the best learnt value (a win first)
            found = (int(self.children.order[0, 0]), float("nan"), 0)
        index, score, reached = found
        chosen = (int(self.children.a[0, index]), int(self.children.b[0, index]))
        move = next(move for move, child in self.game.successors(state) if pieces(self.game, child) == chosen)
        return Searched(move, score, reached, int(self.stats[kernels.NODES]))


# The plain version ---------------------------------------------------------------------------------


def threatens(own: int, other: int) -> bool:
    """Whether the side with pawns ``own`` could complete a goal with its next move, on the boards
    alone (see :mod:`.search_kernels`)."""
    occupied = own | other
    for mask in teeko_rules.WIN_MASKS:
        if (own & mask).bit_count() != 3 or mask & ~own & occupied:
            continue
        missing = mask & ~own
        if own.bit_count() < 4 or teeko_rules.NEIGHBOURS[missing.bit_length() - 1] & own & ~mask:
            return True
    return False


def reference_search(
    game: Any,
    value: Callable[[int, int, int], float],
    state: Hashable,
    depth: int,
    extensions: int = EXTENSIONS,
) -> tuple[float, str]:
    """The plain negamax of :mod:`.search_kernels`'s definition over the game's own rules,
    without pruning or table: (the root's score, the first move in the order of the learnt values
    with that score).  ``value(a, b, mover)`` is the network's V of an afterstate."""

    def node(state: Hashable, depth: int, extensions: int, ply: int) -> float:
        side = game.to_move(state)
        children = game.successors(state)
        if any(game.winner(child) == side for _, child in children):
            return kernels.WIN - (ply + 1)
        a, b = pieces(game, state)
        own, other = (a, b) if side == 0 else (b, a)
        if depth <= 0 or ply >= kernels.MAX_PLY - 1:
            if extensions > 0 and ply < kernels.MAX_PLY - 1 and threatens(other, own):
                depth, extensions = 1, extensions - 1
            else:
                return 1.0 - 2.0 * value(a, b, 1 - side)
        if not children:
            return 0.0
        return max(-node(child, depth - 1, extensions, ply + 1) for _, child in children)

    side = game.to_move(state)
    scored: list[tuple[float, int, str, float]] = []
    for rank, (move, child) in enumerate(game.successors(state)):
        if game.winner(child) == side:
            learnt, score = 2.0, kernels.WIN - 1.0
        else:
            learnt = value(*pieces(game, child), side)
            score = -node(child, depth - 1, extensions, 1)
        scored.append((learnt, rank, move, score))
    scored.sort(key=lambda item: (-item[0], item[1]))
    best = max(score for *_, score in scored)
    return best, next(move for *_, move, score in scored if score == best)
