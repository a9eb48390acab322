"""Connect Four's rules against two oracles: a naive implementation written here on a grid of
lists (every position of the small boards, ply by ply), and OpenSpiel's ``connect_four`` over seeded
random games, move by move."""

from __future__ import annotations

import random

import pytest

from extras import need
from gamelearn import IllegalMove, get_game

GAME = get_game("connect4")


# A naive oracle: a grid of lists, the row 0 at the bottom, and a scan of every square ----------


class Grid:
    """Connect Four as a person would write it first: no bitboards, a four found by looking at
    every square in every direction."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows

    def start(self) -> tuple[tuple[str, ...], ...]:
        return tuple(() for _ in range(self.columns))  # each column's discs, bottom first

    def mover(self, position: tuple[tuple[str, ...], ...]) -> str:
        return "X" if sum(map(len, position)) % 2 == 0 else "O"

    def cell(self, position: tuple[tuple[str, ...], ...], column: int, row: int) -> str:
        stack = position[column]
        return stack[row] if row < len(stack) else "."

    def four(self, position: tuple[tuple[str, ...], ...]) -> str | None:
        for column in range(self.columns):
            for row in range(self.rows):
                first = self.cell(position, column, row)
                if first == ".":
                    continue
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_c, end_r = column + 3 * dc, row + 3 * dr
                    if not (0 <= end_c < self.columns and 0 <= end_r < self.rows):
                        continue
                    if all(self.cell(position, column + k * dc, row + k * dr) == first for k in range(4)):
                        return first
        return None

    def moves(self, position: tuple[tuple[str, ...], ...], four: str | None) -> list[int]:
        """The columns that take a disc; none once there is a four (``four``: the position's, as
        :meth:`four` found it: the scan is made once a position)."""
        if four is not None:
            return []
        return [column for column in range(self.columns) if len(position[column]) < self.rows]

    def drop(self, position: tuple[tuple[str, ...], ...], column: int) -> tuple[tuple[str, ...], ...]:
        mark = self.mover(position)
        return tuple(stack + (mark,) if k == column else stack for k, stack in enumerate(position))

    def board(self, position: tuple[tuple[str, ...], ...]) -> str:
        return "".join(
            self.cell(position, column, row) for row in reversed(range(self.rows)) for column in range(self.columns)
        )


def every_position(columns: int, rows: int, plies: int) -> None:
    """Both implementations, level by level from the empty board: the same boards, the same moves,
    the same winners, the same ends."""
    game = get_game(f"connect4:columns={columns},rows={rows}")
    grid = Grid(columns, rows)
    ours = {game.initial()}
    theirs = {grid.start()}
    for _ in range(plies + 1):
        by_ours = {game.board(s): s for s in ours}
        by_board = {grid.board(p): p for p in theirs}
        # the same boards, each once: no two states (or positions) drawn alike
        assert len(by_ours) == len(ours) and len(by_board) == len(theirs) and by_ours.keys() == by_board.keys()
        following, following_theirs = set(), set()
        for board, state in by_ours.items():
            position = by_board[board]
            four = grid.four(position)
            moves = grid.moves(position, four)
            assert game.legal_moves(state) == [str(column + 1) for column in moves]
            assert game.winner(state) == (None if four is None else "XO".index(four))
            assert game.is_over(state) == (not moves)
            assert game.symbols[game.to_move(state)] == grid.mover(position)
            for column in moves:
                following.add(game.play(state, str(column + 1)))
                following_theirs.add(grid.drop(position, column))
        ours, theirs = following, following_theirs
        if not ours:
            break
    assert not ours and not theirs or plies < columns * rows


def test_every_position_of_4x4_to_ply_6_by_both_implementations() -> None:
    every_position(4, 4, 6)


@pytest.mark.slow
def test_every_position_of_4x4_to_the_end_and_of_5x4_to_ply_8() -> None:
    every_position(4, 4, 16)
    every_position(5, 4, 8)


def test_moves_are_columns_from_the_left() -> None:
    state = GAME.initial()
    for move in "4453":
        state = GAME.play(state, move)
    assert GAME.board(state)[-14:] == "...O.....OXX.."
    assert GAME.legal_moves(state) == ["1", "2", "3", "4", "5", "6", "7"]
    assert GAME.render(state).splitlines()[-1] == "1 2 3 4 5 6 7"
    assert get_game("connect4:columns=9,rows=8").legal_moves(get_game("connect4:columns=9,rows=8").initial()) == [
        str(k) for k in range(1, 10)
    ]


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("0", "off the board"),
        ("8", "off the board"),
        ("10", "off the board"),
        ("d", "write a column 1-7"),
        ("", "write a column"),
    ],
)
def test_a_move_outside_the_board_is_refused_by_name(move: str, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        GAME.play(GAME.initial(), move)


def test_a_full_column_and_a_finished_game_are_refused() -> None:
    state = GAME.initial()
    for _ in range(6):
        state = GAME.play(state, "1")
    with pytest.raises(IllegalMove, match="column 1 is full"):
        GAME.play(state, "1")
    assert "1" not in GAME.legal_moves(state)
    for move in "2323232":  # X's fourth disc on column 2 ... X has four down column 2
        state = GAME.play(state, move)
    assert GAME.winner(state) == 0 and GAME.end_reason(state) == "X has four in a row"
    assert GAME.winning_squares(state) == (15, 22, 29, 36)  # column 2, the four lowest rows
    with pytest.raises(IllegalMove, match="the game is over"):
        GAME.play(state, "4")


def test_the_mirror_maps_columns_and_discs() -> None:
    state = GAME.initial()
    for move in "1126":
        state = GAME.play(state, move)
    image = GAME.transform(state, 1)
    assert GAME.board(image) == "".join(GAME.board(state)[r * 7 : (r + 1) * 7][::-1] for r in range(6))
    assert GAME.transform_move("1", 1) == "7" and GAME.transform_move("4", 1) == "4"


def board_of(rows_from_top: list[str]) -> str:
    return "".join(rows_from_top)


@pytest.mark.parametrize(
    ("board", "to_move", "why"),
    [
        (board_of(["......."] * 5 + ["O......"]), 0, "X goes first"),
        (board_of(["......."] * 4 + ["X......", "......."]), 1, "floats"),
        (board_of(["......."] * 4 + ["X......", "O......"]), 0, "no order of moves"),
        (board_of(["......."] * 5 + ["X......"]), 0, "it is O to move"),
        # X's four down column 1 and along the bottom: every X disc on top leaves one of them
        (
            board_of(["......."] * 2 + ["X......", "XO....O", "XOO...O", "XOXXXXO"]),
            1,
            "no order of moves",
        ),
        # O's four along the bottom, and X moved after it
        (board_of(["......."] * 4 + ["XXX....", "OOOOXX."]), 1, "the game ended"),
    ],
)
def test_from_board_refuses_a_board_no_game_reaches(board: str, to_move: int, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        GAME.from_board(board, to_move)


def test_from_board_takes_a_won_board_when_the_last_disc_made_the_four() -> None:
    board = board_of(["......."] * 4 + ["OOO....", "XXXX..."])
    state = GAME.from_board(board, 1)
    assert GAME.winner(state) == 0 and GAME.board(state) == board


# OpenSpiel ----------------------------------------------------------------------------------


def agree_with_openspiel(games: int, seed: int, columns: int = 7, rows: int = 6) -> int:
    """Seeded random games played in both, compared after every move: the board, whose move, the
    legal moves, the end and its returns.  OpenSpiel's actions are the columns 0-based from the
    left, its board rows from the top with 'x' (first player) and 'o'."""
    pyspiel = need("peers", "pyspiel")
    game = get_game(f"connect4:columns={columns},rows={rows}")
    spiel_game = pyspiel.load_game("connect_four", {"columns": columns, "rows": rows})
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        ours, theirs = game.initial(), spiel_game.new_initial_state()
        while True:
            assert str(theirs).replace("\n", "").upper() == game.board(ours)
            assert theirs.is_terminal() == game.is_over(ours)
            if theirs.is_terminal():
                winner = game.winner(ours)
                expected = [0.0, 0.0] if winner is None else [1.0 - 2 * winner, 2.0 * winner - 1.0]
                assert theirs.returns() == expected
                break
            assert theirs.current_player() == game.to_move(ours)
            assert [str(a + 1) for a in theirs.legal_actions()] == game.legal_moves(ours)
            move = rng.choice(game.legal_moves(ours))
            ours = game.play(ours, move)
            theirs.apply_action(int(move) - 1)
            plies += 1
    return plies


def test_rules_agree_with_openspiel_on_random_games() -> None:
    assert agree_with_openspiel(300, seed=1) > 300 * 7


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (5, 4), (9, 8), (8, 7), (6, 5)])
def test_other_sizes_agree_with_openspiel(columns: int, rows: int) -> None:
    agree_with_openspiel(40, seed=columns * 10 + rows, columns=columns, rows=rows)


@pytest.mark.slow
def test_rules_agree_with_openspiel_on_ten_thousand_random_games() -> None:
    agree_with_openspiel(10_000, seed=2)
