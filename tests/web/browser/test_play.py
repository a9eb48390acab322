"""Playing on the page, in Chromium at 1280x800 and 390x844: the first
load opens on a game ready to play; the turn is said and the board locked while the computer
thinks (a click then is dropped); Teeko's pawns are picked, dotted, dragged or moved by keyboard;
the end says why and who won and lights the winning line; the move list scrolls in its box.
The oracle is the rules API: what the page shows is replayed with the game object."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import (
    api_move,
    click_move,
    current_view,
    marks,
    new_game,
    rendered,
    replay,
    screenshot,
    square,
)

from gamelearn import get_game, make_player

pytestmark = pytest.mark.browser

TTT = get_game("tictactoe")
TEEKO = get_game("teeko")


def test_the_first_load_opens_on_a_game_ready_to_play(page: Any, size: str) -> None:
    view = current_view(page)
    assert view["players"] == ["human", "menace"] and view["moves"] == [] and view["human_to_move"]
    assert page.text_content("#status") == "Your move (X)"
    assert page.text_content("#players-line").startswith("You (X) vs MENACE (O)")
    assert f"id={view['id']}" in page.url
    assert page.get_attribute("#board", "role") == "grid"
    assert page.locator('#board [role="row"]').count() == 3
    assert page.locator('#board [role="gridcell"]').count() == 9
    screenshot(page, "first-load", size)
    # The players are kept per browser: a new visit to the bare address opens the same match-up.
    new_game(page, "hexapawn", "human", "her")
    page.goto(page.url.split("?")[0])
    page.wait_for_selector('#board[data-game="hexapawn"][data-plies="0"]')
    assert current_view(page)["players"] == ["human", "her"]
    assert page.text_content("#players-line").startswith("You (W) vs HER (B)")


def test_the_turn_is_said_and_clicks_while_the_computer_thinks_are_dropped(page: Any, size: str) -> None:
    view = new_game(page, "teeko", "human", "mcts:playouts=1500", seed=3)
    assert page.text_content("#status") == "Your move (X)"
    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
        square(page, "22").click()
        page.wait_for_selector('#board[data-locked="yes"]')
        assert page.text_content("#status") == "mcts is thinking…"
        assert square(page, "22").get_attribute("data-mark") == "X"  # the move shows at once
        square(page, "00").click(force=True)  # made while it thinks: dropped, not queued
        screenshot(page, "computer-thinking", size)
    view = info.value.json()
    rendered(page, view)
    assert len(view["moves"]) == 2 and view["moves"][0] == "22"
    page.wait_for_timeout(300)  # a queued click would have been sent by now
    after = current_view(page)
    assert after["moves"] == view["moves"] and page.text_content("#status") == "Your move (X)"
    assert marks(page)[0] != "X"


def teeko_moving_phase(page: Any) -> dict:
    view = new_game(page, "teeko", "human", "human")
    for name in ["00", "44", "02", "43", "20", "34", "31", "40"]:
        view = api_move(page, view["id"], name)
    page.reload()
    rendered(page, view)
    return view


def test_teeko_pawns_show_their_targets_and_move_by_click_drag_or_keyboard(page: Any, size: str) -> None:
    view = teeko_moving_phase(page)
    # Click: the pawn on 00 shows dots on exactly its legal targets.
    square(page, "00").click()
    page.wait_for_selector('#board .square.selected[data-name="00"]')
    dotted = sorted(page.eval_on_selector_all("#board .square.target", "els => els.map(e => e.dataset.name)"))
    assert dotted == sorted(m[2:] for m in view["legal_moves"] if m.startswith("00")) == ["01", "10", "11"]
    screenshot(page, "teeko-targets", size)
    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
        square(page, "11").click()
    view = info.value.json()
    rendered(page, view)
    assert view["moves"][-1] == "0011"
    # Drag: O's pawn on 44 dropped on 33.
    source, target = square(page, "44").bounding_box(), square(page, "33").bounding_box()
    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
        page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
        page.mouse.down()
        page.mouse.move(source["x"] + 5, source["y"] + 5, steps=3)
        page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
        page.mouse.up()
    view = info.value.json()
    rendered(page, view)
    assert view["moves"][-1] == "4433" and marks(page) == TEEKO.board(replay("teeko", view["moves"]))
    # Keyboard: from 11, arrows to 02 (up, right), Enter picks it, down Enter puts it on 12.
    square(page, "11").focus()
    for key in ["ArrowUp", "ArrowRight"]:
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.name") == "02"
    page.keyboard.press("Enter")
    page.wait_for_selector('#board .square.selected[data-name="02"]')
    page.keyboard.press("ArrowDown")
    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
        page.keyboard.press("Enter")
    view = info.value.json()
    rendered(page, view)
    assert view["moves"][-1] == "0212"
    assert page.evaluate("document.activeElement.closest('#board') !== null")  # focus stays on the board
    assert page.evaluate("document.activeElement.dataset.name") == "12"
    assert page.locator('#board .square[tabindex="0"]').count() == 1  # one tab stop: a grid


def test_the_end_says_who_won_from_your_side_and_why_and_lights_the_line(page: Any, size: str) -> None:
    you = make_player(TTT, "alphabeta:depth=9", seed=1)
    for seed in range(20):
        view = new_game(page, "tictactoe", "human", "random", seed=seed)
        while not view["over"]:
            status, view = click_move(page, view, you.choose(replay("tictactoe", view["moves"])))
            assert status == 200
        if view["winner"] == 0:
            break
    else:
        pytest.fail("a perfect X never beat random in 20 games")
    assert page.text_content("#status") == "You win: three in a row"
    lit = sorted(
        int(s) for s in page.eval_on_selector_all("#board .square.winning", "els => els.map(e => e.dataset.square)")
    )
    final = marks(page)
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    assert tuple(lit) in lines and all(final[s] == "X" for s in lit)  # the rules' line, the winner's marks
    assert final == TTT.board(replay("tictactoe", view["moves"]))
    screenshot(page, "you-win", size)
    # And from the other side: against the perfect player a bad game is lost, and says so.
    view = new_game(page, "tictactoe", "human", "perfect")
    while not view["over"]:
        status, view = click_move(page, view, view["legal_moves"][-1])
    assert view["winner"] == 1 and page.text_content("#status") == "perfect wins: three in a row"


def test_illegal_clicks_are_refused_and_change_nothing(page: Any, size: str) -> None:
    view = new_game(page, "teeko", "human", "human")
    status, view = click_move(page, view, "22")
    before = marks(page)
    status, answer = click_move(page, view, "22")  # O clicks X's pawn: the server says no
    assert status == 400 and "occupied" in answer["detail"]
    page.wait_for_selector('#message:has-text("occupied")')
    assert marks(page) == before and page.get_attribute("#board", "data-plies") == "1"
    for name in ["00", "01", "44", "02", "40", "04", "43"]:
        status, view = click_move(page, view, name)
    before = marks(page)
    status, answer = click_move(page, view, "0121")
    assert status == 400 and "too far" in answer["detail"]
    assert marks(page) == before
    square(page, "33").click()  # an empty square with no pawn picked: refused on the page
    page.wait_for_selector('#message:has-text("Pick one of your pawns")')
    screenshot(page, "illegal-click-refused", size)


def test_a_long_game_scrolls_in_a_fixed_box(page: Any, size: str) -> None:
    view = teeko_moving_phase(page)
    height = page.evaluate("document.querySelector('#moves').clientHeight")
    state, seen = replay("teeko", view["moves"]), set()
    for _ in range(24):  # moves the rules allow that neither end the game nor repeat a position
        move = next(
            m
            for m in TEEKO.legal_moves(state)
            if TEEKO.play(state, m) not in seen and not TEEKO.is_over(TEEKO.play(state, m))
        )
        state = TEEKO.play(state, move)
        seen.add(state)
        view = api_move(page, view["id"], move)
    page.reload()
    rendered(page, view)
    box = page.evaluate(
        "(() => { const m = document.querySelector('#moves'); return [m.clientHeight, m.scrollHeight, m.scrollTop]; })()"
    )
    assert box[0] == height and box[1] > box[0]  # the box keeps its height and scrolls
    assert box[2] + box[0] >= box[1] - 2  # scrolled to the latest move
    shown = page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.move)")
    assert shown == view["moves"]
    screenshot(page, "long-game-moves", size)
