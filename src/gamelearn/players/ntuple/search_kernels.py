"""The compiled alpha-beta search of the ``ntuple`` learner over Teeko (numba, ``cache=True``).

Negamax with alpha-beta pruning (Knuth & Moore 1975) over the learnt afterstate values
(:mod:`.kernels`), for one fixed depth a call; :mod:`.search` deepens it iteratively
under a time or node budget.  Scores are for the side to move: a leaf scores ``1 - 2 V`` (``V``,
the network's chance that the side that has just moved wins, read on the leaf), so every
network score lies in ``-1..1``; a win ``k`` plies from the root scores ``WIN - k`` and a loss
``k - WIN``, so the nearest win is preferred and the farthest loss.

What a node of depth ``d`` with ``x`` extensions left does, in this order (the plain version,
:func:`gamelearn.players.ntuple.search.reference_search`, does the same over the game's rules):

1. *A four to make*: if the side to move can complete a goal at once, the node scores the win.
2. *A four to stop* (the extension for forced sequences): at depth 0, if the side that has just
   moved could complete a goal with its next move and ``x > 0``, the node is searched one ply
   more with ``x - 1``; otherwise it scores the network's leaf value.
3. The transposition table (Greenblatt, Eastlake & Crocker 1967; Zobrist 1970 hashing): an entry
   made for the same position, depth and extensions left answers with its exact value or cuts
   with its bound; an entry of any depth names the move to try first.
4. The children, the table's move first, then (at depth 2 or more) by the learnt value of the
   position each leads to, best first; fail-soft alpha-beta over them.

Because an entry is used for its value only where the position, depth and extensions left are the
same, and a win's score is stored relative to its node, the root's value is exactly the plain
negamax value of the same definition, whatever the table held or how the children were ordered.

Every node's kernels take one :class:`Search`, what a search reads and writes besides the node's
own position, each part by name: the network (``weights``, ``features``), the rules' tables
(:class:`TeekoRules`), the transposition :class:`Table`, each ply's :class:`Children`, the
``frames`` of the explicit stack (:data:`FRAME`), the counters ``stats`` and the ``deadline``.

A Teeko position is two bitboards ``a`` (the first player's pawns) and ``b`` and the side to move.
The side that can complete a goal "at once" is judged on the boards alone: with fewer than four
pawns down, by dropping one on a goal's missing square; with four, by stepping its one pawn off
the goal onto the goal's missing square, a neighbour (:func:`can_win`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import objmode

from ...jit import njit
from .bitboards import ONGOING, TEEKO, afterstates, popcount
from .kernels import child_features, parent_features, value_of

if TYPE_CHECKING:
    from .layout import Features

#: A win's score at the root (less the plies to it); scores beyond ``MATE`` are proven.
WIN = 1000.0
MATE = 500.0
INFINITY = 1.0e9
#: The deepest ply a search reaches (depth plus extensions), and the most children a node has.
MAX_PLY = 64
MAX_CHILDREN = 32
#: The transposition table's entry kinds.
EXACT, LOWER, UPPER = 0, 1, 2
#: ``stats``: nodes visited, the node limit, whether the search ran out, the table's generation.
NODES, LIMIT, ABORTED, GENERATION = 0, 1, 2, 3
#: How often (in nodes) the clock is read.
CLOCK_EVERY = 1024


class TeekoRules(NamedTuple):
    """Teeko's tables as the search reads them."""

    masks: np.ndarray  # int64: the goals' squares, a bitboard each
    neighbours: np.ndarray  # int64: each square's neighbours, a bitboard
    zobrist: np.ndarray  # int64 (3, 25): a random number per pawn (first, second player) and side to move


class Table(NamedTuple):
    """The transposition table, an entry a slot (its size a power of two)."""

    keys: np.ndarray  # int64: the position's Zobrist key
    scores: np.ndarray  # float: its score (a win's relative to the node)
    depths: np.ndarray  # int64: the depth it was searched to
    extensions: np.ndarray  # int64: the extensions it had left
    kinds: np.ndarray  # int64: EXACT, LOWER or UPPER
    moves: np.ndarray  # int64: the best child's index, the move to try first
    generations: np.ndarray  # int64: the search that made it (an older one's entry is stale)


class Children(NamedTuple):
    """Each ply's children (``[ply, i]``): their boards, results and learnt values, and the order
    they are searched in."""

    a: np.ndarray  # int64 (MAX_PLY, MAX_CHILDREN)
    b: np.ndarray
    result: np.ndarray  # ONGOING, or the mover's win or draw
    order: np.ndarray  # the children's indices, in the order searched
    values: np.ndarray  # float: the learnt value (for ordering)


#: A frame of :func:`negamax`'s explicit stack: what each ply's node keeps while its children are
#: searched, one record a ply (``frames[ply].alpha``).
FRAME = np.dtype(
    [
        ("a", np.int64),  # the node's boards
        ("b", np.int64),
        ("side", np.int64),  # the side to move
        ("depth", np.int64),  # the depth and extensions it is searched with
        ("extensions", np.int64),
        ("child_count", np.int64),  # its children
        ("tried", np.int64),  # the children searched so far
        ("best_move", np.int64),  # the best child's index so far, -1 before one
        ("slot", np.int64),  # its slot in the table and its key
        ("key", np.int64),
        ("alpha", np.float64),  # the window, as it narrows
        ("beta", np.float64),
        ("start_alpha", np.float64),  # alpha as the node opened (what an upper bound is judged by)
        ("best", np.float64),  # the best score so far
    ]
)


class Search(NamedTuple):
    """What one search reads and writes besides the node's own position."""

    weights: np.ndarray  # the network's weights
    features: Features  # how a position reads them
    rules: TeekoRules
    table: Table
    children: Children
    parents: np.ndarray  # int64 (MAX_PLY, features): each node's features as its side sees them
    scratch: np.ndarray  # int64 (features,): a child's features, read from its parent's
    frames: np.ndarray  # FRAME (MAX_PLY,): the stack
    stats: np.ndarray  # int64: NODES, LIMIT, ABORTED, GENERATION
    root_scores: np.ndarray  # float (MAX_CHILDREN,): each root child's score (:func:`search_root`)
    deadline: float  # time.perf_counter's at which the search stops; 0: none


@njit(cache=True)
def low_square(bit: int) -> int:
    """The square of a one-bit board."""
    return popcount(bit - 1)


@njit(cache=True)
def can_win(own: int, other: int, masks: np.ndarray, neighbours: np.ndarray) -> bool:
    """Whether the side with pawns ``own`` completes a goal with one move (see the module's text)."""
    occupied = own | other
    placing = popcount(own) < 4
    for m in range(masks.shape[0]):
        mask = masks[m]
        if popcount(own & mask) != 3:
            continue
        missing = mask & ~own
        if missing & occupied:
            continue
        if placing or neighbours[low_square(missing)] & own & ~mask:
            return True
    return False


@njit(cache=True)
def position_key(a: int, b: int, side: int, zobrist: np.ndarray) -> int:
    """Zobrist's hash of a position: the xor of one random number per pawn and per side to move."""
    key = zobrist[2, side]
    x = a
    while x:
        low = x & -x
        key ^= zobrist[0, low_square(low)]
        x ^= low
    x = b
    while x:
        low = x & -x
        key ^= zobrist[1, low_square(low)]
        x ^= low
    return key


@njit(cache=True)
def child_value(ply: int, a: int, b: int, search: Search) -> float:
    """V of (a, b), a child of the node whose frame is at ``ply`` made by that node's side: the
    chance, as learnt, that this side wins.  Its features are read from the node's (kept in
    ``search.parents[ply]`` by :func:`open_node`), changed where the move changed a square."""
    frame = search.frames[ply]
    mover = frame.side
    parent_a, parent_b = frame.a, frame.b
    own, other = (parent_a, parent_b) if mover == 0 else (parent_b, parent_a)
    child_own, child_other = (a, b) if mover == 0 else (b, a)
    scratch = search.scratch
    child_features(own, other, child_own, child_other, mover, search.parents[ply], search.features, scratch)
    return value_of(search.weights, scratch)


@njit(cache=True)
def open_node(ply: int, a: int, b: int, side: int, search: Search) -> None:
    """Keep the node (a, b), ``side`` to move, in its frame at ``ply`` with its features seen by
    ``side``, for :func:`child_value` of its children.  The root's (ply 0) is kept by
    :func:`search_root`; a caller of :func:`negamax` at ply 1 keeps it first."""
    frame = search.frames[ply]
    frame.a, frame.b, frame.side = a, b, side
    own, other = (a, b) if side == 0 else (b, a)
    parent_features(own, other, side, search.features, search.parents[ply])


@njit(cache=True)
def out_of_budget(stats: np.ndarray, deadline: float) -> bool:
    """Counts a node; True (and ``stats[ABORTED]`` set) once the node limit or the deadline is passed."""
    stats[NODES] += 1
    if stats[NODES] > stats[LIMIT]:
        stats[ABORTED] = 1
    elif deadline > 0.0 and stats[NODES] % CLOCK_EVERY == 0:
        with objmode(now="float64"):
            now = time.perf_counter()
        if now > deadline:
            stats[ABORTED] = 1
    return stats[ABORTED] != 0


@njit(cache=True)
def order_children(order: np.ndarray, values: np.ndarray, count: int, first: int) -> None:
    """``order[:count]``: the children by ``values``, highest first (ties: in the rules' order),
    with ``first`` (when >= 0) moved to the front."""
    for i in range(count):
        order[i] = i
    for i in range(1, count):  # insertion sort: a node has at most 32 children
        item = order[i]
        j = i - 1
        while j >= 0 and values[order[j]] < values[item]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = item
    if first >= 0:
        k = 0
        while order[k] != first:
            k += 1
        while k > 0:
            order[k] = order[k - 1]
            k -= 1
        order[0] = first


@njit(cache=True)
def settle(
    ply: int,
    a: int,
    b: int,
    side: int,
    depth: int,
    extensions: int,
    search: Search,
) -> tuple[bool, float, int, int]:
    """Steps 1-2 of a node at ``ply``: (True, its score, ...) when a four to make or the leaf's
    value decides it, else (False, 0, the depth and extensions it is searched with), one ply more
    and one extension fewer where a four is to stop at depth 0."""
    masks, neighbours = search.rules.masks, search.rules.neighbours
    own, other = (a, b) if side == 0 else (b, a)
    if can_win(own, other, masks, neighbours):
        return True, WIN - (ply + 1), depth, extensions
    if depth <= 0 or ply >= MAX_PLY - 1:
        if extensions > 0 and ply < MAX_PLY - 1 and can_win(other, own, masks, neighbours):
            return False, 0.0, 1, extensions - 1
        return True, 1.0 - 2.0 * child_value(ply - 1, a, b, search), depth, extensions
    return False, 0.0, depth, extensions


@njit(cache=True)
def probe(
    ply: int,
    key: int,
    slot: int,
    depth: int,
    extensions: int,
    alpha: float,
    beta: float,
    table: Table,
    stats: np.ndarray,
) -> tuple[bool, float, int]:
    """Step 3 of a node at ``ply``, its position's hash ``key`` at ``slot``: (True, its score, ...)
    when the table's entry for the same position, depth and extensions left decides it, else
    (False, 0, the entry's move to try first, -1 when the table holds none)."""
    first = -1
    if table.generations[slot] != stats[GENERATION] or table.keys[slot] != key:
        return False, 0.0, first
    first = table.moves[slot]
    if table.depths[slot] != depth or table.extensions[slot] != extensions:
        return False, 0.0, first
    stored = table.scores[slot]
    if stored > MATE:
        stored -= ply
    elif stored < -MATE:
        stored += ply
    kind = table.kinds[slot]
    if kind == EXACT or (kind == LOWER and stored >= beta) or (kind == UPPER and stored <= alpha):
        return True, stored, first
    return False, 0.0, first


@njit(cache=True)
def open_frame(
    ply: int,
    a: int,
    b: int,
    side: int,
    depth: int,
    extensions: int,
    alpha: float,
    beta: float,
    key: int,
    slot: int,
    first: int,
    search: Search,
) -> bool:
    """Step 4's start for a node at ``ply``: its children generated and ordered (``first``, the
    table's move, to the front) and its frame set; False when it has no children."""
    rules, children = search.rules, search.children
    count = afterstates(
        TEEKO, a, b, side, rules.masks, rules.neighbours, children.a[ply], children.b[ply], children.result[ply]
    )
    if count == 0:
        return False
    open_node(ply, a, b, side, search)
    values = children.values
    for i in range(count):
        values[ply, i] = 0.0
        if depth >= 2:
            values[ply, i] = child_value(ply, children.a[ply, i], children.b[ply, i], search)
    order_children(children.order[ply], values[ply], count, first)
    frame = search.frames[ply]
    frame.depth, frame.extensions, frame.child_count = depth, extensions, count
    frame.tried, frame.best_move, frame.slot, frame.key = 0, -1, slot, key
    frame.alpha, frame.beta, frame.start_alpha, frame.best = alpha, beta, alpha, -INFINITY
    return True


@njit(cache=True)
def enter(
    ply: int,
    a: int,
    b: int,
    side: int,
    depth: int,
    extensions: int,
    alpha: float,
    beta: float,
    search: Search,
) -> tuple[bool, float]:
    """Steps 1-3 of a node at ``ply`` (see the module's text): (True, its score) when they decide
    it, else (False, 0) with its frame set and its children generated and ordered (step 4); the
    score is 0 when the budget runs out or the side to move has no move."""
    if out_of_budget(search.stats, search.deadline):
        return True, 0.0
    decided, score, depth, extensions = settle(ply, a, b, side, depth, extensions, search)
    if decided:
        return True, score
    table = search.table
    key = position_key(a, b, side, search.rules.zobrist)
    slot = key & (table.keys.shape[0] - 1)
    decided, score, first = probe(ply, key, slot, depth, extensions, alpha, beta, table, search.stats)
    if decided:
        return True, score
    if not open_frame(ply, a, b, side, depth, extensions, alpha, beta, key, slot, first, search):
        return True, 0.0
    return False, 0.0


@njit(cache=True)
def leave(ply: int, search: Search) -> float:
    """The score of the node whose frame is at ``ply``, its children done; kept in the table."""
    table, frame = search.table, search.frames[ply]
    best, slot = frame.best, frame.slot
    kept = best + ply if best > MATE else best - ply if best < -MATE else best
    table.keys[slot], table.scores[slot] = frame.key, kept
    table.depths[slot], table.extensions[slot] = frame.depth, frame.extensions
    if best <= frame.start_alpha:
        table.kinds[slot] = UPPER
    elif best >= frame.beta:
        table.kinds[slot] = LOWER
    else:
        table.kinds[slot] = EXACT
    table.moves[slot], table.generations[slot] = frame.best_move, search.stats[GENERATION]
    return best


@njit(cache=True)
def negamax(
    a: int,
    b: int,
    side: int,
    depth: int,
    extensions: int,
    alpha: float,
    beta: float,
    ply: int,
    search: Search,
) -> float:
    """The score of (a, b) for ``side`` to move, ``depth`` plies deep (see the module's text): a
    fail-soft alpha-beta, its recursion kept on an explicit stack of frames, one a ply."""
    top = ply
    done, value = enter(top, a, b, side, depth, extensions, alpha, beta, search)
    if done:
        return value
    frames, children, stats = search.frames, search.children, search.stats
    order = children.order
    current = top
    while True:
        k = frames[current].tried
        if k < frames[current].child_count:
            i = order[current, k]
            frames[current].tried = k + 1
            done, value = enter(
                current + 1,
                children.a[current, i],
                children.b[current, i],
                1 - frames[current].side,
                frames[current].depth - 1,
                frames[current].extensions,
                -frames[current].beta,
                -frames[current].alpha,
                search,
            )
            if not done:
                current += 1
                continue
        else:
            value = leave(current, search)
            if current == top:
                return value
            current -= 1
        if stats[ABORTED]:
            return 0.0
        score = -value  # the score of the child just searched, for the frame at ``current``
        if score > frames[current].best:
            frames[current].best = score
            frames[current].best_move = order[current, frames[current].tried - 1]
            if score > frames[current].alpha:
                frames[current].alpha = score
                if score >= frames[current].beta:
                    frames[current].tried = frames[current].child_count  # a cut: no more children


@njit(cache=True)
def search_root(
    a: int,
    b: int,
    side: int,
    depth: int,
    extensions: int,
    search: Search,
) -> int:
    """One search of (a, b), ``side`` to move, ``depth`` plies deep (1 or more): the index (in the
    rules' order of the children, ``search.children``' row 0) of the first child, in the order of
    their learnt values, with the best score; -1 if the budget ran out first.
    ``search.root_scores[i]``: child ``i``'s score, or a bound of it (fail-soft), for the side to
    move."""
    rules, children, stats, root_scores = search.rules, search.children, search.stats, search.root_scores
    child_a, child_b, child_result, order, values = (
        children.a,
        children.b,
        children.result,
        children.order,
        children.values,
    )
    count = afterstates(TEEKO, a, b, side, rules.masks, rules.neighbours, child_a[0], child_b[0], child_result[0])
    open_node(0, a, b, side, search)
    for i in range(count):
        if child_result[0, i] != ONGOING:
            values[0, i] = 2.0  # a win: above every learnt value
        else:
            values[0, i] = child_value(0, child_a[0, i], child_b[0, i], search)
    order_children(order[0], values[0], count, -1)
    alpha, best, best_move = -INFINITY, -INFINITY, -1
    for k in range(count):
        i = order[0, k]
        if child_result[0, i] != ONGOING:
            score = WIN - 1.0
        else:
            score = -negamax(
                child_a[0, i],
                child_b[0, i],
                1 - side,
                depth - 1,
                extensions,
                -INFINITY,
                -alpha,
                1,
                search,
            )
            if stats[ABORTED]:
                return -1
        root_scores[i] = score
        if score > best:
            best, best_move = score, i
            alpha = max(alpha, score)
    return best_move
