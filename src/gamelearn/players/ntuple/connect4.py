"""Connect Four's compiled self-play, values and search for the ``ntuple`` learner (numba,
``cache=True``), over the layout ``connect4-snakes70-sides-v1`` (:mod:`.layout`) and the others of
four-state cells.

A position is two bitboards in board order, ``x`` the first player's discs and ``o`` the second's
(square ``r * columns + c`` is bit ``r * columns + c``, rows from the top, as ``game.board`` writes
them): the bits :func:`.layout.pieces` gives for any board game.  The rules here (a disc falls to
the lowest empty square of its column, four in a row across, down or diagonally wins, a full board
is a draw) are checked against the game's own (:mod:`gamelearn.games.connect4`) move by move over
random games (tests/players/ntuple/test_ntuple_connect4.py).

Each square is read in one of four states, as Thill, Koch & Konen (PPSN 2012) read Connect Four:
0 empty and not yet playable (the square below it is empty), 1 X, 2 O, 3 empty and playable now
(a disc dropped in its column lands there); so an n-tuple of 8 squares reads a number in
``0 .. 4**8 - 1``, in the weight set of its layout's phase for the discs down (``phase_base``:
the default layout keeps one set for the positions the first player has just made and one for the
second's).  The squares are read as they are, not from the mover's view, and the network's
``W``, the logistic function of the sum of the weights read, is the chance that *the first
player* wins (a draw counts one half), as in Thill et al.: Connect Four's squares mean one thing for
the side that moves first and another for the side that moves second (threats on odd rows are
the first player's), which a view from the mover would mix.  The value of an afterstate for the
side that has just moved into it (what the player compares) is ``W`` for the first player and
``1 - W`` for the second.

Self-play (:func:`self_play`) is the Teeko kernel's (:mod:`.kernels`) on these cells: TD(lambda)
over both sides' afterstates with an eligibility trace, the greedy target (the value of the best
afterstate the next mover had, whether or not it played it), an exploring move cutting the trace,
and temporal coherence learning; the trace and its update are the shared
:func:`.kernels.apply_trace`.  As ``W`` is the first player's, every afterstate's gradient is
``W (1 - W)`` on the weights it reads: :func:`.kernels.td_sequence` with every mover 0 is the same
update over a recorded game.

The search over these rules and values is :mod:`.connect4_search`'s.

The kernels take the board as one :class:`Grid` (its size and lines of four), the network's
features as :class:`.layout.Features`, and self-play's schedules as :mod:`.kernels`' named tuples.

This module imports nothing of gamelearn but the kernels: the players layer builds its inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...jit import njit
from .kernels import Schedule, Td, apply_trace, popcount, value_of

if TYPE_CHECKING:
    from .layout import Features

#: An afterstate's result code (as :mod:`.bitboards`'): the game goes on, the mover has won, drawn.
ONGOING, WON, DRAWN = -1, 1, 2
MAX_COLUMNS = 9


class Grid(NamedTuple):
    """A board of ``columns`` x ``rows`` in board order and every line of four through each square
    (a bitboard mask, ``lines[s, j]`` for ``j`` below ``counts[s]``), as the kernels read it."""

    columns: int
    rows: int
    lines: np.ndarray  # int64 (squares, most lines through a square)
    counts: np.ndarray  # int64 (squares,)


def geometry(columns: int, rows: int) -> Grid:
    """The :class:`Grid` of a board of ``columns`` x ``rows``."""
    board = columns * rows
    through: list[list[int]] = [[] for _ in range(board)]
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    mask = sum(1 << (rr * columns + cc) for rr, cc in cells)
                    for rr, cc in cells:
                        through[rr * columns + cc].append(mask)
    widest = max(len(masks) for masks in through)
    lines = np.zeros((board, widest), np.int64)
    counts = np.zeros(board, np.int64)
    for square, masks in enumerate(through):
        counts[square] = len(masks)
        lines[square, : len(masks)] = masks
    return Grid(columns, rows, lines, counts)


# The rules --------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def landing(both: int, column: int, columns: int, rows: int) -> int:
    """The square a disc dropped in ``column`` lands on, or -1 when the column is full."""
    for r in range(rows - 1, -1, -1):
        square = r * columns + column
        if not (both >> square) & 1:
            return square
    return -1


@njit(cache=True, inline="always")
def makes_four(discs: int, square: int, lines: np.ndarray, counts: np.ndarray) -> bool:
    """Whether ``discs`` (holding ``square``) have four in a row through ``square``."""
    for j in range(counts[square]):
        mask = lines[square, j]
        if discs & mask == mask:
            return True
    return False


@njit(cache=True)
def afterstates(
    x: int,
    o: int,
    mover: int,
    grid: Grid,
    child_x: np.ndarray,
    child_o: np.ndarray,
    child_result: np.ndarray,
    child_square: np.ndarray,
) -> int:
    """The positions ``mover`` can move into from (x, o), one a column not full, left to right,
    with their result codes and the square each disc landed on; how many."""
    columns, rows, lines, counts = grid.columns, grid.rows, grid.lines, grid.counts
    both = x | o
    board = columns * rows
    filled = popcount(both)
    count = 0
    for column in range(columns):
        square = landing(both, column, columns, rows)
        if square < 0:
            continue
        disc = np.int64(1) << square
        nx, no = (x | disc, o) if mover == 0 else (x, o | disc)
        child_x[count], child_o[count], child_square[count] = nx, no, square
        if makes_four(nx if mover == 0 else no, square, lines, counts):
            child_result[count] = WON
        elif filled + 1 == board:
            child_result[count] = DRAWN
        else:
            child_result[count] = ONGOING
        count += 1
    return count


# Reading the n-tuples ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def cell(x: int, o: int, square: int, columns: int, board: int) -> int:
    """A square's state: 0 empty and not yet playable, 1 X, 2 O, 3 empty and playable now."""
    if (x >> square) & 1:
        return 1
    if (o >> square) & 1:
        return 2
    below = square + columns
    if below >= board or ((x | o) >> below) & 1:
        return 3
    return 0


@njit(cache=True)
def read_features(x: int, o: int, features: Features, columns: int, board: int, out: np.ndarray) -> None:
    """The weight index each feature (a tuple on one image of the board) reads in (x, o), into
    ``out``; ``board`` is the board's squares (columns times rows)."""
    squares, lengths, offsets = features.squares, features.lengths, features.offsets
    base = features.phase_base[popcount(x | o)]
    for f in range(lengths.shape[0]):
        index = 0
        scale = 1
        for k in range(lengths[f]):
            index += cell(x, o, squares[0, f, k], columns, board) * scale
            scale *= 4
        out[f] = base + offsets[f] + index


@njit(cache=True)
def child_features(
    x: int,
    o: int,
    child_x: int,
    child_o: int,
    square: int,
    parent: np.ndarray,
    features: Features,
    columns: int,
    board: int,
    out: np.ndarray,
) -> None:
    """:func:`read_features` of the child (child_x, child_o) of (x, o) whose features are
    ``parent``, the disc having landed on ``square``: only two squares change, the disc's (playable
    to X or O) and the one above it (not yet playable to playable), and only the features that read
    them are worked out again (``touches_*``: :class:`.layout.Features`, place values of 4)."""
    touches_start, touches_feature, touches_scale = (
        features.touches_start,
        features.touches_feature,
        features.touches_scale,
    )
    # the child has one disc more: its weight set (``phase_base``) may differ from the parent's
    shift = features.phase_base[popcount(child_x | child_o)] - features.phase_base[popcount(x | o)]
    for f in range(parent.shape[0]):
        out[f] = parent[f] + shift
    for changed in (square, square - columns):
        if changed < 0:
            continue
        before = cell(x, o, changed, columns, board)
        after = cell(child_x, child_o, changed, columns, board)
        if before == after:
            continue
        for j in range(touches_start[0, changed], touches_start[0, changed + 1]):
            out[touches_feature[0, j]] += (after - before) * touches_scale[0, j]


@njit(cache=True)
def values_of(
    weights: np.ndarray, features: Features, grid: Grid, x: np.ndarray, o: np.ndarray, movers: np.ndarray
) -> np.ndarray:
    """The value of many afterstates at once for the side that made each (``W`` or ``1 - W``)."""
    columns, board = grid.columns, grid.columns * grid.rows
    out = np.empty(x.shape[0])
    indices = np.empty(features.lengths.shape[0], np.int64)
    for i in range(x.shape[0]):
        read_features(x[i], o[i], features, columns, board, indices)
        first = value_of(weights, indices)
        out[i] = first if movers[i] == 0 else 1.0 - first
    return out


@njit(cache=True)
def features_of(features: Features, grid: Grid, x: np.ndarray, o: np.ndarray) -> np.ndarray:
    """The weight indices of many positions at once, a row each."""
    columns, board = grid.columns, grid.columns * grid.rows
    out = np.empty((x.shape[0], features.lengths.shape[0]), np.int64)
    for i in range(x.shape[0]):
        read_features(x[i], o[i], features, columns, board, out[i])
    return out


# Self-play ----------------------------------------------------------------------------------------


@njit(cache=True)
def self_play(
    games: int,
    seed: int,
    weights: np.ndarray,
    features: Features,
    grid: Grid,
    schedule: Schedule,
    td: Td,
    log: np.ndarray,
) -> np.ndarray:
    """Play ``games`` self-play games from the empty board, learning online (the module's
    docstring; ``schedule`` and ``td`` as :func:`.kernels.self_play` reads them; alpha is divided
    by the number of features).  Where ``log`` has a row per game, game ``g``'s columns are
    written to ``log[g]`` (-1 after its end), for the tests that replay it.  Returns (plies, TD
    updates, sum of squared TD errors)."""
    np.random.seed(seed)
    columns, rows = grid.columns, grid.rows
    board = columns * rows
    horizon = td.horizon
    count_of_features = features.lengths.shape[0]
    child_x = np.empty(MAX_COLUMNS, np.int64)
    child_o = np.empty(MAX_COLUMNS, np.int64)
    child_result = np.empty(MAX_COLUMNS, np.int64)
    child_square = np.empty(MAX_COLUMNS, np.int64)
    child_indices = np.empty((MAX_COLUMNS, count_of_features), np.int64)
    child_value = np.empty(MAX_COLUMNS)
    parent = np.empty(count_of_features, np.int64)
    trace_indices = np.empty((horizon, count_of_features), np.int64)
    trace_grads = np.zeros(horizon)
    logging = log.shape[0] >= games
    plies_played, updates, squared = 0, 0, 0.0
    for g in range(games):
        decay = 0.5 ** ((schedule.games_before + g) / schedule.halflife)
        alpha = (schedule.alpha_floor + (schedule.alpha - schedule.alpha_floor) * decay) / count_of_features
        epsilon = schedule.epsilon_floor + (schedule.epsilon - schedule.epsilon_floor) * decay
        opening = np.random.randint(0, schedule.random_plies + 1)
        x, o, mover = 0, 0, 0
        read_features(x, o, features, columns, board, parent)
        head, length = -1, 0
        if logging:
            log[g, :] = -1
        for ply in range(board):
            count = afterstates(x, o, mover, grid, child_x, child_o, child_result, child_square)
            best, ties = 0, 0
            best_value = -1.0
            for i in range(count):
                if child_result[i] == WON:
                    child_value[i] = 1.0
                elif child_result[i] == DRAWN:
                    child_value[i] = 0.5
                else:
                    child_features(
                        x,
                        o,
                        child_x[i],
                        child_o[i],
                        child_square[i],
                        parent,
                        features,
                        columns,
                        board,
                        child_indices[i],
                    )
                    first = value_of(weights, child_indices[i])
                    child_value[i] = first if mover == 0 else 1.0 - first
                if child_value[i] > best_value:
                    best, best_value, ties = i, child_value[i], 1
                elif child_value[i] == best_value:
                    ties += 1
                    if np.random.randint(0, ties) == 0:
                        best = i
            chosen = best
            if ply < opening or np.random.random() < epsilon:
                chosen = np.random.randint(0, count)
            if logging:
                log[g, ply] = child_square[chosen] % columns
            if length > 0:  # the previous afterstate (the other side's) learns the greedy value
                target = best_value if mover == 0 else 1.0 - best_value
                delta = target - value_of(weights, trace_indices[head])
                apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
                squared += delta * delta
                updates += 1
            if child_value[chosen] != best_value:
                length = 0  # an exploring move: the greedy policy's trace ends here
            plies_played += 1
            x, o = child_x[chosen], child_o[chosen]
            if child_result[chosen] != ONGOING:
                break
            first = child_value[chosen] if mover == 0 else 1.0 - child_value[chosen]
            head = (head + 1) % horizon
            trace_indices[head] = child_indices[chosen]
            trace_grads[head] = first * (1.0 - first)
            length = min(length + 1, horizon)
            parent[:] = child_indices[chosen]
            mover = 1 - mover
    out = np.empty(3)
    out[0], out[1], out[2] = plies_played, updates, squared
    return out
