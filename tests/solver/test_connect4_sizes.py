"""The value of Connect Four's empty board on each size the search settles in a few CPU seconds,
against the published table of values by board size:

- John Tromp, "John's Connect Four Playground", https://tromp.github.io/c4/c4.html (the table of
  results by width and height, "+ is a first player win, = a tie, and - a second player win";
  width is the columns, height the rows); the values up to width + height = 15 are also those of
  John Tromp, "Solving Connect-4 on medium board sizes", ICGA Journal 31(2):110-112 (2008),
  doi:10.3233/ICG-2008-31205;
- and, for the ply a game ends on with best play (the winner hurrying, the loser holding out), the
  "Last Move" table of Christophe Steininger's solver, which repeats Tromp's values and extends
  them, https://github.com/ChristopheSteininger/c4 (readme.md, "Results").

Each board is solved from nothing: no opening book, no kept positions, an empty transposition
table.  The CPU seconds of each, and the sizes that take longer, are in docs/connect4.md
(``python benchmarks/connect4_sizes.py``)."""

from __future__ import annotations

import pytest

from gamelearn import get_game
from gamelearn.solver.connect4 import Connect4Solution

#: Tromp's table, (columns, rows): the value for the first player (1 a win, 0 a draw, -1 a loss),
#: every size of 4 to 9 columns and 4 to 8 rows it gives (9x7 and 9x8 are beyond it).
TROMP = {
    **{(4, rows): 0 for rows in range(4, 9)},
    **{(5, rows): 0 for rows in range(4, 9)},
    (6, 4): -1, (6, 5): 0, (6, 6): -1, (6, 7): 1, (6, 8): -1,
    (7, 4): 0, (7, 5): 0, (7, 6): 1, (7, 7): 0, (7, 8): 1,
    (8, 4): -1, (8, 5): 1, (8, 6): -1, (8, 7): 1, (8, 8): -1,
    (9, 4): -1, (9, 5): 1, (9, 6): -1,
}  # fmt: skip

#: Steininger's "Last Move" table, (columns, rows): the ply a won game ends on with best play.
LAST_PLY = {
    (6, 4): 24, (6, 6): 36, (6, 7): 41, (6, 8): 48,
    (7, 6): 41, (7, 8): 55,
    (8, 4): 32, (8, 5): 39, (8, 6): 48, (8, 7): 53, (8, 8): 62,
    (9, 4): 36, (9, 5): 41, (9, 6): 52,
}  # fmt: skip

#: The sizes solved here, each within a few CPU seconds on the project's machine (docs/connect4.md):
#: the larger ones are slow tests.
QUICK = [(4, 4), (4, 5), (5, 4), (4, 6), (6, 4), (5, 5), (4, 7), (7, 4), (5, 6), (6, 5), (4, 8)]
SLOW = [(5, 7), (7, 5), (8, 4), (6, 6)]


@pytest.mark.parametrize(("columns", "rows"), [*QUICK, *(pytest.param(*size, marks=pytest.mark.slow) for size in SLOW)])
def test_the_empty_board_has_its_published_value(columns: int, rows: int) -> None:
    game = get_game(f"connect4:columns={columns},rows={rows}")
    value, distance = Connect4Solution(game).outcome(game.initial())
    assert value == TROMP[columns, rows]
    if value == 0:
        assert distance is None  # a draw: the board fills
    else:
        assert distance == LAST_PLY[columns, rows]  # plies from the empty board: the last one's number


@pytest.mark.parametrize(("columns", "rows"), QUICK)
def test_a_size_declares_the_value_its_search_finds(columns: int, rows: int) -> None:
    game = get_game(f"connect4:columns={columns},rows={rows}")
    assert game.facts.value_of_start == Connect4Solution(game).outcome(game.initial())[0]


def test_every_size_declares_tromps_value_and_no_other() -> None:
    for columns in range(4, 10):
        for rows in range(4, 9):
            game = get_game(f"connect4:columns={columns},rows={rows}")
            assert game.facts.value_of_start == TROMP.get((columns, rows)), (columns, rows)


def test_every_published_win_has_its_last_ply_and_the_tables_agree() -> None:
    """The two sources are read as one table: every win or loss of Tromp's has Steininger's ply,
    a draw has none, and a ply has the winner's parity (odd for the first player, even for the second)."""
    assert {size for size, value in TROMP.items() if value != 0} == set(LAST_PLY)
    for size, ply in LAST_PLY.items():
        assert ply % 2 == (1 if TROMP[size] == 1 else 0), size
    assert set(QUICK + SLOW) <= set(TROMP)
