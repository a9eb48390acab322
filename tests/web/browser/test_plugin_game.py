"""A game of another author on the page (examples/connect3, docs/own-game.md), in Chromium at
1280x800 and 390x844: picked in the game picker, drawn from its rows and columns with its symbols,
played by clicks on its squares against MENACE to the end, whose turn and why it ended said, MENACE's
boxes drawn as connect3 boards, and the review graded.  The oracle is the rules API and a negamax
over them.  Skipped only where the example is not installed."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from browser_support import click_move, marks, new_game, replay, screenshot

import gamelearn

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        "connect3" not in gamelearn.game_names(),
        reason="examples/connect3 is not installed (pip install -e examples/connect3)",
    ),
]


@cache
def negamax(state: Any) -> int:
    game = gamelearn.get_game("connect3")
    if game.is_over(state):
        return 0 if game.winner(state) is None else -1
    return max(-negamax(game.play(state, m)) for m in game.legal_moves(state))


def test_connect3_is_picked_drawn_played_by_clicks_against_menace_and_reviewed(page: Any, size: str) -> None:
    connect3 = gamelearn.get_game("connect3")
    if not page.evaluate("document.querySelector('#setup').open"):
        page.click("#setup > summary")
    page.wait_for_selector('#setup[data-ready="yes"]', state="attached")
    offered = page.eval_on_selector_all("#game-select option", "els => els.map(e => e.value)")
    assert {"tictactoe", "hexapawn", "teeko", "connect3"} <= set(offered)
    view = new_game(page, "connect3", "human", "menace", seed=5)
    assert page.get_attribute("#board", "data-game") == "connect3"
    # four rows of four squares, square 0 top left, 3 top right, 12 bottom left, as the rules number them
    assert page.locator('#board [role="row"]').count() == 4
    assert page.locator('#board [role="gridcell"]').count() == 16
    corner = {
        name: page.locator(f'#board .square[data-name="{name}"]').bounding_box() for name in ("00", "03", "12", "15")
    }
    assert corner["00"]["x"] < corner["03"]["x"] and corner["00"]["y"] < corner["12"]["y"]
    assert abs(corner["12"]["x"] - corner["00"]["x"]) < 2 and abs(corner["15"]["y"] - corner["12"]["y"]) < 2
    for box in corner.values():  # every square on the screen, none cut off
        assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    you = gamelearn.make_player(connect3, "perfect", seed=1)  # X wins with best play
    while not view["over"]:
        assert page.text_content("#status") == "Your move (X)"
        state = replay("connect3", view["moves"])
        status, view = click_move(page, view, you.choose(state))
        assert status == 200
        assert marks(page) == connect3.board(replay("connect3", view["moves"]))  # MENACE's answer drawn too
        if not view["over"]:
            screenshot(page, "connect3-playing", size)
    final = replay("connect3", view["moves"])
    assert connect3.winner(final) == 0 and page.text_content("#status") == "You win: three in a row"
    lit = page.eval_on_selector_all("#board .square.winning", "els => els.map(e => Number(e.dataset.square))")
    assert tuple(sorted(lit)) == connect3.winning_squares(final)
    assert set(page.eval_on_selector_all("#board .square", "els => els.map(e => e.dataset.mark)")) <= {"X", "O", "."}
    # MENACE's panel, as for tic-tac-toe: the boxes it opened in this game, each a 4x4 board of its own
    panel = page.locator('.learner[data-kind="menace"]')
    panel.wait_for()
    opened = [i for i, state in enumerate(view_states(view)) if connect3.to_move(state) == 1]
    choices = [i for i in opened if len(connect3.legal_moves(view_states(view)[i])) > 1]
    page.wait_for_selector(f'.learner[data-kind="menace"] .boxes[data-show="opened"][data-total="{len(choices)}"]')
    assert panel.locator(".boxes .box").count() == len(choices) > 0
    picture = panel.locator(".boxes .box svg").first
    assert picture.locator("rect").count() == 16
    assert "After this game:" in (panel.text_content() or "")
    screenshot(page, "connect3-won", size)
    # The review: every move graded against the exact solution (solved on the spot)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    grades = page.eval_on_selector_all("#review-moves li[data-ply]", "els => els.map(e => e.dataset.grade)")
    assert len(grades) == len(view["moves"])
    for state, move, grade in zip(view_states(view), view["moves"], grades, strict=False):
        drop = negamax(state) + negamax(connect3.play(state, move))
        assert (grade in ("best", "keeps")) == (drop == 0), (move, grade, drop)
    assert all(grade in ("best", "keeps") for grade in grades[::2])  # the perfect player's moves, X's
    screenshot(page, "connect3-review", size)
    page.click("#review-close")
    page.wait_for_selector("#review[hidden]", state="attached")


def view_states(view: dict) -> list[Any]:
    """The position before each move of the game."""
    game = gamelearn.get_game("connect3")
    states = [game.initial()]
    for move in view["moves"][:-1]:
        states.append(game.play(states[-1], move))
    return states
