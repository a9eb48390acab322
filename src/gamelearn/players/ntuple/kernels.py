"""The compiled hot loops of the ``ntuple`` learner (numba, ``cache=True``): reading a position's
n-tuples, its value, the TD(lambda) update with eligibility traces, and whole self-play games over
the rules on bitboards of :mod:`.bitboards` (whose names are here too, for the kernels' users).

A position is two bitboards, ``a`` the first player's pieces and ``b`` the second's, and the side
``mover`` that has just moved into it (an *afterstate*, Sutton & Barto 2018, section 6.8).  Its
value ``V`` is the logistic function of the sum of the weights its features read
(:mod:`.layout`), the chance that ``mover`` wins.

TD(lambda) (Sutton 1988; for n-tuple networks Thill, Koch & Konen 2012 and Thill, Bagheri, Koch &
Konen 2014) runs over the sequence of afterstates of a game, both sides' in turn, seen from the
first player: ``W_t = V(a_t)`` when the first player made ``a_t``, ``1 - V(a_t)`` otherwise, and a
finished game's ``W`` is its result (1 won, 1/2 drawn, 0 lost).  At each step
``delta_t = W_{t+1} - W_t``, the eligibility trace ``e_t = lambda * e_{t-1} + grad W_t`` and
``w += alpha * delta_t * e_t``; ``grad W_t`` is ``+-V (1 - V)`` on every weight ``a_t`` reads (a
weight read twice counts twice).  The trace keeps the last ``horizon`` afterstates only (older
ones have decayed by ``lambda ** horizon``).  In self-play the target ``W_{t+1}`` is the value of
the best afterstate the next mover had, whether or not it played it (the greedy value), and an
exploring move cuts the trace, as in Watkins's Q(lambda): what is learnt is the greedy policy's
value, whatever the exploration.

Temporal coherence learning (Beal & Smith 1999; TCL-EXP of Bagheri, Thill, Koch & Konen 2016), when
``beta > 0``: each weight keeps the sum ``N`` of the changes recommended for it and the sum ``A``
of their sizes, and moves by ``exp(beta * (|N| / A - 1))`` times its recommended change
(:func:`coherence_factor`), a step size per weight in place of a decaying schedule.

The kernels take their inputs by name, as named tuples of arrays and numbers (numba types each
whole): the network's features (:class:`.layout.Features`), a game's rules on bitboards
(:class:`BoardRules`), the schedules of self-play (:class:`Schedule`) and TD(lambda)'s constants
(:class:`Td`).

This module imports nothing of gamelearn but the kernels' rules: the players layer builds its inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...jit import njit
from .bitboards import (  # noqa: F401  # the rules' names, for the kernels' users too
    DRAWN,
    HEXAPAWN,
    MAX_CHILDREN,
    ONGOING,
    TEEKO,
    TICTACTOE,
    WON,
    afterstates,
    popcount,
)

if TYPE_CHECKING:
    from .layout import Features


class BoardRules(NamedTuple):
    """A game's rules on bitboards as self-play plays them (:func:`.bitboards.afterstates`)."""

    game: int  # TICTACTOE, HEXAPAWN or TEEKO
    masks: np.ndarray  # int64: the sets of squares that win
    neighbours: np.ndarray  # int64: each square's neighbours (Teeko's steps)
    start_a: int  # the first player's pieces at the start
    start_b: int  # the second player's
    max_plies: int  # a game this long is a draw


class Schedule(NamedTuple):
    """Self-play's step size and exploration: each decays from its start to its floor with a
    half-life in games, from where ``games_before`` games left it; each game opens with
    ``0..random_plies`` random moves."""

    alpha: float
    alpha_floor: float
    epsilon: float
    epsilon_floor: float
    halflife: float
    games_before: int
    random_plies: int


class Td(NamedTuple):
    """TD(lambda)'s constants and temporal coherence learning's sums (:func:`apply_trace`)."""

    lam: float  # lambda: each older afterstate's share of the trace
    horizon: int  # the afterstates the trace keeps
    coherence: np.ndarray  # float32 (2, weights): TCL's sums N and A; a stub (2, 1) when off
    beta: float  # TCL's exponent; 0: off


@njit(cache=True)
def read_features(a: int, b: int, mover: int, features: Features, out: np.ndarray) -> None:
    """The weight index each feature reads in afterstate (a, b) made by ``mover``, into ``out``."""
    own = a if mover == 0 else b
    other = b if mover == 0 else a
    parent_features(own, other, mover, features, out)
    base = features.phase_base[popcount(a | b)]
    for f in range(features.lengths.shape[0]):
        out[f] += base


@njit(cache=True)
def parent_features(own: int, other: int, mover: int, features: Features, out: np.ndarray) -> None:
    """The index each feature reads on the board (own, other) seen by ``mover``, within its weight
    set (no set's start added): :func:`read_features` adds the set's start; for the position before
    ``mover`` moves, what :func:`child_features` changes into each child's indices."""
    squares, lengths, offsets = features.squares, features.lengths, features.offsets
    for f in range(lengths.shape[0]):
        index = 0
        scale = 1
        for k in range(lengths[f]):
            square = squares[mover, f, k]
            index += (((own >> square) & 1) + 2 * ((other >> square) & 1)) * scale
            scale *= 3
        out[f] = offsets[f] + index


@njit(cache=True)
def child_features(
    own: int,
    other: int,
    child_own: int,
    child_other: int,
    mover: int,
    parent: np.ndarray,
    features: Features,
    out: np.ndarray,
) -> None:
    """:func:`read_features` of the child (child_own, child_other) of the position (own, other)
    whose :func:`parent_features` are ``parent``: only the features that read a square the move
    changed are worked out again (``touches_*``: for each side and square, the features that read
    it and the power of 3 of its place in each), a few dozen of a Teeko position's hundreds."""
    touches_start, touches_feature, touches_scale = (
        features.touches_start,
        features.touches_feature,
        features.touches_scale,
    )
    base = features.phase_base[popcount(child_own | child_other)]
    for f in range(parent.shape[0]):
        out[f] = parent[f] + base
    changed = (own ^ child_own) | (other ^ child_other)
    square = 0
    while changed:
        if changed & 1:
            before = ((own >> square) & 1) + 2 * ((other >> square) & 1)
            after = ((child_own >> square) & 1) + 2 * ((child_other >> square) & 1)
            for j in range(touches_start[mover, square], touches_start[mover, square + 1]):
                out[touches_feature[mover, j]] += (after - before) * touches_scale[mover, j]
        changed >>= 1
        square += 1


@njit(cache=True)
def value_of(weights: np.ndarray, indices: np.ndarray) -> float:
    """V: the logistic function of the sum of the weights read."""
    total = 0.0
    for f in range(indices.shape[0]):
        total += weights[indices[f]]
    return 1.0 / (1.0 + np.exp(-total))


@njit(cache=True)
def values_of(weights: np.ndarray, features: Features, a: np.ndarray, b: np.ndarray, movers: np.ndarray) -> np.ndarray:
    """V of many afterstates at once (for the side that made each)."""
    out = np.empty(a.shape[0])
    indices = np.empty(features.lengths.shape[0], np.int64)
    for i in range(a.shape[0]):
        read_features(a[i], b[i], movers[i], features, indices)
        out[i] = value_of(weights, indices)
    return out


@njit(cache=True)
def features_of(features: Features, a: np.ndarray, b: np.ndarray, movers: np.ndarray) -> np.ndarray:
    """The weight indices of many afterstates at once, a row each."""
    out = np.empty((a.shape[0], features.lengths.shape[0]), np.int64)
    for i in range(a.shape[0]):
        read_features(a[i], b[i], movers[i], features, out[i])
    return out


# The TD(lambda) update ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def coherence_factor(coherence: np.ndarray, index: int, beta: float) -> float:
    """TCL-EXP's step factor for one weight (Bagheri, Thill, Koch & Konen 2016, after Beal & Smith
    1999): ``exp(beta * (|N| / A - 1))``, where ``N`` is the sum of the weight's recommended
    changes and ``A`` the sum of their sizes; 1 before its first change.  A weight whose changes
    keep one sign moves at the full step, one whose changes cancel out almost stops."""
    total = coherence[1, index]
    if total <= 0.0:
        return 1.0
    return np.exp(beta * (abs(coherence[0, index]) / total - 1.0))


@njit(cache=True)
def apply_trace(
    weights: np.ndarray,
    trace_indices: np.ndarray,
    trace_grads: np.ndarray,
    head: int,
    length: int,
    step: float,
    td: Td,
) -> None:
    """``w += step * e``: the trace's newest entry is at ``head``, each older one decayed by
    ``td.lam``.  With ``td.beta > 0`` (temporal coherence learning) each weight's change is scaled
    by its :func:`coherence_factor` and its sums ``td.coherence[0]`` (N) and ``[1]`` (A) take the
    recommended change ``step * e``."""
    lam, coherence, beta = td.lam, td.coherence, td.beta
    horizon = trace_grads.shape[0]
    decay = 1.0
    for j in range(length):
        slot = (head - j) % horizon
        amount = step * decay * trace_grads[slot]
        if beta > 0.0:
            for f in range(trace_indices.shape[1]):
                index = trace_indices[slot, f]
                weights[index] += amount * coherence_factor(coherence, index, beta)
                coherence[0, index] += amount
                coherence[1, index] += abs(amount)
        else:
            for f in range(trace_indices.shape[1]):
                weights[trace_indices[slot, f]] += amount
        decay *= lam


@njit(cache=True)
def td_sequence(
    weights: np.ndarray,
    indices: np.ndarray,
    movers: np.ndarray,
    learning: np.ndarray,
    final: float,
    alpha: float,
    td: Td,
) -> float:
    """Online TD(lambda) over one game's unfinished afterstates ``indices[t]`` (made by
    ``movers[t]``), the game's result for the first player ``final`` after the last.  Only the
    afterstates with ``learning[t]`` enter the trace.  Returns the sum of the squared TD errors."""
    horizon = td.horizon
    steps, features = indices.shape
    trace_indices = np.empty((horizon, features), np.int64)
    trace_grads = np.zeros(horizon)
    head, length = -1, 0
    squared = 0.0
    for t in range(steps):
        v = value_of(weights, indices[t])
        w_now = v if movers[t] == 0 else 1.0 - v
        if learning[t]:
            head = (head + 1) % horizon
            trace_indices[head] = indices[t]
            trace_grads[head] = v * (1.0 - v) * (1.0 if movers[t] == 0 else -1.0)
            length = min(length + 1, horizon)
        elif length > 0:
            head = (head + 1) % horizon  # a step without gradient still ages the trace
            trace_grads[head] = 0.0
            trace_indices[head] = indices[t]
            length = min(length + 1, horizon)
        if t + 1 < steps:
            v_next = value_of(weights, indices[t + 1])
            w_next = v_next if movers[t + 1] == 0 else 1.0 - v_next
        else:
            w_next = final
        delta = w_next - w_now
        squared += delta * delta
        if length > 0:
            apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
    return squared


# Self-play -----------------------------------------------------------------------------------------


@njit(cache=True)
def self_play(
    games: int, seed: int, weights: np.ndarray, features: Features, rules: BoardRules, schedule: Schedule, td: Td
) -> np.ndarray:
    """Play ``games`` self-play games of ``rules``' game, learning online (see the module
    docstring).  Alpha and epsilon decay as ``schedule`` says; alpha is divided by the number of
    features.  Each game starts from (``rules.start_a``, ``rules.start_b``), the first player to
    move.  ``td``: lambda, the trace's horizon and temporal coherence learning's sums and exponent
    (see :func:`apply_trace`).  Returns (plies, TD updates, sum of squared TD errors).  Each
    child's features are read from its parent's (:func:`child_features`): the same indices as
    :func:`read_features` gives, and Teeko plays 1.7-1.9 times as many games a CPU second."""
    np.random.seed(seed)
    game, masks, neighbours, max_plies = rules.game, rules.masks, rules.neighbours, rules.max_plies
    horizon = td.horizon
    count_of_features = features.lengths.shape[0]
    child_a = np.empty(MAX_CHILDREN, np.int64)
    child_b = np.empty(MAX_CHILDREN, np.int64)
    child_result = np.empty(MAX_CHILDREN, np.int64)
    child_indices = np.empty((MAX_CHILDREN, count_of_features), np.int64)
    child_value = np.empty(MAX_CHILDREN)
    parent = np.empty(count_of_features, np.int64)
    trace_indices = np.empty((horizon, count_of_features), np.int64)
    trace_grads = np.zeros(horizon)
    plies_played, updates, squared = 0, 0, 0.0
    for g in range(games):
        decay = 0.5 ** ((schedule.games_before + g) / schedule.halflife)
        alpha = (schedule.alpha_floor + (schedule.alpha - schedule.alpha_floor) * decay) / count_of_features
        epsilon = schedule.epsilon_floor + (schedule.epsilon - schedule.epsilon_floor) * decay
        opening = np.random.randint(0, schedule.random_plies + 1)
        a, b, mover = rules.start_a, rules.start_b, 0
        head, length = -1, 0
        for ply in range(max_plies):
            count = afterstates(game, a, b, mover, masks, neighbours, child_a, child_b, child_result)
            if count == 0:
                break  # no move at all (cannot happen in these games): nothing more to learn
            own, other = (a, b) if mover == 0 else (b, a)
            parent_features(own, other, mover, features, parent)
            best, ties = 0, 0
            best_value = -1.0
            for i in range(count):
                if child_result[i] == WON:
                    child_value[i] = 1.0
                elif child_result[i] == DRAWN:
                    child_value[i] = 0.5
                else:
                    child_own, child_other = (child_a[i], child_b[i]) if mover == 0 else (child_b[i], child_a[i])
                    child_features(own, other, child_own, child_other, mover, parent, features, child_indices[i])
                    child_value[i] = value_of(weights, child_indices[i])
                if child_value[i] > best_value:
                    best, best_value, ties = i, child_value[i], 1
                elif child_value[i] == best_value:
                    ties += 1
                    if np.random.randint(0, ties) == 0:
                        best = i
            chosen = best
            if ply < opening or np.random.random() < epsilon:
                chosen = np.random.randint(0, count)
            if length > 0:  # the previous afterstate (the other side's) learns the greedy value
                target = best_value if mover == 0 else 1.0 - best_value
                v = value_of(weights, trace_indices[head])
                delta = target - (v if mover == 1 else 1.0 - v)
                apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
                squared += delta * delta
                updates += 1
            if child_value[chosen] != best_value:
                length = 0  # an exploring move: the greedy policy's trace ends here
            plies_played += 1
            a, b = child_a[chosen], child_b[chosen]
            if child_result[chosen] != ONGOING:
                break
            v = child_value[chosen]
            head = (head + 1) % horizon
            trace_indices[head] = child_indices[chosen]
            trace_grads[head] = v * (1.0 - v) * (1.0 if mover == 0 else -1.0)
            length = min(length + 1, horizon)
            if ply == max_plies - 1:  # the ply limit: a draw
                delta = 0.5 - (v if mover == 0 else 1.0 - v)
                apply_trace(weights, trace_indices, trace_grads, head, length, alpha * delta, td)
                squared += delta * delta
                updates += 1
            mover = 1 - mover
    out = np.empty(3)
    out[0], out[1], out[2] = plies_played, updates, squared
    return out
