"""The moving-phase heuristics of the thesis program (Despotović 1999).

In the order the original tries them: ``m4`` make4, ``a4`` avoid4, ``md3`` makedouble3, ``mnd3``
makenondefendable3, ``ad3`` avoiddouble3, ``and3`` avoidnondefendable3; failing all, ``rnd``, a
random move.  A success of m4 or a4 is a "killer", played at once.

Every heuristic is a list of patterns tried in the C's exact order; the first that matches and
can move a pawn wins.  A pattern is one row of an int table (``COLUMNS``):

* ``side``: 0 the mover's pawns, 1 the opponent's;
* ``p1 p2 p3``: cells that must hold that side's pawns (``p3`` -1 for three-cell patterns);
* ``empty``: the cell that must be empty (patternfor4/patternfor3's last cell);
* ``cond``: 0 none; 1 the opponent can reach ``target`` (avoid4's canplay, same keep cells);
  2 the opponent cannot reach ``g1`` or cannot reach ``g2`` (makedouble3's ends);
  3 the opponent cannot reach ``g1`` (makenondefendable3's guard);
* ``target`` and ``k1 k2 k3``: move-into(target, keep): if the target is empty, the first own
  pawn among its neighbours in scan order, skipping the keep cells, moves in.

The tables are built once per set of :class:`~.fixes.Fixes`, so each of the original's slips is a
different row, not a branch in the kernel: the row-0 keep cells the C never skipped (it tested
``x > 0``), 34/30 for 32 on the 10-43 and 14-41 lines, 00 for 04 in avoid4, makedouble3's
column guard on the off-board cell (5,4) (always empty here, as in the gcc build of the
reference traces) with 31 kept for 3j, and the square loops of the nondefendable-three
heuristics, which never run in the original (their loop starts from a leftover 5).

``heuristic_move(own, opp, table, bounds, alt_off_board)`` runs the six heuristics and returns
``(index, src, dst, off_board_reads, layout_sensitive)``; index 0..5 names the heuristic that
fired (``TAGS``), 6 means none did.  The last two count the reads of the off-board cell and how
many of them a back-to-back memory layout would have answered differently (reading cell 04 of
the last search result, ``alt_off_board``: 0 empty, 1 mover, 2 opponent); the batch trace
reports them as the reference traces do.

``random_move`` is the original's playrandom: draw a row and a column until the cell is empty
and has an own neighbour; the first in scan order moves in.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..jit import njit
from ..players.hangs import NoMoveError
from .board import FULL, NEIGHBOUR_LISTS, NEIGHBOUR_TABLE, OFF_BOARD, sq
from .fixes import Fixes
from .rng import RANDOM_MOVE, Draws

TAGS = ("m4", "a4", "md3", "mnd3", "ad3", "and3")
KILLERS = 2  # m4 and a4
NONE_FIRED = 6

COLUMNS = ("side", "p1", "p2", "p3", "empty", "cond", "g1", "g2", "target", "k1", "k2", "k3")
OWN, OPPONENT = 0, 1
NO_COND, CAN_REACH_TARGET, NOT_BOTH_ENDS, NOT_GUARD = 0, 1, 2, 3

Cell = tuple[int, int]

# The lines of four or five cells, in the orders the C tries them.
_DIAG_MAKE4 = [  # make4/avoid4: 01-34, 10-43, 00-44, 03-30, 14-41, 04-40
    [(0, 1), (1, 2), (2, 3), (3, 4)],
    [(1, 0), (2, 1), (3, 2), (4, 3)],
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
    [(0, 3), (1, 2), (2, 1), (3, 0)],
    [(1, 4), (2, 3), (3, 2), (4, 1)],
    [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)],
]
_DIAG_THREE = [  # makenondefendable3 and friends: 01-34, 00-44, 10-43, 03-30, 04-40, 14-41
    [(0, 1), (1, 2), (2, 3), (3, 4)],
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
    [(1, 0), (2, 1), (3, 2), (4, 3)],
    [(0, 3), (1, 2), (2, 1), (3, 0)],
    [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)],
    [(1, 4), (2, 3), (3, 2), (4, 1)],
]


class _Builder:
    def __init__(self, fixes: Fixes) -> None:
        self.fixes = fixes
        self.rows: list[list[int]] = []

    def add(
        self,
        side: int,
        pawns: list[Cell],
        empty: Cell,
        target: Cell,
        keep: list[Cell],
        cond: int = NO_COND,
        guards: list[Cell] | None = None,
    ) -> None:
        if not self.fixes.keep_row_zero:
            keep = [cell for cell in keep if cell[0] > 0]  # the C's test x>0 leaves out row 0
        cells = [sq(*c) for c in pawns] + [-1] * (3 - len(pawns))
        guard_cells = [sq(*g) for g in (guards or [])] + [-1] * (2 - len(guards or []))
        keeps = [sq(*k) for k in keep] + [-1] * (3 - len(keep))
        self.rows.append([side, *cells, sq(*empty), cond, *guard_cells, sq(*target), *keeps])

    def array(self) -> np.ndarray:
        return np.array(self.rows, dtype=np.int64).reshape(-1, len(COLUMNS))


def _row_line(i: int) -> list[Cell]:
    return [(i, c) for c in range(5)]


def _column_line(j: int) -> list[Cell]:
    return [(r, j) for r in range(5)]


def _four_patterns(line: list[Cell], fixes: Fixes) -> list[tuple[list[Cell], Cell, Cell, list[Cell]]]:
    """(pawns, empty, target, keep) of make4 on one line, in the C's order."""
    if len(line) == 5 and line[0][0] == line[-1][0] or len(line) == 5 and line[0][1] == line[-1][1]:
        a, b, c, d, e = line  # a row or a column: missing 3 (0-3), 1 (1-4), 0, 4, 1 (0-3), 2 (0-3), 3 (1-4), 2 (1-4)
        return [
            ([a, b, c], d, d, [c]),
            ([c, d, e], b, b, [c]),
            ([b, c, d], a, a, [b]),
            ([b, c, d], e, e, [d]),
            ([a, c, d], b, b, [a, c]),
            ([a, b, d], c, c, [b, d]),
            ([b, c, e], d, d, [c, e]),
            ([b, d, e], c, c, [b, d]),
        ]
    if len(line) == 4:
        a, b, c, d = line  # missing the last, first, third, then second cell
        third_target, second_pawn = c, c
        if not fixes.four_patterns_on_line and line[0] in ((1, 0), (1, 4)):
            # On 10-43 and 14-41 the C names 34 / 30 for 32 (Despotović 1999: "a field off their line").
            wrong = (3, 4) if line[0] == (1, 0) else (3, 0)
            third_target, second_pawn = wrong, wrong
        return [
            ([a, b, c], d, d, [c]),
            ([b, c, d], a, a, [b]),
            ([a, b, d], third_target, third_target, [b, d]),
            ([a, second_pawn, d], b, b, [a, second_pawn]),
        ]
    a, b, c, d, e = line  # 00-44 and 04-40: missing 33, 00, 11, 22, 44, 33, 22, 11 (and alike)
    stray_keep = a
    if line[0] == (0, 4) and not fixes.keep_04_on_anti_diagonal:
        stray_keep = (0, 0)  # the C keeps 00 where it means 04 (harmless: neither touches 22)
    return [
        ([a, b, c], d, d, [c]),
        ([b, c, d], a, a, [b]),
        ([a, c, d], b, b, [a, c]),
        ([a, b, d], c, c, [b, d, stray_keep]),
        ([b, c, d], e, e, [d]),
        ([b, c, e], d, d, [c, e]),
        ([b, d, e], c, c, [b, d]),
        ([c, d, e], b, b, [c]),
    ]


def _square_corners(i: int, j: int) -> tuple[Cell, Cell, Cell, Cell]:
    return (i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)


def _all_four_patterns(fixes: Fixes) -> list[tuple[list[Cell], Cell, Cell, list[Cell]]]:
    patterns = []
    for i in range(5):
        patterns += _four_patterns(_row_line(i), fixes)
    for j in range(5):
        patterns += _four_patterns(_column_line(j), fixes)
    for line in _DIAG_MAKE4:
        patterns += _four_patterns(line, fixes)
    for i in range(4):
        for j in range(4):
            a, b, c, d = _square_corners(i, j)  # missing D, C, B, A
            patterns += [
                ([a, b, c], d, d, [a, b, c]),
                ([a, b, d], c, c, [a, b, d]),
                ([a, c, d], b, b, [a, c, d]),
                ([b, c, d], a, a, [b, c, d]),
            ]
    return patterns


def _make4(fixes: Fixes) -> np.ndarray:
    builder = _Builder(fixes)
    for pawns, empty, target, keep in _all_four_patterns(fixes):
        builder.add(OWN, pawns, empty, target, keep)
    return builder.array()


def _avoid4(fixes: Fixes) -> np.ndarray:
    builder = _Builder(fixes)
    for pawns, empty, target, keep in _all_four_patterns(fixes):
        if not fixes.four_patterns_on_line and pawns == [(1, 3), (2, 2), (3, 1)] and target == (0, 4):
            empty = (0, 0)  # avoid4 tests 00 where it means 04 (Despotović 1999)
        builder.add(OPPONENT, pawns, empty, target, keep, cond=CAN_REACH_TARGET)
    return builder.array()


def _double3_lines() -> list[tuple[list[Cell], list[Cell]]]:
    """(middle three cells, the two ends) of makedouble3: rows, columns, 11-22-33, 13-22-31."""
    lines = [([(i, 1), (i, 2), (i, 3)], [(i, 0), (i, 4)]) for i in range(5)]
    lines += [([(1, j), (2, j), (3, j)], [(0, j), (4, j)]) for j in range(5)]
    lines += [([(1, 1), (2, 2), (3, 3)], [(0, 0), (4, 4)]), ([(1, 3), (2, 2), (3, 1)], [(0, 4), (4, 0)])]
    return lines


def _makedouble3(fixes: Fixes) -> np.ndarray:
    builder = _Builder(fixes)
    for index, ((a, b, c), ends) in enumerate(_double3_lines()):
        is_column = 5 <= index < 10
        builder.add(OWN, [a, b], c, c, [b], NOT_BOTH_ENDS, ends)
        builder.add(OWN, [b, c], a, a, [b], NOT_BOTH_ENDS, ends)
        if is_column and not fixes.double3_column_guard:
            # The C tests canplay(i,4) with i left at 5 by the row loop, and keeps 31 for 3j.
            builder.add(OWN, [a, c], b, b, [a, (3, 1)], NOT_BOTH_ENDS, [ends[0], (5, 4)])
        else:
            builder.add(OWN, [a, c], b, b, [a, c], NOT_BOTH_ENDS, ends)
    return builder.array()


def _windows() -> list[tuple[list[Cell], Cell]]:
    """(three-cell window, guard) of makenondefendable3: rows, columns, the diagonals, each end."""
    windows = []
    lines = [_row_line(i) for i in range(5)] + [_column_line(j) for j in range(5)] + _DIAG_THREE
    for line in lines:
        if len(line) == 5:
            windows += [(line[0:3], line[3]), (line[2:5], line[1])]
        else:
            windows += [(line[0:3], line[3]), (line[1:4], line[0])]
    return windows


def _square_threes(i: int, j: int) -> list[tuple[list[Cell], Cell, Cell]]:
    """(two own corners, target, guard): AB->C, AB->D, AC->B, AC->D, CD->A, CD->B, BD->A, BD->C."""
    a, b, c, d = _square_corners(i, j)
    return [
        ([a, b], c, d),
        ([a, b], d, c),
        ([a, c], b, d),
        ([a, c], d, b),
        ([c, d], a, b),
        ([c, d], b, a),
        ([b, d], a, c),
        ([b, d], c, a),
    ]


def _makenondefendable3(fixes: Fixes) -> np.ndarray:
    builder = _Builder(fixes)
    for (a, b, c), guard in _windows():
        builder.add(OWN, [a, b], c, c, [b], NOT_GUARD, [guard])
        builder.add(OWN, [b, c], a, a, [b], NOT_GUARD, [guard])
        builder.add(OWN, [a, c], b, b, [a, c], NOT_GUARD, [guard])
    if fixes.nondefendable3_squares:  # the original's loop never runs (it starts from a leftover 5)
        for i in range(4):
            for j in range(4):
                for pawns, target, guard in _square_threes(i, j):
                    builder.add(OWN, pawns, target, target, pawns, NOT_GUARD, [guard])
    return builder.array()


def _avoiddouble3(fixes: Fixes) -> np.ndarray:
    builder = _Builder(fixes)
    for (a, b, c), _ends in _double3_lines():
        builder.add(OPPONENT, [a, b], c, c, [])
        builder.add(OPPONENT, [b, c], a, a, [])
        builder.add(OPPONENT, [a, c], b, b, [])
    return builder.array()


def _avoidnondefendable3(fixes: Fixes) -> np.ndarray:
    builder = _Builder(fixes)
    for (a, b, c), _guard in _windows():
        builder.add(OPPONENT, [a, b], c, c, [])
        builder.add(OPPONENT, [b, c], a, a, [])
        builder.add(OPPONENT, [a, c], b, b, [])
    if fixes.nondefendable3_squares:
        for i in range(4):
            for j in range(4):
                for pawns, target, _guard in _square_threes(i, j):
                    builder.add(OPPONENT, pawns, target, target, [])
    return builder.array()


@cache
def tables(fixes: Fixes) -> tuple[np.ndarray, np.ndarray]:
    """All six heuristics' patterns in one table, and the bounds: heuristic h is rows bounds[h]..bounds[h+1]."""
    parts = [
        _make4(fixes),
        _avoid4(fixes),
        _makedouble3(fixes),
        _makenondefendable3(fixes),
        _avoiddouble3(fixes),
        _avoidnondefendable3(fixes),
    ]
    bounds = np.zeros(len(parts) + 1, dtype=np.int64)
    for h, part in enumerate(parts):
        bounds[h + 1] = bounds[h] + len(part)
    return np.ascontiguousarray(np.concatenate(parts)), bounds


@njit(cache=True)
def _cell(own: int, opp: int, cell: int) -> int:
    if cell >= 25:
        return 0  # the off-board cell reads empty (gcc's padding after X)
    if own >> cell & 1:
        return 1
    if opp >> cell & 1:
        return 2
    return 0


@njit(cache=True)
def _skipped(cell: int, row: np.ndarray) -> bool:
    return bool(cell == row[9] or cell == row[10] or cell == row[11])


@njit(cache=True)
def _can_reach(own: int, opp: int, target: int, who: int, row: np.ndarray, use_keep: bool) -> bool:
    if _cell(own, opp, target) == who:
        return True
    for n in range(8):
        nb = NEIGHBOUR_TABLE[target, n]
        if nb < 0:
            break
        if use_keep and _skipped(nb, row):
            continue
        if _cell(own, opp, nb) == who:
            return True
    return False


@njit(cache=True)
def _cells_match(own: int, opp: int, row: np.ndarray) -> bool:
    """The pattern's pawns ``p1 p2 p3`` are its side's and its ``empty`` cell is empty."""
    want = 1 if row[0] == OWN else 2
    if _cell(own, opp, row[1]) != want or _cell(own, opp, row[2]) != want:
        return False
    if row[3] >= 0 and _cell(own, opp, row[3]) != want:
        return False
    return bool(_cell(own, opp, row[4]) == 0)


@njit(cache=True)
def _condition_holds(own: int, opp: int, row: np.ndarray, alt_off_board: int) -> tuple[bool, int, int]:
    """Whether the pattern's ``cond`` holds, with the off-board reads it made and how many of them
    a back-to-back layout would have answered differently (``alt_off_board``, see the module)."""
    cond = row[5]
    if cond == CAN_REACH_TARGET:
        return _can_reach(own, opp, row[8], 2, row, True), 0, 0
    if cond == NOT_GUARD:
        return not _can_reach(own, opp, row[6], 2, row, False), 0, 0
    if cond != NOT_BOTH_ENDS or not _can_reach(own, opp, row[6], 2, row, False):
        return True, 0, 0
    # !canplay(g1) || !canplay(g2), evaluated left to right as in C: g1 is reachable, so g2 decides
    g2 = row[7]
    reach2 = _can_reach(own, opp, g2, 2, row, False)
    if g2 == OFF_BOARD:
        alt = alt_off_board == 2 or reach2
        return not reach2, 1, 1 if alt != reach2 else 0
    return not reach2, 0, 0


@njit(cache=True)
def _move_into(own: int, opp: int, row: np.ndarray) -> int:
    """move-into(target, keep): if ``target`` is empty, the first own pawn among its neighbours in
    scan order, skipping the keep cells; -1 if none."""
    target = row[8]
    if _cell(own, opp, target) != 0:
        return -1
    for n in range(8):
        nb = NEIGHBOUR_TABLE[target, n]
        if nb < 0:
            break
        if _skipped(nb, row):
            continue
        if own >> nb & 1:
            return int(nb)
    return -1


@njit(cache=True)
def heuristic_move(
    own: int, opp: int, table: np.ndarray, bounds: np.ndarray, alt_off_board: int
) -> tuple[int, int, int, int, int]:
    off_reads = 0
    sensitive = 0
    for h in range(6):
        for r in range(bounds[h], bounds[h + 1]):
            row = table[r]
            if not _cells_match(own, opp, row):
                continue
            holds, reads, differs = _condition_holds(own, opp, row, alt_off_board)
            off_reads += reads
            sensitive += differs
            if not holds:
                continue
            src = _move_into(own, opp, row)
            if src >= 0:
                return h, src, row[8], off_reads, sensitive
    return NONE_FIRED, -1, -1, off_reads, sensitive


def has_move(own: int, opp: int) -> bool:
    empty = FULL & ~(own | opp)
    bits = own
    while bits:
        low = bits & -bits
        bits ^= low
        for dst in NEIGHBOUR_LISTS[low.bit_length() - 1]:
            if empty >> dst & 1:
                return True
    return False


def random_move(own: int, opp: int, draws: Draws) -> tuple[int, int]:
    """playrandom: a row, then a column, until the cell is empty with an own neighbour."""
    if not has_move(own, opp):
        raise NoMoveError("the side to move has no move: the original's random move would never end")
    occupied = own | opp
    while True:
        row = draws.draw(RANDOM_MOVE, 5)
        column = draws.draw(RANDOM_MOVE, 5)
        target = 5 * row + column
        if occupied >> target & 1:
            continue
        for nb in NEIGHBOUR_LISTS[target]:
            if own >> nb & 1:
                return nb, target


__all__ = ["TAGS", "KILLERS", "NONE_FIRED", "tables", "heuristic_move", "random_move", "NoMoveError", "OFF_BOARD"]
