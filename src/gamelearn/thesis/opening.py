"""The placement heuristics of the thesis program (plies 1-8; Despotović 1999).

By the thesis ply ``n`` of the pawn to put down:

* 1-2 (``move1``): 22 if free; else a random free cell of 11/13/31/33 (``o:corner``); if all four
  are taken, of 12/21/23/32 (``o:cross``);
* 3 (``omake2``): with 22 own, ``o:corner``; else if (11 or 33 own and 13 or 31 free) or
  (13 or 31 own and 11 or 33 free), the coin-flip diagonal completion ``o:hv``; else ``o:cross``;
* 4: block-three (``o:avoid3``), else ply 3's rule; 5: make-three (``o:make3``), else ply 4's;
  6: block-four (``o:avoid4``), else ply 5's; 7-8: make-four (``o:make4``), else ply 6's.

The C's make-four and block-four know two patterns a row or column (cells 0-2 held, target 3;
cells 2-4 held, target 1), the same on the diagonals, and the 2x2 squares: a four completed on an
end cell, three on cells 1-3, or a gap inside the line are never tried.  Fixed mode (fix 15) then
tries every goal of the form being played (``goals``, the game's own list) with three held and the
fourth cell free, in the list's order, so a position the C's patterns handle plays as in the original.

The random picks draw ``value mod 4`` (13, 11, 33, 31 or 12, 21, 23, 32) until the cell is free;
the coin draws once, before any test.  When all four cells of a pick are taken the original never
stops: original mode raises :class:`OpeningHang`, fixed mode (fix 11) takes a random free cell
anywhere (a random row, then column, until free; drawn at site ``oplayany``).

Placement never depends on a side's h/s/l switches.  ``place(own, opp, n, draws, fixes, goals)``
returns ``(square, tag)``.
"""

from __future__ import annotations

from ..games.teeko import WIN_MASKS
from ..players.hangs import OpeningHang
from .board import FULL, sq
from .fixes import Fixes
from .rng import COIN, CORNER, CROSS, Draws

ANY = "oplayany"

CORNER_CELLS = (sq(1, 3), sq(1, 1), sq(3, 3), sq(3, 1))  # value mod 4 -> 13, 11, 33, 31
CROSS_CELLS = (sq(1, 2), sq(2, 1), sq(2, 3), sq(3, 2))  # value mod 4 -> 12, 21, 23, 32
MIDDLE = sq(2, 2)


def _free(own: int, opp: int, cell: int) -> bool:
    return not ((own | opp) >> cell & 1)


def _pick(
    own: int, opp: int, cells: tuple[int, ...], site: str, tag: str, draws: Draws, fixes: Fixes
) -> tuple[int, str]:
    if not any(_free(own, opp, c) for c in cells):
        if not fixes.opening_fallback:
            names = "/".join(f"{c // 5}{c % 5}" for c in sorted(cells))
            raise OpeningHang(f"the original's opening loops for ever: {names} are all taken ({site})")
        while True:  # fix 11: a random free cell anywhere
            cell = 5 * draws.draw(ANY, 5) + draws.draw(ANY, 5)
            if _free(own, opp, cell):
                return cell, "o:any"
    while True:
        cell = cells[draws.draw(site, 4)]
        if _free(own, opp, cell):
            return cell, tag


def _corner(own: int, opp: int, draws: Draws, fixes: Fixes) -> tuple[int, str]:
    return _pick(own, opp, CORNER_CELLS, CORNER, "o:corner", draws, fixes)


def _cross(own: int, opp: int, draws: Draws, fixes: Fixes) -> tuple[int, str]:
    return _pick(own, opp, CROSS_CELLS, CROSS, "o:cross", draws, fixes)


def _mine(own: int, r: int, c: int) -> bool:
    return bool(own >> sq(r, c) & 1)


def _move1(own: int, opp: int, draws: Draws, fixes: Fixes) -> tuple[int, str]:
    if _free(own, opp, MIDDLE):
        return MIDDLE, "o:mid"
    if any(_free(own, opp, c) for c in CORNER_CELLS):
        return _corner(own, opp, draws, fixes)
    return _cross(own, opp, draws, fixes)


def _hv(own: int, opp: int, draws: Draws) -> int | None:
    coin = draws.draw(COIN, 2)  # drawn before any test, even when the second branch places
    c11, c13, c31, c33 = sq(1, 1), sq(1, 3), sq(3, 1), sq(3, 3)
    if own >> c11 & 1 or own >> c33 & 1:
        for cell in (c13, c31) if coin == 0 else (c31, c13):
            if _free(own, opp, cell):
                return cell
    if own >> c13 & 1 or own >> c31 & 1:
        for cell in (c11, c33) if coin == 0 else (c33, c11):
            if _free(own, opp, cell):
                return cell
    return None


def _move3(own: int, opp: int, draws: Draws, fixes: Fixes) -> tuple[int, str]:
    if _mine(own, 2, 2):
        return _corner(own, opp, draws, fixes)
    c11, c13, c31, c33 = sq(1, 1), sq(1, 3), sq(3, 1), sq(3, 3)
    diag_own = bool(own >> c11 & 1 or own >> c33 & 1)
    anti_own = bool(own >> c13 & 1 or own >> c31 & 1)
    if (diag_own and (_free(own, opp, c13) or _free(own, opp, c31))) or (
        anti_own and (_free(own, opp, c11) or _free(own, opp, c33))
    ):
        cell = _hv(own, opp, draws)
        if cell is not None:  # always placed, given the test above
            return cell, "o:hv"
    return _cross(own, opp, draws, fixes)


def _block_three(own: int, opp: int) -> int | None:
    """oavoid3: the opponent holds two of cells 1-3 of a line and the third is empty."""

    def theirs(r: int, c: int) -> bool:
        return bool(opp >> sq(r, c) & 1)

    for i in range(5):
        for a, b, t in ((1, 2, 3), (2, 3, 1), (1, 3, 2)):
            if theirs(i, a) and theirs(i, b) and _free(own, opp, sq(i, t)):
                return sq(i, t)
    for j in range(5):
        for a, b, t in ((1, 2, 3), (2, 3, 1), (1, 3, 2)):
            if theirs(a, j) and theirs(b, j) and _free(own, opp, sq(t, j)):
                return sq(t, j)
    for p, q, r in (
        ((1, 1), (2, 2), (3, 3)),
        ((2, 2), (3, 3), (1, 1)),
        ((1, 3), (2, 2), (3, 1)),
        ((3, 1), (2, 2), (1, 3)),
    ):
        if theirs(*p) and theirs(*q) and _free(own, opp, sq(*r)):
            return sq(*r)
    return None


# omake3's patterns in the C's order: (held, held, empty, where the pawn goes).
_MAKE3 = (
    ((1, 1), (1, 2), (1, 3)),
    ((1, 2), (1, 3), (1, 1)),
    ((1, 1), (1, 3), (1, 2)),
    ((2, 1), (2, 2), (2, 3)),
    ((2, 2), (2, 3), (2, 1)),
    ((2, 3), (2, 1), (2, 2)),
    ((3, 1), (3, 2), (3, 3)),
    ((3, 2), (3, 3), (3, 1)),
    ((3, 1), (3, 3), (3, 2)),
    ((1, 1), (2, 1), (3, 1)),
    ((2, 1), (3, 1), (1, 1)),
    ((1, 1), (3, 1), (2, 1)),
    ((1, 2), (2, 2), (3, 2)),
    ((1, 2), (3, 2), (2, 2)),
    ((2, 2), (3, 2), (1, 2)),
    ((1, 3), (2, 3), (3, 3)),
    ((1, 3), (3, 3), (2, 3)),
    ((2, 3), (3, 3), (1, 3)),
    ((1, 1), (2, 2), (3, 3)),
    ((2, 2), (3, 3), (1, 1)),
    ((1, 3), (2, 2), (3, 1)),
    ((3, 1), (2, 2), (1, 3)),
)


def _make_three(own: int, opp: int, fixes: Fixes) -> int | None:
    for a, b, t in _MAKE3:
        if _mine(own, *a) and _mine(own, *b) and _free(own, opp, sq(*t)):
            if t == (2, 2) and a == (2, 3) and not fixes.make3_uses_22:
                # The C tests 22 but puts the pawn on 12 (unreachable: 22 is taken by ply 2).
                if not _free(own, opp, sq(1, 2)):
                    raise OpeningHang("the original's make-three would overwrite the pawn on 12")
                return sq(1, 2)
            return sq(*t)
    return None


Cell = tuple[int, int]  # (row, column)


def _four_lines() -> list[tuple[Cell, ...]]:
    """(cells, then the target) of block-four / make-four, in the C's order, before squares."""
    out: list[tuple[tuple[int, int], ...]] = []
    for i in range(5):
        out += [((i, 0), (i, 1), (i, 2), (i, 3)), ((i, 2), (i, 3), (i, 4), (i, 1))]
    for j in range(5):
        out += [((0, j), (1, j), (2, j), (3, j)), ((2, j), (3, j), (4, j), (1, j))]
    return out


_DIAGONAL_FOURS = (
    ((0, 1), (1, 2), (2, 3), (3, 4)),
    ((3, 4), (1, 2), (2, 3), (0, 1)),
    ((0, 0), (1, 1), (2, 2), (3, 3)),
    ((2, 2), (3, 3), (4, 4), (1, 1)),
    ((1, 0), (2, 1), (3, 2), (4, 3)),
    ((2, 1), (3, 2), (4, 3), (1, 0)),
    ((0, 3), (1, 2), (2, 1), (3, 0)),
    ((3, 0), (1, 2), (2, 1), (0, 3)),
    ((0, 4), (1, 3), (2, 2), (3, 1)),
    ((2, 2), (3, 1), (4, 0), (1, 3)),
    ((1, 4), (2, 3), (3, 2), (4, 1)),
    ((2, 3), (3, 2), (4, 1), (1, 4)),
)


#: The diagonal patterns after which omake4 also tries the long diagonals' ends: after pattern 3
#: (the middle of the main diagonal held) its corners, after pattern 9 those of the other.
_DIAGONAL_ENDS = {
    3: (((1, 1), (2, 2), (3, 3)), ((0, 0), (4, 4))),
    9: (((1, 3), (2, 2), (3, 1)), ((0, 4), (4, 0))),
}


def _patterns(make: bool) -> list[tuple[tuple[Cell, ...], Cell]]:
    """oavoid4's (``make`` False) or omake4's patterns in the C's order, each (three cells, the
    fourth): the rows and columns, the diagonals (omake4 also filling a long diagonal's end), then
    the 2x2 squares, row-major by their top-left cell, each missing D, B, A, then C."""
    out: list[tuple[tuple[Cell, ...], Cell]] = [((a, b, c), t) for a, b, c, t in _four_lines()]
    for index, (a, b, c, t) in enumerate(_DIAGONAL_FOURS):
        out.append(((a, b, c), t))
        if make and index in _DIAGONAL_ENDS:
            middle, ends = _DIAGONAL_ENDS[index]
            out += [(middle, end) for end in ends]
    for i in range(4):
        for j in range(4):
            A, B, C, D = (i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)
            out += [((x, y, z), t) for x, y, z, t in ((A, C, B, D), (A, C, D, B), (D, C, B, A), (A, D, B, C))]
    return out


#: The patterns as (mask of the three cells, the fourth's square), worked out once: every
#: placement ply of a batch game walks them.
_PATTERN_MASKS = {
    make: tuple((sum(1 << sq(*cell) for cell in three), sq(*fourth)) for three, fourth in _patterns(make))
    for make in (False, True)
}


def _four_placement(held: int, own: int, opp: int, make: bool) -> int | None:
    """oavoid4 (``held`` = opponent) or omake4 (``held`` = own): the fourth cell of the first
    pattern of which ``held`` has the three cells and the fourth is empty."""
    occupied = own | opp
    for three, fourth in _PATTERN_MASKS[make]:
        if held & three == three and not occupied >> fourth & 1:
            return fourth
    return None


def _goal_placement(held: int, own: int, opp: int, goals: tuple[int, ...]) -> int | None:
    """Fix 15: the free fourth cell of the first goal of which ``held`` has the other three."""
    empty = FULL & ~(own | opp)
    for goal in goals:
        rest = goal & ~held
        if rest & empty and rest.bit_count() == 1:
            return rest.bit_length() - 1
    return None


def _four(held: int, own: int, opp: int, make: bool, fixes: Fixes, goals: tuple[int, ...]) -> int | None:
    """omake4 / oavoid4: the C's patterns first; in fixed mode every goal of the form after them."""
    cell = _four_placement(held, own, opp, make)
    if cell is None and fixes.placement_fours_every_goal:
        cell = _goal_placement(held, own, opp, goals)
    return cell


def place(
    own: int, opp: int, n: int, draws: Draws, fixes: Fixes, goals: tuple[int, ...] = WIN_MASKS
) -> tuple[int, str]:
    """The square the thesis program puts its pawn on at ply ``n`` (1-8), and the routine's tag.

    ``goals``: the winning sets of the form played, as masks (Standard Teeko's 44 by default); only
    fixed mode's make-four and block-four read them."""
    if not 1 <= n <= 8:
        raise ValueError(f"placement plies are 1 to 8, not {n}")
    if n <= 2:
        return _move1(own, opp, draws, fixes)
    if n >= 7:
        cell = _four(own, own, opp, True, fixes, goals)
        if cell is not None:
            return cell, "o:make4"
    if n >= 6:
        cell = _four(opp, own, opp, False, fixes, goals)
        if cell is not None:
            return cell, "o:avoid4"
    if n >= 5:
        cell = _make_three(own, opp, fixes)
        if cell is not None:
            return cell, "o:make3"
    if n >= 4:
        cell = _block_three(own, opp)
        if cell is not None:
            return cell, "o:avoid3"
    return _move3(own, opp, draws, fixes)
