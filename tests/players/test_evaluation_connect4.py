"""Connect Four's evaluations (gamelearn.players.evaluation_connect4) against counts made here
independently: the number of fours through each square of the standard board (the table Connect
Four programs start from), a plain count of the windows on a grid of lists, and threats counted by
hand."""

from __future__ import annotations

import random

import pytest

from gamelearn import get_game, make_player
from gamelearn.players.evaluation import evaluation, evaluation_names
from gamelearn.players.evaluation_connect4 import (
    GOOD_THREAT,
    LINE_WEIGHTS,
    OTHER_THREAT,
    lines_over,
    threat_squares,
    threats_over,
)

#: How many fours pass through each square of the 7x6 board, top row first: the lines evaluation
#: of a board holding one X disc there, with a weight of 1 for a one-disc window.
FOURS_THROUGH = [
    [3, 4, 5, 7, 5, 4, 3],
    [4, 6, 8, 10, 8, 6, 4],
    [5, 8, 11, 13, 11, 8, 5],
    [5, 8, 11, 13, 11, 8, 5],
    [4, 6, 8, 10, 8, 6, 4],
    [3, 4, 5, 7, 5, 4, 3],
]
ONES = (0, 1, 0, 0, 0)


def grid_count(board: str, columns: int, rows: int, weights: tuple[int, ...]) -> int:
    """The open-windows count on the board's text (rows from the top), every window walked square
    by square on a grid of lists: the windows X could still fill minus those O could."""
    grid = [list(board[r * columns : (r + 1) * columns]) for r in range(rows)]
    score = 0
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if not all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    continue
                window = [grid[rr][cc] for rr, cc in cells]
                if "O" not in window:
                    score += weights[window.count("X")]
                if "X" not in window:
                    score -= weights[window.count("O")]
    return score


def grid_threats(board: str, columns: int, rows: int) -> dict[str, tuple[int, int]]:
    """Each side's threats (empty squares that would complete a four of its own), counted on the
    grid: (on odd rows, on even rows), rows numbered from 1 at the bottom."""
    grid = [list(board[r * columns : (r + 1) * columns]) for r in range(rows)]
    found: dict[str, set[tuple[int, int]]] = {"X": set(), "O": set()}
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if not all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    continue
                window = [grid[rr][cc] for rr, cc in cells]
                for side in "XO":
                    if window.count(side) == 3 and window.count(".") == 1:
                        found[side].add(cells[window.index(".")])
    return {
        side: (sum(1 for r, _ in squares if (rows - r) % 2 == 1), sum(1 for r, _ in squares if (rows - r) % 2 == 0))
        for side, squares in found.items()
    }


def test_one_disc_scores_the_fours_through_its_square() -> None:
    game = get_game("connect4")
    lines = lines_over(ONES)
    # every square of the standard board, one X disc there (an X disc floating is fine to the count)
    for r in range(6):
        for c in range(7):
            bit = game.square_bits[r * 7 + c]
            assert lines((bit, 0, 7, 6)) == FOURS_THROUGH[r][c]
            assert lines((0, bit, 7, 6)) == -FOURS_THROUGH[r][c]


def test_a_disc_on_another_closes_the_windows_they_share() -> None:
    game = get_game("connect4")
    state = game.play(game.play(game.initial(), "4"), "4")  # X at the bottom of the middle, O on it
    # X: the 7 fours through its square, less the one up the column that O's disc now shares;
    # O: the 10 through its square, less the same one
    assert lines_over(ONES)(state) == (7 - 1) - (10 - 1)
    # with weights, the shared window counts for neither side, the others one disc each
    assert lines_over((0, 2, 5, 11, 99))(state) == 2 * 6 - 2 * 9


@pytest.mark.parametrize("spec", ["connect4", "connect4:columns=4,rows=4", "connect4:columns=9,rows=8"])
def test_lines_and_threats_are_the_grid_counts_on_random_positions_of_every_size(spec: str) -> None:
    game = get_game(spec)
    lines, threats = evaluation(game, "lines"), evaluation(game, "threats")
    rng = random.Random(47)
    seen_threats = 0
    for _ in range(60):
        state = game.initial()
        for _ in range(rng.randrange(game.columns * game.rows)):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        expected = grid_count(game.board(state), game.columns, game.rows, LINE_WEIGHTS)
        assert lines(state) == expected
        assert lines(game.transform(state, 1)) == expected  # the mirror changes nothing
        counted = grid_threats(game.board(state), game.columns, game.rows)
        (x_odd, x_even), (o_odd, o_even) = counted["X"], counted["O"]
        with_threats = expected + GOOD_THREAT * (x_odd - o_even) + OTHER_THREAT * (x_even - o_odd)
        assert threats(state) == with_threats
        assert threats(game.transform(state, 1)) == with_threats
        seen_threats += x_odd + x_even + o_odd + o_even
    assert seen_threats > 0  # the positions drawn hold threats to count


def test_threats_are_counted_by_the_parity_of_their_rows() -> None:
    game = get_game("connect4")
    # X on a1 b1 c1 threatens d1 (row 1, odd: X's own kind); O on a2 b2 c2 threatens d2 (row 2,
    # even: O's own kind)
    state = game.initial()
    for move in "112233":
        state = game.play(state, move)
    x, o = state[0], state[1]
    d1, d2 = game.square_bits[5 * 7 + 3], game.square_bits[4 * 7 + 3]
    assert threat_squares(x, o, 7, 6) == d1
    assert threat_squares(o, x, 7, 6) == d2
    lines = lines_over(LINE_WEIGHTS)
    # one good threat each: they cancel; a weight on the other kind of row sees none either
    assert threats_over(LINE_WEIGHTS, 10, 3)(state) == lines(state)
    # O's three a row higher (row 3, odd: not O's kind), X's still on row 1
    board = ".....................OOO....XXO.X..XXX.OXO"
    state = game.from_board(board, 1)
    x, o = state[0], state[1]
    d1, d3 = game.square_bits[5 * 7 + 3], game.square_bits[3 * 7 + 3]
    assert threat_squares(x, o, 7, 6) == d1
    assert threat_squares(o, x, 7, 6) == d3  # row 3: odd, not O's own kind
    assert threats_over(LINE_WEIGHTS, 10, 3)(state) == lines(state) + 10 * 1 + 3 * (0 - 1)
    assert threats_over(LINE_WEIGHTS, 10, 0)(state) == lines(state) + 10


def test_connect4_offers_its_evaluations_and_a_one_ply_search_takes_the_middle() -> None:
    game = get_game("connect4")
    # the default, chosen on connect4-val-v1, comes first
    assert evaluation_names(game) == ("threats", "lines", "none")
    assert make_player(game, "alphabeta:depth=2").spec == "alphabeta:depth=2,eval=threats"
    for spec in ("alphabeta:depth=1,eval=lines", "alphabeta:depth=1,eval=threats"):
        assert {make_player(game, spec, seed=seed).choose(game.initial()) for seed in range(5)} == {"4"}
    # with no evaluation every first move looks alike, and the seed picks among them
    assert len({make_player(game, "alphabeta:depth=1,eval=none", seed=s).choose(game.initial()) for s in range(20)}) > 1
    with pytest.raises(ValueError, match="valid: "):
        make_player(game, "alphabeta:eval=better")
