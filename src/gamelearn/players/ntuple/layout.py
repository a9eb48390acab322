"""The n-tuples of the ``ntuple`` learner, per game, and how a position becomes the two bitboards
its kernels read (:mod:`.kernels`).

An n-tuple (Lucas 2008) is a fixed, ordered set of squares.  Each square holds one of three
things *from the view of the side that has just moved*: 0 empty, 1 its own piece, 2 the other
side's.  A tuple of ``n`` squares therefore reads a number in ``0 .. 3**n - 1``, the index of one
weight in that tuple's table, and the value of a position is the sum of the weights its tuples
read, squashed by the logistic function into ``0..1`` (the chance, as learnt, that the side that
moved wins; a draw counts one half).

Weights are shared across the game's symmetries: every tuple is read on every symmetric image of
the position (8 for the square boards, 2 for hexapawn, whose only symmetry is the mirror), so only
one tuple per orbit is kept, and a position and its images have the same value by construction.
For hexapawn the second player's boards are also turned upside down, so that both sides' pawns
run up the board and one table serves both.

The layouts (the tuples are chosen by hand, as Lucas 2008 did for Othello, not at random as
Thill et al. 2014 did for Connect-4):

* tic-tac-toe: the three kinds of line (an edge row, the middle row, a diagonal), a corner 2x2
  and the whole board (3**9 = 19,683 weights: with symmetry sharing, a table of every position);
* hexapawn: the whole board (hexapawn has 135 positions);
* Teeko (``teeko-snakes12-v1``): three rows (an edge, the next, the middle), the long and a short
  diagonal, the three kinds of 2x2 and 3x3 window (corner, edge, centre), two strips of two rows,
  the two kinds of 3x4 window (corner, middle) and ten snakes of 12 squares (:data:`SNAKES12`);
  one set of weights for the placing phase and one for the moving phase: 13.1 million weights.
  The same without the snakes (``teeko-wide-v1``, 2.5 million), without the 3x4 windows too
  (``teeko-windows-v1``), and three layouts with shorter random snakes stay known, so that
  weights learnt with them still load (:data:`KNOWN_LAYOUTS`);
* Connect Four on 7x6 (``connect4-snakes70-sides-v1``): the 70 random snakes of 8 squares of Thill, Koch
  & Konen (PPSN 2012) and Thill, Bagheri, Koch & Konen (CIG 2014) (:data:`.snakes.CONNECT4_SNAKES70`), whose
  cells have four states, not three: empty and playable now (a disc would land there), empty and
  not yet playable, X and O, read as they are (not from the mover's view), the value being the first
  player's (:mod:`.connect4`); one set of weights for the positions the first player has just
  made and one for the second's, as GBG keeps a table per player (Konen 2019): 2 x 70 x 4**8 =
  9.2 million weights.  The same with one set (``connect4-snakes70-v1``) stays known.  Connect
  Four's other sizes read the layout their board gives (:func:`board_layout`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from ...games import Game
from ...games import teeko as teeko_rules
from ...games import tictactoe as tictactoe_rules
from .snakes import CONNECT4_SNAKES70

#: The game numbers the kernels switch on.
GAME_IDS = {"tictactoe": 0, "hexapawn": 1, "teeko": 2}
#: Most afterstates a position has (Teeko: 4 pawns x 8 steps).
MAX_CHILDREN = 32


def _window(top: int, left: int, height: int, width: int, size: int = 5) -> tuple[int, ...]:
    return tuple((top + r) * size + left + c for r in range(height) for c in range(width))


@dataclass(frozen=True)
class Layout:
    """One game's tuples and weight sets; ``name`` identifies it in a learner's knowledge."""

    game: str
    name: str
    squares: int
    tuples: tuple[tuple[int, ...], ...]
    #: phase_of[pieces on the board]: the weight set a position reads.
    phase_of: tuple[int, ...]
    #: The second player's view of the board (hexapawn: upside down), or None: the board as it is.
    flip: tuple[int, ...] | None = None
    #: Self-play games stop as a draw after this many plies (Teeko can go on for ever).
    max_plies: int = 9
    #: What a square can hold: 3 (empty, the mover's, the other side's), or 4 for Connect Four's
    #: cells (empty and playable now, empty and not yet playable, X, O: :mod:`.connect4`).
    states: int = 3
    #: The board's (rows, columns) where the layout is one size's only (Connect Four's), else None.
    shape: tuple[int, int] | None = None

    @property
    def phases(self) -> int:
        return max(self.phase_of) + 1

    @cached_property
    def per_phase(self) -> int:
        return sum(self.states ** len(t) for t in self.tuples)

    @property
    def weight_count(self) -> int:
        return self.phases * self.per_phase

    @cached_property
    def tuple_offsets(self) -> tuple[int, ...]:
        offsets, total = [], 0
        for t in self.tuples:
            offsets.append(total)
            total += self.states ** len(t)
        return tuple(offsets)


#: Random "snakes" of 8 squares on the 5x5 board, each a walk of king steps that visits no square
#: twice (Thill, Bagheri, Koch & Konen 2014 train Connect-4 on such random walks), no two alike under
#: the board's symmetries; drawn once with ``random.Random(2014)`` and written down, so that the
#: layout never changes with a library's random numbers.
SNAKES = (
    (10, 16, 17, 12, 8, 3, 9, 13),
    (22, 21, 15, 20, 16, 11, 17, 23),
    (5, 10, 11, 12, 6, 0, 1, 2),
    (20, 15, 16, 22, 23, 24, 19, 18),
    (15, 20, 21, 22, 16, 10, 11, 5),
    (6, 5, 0, 1, 7, 8, 12, 13),
    (18, 14, 8, 3, 4, 9, 13, 7),
    (0, 1, 2, 3, 4, 9, 8, 12),
    (13, 8, 14, 19, 23, 17, 22, 18),
    (7, 12, 16, 17, 21, 15, 11, 6),
    (14, 13, 7, 3, 8, 2, 1, 5),
    (11, 12, 13, 19, 24, 23, 22, 18),
    (11, 5, 10, 15, 16, 22, 17, 13),
    (6, 1, 5, 10, 15, 16, 11, 7),
    (16, 20, 15, 11, 7, 1, 2, 3),
    (7, 8, 4, 9, 13, 14, 18, 24),
    (20, 15, 21, 17, 13, 7, 6, 5),
    (10, 5, 6, 2, 8, 13, 14, 9),
    (20, 15, 10, 16, 12, 18, 24, 23),
    (11, 12, 18, 13, 9, 3, 7, 8),
    (23, 17, 13, 12, 8, 4, 3, 2),
    (6, 11, 7, 2, 1, 5, 10, 15),
    (23, 22, 17, 13, 9, 3, 4, 8),
    (23, 24, 19, 18, 12, 11, 5, 6),
)

#: Longer snakes, of 12 squares, for ``teeko-snakes12-v1``: king walks drawn with ``random.Random(7)``
#: (a start square, then a free neighbour at each step, a walk that sticks drawn again) and
#: written down.
SNAKES12 = (
    (11, 5, 1, 0, 6, 12, 16, 10, 15, 20, 21, 17),
    (18, 13, 8, 12, 17, 11, 15, 21, 16, 10, 5, 6),
    (4, 8, 9, 3, 2, 7, 11, 15, 16, 10, 5, 1),
    (14, 19, 24, 23, 18, 13, 8, 12, 7, 1, 5, 11),
    (10, 15, 20, 16, 11, 17, 21, 22, 23, 18, 19, 14),
    (1, 0, 6, 7, 13, 12, 18, 22, 23, 17, 11, 15),
    (22, 21, 17, 11, 10, 15, 16, 12, 13, 7, 2, 6),
    (4, 9, 8, 12, 13, 18, 14, 19, 24, 23, 22, 16),
    (13, 14, 19, 23, 24, 18, 12, 6, 1, 2, 3, 7),
    (13, 17, 21, 20, 15, 16, 10, 6, 12, 18, 23, 22),
)

TEEKO_WINDOWS = (
    _window(0, 0, 1, 5),
    _window(1, 0, 1, 5),
    _window(2, 0, 1, 5),
    (0, 6, 12, 18, 24),
    (1, 7, 13, 19),
    _window(0, 0, 2, 2),
    _window(0, 1, 2, 2),
    _window(1, 1, 2, 2),
    _window(0, 0, 3, 3),
    _window(0, 1, 3, 3),
    _window(1, 1, 3, 3),
    _window(0, 0, 2, 5),
    _window(1, 0, 2, 5),
)
TEEKO_WIDE = (_window(0, 0, 3, 4), _window(1, 0, 3, 4))
TEEKO_PHASES = (0,) * 8 + (1,) * 18  # fewer than 8 pawns down: placing; 8: moving


LAYOUTS: dict[str, Layout] = {
    "tictactoe": Layout(
        "tictactoe",
        "tictactoe-lines-v1",
        9,
        ((0, 1, 2), (3, 4, 5), (0, 4, 8), (0, 1, 3, 4), tuple(range(9))),
        (0,) * 10,
        max_plies=9,
    ),
    "hexapawn": Layout(
        "hexapawn",
        "hexapawn-board-v1",
        9,
        (tuple(range(9)),),
        (0,) * 10,
        flip=(6, 7, 8, 3, 4, 5, 0, 1, 2),
        max_plies=16,
    ),
    # the windows, two kinds of 3x4 window (corner, middle) and ten 12-square snakes (3**12 =
    # 531,441 weights each); its raw network leads teeko-wide-v1's from 30 CPU minutes of self-play
    # on (docs/ntuple.md, "The larger layout's hour")
    "teeko": Layout(
        "teeko", "teeko-snakes12-v1", 25, TEEKO_WINDOWS + TEEKO_WIDE + SNAKES12, TEEKO_PHASES, max_plies=120
    ),
    # 7x6 only (``shape``); each square one of 4 states, the first player's value (:mod:`.connect4`),
    # each tuple read on the board and on its mirror image; two weight sets, one for the positions
    # the first player has just made (an odd number of discs down) and one for the second's: no
    # tuple of 8 squares sees who moves next, which decides what a row of three means.  2 x 70 x
    # 4**8 = 9,175,040 weights; with one set (``connect4-snakes70-v1``) the raw network kept 76.6%
    # of connect4-val-v1 after 600 CPU s of self-play, with two 82-84% (docs/ntuple.md)
    "connect4": Layout(
        "connect4",
        "connect4-snakes70-sides-v1",
        42,
        CONNECT4_SNAKES70,
        tuple(discs % 2 for discs in range(43)),
        max_plies=42,
        states=4,
        shape=(6, 7),
    ),
}

#: Every layout a kept learner may have been trained with, by name: the games' defaults and the
#: others, so that weights learnt with an older default still load and play.
KNOWN_LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in LAYOUTS.values()}
for _layout in (
    Layout("connect4", "connect4-snakes70-v1", 42, CONNECT4_SNAKES70, (0,) * 43, max_plies=42, states=4, shape=(6, 7)),
    Layout("teeko", "teeko-snakes-v1", 25, TEEKO_WINDOWS + SNAKES[:12], TEEKO_PHASES, max_plies=120),
    Layout("teeko", "teeko-snakes24-v1", 25, TEEKO_WINDOWS + SNAKES, TEEKO_PHASES, max_plies=120),
    Layout("teeko", "teeko-windows-v1", 25, TEEKO_WINDOWS, TEEKO_PHASES, max_plies=120),
    Layout("teeko", "teeko-wide-v1", 25, TEEKO_WINDOWS + TEEKO_WIDE, TEEKO_PHASES, max_plies=120),
):
    KNOWN_LAYOUTS[_layout.name] = _layout


def board_layout(game: Game[Any]) -> Layout:
    """The tuples of a game with no layout of its own, from its facts' rows and columns: every row
    and column (cut into pieces of at most 9 squares), both diagonals of a square board, every 2x2
    window, every 3x3 window, and every strip of two adjacent rows (columns) of at most 8 squares;
    the whole board where it has at most 9 squares.  Tuples of more than 9 squares are cut, so no
    table exceeds 3**9 weights.  Named ``NAME-board-RxC-v1`` and kept in :data:`KNOWN_LAYOUTS`."""
    rows, columns = game.facts.rows, game.facts.columns
    name = f"{game.name}-board-{rows}x{columns}-v1"
    if name in KNOWN_LAYOUTS:
        return KNOWN_LAYOUTS[name]
    found: list[tuple[int, ...]] = []

    def add(cells: tuple[int, ...]) -> None:
        for start in range(0, len(cells), 9):
            piece = cells[start : start + 9]
            if len(piece) > 1 and piece not in found:
                found.append(piece)

    if rows * columns <= 9:
        add(tuple(range(rows * columns)))
    for r in range(rows):
        add(_window(r, 0, 1, columns, columns))
    for c in range(columns):
        add(tuple(r * columns + c for r in range(rows)))
    if rows == columns:
        add(tuple(k * columns + k for k in range(rows)))
        add(tuple(k * columns + columns - 1 - k for k in range(rows)))
    for height, width in ((2, 2), (3, 3)):
        for top in range(rows - height + 1):
            for left in range(columns - width + 1):
                add(_window(top, left, height, width, columns))
    if 2 * columns <= 8:
        for top in range(rows - 1):
            add(_window(top, 0, 2, columns, columns))
    if 2 * rows <= 8:
        for left in range(columns - 1):
            add(_window(0, left, rows, 2, columns))
    if not found:
        raise ValueError(f"ntuple needs a board of at least 2 squares; {game.name} has {rows}x{columns}")
    plies = 1000 if not game.facts.can_cycle else 200
    layout = Layout(
        game.name,
        name,
        rows * columns,
        tuple(found),
        (0,) * (rows * columns + 1),
        max_plies=plies,
        shape=(rows, columns),
    )
    KNOWN_LAYOUTS[name] = layout
    return layout


def fits(layout: Layout, game: Game[Any]) -> bool:
    """Whether ``layout`` reads ``game``'s board: the same game and, for a layout of one size, that size."""
    shape = (game.facts.rows, game.facts.columns)
    return layout.game == game.name and (layout.shape is None or layout.shape == shape)


def default_layout(game: Game[Any]) -> Layout:
    """The game's own layout (:data:`LAYOUTS`) where it fits the board, else the one its board gives
    (:func:`board_layout`: Connect Four's other sizes)."""
    own = LAYOUTS.get(game.name)
    return own if own is not None and fits(own, game) else board_layout(game)


def layout_named(game: Game[Any], name: str) -> Layout:
    """The layout called ``name`` for ``game``; ValueError naming the known ones."""
    layout = KNOWN_LAYOUTS.get(name)
    if layout is None or not fits(layout, game):
        known = ", ".join(n for n, known in KNOWN_LAYOUTS.items() if fits(known, game))
        raise ValueError(f"ntuple has no layout {name!r} for {game.spec} (known: {known})")
    return layout


class Features(NamedTuple):
    """The layout compiled for the kernels: feature ``f = g * T + t`` is tuple ``t`` read on
    symmetric image ``g``; ``squares[m, f, k]`` the square of the board (as it is) whose content
    tuple position ``k`` reads when side ``m`` has just moved.  A named tuple of arrays, which the
    compiled kernels take whole."""

    squares: np.ndarray  # int64 (2, F, L), -1 past a tuple's end
    lengths: np.ndarray  # int64 (F,)
    offsets: np.ndarray  # int64 (F,): where the tuple's table starts in a weight set
    phase_base: np.ndarray  # int64 (pieces + 1,): where each position's weight set starts
    #: squares[m] turned round, for reading a child from its parent: the features that read square
    #: ``s`` when side ``m`` has just moved are ``touches_feature[m, j]`` for ``j`` in
    #: ``touches_start[m, s] .. touches_start[m, s + 1] - 1``, each at place value ``touches_scale[m, j]``
    touches_start: np.ndarray  # int64 (2, squares + 1)
    touches_feature: np.ndarray  # int64 (2, cells of all features)
    touches_scale: np.ndarray  # int64 (2, cells of all features)


def compile_features(layout: Layout, symmetries: tuple[tuple[int, ...], ...]) -> Features:
    """Image ``g`` of the (second player's: flipped) board holds at square ``c`` what the board held
    at ``inverse_g[c]``; so tuple position ``k`` reads square ``flip[inverse_g[tuple[k]]]``."""
    inverses = []
    for perm in symmetries:
        inverse = [0] * len(perm)
        for square, image in enumerate(perm):
            inverse[image] = square
        inverses.append(inverse)
    flip = layout.flip or tuple(range(layout.squares))
    longest = max(len(t) for t in layout.tuples)
    count = len(symmetries) * len(layout.tuples)
    squares = np.full((2, count, longest), -1, np.int64)
    lengths = np.zeros(count, np.int64)
    offsets = np.zeros(count, np.int64)
    for g, inverse in enumerate(inverses):
        for t, cells in enumerate(layout.tuples):
            f = g * len(layout.tuples) + t
            lengths[f], offsets[f] = len(cells), layout.tuple_offsets[t]
            for k, cell in enumerate(cells):
                squares[0, f, k] = inverse[cell]
                squares[1, f, k] = flip[inverse[cell]]
    phase_base = np.array([phase * layout.per_phase for phase in layout.phase_of], np.int64)
    return Features(squares, lengths, offsets, phase_base, *touches(squares, lengths, layout.squares, layout.states))


def touches(
    squares: np.ndarray, lengths: np.ndarray, board: int, states: int = 3
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each side and square, the features that read the square and the place value
    (``states**k``) at which each reads it, grouped by square (see :class:`Features`)."""
    cells = int(lengths.sum())
    start = np.zeros((2, board + 1), np.int64)
    feature = np.zeros((2, cells), np.int64)
    scale = np.zeros((2, cells), np.int64)
    for mover in range(2):
        by_square: list[list[tuple[int, int]]] = [[] for _ in range(board)]
        for f, length in enumerate(lengths):
            for k in range(int(length)):
                by_square[int(squares[mover, f, k])].append((f, states**k))
        j = 0
        for square, readers in enumerate(by_square):
            start[mover, square] = j
            for f, place in readers:
                feature[mover, j], scale[mover, j] = f, place
                j += 1
        start[mover, board] = j
    return start, feature, scale


def win_masks(game: Game[Any]) -> np.ndarray:
    """The sets of squares that win, for the kernels (hexapawn has none: it wins otherwise)."""
    if game.name == "teeko":
        return np.array(teeko_rules.WIN_MASKS, np.int64)
    if game.name == "tictactoe":
        return np.array(tictactoe_rules.LINES, np.int64)
    return np.zeros(1, np.int64)


def neighbours(game: Game[Any]) -> np.ndarray:
    if game.name == "teeko":
        return np.array(teeko_rules.NEIGHBOURS, np.int64)
    return np.zeros(1, np.int64)


_HEXAPAWN_BITS: dict[str, tuple[int, int]] = {}
_BOARD_BITS: dict[tuple[str, str], tuple[int, int]] = {}


def board_pieces(game: Game[Any], state: Hashable) -> tuple[int, int]:
    """The squares of the first and the second player's symbol on ``game.board(state)``, as bitboards."""
    board = game.board(state)
    key = (game.name, board)
    known = _BOARD_BITS.get(key)
    if known is None:
        first, second = game.symbols
        known = (
            sum(1 << sq for sq, ch in enumerate(board) if ch == first),
            sum(1 << sq for sq, ch in enumerate(board) if ch == second),
        )
        if len(_BOARD_BITS) < 2_000_000:  # a large game's boards are worked out again, not kept for ever
            _BOARD_BITS[key] = known
    return known


def pieces(game: Game[Any], state: Hashable) -> tuple[int, int]:
    """The first and the second player's pieces as bitboards (square i is bit i)."""
    if game.name not in GAME_IDS:
        return board_pieces(game, state)
    if game.name == "hexapawn":
        board = game.board(state)
        known = _HEXAPAWN_BITS.get(board)
        if known is None:
            white = sum(1 << sq for sq, ch in enumerate(board) if ch == "W")
            black = sum(1 << sq for sq, ch in enumerate(board) if ch == "B")
            known = _HEXAPAWN_BITS[board] = (white, black)
        return known
    return int(state[0]), int(state[1])  # type: ignore[index]  # tic-tac-toe (x, o), Teeko (x, o, to_move)
