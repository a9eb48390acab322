"""Teeko against independent, naive rules written here on 5x5 lists (no bit tricks).

* the 44 winning sets and the neighbour masks, rebuilt from coordinates;
* exhaustive counts of the positions reachable after each ply of the placement phase, kept as data
  in tests/data/teeko_placement_counts.json: plies 0-4 enumerated here both through the API and
  with the naive rules; all plies 1-8 counted here combinatorially (ceil(k/2) X and floor(k/2) O
  anywhere; ply 8 less the X fours of ply 7, found by the naive win test over every set of 4
  squares).  Plies 5-6 were enumerated through the API once (see the data file), too slow for the
  test budget (3 s and 20 s on the 2-core machine);
* seeded random playouts checked move by move against rule properties;
* every class of illegal move, and from_board's refusals.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from gamelearn import IllegalMove, get_game
from gamelearn.games import teeko

GAME = get_game("teeko")
COUNTS = json.loads((Path(__file__).resolve().parents[1] / "data" / "teeko_placement_counts.json").read_text())
CELLS = [(r, c) for r in range(5) for c in range(5)]


def naive_winning_sets() -> set[frozenset[tuple[int, int]]]:
    """Four in a row across, down or diagonally, or the four squares of a 2x2 block."""
    sets = set()
    for r, c in CELLS:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            line = [(r + k * dr, c + k * dc) for k in range(4)]
            if all(0 <= a < 5 and 0 <= b < 5 for a, b in line):
                sets.add(frozenset(line))
        if r < 4 and c < 4:
            sets.add(frozenset({(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}))
    return sets


WINNING = naive_winning_sets()


def naive_has_four(cells: set[tuple[int, int]]) -> bool:
    return any(win <= cells for win in WINNING)


def cells_of(board: str, symbol: str) -> set[tuple[int, int]]:
    return {(i // 5, i % 5) for i, ch in enumerate(board) if ch == symbol}


def to_mask(cells: frozenset[tuple[int, int]] | set[tuple[int, int]]) -> int:
    return sum(1 << (5 * r + c) for r, c in cells)


def test_44_winning_sets_and_neighbours_match_the_naive_ones() -> None:
    assert len(WINNING) == 44
    assert len(teeko.WIN_MASKS) == 44 == len(set(teeko.WIN_MASKS))
    assert set(teeko.WIN_MASKS) == {to_mask(w) for w in WINNING}
    for r, c in CELLS:
        around = {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)}
        assert teeko.NEIGHBOURS[5 * r + c] == to_mask({(a, b) for a, b in around if 0 <= a < 5 and 0 <= b < 5})


def naive_placement_layers(plies: int) -> list[set[str]]:
    """Boards reachable after each ply, placing pawns on a 5x5 list; a won board is not extended."""
    layers = [{"." * 25}]
    for ply in range(plies):
        symbol = "XO"[ply % 2]
        following = set()
        for board in layers[-1]:
            if naive_has_four(cells_of(board, "X")) or naive_has_four(cells_of(board, "O")):
                continue
            rows = [list(board[5 * r : 5 * r + 5]) for r in range(5)]
            for r, c in CELLS:
                if rows[r][c] == ".":
                    rows[r][c] = symbol
                    following.add("".join("".join(row) for row in rows))
                    rows[r][c] = "."
        layers.append(following)
    return layers


def api_placement_layers(plies: int) -> list[set]:
    layers = [{GAME.initial()}]
    for _ in range(plies):
        layers.append({GAME.play(s, m) for s in layers[-1] for m in GAME.legal_moves(s)})
    return layers


def test_placement_counts_plies_0_to_4_enumerated_through_the_api_and_naively() -> None:
    api = api_placement_layers(4)
    naive = naive_placement_layers(4)
    for ply in range(5):
        assert {GAME.board(s) for s in api[ply]} == naive[ply]
    for ply in range(5):
        assert len(api[ply]) == COUNTS["positions"][ply]


def test_placement_counts_plies_5_to_8_from_the_naive_win_test() -> None:
    # No side has 4 pawns before ply 7, so plies 1-7 are every placement of ceil(k/2) X and
    # floor(k/2) O; at ply 8 the boards where X already made four at ply 7 are missing.
    x_sets = list(combinations(CELLS, 4))
    x_fours = sum(naive_has_four(set(cells)) for cells in x_sets)
    assert x_fours == 44
    for ply in range(8):
        xs, os_ = (ply + 1) // 2, ply // 2
        assert COUNTS["positions"][ply] == comb(25, xs) * comb(25 - xs, os_)
    assert COUNTS["positions"][8] == (len(x_sets) - x_fours) * comb(21, 4)
    assert COUNTS["x_wins_at_ply_7"] == x_fours * comb(21, 3)


def test_ply_7_wins_and_ply_8_through_the_api() -> None:
    # Spot checks of the API against the counts' reasoning: a four of X at ply 7 ends the game.
    rng = random.Random(7)
    for mask in rng.sample(teeko.WIN_MASKS, 10):
        board = "".join("X" if mask >> sq & 1 else "." for sq in range(25))
        free = [sq for sq in range(25) if board[sq] == "."]
        cells = list(board)
        for sq in rng.sample(free, 3):
            cells[sq] = "O"
        state = GAME.from_board("".join(cells), 1)
        assert GAME.winner(state) == 0 and GAME.legal_moves(state) == []


def naive_check_step(before: str, after: str, mover: str) -> None:
    """The rule properties of one move, from the boards alone."""
    placing = before.count(".") > 17
    gone = [i for i in range(25) if before[i] == mover and after[i] == "."]
    came = [i for i in range(25) if before[i] == "." and after[i] == mover]
    others = [i for i in range(25) if before[i] != after[i] and i not in gone + came]
    assert not others
    if placing:
        assert not gone and len(came) == 1
    else:
        assert len(gone) == 1 and len(came) == 1
        (r0, c0), (r1, c1) = divmod(gone[0], 5), divmod(came[0], 5)
        assert max(abs(r0 - r1), abs(c0 - c1)) == 1  # one step, to a free neighbour
    assert after.count("X") <= 4 and after.count("O") <= 4


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.initial()
    for ply in range(1, 301):
        if GAME.is_over(state):
            break
        moves = GAME.legal_moves(state)
        assert moves == sorted(moves) and len(set(moves)) == len(moves)
        board = GAME.board(state)
        mover = "XO"[GAME.to_move(state)]
        if ply > 8:
            # the naive list of steps: every own pawn to every free neighbour
            naive = sorted(
                f"{a // 5}{a % 5}{b // 5}{b % 5}"
                for a in range(25)
                if board[a] == mover
                for b in range(25)
                if board[b] == "." and max(abs(a // 5 - b // 5), abs(a % 5 - b % 5)) == 1
            )
            assert moves == naive
            assert board.count("X") == board.count("O") == 4
        else:
            assert moves == [f"{i // 5}{i % 5}" for i in range(25) if board[i] == "."]
        after = GAME.play(state, rng.choice(moves))
        assert GAME.board(state) == board  # play never changes its argument
        naive_check_step(board, GAME.board(after), mover)
        assert GAME.to_move(after) == 1 - GAME.to_move(state)
        assert GAME.from_board(GAME.board(after), GAME.to_move(after)) == after
        state = after
        for index, symbol in enumerate("XO"):
            cells = cells_of(GAME.board(state), symbol)
            assert naive_has_four(cells) == (GAME.winner(state) == index)
            if GAME.winner(state) == index:
                assert frozenset(cells) in WINNING  # a win is exactly one of the 44 sets


def moving_state() -> object:
    # X on 00 01 02 10, O on 34 42 43 44; X to move.
    return GAME.from_board("XXX..X.............O..OOO", 0)


def test_illegal_moves_name_the_move_and_the_reason() -> None:
    start = GAME.play(GAME.initial(), "22")
    cases = [
        (start, "22", "occupied"),
        (start, "25", "off the board"),
        (start, "55", "off the board"),
        (start, "2", "not a Teeko move"),
        (start, "a1", "not a Teeko move"),
        (start, "2223", "wrong phase"),
        (start, "", "not a Teeko move"),
    ]
    moving = moving_state()
    cases += [
        (moving, "22", "wrong phase"),
        (moving, "0003", "too far"),
        (moving, "0001", "occupied"),
        (moving, "4433", "no X pawn"),
        (moving, "1111", "no X pawn"),
        (moving, "1020", None),
    ]
    for state, move, reason in cases:
        if reason is None:
            GAME.play(state, move)
            continue
        with pytest.raises(IllegalMove, match=reason) as caught:
            GAME.play(state, move)
        assert repr(move) in str(caught.value)
    won = GAME.from_board("XXXX" + "." * 17 + "OOO" + ".", 1)
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(won, "22")


@pytest.mark.parametrize(
    "board, to_move, reason",
    [
        ("XX" + "." * 23, 0, "alternates"),
        ("XXX" + "." * 22, 1, "alternates"),
        ("X" + "." * 24, 0, "O to move"),
        ("XXXXX" + "." * 15 + "OOOO.", 1, "at most 4"),
        ("XXXX" + "." * 16 + "O.OOO", 0, "just made four"),
        ("XXXX" + "." * 16 + "OOOO.", 1, "both sides"),
        ("X?" + "." * 23, 1, "25 characters"),
        ("X" * 3, 1, "25 characters"),
    ],
)
def test_from_board_refuses_boards_no_game_reaches(board: str, to_move: int, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        GAME.from_board(board, to_move)


def test_a_side_without_four_can_always_step() -> None:
    # Every set of 4 pawns that is not a win touches at least 6 other squares (naive neighbours),
    # more than the enemy's 4 pawns can fill: so in the moving phase legal_moves is empty exactly
    # when the game is won, for every position, not only those the playouts reach.
    fewest = 25
    for cells in combinations(CELLS, 4):
        if frozenset(cells) in WINNING:
            continue
        around = {(r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        free = {(a, b) for a, b in around if 0 <= a < 5 and 0 <= b < 5} - set(cells)
        fewest = min(fewest, len(free))
    assert fewest == 6
    # a crowded example worked by hand: X on 00 01 10 12, O on 02 11 20 21; only 12 can step (to 03 13 22 23)
    state = GAME.from_board("XXO..XOX..OO.............", 0)
    assert GAME.legal_moves(state) == ["1203", "1213", "1222", "1223"]
