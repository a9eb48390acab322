"""Connect Four on the page, in Chromium at 1280x800 and 390x844: a click anywhere in a column (its
top square here) drops the disc to the lowest empty square of that column, a column's number on the
keyboard does the same, the disc falls (an animation that reduced motion stills), the perfect
player's values are hinted with their distance ("X wins in 1"), the winning four is marked, and a
game on a small board is reviewed with each disc's square, a column clicked there a variation.  The oracle is the rules API (where a
disc lands, the winning squares) and the solver (the hint's figures; their own tests check it
against a plain negamax).  axe-core finds nothing serious; screenshots at both sizes."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import is_start, marks, new_game, rendered, replay, screenshot
from test_look import axe_problems

from gamelearn import get_game, solve

pytestmark = pytest.mark.browser


def drop(page: Any, view: dict, column: str, *, key: bool = False) -> dict:
    """Play ``column`` as a person does: a click on its top square, or its number on the keyboard."""
    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
        if key:
            page.locator("#board .square").first.focus()
            page.keyboard.press(column)
        else:
            page.click(f'#board .square[data-square="{int(column) - 1}"]')
    answer = info.value.json()
    rendered(page, answer)
    return answer


def test_columns_are_clicked_discs_fall_the_hint_has_its_distance_and_the_four_is_marked(page: Any, size: str) -> None:
    game = get_game("connect4")
    view = new_game(page, "connect4", "human", "human")
    assert page.get_attribute("#board", "data-moves") == "columns"
    assert page.locator('#board [role="row"]').count() == 6
    assert page.locator('#board [role="gridcell"]').count() == 42
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    # the legal columns are the server's: each one's landing square is marked, the bottom row
    targets = page.eval_on_selector_all("#board .square.target", "els => els.map(e => Number(e.dataset.square))")
    assert sorted(targets) == list(range(35, 42))
    for ply, column in enumerate("12121"):
        view = drop(page, view, column, key=ply == 2)
        state = replay("connect4", view["moves"])
        assert marks(page) == game.board(state)  # the disc lies on the lowest empty square
        last = page.eval_on_selector_all("#board .square.last", "els => els.map(e => Number(e.dataset.square))")
        rows_down = 5 - view["moves"][:-1].count(column)  # rows from the top of the square it landed on
        assert last == [rows_down * 7 + int(column) - 1]
        page.wait_for_selector('#board[data-moved="fell"]')
    view = drop(page, view, "2")
    screenshot(page, "connect4-playing", size)
    # X to move with three in column 1: the hint gives each column's value and its distance
    page.check("#analysis-toggle")
    page.wait_for_selector('#analysis .mv[data-move="1"]', timeout=120_000)
    state = replay("connect4", view["moves"])
    solution = solve(game)
    for column in game.legal_moves(state):
        value, distance = solution.result_of(state, column)
        text = page.text_content(f'#analysis .mv[data-move="{column}"]') or ""
        winner = "X" if value > 0 else "O"
        assert text.endswith("draw" if value == 0 else f"{winner} wins in {distance}"), (column, text)
    assert page.text_content('#analysis .mv[data-move="1"]') == "1 + X wins in 1"
    screenshot(page, "connect4-hint", size)
    assert axe_problems(page) == []
    view = drop(page, view, "1", key=True)
    final = replay("connect4", view["moves"])
    assert view["over"] and page.text_content("#status") == "X wins: four in a row"
    lit = page.eval_on_selector_all("#board .square.winning", "els => els.map(e => Number(e.dataset.square))")
    assert tuple(sorted(lit)) == game.winning_squares(final) == (14, 21, 28, 35)
    assert page.locator("#board .square.target").count() == 0  # no column left to play
    screenshot(page, "connect4-won", size)
    assert axe_problems(page) == []


def test_reduced_motion_stills_the_fall_and_a_small_board_is_reviewed(page: Any, size: str) -> None:
    page.emulate_media(reduced_motion="reduce")
    new_game(page, "connect4", "human", "human")
    page.select_option("#form-opt-columns", "5")
    page.select_option("#form-opt-rows", "4")
    with page.expect_response(is_start) as info:
        page.click("#new-game")
    view = info.value.json()
    rendered(page, view)
    assert view["spec"] == "connect4:columns=5,rows=4"
    assert page.locator('#board [role="gridcell"]').count() == 20
    line = "2513144442151"  # a seeded random game that X wins across a diagonal
    for ply, column in enumerate(line):
        view = drop(page, view, column, key=ply % 3 == 0)
        assert page.get_attribute("#board", "data-moved") == "still"
    game = get_game("connect4:columns=5,rows=4")
    final = replay("connect4:columns=5,rows=4", view["moves"])
    assert view["over"] and marks(page) == game.board(final)
    # the review: every move graded, each move's disc on the square it fell to
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]', timeout=120_000)
    grades = page.eval_on_selector_all("#review-moves li[data-ply]", "els => els.map(e => e.dataset.grade)")
    assert len(grades) == len(line) and set(grades) <= {"best", "keeps", "mistake", "blunder"}
    page.click('#review-moves li[data-ply="5"] button')
    state = replay("connect4:columns=5,rows=4", view["moves"][:5])
    page.wait_for_selector('#board[data-plies="5"]')
    assert marks(page) == game.board(state)
    last = page.eval_on_selector_all("#board .square.last", "els => els.map(e => Number(e.dataset.square))")
    before = replay("connect4:columns=5,rows=4", view["moves"][:4])
    changed = [sq for sq, (a, b) in enumerate(zip(game.board(before), game.board(state), strict=True)) if a != b]
    assert last == changed
    # the analysis board: a click in a column plays it as a variation, where the server's drops say
    page.wait_for_selector("#board .square.target")
    column = next(c for c in game.legal_moves(state) if c != view["moves"][5])
    page.click(f'#board .square[data-square="{int(column) - 1}"]')
    page.wait_for_selector('#board[data-plies="6"]')
    assert marks(page) == game.board(game.play(state, column))
    screenshot(page, "connect4-review", size)
    assert axe_problems(page) == []


def test_the_standard_board_is_hinted_and_reviewed_from_the_shipped_book(page: Any, size: str) -> None:
    """The first moves' values as published (Allis 1988; Pascal Pons' scores -2 -1 0 1 0 -1 -2),
    hinted from the opening book that ships with the package, and a game of seven plies reviewed
    move by move from it."""
    view = new_game(page, "connect4", "human", "human")
    page.check("#analysis-toggle")
    page.wait_for_selector('#analysis .mv[data-move="7"]', timeout=60_000)
    hinted = {column: page.text_content(f'#analysis .mv[data-move="{column}"]') or "" for column in "1234567"}
    assert hinted["4"].endswith("X wins in 41") and hinted["3"].endswith("draw") and hinted["5"].endswith("draw")
    assert hinted["1"].endswith("O wins in 40") and hinted["2"].endswith("O wins in 42"), hinted
    page.uncheck("#analysis-toggle")
    for column in "4141414":  # X's four up the middle column
        view = drop(page, view, column)
    assert view["over"] and page.text_content("#status") == "X wins: four in a row"
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]', timeout=60_000)
    grades = page.eval_on_selector_all("#review-moves li[data-ply]", "els => els.map(e => e.dataset.grade)")
    assert len(grades) == 7 and grades[0] == "best" and grades[-1] == "best"
    screenshot(page, "connect4-review-standard", size)
    assert axe_problems(page) == []
