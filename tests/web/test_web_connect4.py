"""Connect Four through the page's API: a game between two people played by columns to a diagonal
win, each answer's ``drops`` (where a disc in each column lands) and ``last_squares`` checked against
a grid kept here (a disc falls to the lowest empty square of its column), the winning four reported;
the perfect values of the moves, each with its distance, and a review graded move by move, checked
against a plain negamax over grids written here (independent of gamelearn's solver).

Solved positions are kept small (5 columns by 4 rows, or a 7x6 position a few plies from its end),
or read from the standard board's shipped opening book (its first seven plies)."""

from __future__ import annotations

from functools import cache

import pytest
from web_support import TestClient, move, refused, start

# X drops in columns 1 2 3 4 rising, O below: X's four runs up from column 1's bottom to column 4.
DIAGONAL = ["1", "2", "2", "3", "3", "4", "3", "4", "5", "4", "4"]


def landing(board: str, columns: int, column: int) -> int:
    """The square a disc dropped in ``column`` (1 from the left) lands on: the lowest empty one."""
    rows = len(board) // columns
    for row in range(rows - 1, -1, -1):
        square = row * columns + column - 1
        if board[square] == ".":
            return square
    return -1


def test_a_game_by_columns_to_a_diagonal_win(client: TestClient) -> None:
    view = start(client, "connect4", ["human", "human"])
    assert (view["rows"], view["columns"]) == (6, 7) and view["legal_moves"] == list("1234567")
    board = "." * 42
    for ply, column in enumerate(DIAGONAL):
        expected = {str(c): landing(board, 7, c) for c in range(1, 8)}
        assert view["drops"] == expected, ply  # every column open: each one's lowest empty square
        square = expected[column]
        view = move(client, view["id"], column)
        board = board[:square] + "XO"[ply % 2] + board[square + 1 :]
        assert view["board"] == board and view["last_move"] == column
        assert view["last_squares"] == [square], ply
    assert view["over"] and view["winner"] == 0 and view["drops"] == {}
    # rows from the top: column 1's bottom (row 5) up to column 4's fourth square (row 2)
    assert view["winning_squares"] == sorted([5 * 7 + 0, 4 * 7 + 1, 3 * 7 + 2, 2 * 7 + 3])
    assert view["result"] == "X wins: four in a row"


def test_a_full_column_is_refused_in_one_line(client: TestClient) -> None:
    view = start(client, "connect4:columns=5,rows=4", ["human", "human"])
    for column in "3333":
        view = move(client, view["id"], column)
    assert "3" not in view["drops"] and sorted(view["drops"]) == ["1", "2", "4", "5"]
    said = refused(client.post(f"/api/games/{view['id']}/move", json={"move": "3"}), 400)
    assert "column 3 is full" in said and "\n" not in said


# An oracle of its own: Connect Four on a list of columns, solved by negamax.


@cache
def fours(columns: int, rows: int) -> list[list[tuple[int, int]]]:
    lines = []
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < columns and 0 <= y < rows for x, y in cells):
                    lines.append(cells)
    return lines


@cache
def negamax(stacks: tuple[str, ...], rows: int, mover: str) -> tuple[int, int | None]:
    """(value, plies to the end) for ``mover`` with best play, the fastest win and the slowest
    loss; ``stacks`` holds each column's discs from the bottom."""
    other = "O" if mover == "X" else "X"
    grid = {(c, r): disc for c, stack in enumerate(stacks) for r, disc in enumerate(stack)}
    if any(all(grid.get(cell) == other for cell in line) for line in fours(len(stacks), rows)):
        return -1, 0
    results = [result_of(stacks, rows, mover, c) for c in range(len(stacks)) if len(stacks[c]) < rows]
    if not results:
        return 0, None
    best = max(value for value, _ in results)
    distances = [d for value, d in results if value == best]
    if best == 0:
        return 0, None
    return best, (min(distances) if best > 0 else max(distances))  # type: ignore[type-var]


def result_of(stacks: tuple[str, ...], rows: int, mover: str, column: int) -> tuple[int, int | None]:
    """The value of dropping in ``column`` (from 0) for ``mover``, and its distance, the drop counted."""
    other = "O" if mover == "X" else "X"
    after = stacks[:column] + (stacks[column] + mover,) + stacks[column + 1 :]
    value, distance = negamax(after, rows, other)
    return -value, None if distance is None else distance + 1


def stacks_of(moves: str, columns: int) -> tuple[str, ...]:
    stacks = [""] * columns
    for ply, column in enumerate(moves):
        stacks[int(column) - 1] += "XO"[ply % 2]
    return tuple(stacks)


@pytest.mark.slow  # the solver's first answers on this board, and the oracle's search
def test_each_moves_value_and_distance_is_the_negamaxs(client: TestClient) -> None:
    spec, line = "connect4:columns=5,rows=4", "332211"  # 14 squares left: the oracle's search is small
    answer = client.post("/api/analysis", json={"game": spec, "moves": list(line), "players": []}).json()
    perfect = answer["perfect"]
    assert perfect["available"], perfect
    stacks = stacks_of(line, 5)
    for column in answer["legal_moves"]:
        value, distance = result_of(stacks, 4, "X", int(column) - 1)
        entry = perfect["moves"][column]
        assert (entry["value"], entry["distance"]) == (value, distance), column
    value, distance = negamax(stacks, 4, "X")
    assert (answer["value"], answer["distance"]) == (value, distance)  # X to move: X's side
    assert answer["drops"] == {str(c): landing(answer["board"], 5, c) for c in range(1, 6)}


@pytest.mark.slow  # every position of a game solved
def test_a_review_grades_every_move_and_marks_where_each_disc_fell(client: TestClient) -> None:
    spec = "connect4:columns=5,rows=4"
    view = start(client, spec, ["human", "human"])
    line = "2513144442151"  # a seeded random game: X's four runs down from column 1's top to 4's bottom
    for column in line:
        view = move(client, view["id"], column)
    review = client.get(f"/api/games/{view['id']}/review").json()
    assert review["available"], review
    assert [p["move"] for p in review["plies"]] == list(line)
    board = "." * 20
    for index, ply in enumerate(review["plies"]):
        before = stacks_of(line[:index], 5)
        mover = "XO"[index % 2]
        square = landing(board, 5, int(ply["move"]))
        assert ply["squares"] == [square]
        assert ply["best_squares"] == [landing(board, 5, int(ply["best"][0]))]
        board = board[:square] + mover + board[square + 1 :]
        if index < 7:  # the oracle's own search is kept short: 13 squares left at most
            continue
        results = {c: result_of(before, 4, mover, c - 1) for c in range(1, 6) if len(before[c - 1]) < 4}
        best = max(results.values(), key=lambda r: (r[0], -(r[1] or 0) if r[0] > 0 else (r[1] or 0)))
        assert (ply["grade"] in ("best", "keeps")) == (results[int(ply["move"])][0] == best[0]), index
        assert set(ply["best"]) == {str(c) for c, r in results.items() if r == best}, index
        position = review["positions"][index]
        value, distance = negamax(before, 4, mover)
        first_side = value if mover == "X" else -value
        assert (position["value"], position["distance"]) == (first_side, distance), index
    assert review["positions"][-1]["over"] and review["positions"][-1]["winning_squares"] == [0, 5, 10, 15]
    assert {p["grade"] for p in review["plies"]} <= {"best", "keeps", "mistake", "blunder"}


def test_a_review_of_the_standard_board_reads_its_first_plies_from_the_shipped_book(client: TestClient) -> None:
    import gamelearn

    view = start(client, "connect4", ["human", "human"])
    line = "4141414"  # X's four up column 4, O's discs in column 1: over at ply 7
    for column in line:
        view = move(client, view["id"], column)
    assert view["over"] and view["winner"] == 0
    review = client.get(f"/api/games/{view['id']}/review").json()
    assert review["available"], review
    first, last = review["plies"][0], review["plies"][-1]
    assert first["best"] == ["4"] and first["grade"] == "best"  # only the middle column wins (Allis 1988)
    assert last["move"] == "4" and last["grade"] == "best"  # the four
    assert review["positions"][0]["value"] == 1 and review["positions"][0]["distance"] == 41
    assert gamelearn.solve("connect4").searcher.searched == 0  # every position read from the book
